package rank

import (
	"cmp"
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

// matchSet is a query's complete match set, kept in the cache. It is split
// into segments, one per chunk of the snapshot's paths, which later scans
// take as their chunks.
type matchSet struct {
	query     string
	runes     int  // the query's length in runes
	sensitive bool // the query's case mode
	total     int
	segs      []segment
}

// segment is the part of a match set found in one chunk: the matches in
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

// scan finds p's match set, from src's if given (the set of a prefix of
// p's; its rows are continued when the case mode agrees) or else from every
// path, and returns it with the best k matches, best first (all when
// k <= 0). It returns ctx's error if ctx is done first.
func (r *Ranker) scan(ctx context.Context, p *pattern, src *matchSet, k int) (*matchSet, []hit, error) {
	n, chunks := len(r.x.paths), (len(r.x.paths)+chunkSize-1)/chunkSize
	if src != nil {
		n, chunks = src.total, len(src.segs)
	}
	set := &matchSet{query: p.text, runes: len(p.runes), sensitive: p.sensitive, segs: make([]segment, chunks)}
	heaps := make([]topK, len(r.scratch))
	var next atomic.Int32
	r.parallel(n, func(w int) {
		heaps[w].init(r, k)
		for c := int(next.Add(1) - 1); c < chunks; c = int(next.Add(1) - 1) {
			if ctx.Err() != nil {
				return
			}
			set.segs[c] = r.scanChunk(r.scratch[w], p, src, c, &heaps[w])
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	for _, g := range set.segs {
		set.total += len(g.hits)
	}
	return set, r.merge(heaps, set, k), nil
}

// scanChunk returns the segment of chunk c's matches, offering each to h.
func (r *Ranker) scanChunk(s *scratch, p *pattern, src *matchSet, c int, h *topK) segment {
	if p.bytes != nil && (src == nil && len(p.runes) == 1 ||
		src != nil && src.runes == len(p.runes)-1 && src.sensitive == p.sensitive) {
		return r.lastChunk(s, p, src, c, h)
	}
	if src == nil {
		lo, hi := c*chunkSize, min((c+1)*chunkSize, len(r.x.paths))
		g := newSegment(hi - lo)
		for i := lo; i < hi; i++ {
			r.try(s, p, i, nil, 0, &g, h)
		}
		return g
	}
	from := &src.segs[c]
	g := newSegment(len(from.hits))
	var prev row
	for _, x := range from.hits {
		m := src.runes
		if !from.rowOf(x, &prev) || src.sensitive != p.sensitive {
			m = 0
		}
		r.try(s, p, int(x.idx), &prev, m, &g, h)
	}
	return g
}

// lastChunk is scanChunk for a keystroke's usual case, an ASCII pattern
// whose rows are one rune away: a first rune over every path, or a rune
// added to src's query in the same case mode. ASCII paths are scored here
// in one loop (lastASCII's steps, without its calls); others, and those
// whose rows were dropped, go through try.
func (r *Ranker) lastChunk(s *scratch, p *pattern, src *matchSet, c int, h *topK) segment {
	x := r.x
	var from *segment
	var lo, hi int
	if src == nil {
		lo, hi = c*chunkSize, min((c+1)*chunkSize, len(x.paths))
	} else {
		from = &src.segs[c]
		hi = len(from.hits)
	}
	g := newSegment(hi - lo)
	last := p.bytes[len(p.bytes)-1]
	unmatched := int32(len(p.runes))
	var prev row
	for k := lo; k < hi; k++ {
		i, pp := k, (*row)(nil)
		if from != nil {
			i = int(from.hits[k].idx)
			if !from.rowOf(from.hits[k], &prev) {
				r.try(s, p, i, nil, 0, &g, h)
				continue
			}
			pp = &prev
		}
		e := &x.ents[i]
		if e.mask&p.mask != p.mask {
			continue
		}
		if !e.ascii {
			r.try(s, p, i, pp, len(p.runes)-1, &g, h)
			continue
		}
		t := x.fold[e.start : e.start+e.n]
		if p.sensitive {
			t = bytesOf(x.paths[i])
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
		hit := hit{idx: int32(i), score: best - (e.bytes - unmatched), row: int32(a), n: int32(n)}
		g.hits = append(g.hits, hit)
		h.offer(hit)
	}
	return g
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

// try scores path i for p, continuing prev, the last row of p's first m
// runes, unless m is 0, and adds a match to g and h. When only p's last
// rune is left to align, its row is built straight into g.
func (r *Ranker) try(s *scratch, p *pattern, i int, prev *row, m int, g *segment, h *topK) {
	x := hit{idx: int32(i), row: int32(len(g.pos))}
	if m == len(p.runes)-1 {
		if m == 0 {
			prev = nil
		}
		x.score, x.n = r.x.scoreLast(s, p, i, prev, g)
	} else {
		x.score, x.n = r.scoreElse(s, p, i, prev, m, g)
	}
	if x.score == noMatch {
		return
	}
	g.hits = append(g.hits, x)
	h.offer(x)
}

// scoreElse is try's general case: the alignment is computed in s, then
// its last row (if kept; else the length is -1) is copied to g.
func (r *Ranker) scoreElse(s *scratch, p *pattern, i int, prev *row, m int, g *segment) (int32, int32) {
	var v int32
	kept := false
	if m > 0 {
		v, kept = r.x.extend(s, p, i, m, prev)
	}
	if !kept {
		v, kept = r.x.score(s, p, i, false)
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
func (r *Ranker) best(set *matchSet, k int) []hit {
	heaps := make([]topK, len(r.scratch))
	var next atomic.Int32
	r.parallel(set.total, func(w int) {
		heaps[w].init(r, k)
		for c := int(next.Add(1) - 1); c < len(set.segs); c = int(next.Add(1) - 1) {
			for _, x := range set.segs[c].hits {
				heaps[w].offer(x)
			}
		}
	})
	return r.merge(heaps, set, k)
}

// merge returns the best k hits, best first: the union of the workers'
// heaps sorted and cut, or for k <= 0 every hit of set sorted.
func (r *Ranker) merge(heaps []topK, set *matchSet, k int) []hit {
	if k <= 0 {
		return r.sortAll(set)
	}
	var all []hit
	for _, h := range heaps {
		all = append(all, h.items...)
	}
	slices.SortFunc(all, r.compare)
	if len(all) > k {
		all = all[:k]
	}
	return all
}

// compare orders hits best first: higher score, then shorter path, then
// path bytes, then index. It is a total order, so every ranking is
// deterministic.
func (r *Ranker) compare(a, b hit) int {
	if a.score != b.score {
		return cmp.Compare(b.score, a.score)
	}
	pa, pb := r.x.paths[a.idx], r.x.paths[b.idx]
	if len(pa) != len(pb) {
		return cmp.Compare(len(pa), len(pb))
	}
	if c := cmp.Compare(pa, pb); c != 0 {
		return c
	}
	return cmp.Compare(a.idx, b.idx)
}
