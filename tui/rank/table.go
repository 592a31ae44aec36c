package rank

import (
	"cmp"
	"slices"
)

// A Ranker's paths live in blocks of chunkSize paths, each an index of
// its own; every block but the last is full, so path i is at offset
// i%chunkSize of block i/chunkSize. A scan takes one block as one chunk.
//
// The blocks are published as a table, which is never modified once
// published: Add builds the new blocks (the last partial block is
// copied, at most chunkSize paths, then filled up) and publishes a new
// table. A ranking works on the table it loaded when it began, so Add
// never waits for a ranking in flight, and Path and Len, which load the
// newest table, never wait for either.

// table is one published state of a Ranker's paths.
type table struct {
	blocks []*index
	n      int // paths, over all blocks
}

// block returns the block of path i and i's offset in it.
func (t *table) block(i int) (*index, int) {
	return t.blocks[i/chunkSize], i % chunkSize
}

// path returns path i.
func (t *table) path(i int32) string {
	x, j := t.block(int(i))
	return x.path(j)
}

// newTable prepares paths as full blocks (and a partial last one), on
// every core. The blocks copy the paths. The full blocks share one arena:
// one allocation rounded up to whole pages instead of one a block (which
// cost 6 bytes a path). A partial last block has an arena of its own,
// since the next Add replaces it with a copy: its room in a shared arena
// would stay pinned by the others.
func newTable(paths []string) *table {
	t := &table{blocks: make([]*index, (len(paths)+chunkSize-1)/chunkSize), n: len(paths)}
	span := func(c int) []string { return paths[c*chunkSize : min((c+1)*chunkSize, len(paths))] }
	sizes := make([]int32, len(t.blocks))
	forChunks(len(t.blocks), func(c int) { t.blocks[c], sizes[c] = placed(span(c)) })
	full := len(paths) / chunkSize
	at := make([]int, full+1)
	for c := range full {
		at[c+1] = at[c] + int(sizes[c])
	}
	arena := make([]byte, at[full])
	forChunks(len(t.blocks), func(c int) {
		if c < full {
			t.blocks[c].fill(span(c), arena[at[c]:at[c+1]:at[c+1]])
		} else {
			t.blocks[c].fill(span(c), make([]byte, sizes[c]))
		}
	})
	return t
}

// with returns a new table holding t's paths and then paths.
// t is not modified: its last block, when partial, is replaced by a copy
// filled up with the first of paths.
func (t *table) with(paths []string) *table {
	if len(paths) == 0 {
		return t
	}
	out := &table{n: t.n + len(paths)}
	out.blocks = make([]*index, len(t.blocks), (out.n+chunkSize-1)/chunkSize)
	copy(out.blocks, t.blocks)
	if fill := (chunkSize - t.n%chunkSize) % chunkSize; fill > 0 {
		fill = min(fill, len(paths))
		last := &out.blocks[len(out.blocks)-1]
		*last = (*last).with(paths[:fill])
		paths = paths[fill:]
	}
	out.blocks = append(out.blocks, newTable(paths).blocks...)
	return out
}

// with returns a new index holding x's paths and then paths (x's arenas
// copied, the new paths prepared); x is not modified.
func (x *index) with(paths []string) *index {
	n := len(x.ents)
	y := &index{
		ents:  append(slices.Clip(x.ents), make([]entry, len(paths))...),
		rorig: slices.Clip(x.rorig), rfold: slices.Clip(x.rfold),
		rcls: slices.Clip(x.rcls), roff: slices.Clip(x.roff),
	}
	if x.rstart != nil {
		y.rstart = append(slices.Clip(x.rstart), make([]int32, len(paths))...)
	}
	total := int(y.placeAll(n, paths, int32(len(x.data))))
	y.data = append(make([]byte, 0, total), x.data...)[:total]
	for k, p := range paths {
		y.prepare(n+k, p)
	}
	y.summarize()
	return y
}

// compare orders hits best first: higher score, then shorter path, then
// path bytes, then index. It is a total order, so every ranking is
// deterministic.
func (t *table) compare(a, b hit) int {
	if a.score != b.score {
		return cmp.Compare(b.score, a.score)
	}
	pa, pb := t.path(a.idx), t.path(b.idx)
	if len(pa) != len(pb) {
		return cmp.Compare(len(pa), len(pb))
	}
	if c := cmp.Compare(pa, pb); c != 0 {
		return c
	}
	return cmp.Compare(a.idx, b.idx)
}
