package rank

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
)

// chunkSize is how many paths make one chunk of a scan. Large enough that
// handing out a chunk (one atomic add, one context check, one segment) is
// noise next to scoring it, small enough that two cores share a
// 10,000-path scan evenly and a cancelled scan stops within microseconds.
const chunkSize = 1024

// parallelMin is the candidate count below which a scan stays on the
// calling goroutine: starting workers costs more than it saves there.
const parallelMin = 2 * chunkSize

// rowSlack sizes a segment's row storage up front: rows average a few
// cells (the occurrences of one rune in one path).
const rowSlack = 4

// hit is one matching path: its index, score and last row.
type hit struct {
	idx, score int32
	row, n     int32 // cells row..row+n of its segment's rows; n < 0: not kept
}

// matchSet is a query's complete match set over the paths [0, covers),
// kept in the cache. It is split into segments, one per block of the
// table it was found in (the last may cover only part of its block), which
// later scans take as their chunks.
type matchSet struct {
	query     string
	runes     int  // the query's length in runes
	sensitive bool // the query's case mode
	covers    int  // the paths searched: [0, covers)
	total     int
	segs      []segment
}

// segment is the part of a match set found in one block: the matches in
// index order, and each match's last row of the dynamic program, from
// which a longer query's alignment continues.
type segment struct {
	hits        []hit
	pos, v0, v1 []int32 // the rows, concatenated; nil once dropped
}

// rowOf sets r to h's last row and reports whether it is kept.
func (g *segment) rowOf(h hit, r *row) bool {
	if g.pos == nil || h.n < 0 {
		return false
	}
	a, b := h.row, h.row+h.n
	r.pos, r.v0, r.v1 = g.pos[a:b], g.v0[a:b], g.v1[a:b]
	return true
}

// size is what a segment holds: hits and row cells.
func (g *segment) size() int {
	return len(g.hits) + len(g.pos)
}

// scan finds p's match set over t, from src's if given (the set of a
// prefix of p's; its rows are continued when the case mode agrees; the
// paths it does not cover are searched afresh) or else from every path,
// and returns it with the best k matches, best first (all when k <= 0).
// It returns ctx's error if ctx is done first.
func (r *Ranker) scan(ctx context.Context, t *table, p *pattern, src *matchSet, k int) (*matchSet, []hit, error) {
	covered, n := 0, t.n
	if src != nil {
		covered, n = src.covers, t.n-src.covers+src.total
	}
	set := &matchSet{query: p.text, runes: len(p.runes), sensitive: p.sensitive, covers: t.n, segs: make([]segment, len(t.blocks))}
	heaps := make([]topK, len(r.scratch))
	var next atomic.Int32
	r.parallel(n, func(w int) {
		heaps[w].init(t, k)
		for c := int(next.Add(1) - 1); c < len(t.blocks); c = int(next.Add(1) - 1) {
			if ctx.Err() != nil {
				return
			}
			set.segs[c] = r.scanBlock(r.scratch[w], t, p, src, covered, c, &heaps[w])
		}
	})
	if err := ctx.Err(); err != nil {
		set.recycle()
		return nil, nil, err
	}
	for _, g := range set.segs {
		set.total += len(g.hits)
	}
	return set, r.merge(t, heaps, set, k), nil
}

// extend extends set, p's match set, to every path of t: the paths added
// since set was found are searched and their matches appended. It leaves
// set as it was and returns ctx's error if ctx is done first.
func (r *Ranker) extend(ctx context.Context, t *table, p *pattern, set *matchSet) error {
	if set.covers == t.n {
		return nil
	}
	c0 := set.covers / chunkSize
	segs := make([]segment, len(t.blocks)-c0)
	var next atomic.Int32
	r.parallel(t.n-set.covers, func(w int) {
		var none topK // keeps nothing: the caller ranks the whole set
		for c := int(next.Add(1) - 1); c < len(segs); c = int(next.Add(1) - 1) {
			if ctx.Err() != nil {
				return
			}
			segs[c] = r.scanBlock(r.scratch[w], t, p, nil, set.covers, c0+c, &none)
		}
	})
	if err := ctx.Err(); err != nil {
		(&matchSet{segs: segs}).recycle()
		return err
	}
	grown := 0
	for _, g := range segs {
		set.total += len(g.hits)
		grown += g.size()
	}
	if c0 < len(set.segs) {
		set.segs[c0].join(segs[0])
		segs = segs[1:]
	}
	set.segs = append(set.segs, segs...)
	set.covers = t.n
	r.cache.grew(grown)
	return nil
}

// join appends the hits and rows of h, a segment of later paths of the
// same block, to g, and recycles h's buffers.
func (g *segment) join(h segment) {
	if g.pos != nil && h.pos != nil {
		shift := int32(len(g.pos))
		for i := range h.hits {
			h.hits[i].row += shift
		}
		g.pos, g.v0, g.v1 = append(g.pos, h.pos...), append(g.v0, h.v0...), append(g.v1, h.v1...)
	}
	g.hits = append(g.hits, h.hits...)
	putHits(h.hits)
	if h.pos != nil {
		putInts(h.pos)
		putInts(h.v0)
		putInts(h.v1)
	}
}

// scanBlock returns the segment of block c's matches of p, offering each
// to h: src's matches in the block narrowed (when src is given), then
// the block's paths from index covered on searched afresh.
func (r *Ranker) scanBlock(s *scratch, t *table, p *pattern, src *matchSet, covered, c int, h *topK) segment {
	x, base := t.blocks[c], c*chunkSize
	var from *segment
	if src != nil && c < len(src.segs) {
		from = &src.segs[c]
	}
	lo, hi := max(covered-base, 0), len(x.paths)
	n := max(hi-lo, 0)
	if from != nil {
		n += len(from.hits)
	}
	g := newSegment(n)
	if from != nil {
		r.narrow(s, x, base, p, src, from, &g, h)
	}
	if lo < hi {
		r.fresh(s, x, base, p, lo, hi, &g, h)
	}
	return g
}

// fresh adds to g the matches of p among paths [lo, hi) of block x, whose
// first path has index base.
func (r *Ranker) fresh(s *scratch, x *index, base int, p *pattern, lo, hi int, g *segment, h *topK) {
	if p.bytes != nil && len(p.runes) == 1 {
		r.last(s, x, base, p, nil, lo, hi, g, h)
		return
	}
	for j := lo; j < hi; j++ {
		r.try(s, x, base, p, j, nil, 0, g, h)
	}
}

// narrow adds to g the matches of p among from's, the matches in block x
// of src, the match set of a prefix of p's query.
func (r *Ranker) narrow(s *scratch, x *index, base int, p *pattern, src *matchSet, from *segment, g *segment, h *topK) {
	if p.bytes != nil && src.runes == len(p.runes)-1 && src.sensitive == p.sensitive {
		r.last(s, x, base, p, from, 0, len(from.hits), g, h)
		return
	}
	var prev row
	for _, hit := range from.hits {
		m := src.runes
		if !from.rowOf(hit, &prev) || src.sensitive != p.sensitive {
			m = 0
		}
		r.try(s, x, base, p, int(hit.idx)-base, &prev, m, g, h)
	}
}

// last is the keystroke's usual case, an ASCII pattern whose rows are one
// rune away: a first rune over paths [lo, hi) of block x (from is nil),
// or a rune added to the query of from's hits [lo, hi), in the same case
// mode. ASCII paths are scored here in one loop (lastASCII's steps,
// without its calls); others, and those whose rows were dropped, go
// through try.
func (r *Ranker) last(s *scratch, x *index, base int, p *pattern, from *segment, lo, hi int, g *segment, h *topK) {
	last := p.bytes[len(p.bytes)-1]
	unmatched := int32(len(p.runes))
	var prev row
	for k := lo; k < hi; k++ {
		j, pp := k, (*row)(nil)
		if from != nil {
			j = int(from.hits[k].idx) - base
			if !from.rowOf(from.hits[k], &prev) {
				r.try(s, x, base, p, j, nil, 0, g, h)
				continue
			}
			pp = &prev
		}
		e := &x.ents[j]
		if e.mask&p.mask != p.mask {
			continue
		}
		if !e.ascii {
			r.try(s, x, base, p, j, pp, len(p.runes)-1, g, h)
			continue
		}
		t := x.fold[e.start : e.start+e.n]
		if p.sensitive {
			t = bytesOf(x.paths[j])
		}
		start := 0
		if pp != nil {
			start = int(pp.pos[0]) + 1
		}
		a := len(g.pos)
		g.pos = appendPositions(g.pos, t, last, start)
		n := len(g.pos) - a
		if n == 0 {
			continue
		}
		g.v0, g.v1 = extend32(g.v0, a+n), extend32(g.v1, a+n)
		cls := x.cls[e.start : e.start+e.n]
		var best int32
		if pp == nil {
			best = firstRowBest(g.pos[a:a+n], g.v0[a:a+n], g.v1[a:a+n], cls)
		} else {
			best = nextRowBest(pp, g.pos[a:a+n], g.v0[a:a+n], g.v1[a:a+n], cls)
		}
		hit := hit{idx: int32(base + j), score: best - (e.bytes - unmatched), row: int32(a), n: int32(n)}
		g.hits = append(g.hits, hit)
		h.offer(hit)
	}
}

// newSegment returns a segment sized for n candidates, from recycled
// buffers when there are.
func newSegment(n int) segment {
	return segment{
		hits: getHits(n),
		pos:  getInts(rowSlack * n),
		v0:   getInts(rowSlack * n),
		v1:   getInts(rowSlack * n),
	}
}

// try scores path j of block x (index base+j) for p, continuing prev,
// the last row of p's first m runes, unless m is 0, and adds a match to g
// and h. When only p's last rune is left to align, its row is built
// straight into g.
func (r *Ranker) try(s *scratch, x *index, base int, p *pattern, j int, prev *row, m int, g *segment, h *topK) {
	y := hit{idx: int32(base + j), row: int32(len(g.pos))}
	if m == len(p.runes)-1 {
		if m == 0 {
			prev = nil
		}
		y.score, y.n = x.scoreLast(s, p, j, prev, g)
	} else {
		y.score, y.n = scoreElse(s, x, p, j, prev, m, g)
	}
	if y.score == noMatch {
		return
	}
	g.hits = append(g.hits, y)
	h.offer(y)
}

// scoreElse is try's general case: the alignment is computed in s, then
// its last row (if kept; else the length is -1) is copied to g.
func scoreElse(s *scratch, x *index, p *pattern, j int, prev *row, m int, g *segment) (int32, int32) {
	var v int32
	kept := false
	if m > 0 {
		v, kept = x.extend(s, p, j, m, prev)
	}
	if !kept {
		v, kept = x.score(s, p, j, false)
	}
	if v == noMatch || !kept {
		return v, -1
	}
	g.pos, g.v0, g.v1 = append(g.pos, s.last.pos...), append(g.v0, s.last.v0...), append(g.v1, s.last.v1...)
	return v, int32(len(s.last.pos))
}

// parallel runs work(w) on every worker w when n candidates are worth it,
// else work(0) on the caller's goroutine.
func (r *Ranker) parallel(n int, work func(w int)) {
	if n < parallelMin || len(r.scratch) == 1 {
		work(0)
		return
	}
	var wg sync.WaitGroup
	for w := range r.scratch {
		wg.Go(func() { work(w) })
	}
	wg.Wait()
}

// best returns the k best hits of set (all when k <= 0), best first.
func (r *Ranker) best(t *table, set *matchSet, k int) []hit {
	heaps := make([]topK, len(r.scratch))
	var next atomic.Int32
	r.parallel(set.total, func(w int) {
		heaps[w].init(t, k)
		for c := int(next.Add(1) - 1); c < len(set.segs); c = int(next.Add(1) - 1) {
			for _, x := range set.segs[c].hits {
				heaps[w].offer(x)
			}
		}
	})
	return r.merge(t, heaps, set, k)
}

// merge returns the best k hits, best first: the union of the workers'
// heaps sorted and cut, or for k <= 0 every hit of set sorted.
func (r *Ranker) merge(t *table, heaps []topK, set *matchSet, k int) []hit {
	if k <= 0 {
		return sortAll(t, set)
	}
	var all []hit
	for _, h := range heaps {
		all = append(all, h.items...)
	}
	slices.SortFunc(all, t.compare)
	if len(all) > k {
		all = all[:k]
	}
	return all
}
