package rank

import (
	"bytes"
	"context"
	"math"
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

// hit is one matching path: its index, score and the tail's last row.
type hit struct {
	idx, score int32
	row, n     int32 // cells row..row+n of its segment's rows; n < 0: not kept
}

// unscored marks, as a hit's n, a match whose score is not computed: its
// score is an upper bound of the real one and its row is the greedy end
// of the tail (the position of its last rune, aligned first-come). A
// keystroke leaves a match unscored when the bound cannot enter the best k
// (Ranker.last); the few whose bounds reach the best k of a later ranking
// of the set are scored then (Ranker.best). unscoredFirst is a match of a
// one-rune query left unscored by its block's bound (index.first), its
// greedy end not known either.
const (
	unscored      = -2
	unscoredFirst = -3
)

// scored reports whether y's score is its own, not a bound.
func (y hit) scored() bool { return y.n >= -1 }

// matchSet is a query's complete match set over the paths [0, covers),
// kept in the cache. It is split into segments, one per block of the
// table it was found in (the last may cover only part of its block), which
// later scans take as their chunks.
type matchSet struct {
	q      *query
	covers int // the paths searched: [0, covers)
	total  int
	segs   []segment
}

// segment is the part of a match set found in one block: the matches in
// index order, each match's last row of the tail's alignment, from which
// a longer tail's continues, and (for a query of several sets with a
// tail) its rest and gain (plan.go).
type segment struct {
	hits        []hit
	pos, v0, v1 []int32 // the rows, concatenated; nil once dropped
	rest, gain  []int32 // per hit, for multi queries; else nil
	// memo is per hit, for a query of one set: that set's score and gain
	// in a query of several sets (plan.go), memoUnset until computed; nil
	// until a plan asks for it.
	memo []int32
	// unscored counts the hits left unscored (a query of one ASCII term).
	unscored int
}

// memoUnset marks a memo entry not computed yet.
const memoUnset = math.MinInt32

// memoOf returns the memo of set for hit k of g (the set's score and
// gain, computed and kept on first use) for path j of block x.
func (g *segment) memoOf(s *scratch, x *index, set []*pattern, k, j int) (v, gain int32, ok bool) {
	if g.memo == nil {
		g.memo = getInts(2 * len(g.hits))[:2*len(g.hits)]
		for i := range g.memo {
			g.memo[i] = memoUnset
		}
	}
	if g.memo[2*k] == memoUnset {
		v, gain, _, ok = x.judgeSet(s, set, j, traceNone)
		if !ok { // cannot be: the hit matched the set
			return 0, 0, false
		}
		g.memo[2*k], g.memo[2*k+1] = v, gain
	}
	return g.memo[2*k], g.memo[2*k+1], true
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

// size is what a segment holds: hits, rests, gains, memos and row cells.
func (g *segment) size() int {
	return len(g.hits) + len(g.rest) + len(g.gain) + len(g.memo) + len(g.pos)
}

// scan finds q's match set over t, from src's if given (the set of a
// query q implies; the paths it does not cover are searched afresh) or
// else from every path, and returns it with the best k matches, best
// first (all when k <= 0). It returns ctx's error if ctx is done first.
func (r *Ranker) scan(ctx context.Context, t *table, q *query, src *matchSet, k int) (*matchSet, []hit, error) {
	covered, n := 0, t.n
	var pl plan
	if src != nil {
		covered, n, pl = src.covers, t.n-src.covers+src.total, planFrom(q, src)
	}
	set := &matchSet{q: q, covers: t.n, segs: make([]segment, len(t.blocks))}
	heaps := make([]topK, len(r.scratch))
	var next atomic.Int32
	r.parallel(n, func(w int) {
		heaps[w].init(t.compare, k)
		for c := int(next.Add(1) - 1); c < len(t.blocks); c = int(next.Add(1) - 1) {
			if ctx.Err() != nil {
				return
			}
			set.segs[c] = r.scanBlock(r.scratch[w], t, q, src, &pl, covered, c, &heaps[w])
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

// extend extends set to every path of t: the paths added since set was
// found are searched and their matches appended. It leaves set as it was
// and returns ctx's error if ctx is done first.
func (r *Ranker) extend(ctx context.Context, t *table, set *matchSet) error {
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
			segs[c] = r.scanBlock(r.scratch[w], t, set.q, nil, nil, set.covers, c0+c, &none)
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

// join appends the hits, rests and rows of h, a segment of later paths of
// the same block, to g, and recycles h's buffers.
func (g *segment) join(h segment) {
	if g.pos != nil && h.pos != nil {
		shift := int32(len(g.pos))
		for i := range h.hits {
			if h.hits[i].scored() {
				h.hits[i].row += shift
			}
		}
		g.pos, g.v0, g.v1 = append(g.pos, h.pos...), append(g.v0, h.v0...), append(g.v1, h.v1...)
	}
	for range 2 * len(h.hits) {
		if g.memo != nil {
			g.memo = append(g.memo, memoUnset)
		}
	}
	g.hits = append(g.hits, h.hits...)
	g.unscored += h.unscored
	if h.rest != nil {
		g.rest, g.gain = append(g.rest, h.rest...), append(g.gain, h.gain...)
	}
	h.recycle()
}

// scanBlock returns the segment of block c's matches of q, offering each
// to h: src's matches in the block narrowed by plan pl (when src is
// given), then the block's paths from index covered on searched afresh.
func (r *Ranker) scanBlock(s *scratch, t *table, q *query, src *matchSet, pl *plan, covered, c int, h *topK) segment {
	x, base := t.blocks[c], c*chunkSize
	var from *segment
	if src != nil && c < len(src.segs) {
		from = &src.segs[c]
	}
	lo, hi := max(covered-base, 0), len(x.ents)
	n := max(hi-lo, 0)
	if from != nil {
		n += len(from.hits)
	}
	cells := rowSlack * n
	if from != nil && from.pos != nil {
		cells = len(from.pos) + n + 64 // the next rune's occurrences, about as many
	}
	g := newSegment(n, cells, q)
	if from != nil {
		r.narrow(s, x, base, pl, from, &g, h)
	}
	if lo < hi {
		r.fresh(s, x, base, q, lo, hi, &g, h)
		g.fit() // sized for every path of the block to match
	}
	return g
}

// fresh adds to g the matches of q among paths [lo, hi) of block x, whose
// first path has index base.
func (r *Ranker) fresh(s *scratch, x *index, base int, q *query, lo, hi int, g *segment, h *topK) {
	pl := freshPlan(q)
	if p := q.tail; p != nil && len(q.sets) == 1 && p.bytes != nil && len(p.runes) == 1 {
		r.last(s, x, base, &pl, nil, lo, hi, g, h)
		return
	}
	for j := lo; j < hi; j++ {
		r.try(s, x, base, &pl, j, 0, 0, nil, g, h)
	}
}

// narrow adds to g the matches of pl.q among from's, the matches in block
// x of src.
func (r *Ranker) narrow(s *scratch, x *index, base int, pl *plan, from *segment, g *segment, h *topK) {
	if p := pl.q.tail; pl.kept && !pl.q.multi() && p.bytes != nil && pl.m == len(p.runes)-1 {
		r.last(s, x, base, pl, from, 0, len(from.hits), g, h)
		return
	}
	var prev row
	for k, y := range from.hits {
		var rest, gain int32
		if pl.kept && from.rest != nil {
			rest, gain = from.rest[k], from.gain[k]
		}
		if pl.memo != nil {
			var ok bool
			if rest, gain, ok = from.memoOf(s, x, pl.memo, k, int(y.idx)-base); !ok {
				continue
			}
		}
		pp := &prev
		if pl.m == 0 || !from.rowOf(y, &prev) {
			pp = nil
		}
		r.try(s, x, base, pl, int(y.idx)-base, rest, gain, pp, g, h)
	}
}

// last is the keystroke's usual case, a query of one ASCII fuzzy term
// whose rows are one rune away: its first rune over paths [lo, hi) of
// block x (from is nil), or a rune added to the query of from's hits
// [lo, hi). ASCII paths are scored here in one loop (lastASCII's steps,
// without its calls); others, and those whose rows were dropped, go
// through try.
//
// Once h holds its k, a match is first only bounded, and kept unscored
// (its bound as its score, its row not built) when the bound is below h's
// worst, so that it cannot be among the best k of this scan. A path for
// the first rune is bounded by its block's index.first, without reading
// it. A match of from is bounded by the best cell of the shorter query
// (the hit's score or bound; for a first rune left unscored, firstBest
// read now) plus what nextGain says the new rune's row can add.
func (r *Ranker) last(s *scratch, x *index, base int, pl *plan, from *segment, lo, hi int, g *segment, h *topK) {
	p := pl.q.tail
	last := p.bytes[len(p.bytes)-1]
	unmatched := int32(len(p.runes))
	tab := &firstScoreIn
	if p.once {
		tab = &firstScoreNo
	}
	var before byte // the rune before last, when from is given
	if from != nil {
		before = p.bytes[len(p.bytes)-2]
	}
	// x.first's bound of last, unmatched bytes aside, where the rune mask
	// alone says a path holds last (a letter or digit of any case).
	bound := int32(noMatch)
	if x.first != nil && !r.eager && !p.sensitive && ('a' <= last && last <= 'z' || '0' <= last && last <= '9') {
		bound = x.first[last]
	}
	var prev row
	for k := lo; k < hi; k++ {
		j, pp := k, (*row)(nil)
		if from != nil {
			j = int(from.hits[k].idx) - base
		}
		e := &x.ents[j]
		if e.mask&p.mask != p.mask {
			continue
		}
		if from != nil {
			y := from.hits[k]
			if floor, full := h.floor(); full && e.ascii && !r.eager {
				t, cls := x.bytesFor(e, p.sensitive), x.classes(e)
				v, at, gain := y.score, int32(0), int32(0)
				if y.n == unscoredFirst { // the first rune's score, read with the second's bound
					v, at, gain = firstNextGain(t, cls, before, last, tab)
					v -= e.bytes - 1
				} else {
					end := int(y.row) // an unscored hit's greedy end
					if y.n != unscored {
						end = from.greedyEnd(y, t, p.bytes[:pl.m])
					}
					at, gain = nextGain(t, cls, last, before, end+1)
				}
				if at < 0 {
					continue
				}
				if ub := v + 1 + gain; ub < floor {
					// g keeps no rest (one term), and h would not take it
					g.hits = append(g.hits, hit{idx: int32(base + j), score: ub, row: at, n: unscored})
					g.unscored++
					continue
				}
			}
			switch {
			case from.rowOf(y, &prev):
				pp = &prev
			case pl.m == 1 && e.ascii:
				pp = &x.firstRow(s, p, j).row // not kept: rebuilt as cheaply as read
			default:
				r.try(s, x, base, pl, j, 0, 0, nil, g, h)
				continue
			}
		}
		if !e.ascii {
			r.try(s, x, base, pl, j, 0, 0, pp, g, h)
			continue
		}
		if pp == nil { // a query of one rune: its row is not kept
			if ub := bound - (e.bytes - unmatched); bound != noMatch {
				if floor, full := h.floor(); full && ub < floor {
					g.hits = append(g.hits, hit{idx: int32(base + j), score: ub, n: unscoredFirst})
					g.unscored++
					continue
				}
			}
			t, cls := x.bytesFor(e, p.sensitive), x.classes(e)
			if best := firstBest(t, last, cls, tab); best != noMatch {
				g.add(hit{idx: int32(base + j), score: best - (e.bytes - unmatched), n: -1}, 0, 0, h)
			}
			continue
		}
		t, cls := x.bytesFor(e, p.sensitive), x.classes(e)
		a := len(g.pos)
		g.pos = appendPositions(g.pos, t, last, int(pp.pos[0])+1)
		n := len(g.pos) - a
		if n == 0 {
			continue
		}
		g.v0, g.v1 = extend32(g.v0, a+n), extend32(g.v1, a+n)
		best := nextRowBest(pp, g.pos[a:a+n], g.v0[a:a+n], g.v1[a:a+n], cls)
		g.add(hit{idx: int32(base + j), score: best - (e.bytes - unmatched), row: int32(a), n: int32(n)}, 0, 0, h)
	}
}

// unscoredScore is the score of ASCII path j for a one-term query's tail
// p, a match left unscored: firstBest's for one rune, as Ranker.last
// scores it.
func (x *index) unscoredScore(s *scratch, p *pattern, j int) int32 {
	e := &x.ents[j]
	if len(p.bytes) == 1 {
		tab := &firstScoreIn
		if p.once {
			tab = &firstScoreNo
		}
		return firstBest(x.bytesFor(e, p.sensitive), p.bytes[0], x.classes(e), tab) - (e.bytes - 1)
	}
	v, _ := x.score(s, p, j, false)
	return v
}

// greedyEnd returns where the greedy alignment of q, the query of hit y
// (an ASCII match of g), ends in y's path t: the position of q's last
// rune taken first-come, which the first cell of its kept row, or an
// unscored hit itself, holds.
func (g *segment) greedyEnd(y hit, t, q []byte) int {
	switch {
	case y.n == unscored:
		return int(y.row)
	case y.n > 0 && g.pos != nil:
		return int(g.pos[y.row])
	}
	i := -1
	for _, c := range q {
		i += 1 + bytes.IndexByte(t[i+1:], c)
	}
	return i
}

// firstRow builds in s the first row of ASCII term p in ASCII path j,
// and returns it with its best score (no cells: no occurrence).
func (x *index) firstRow(s *scratch, p *pattern, j int) *scoredRow {
	e := &x.ents[j]
	t := x.bytesFor(e, p.sensitive)
	r := &s.first
	r.pos = appendPositions(r.pos[:0], t, p.bytes[0], 0)
	r.v0, r.v1 = grow(r.v0, len(r.pos)), grow(r.v1, len(r.pos))
	bonus := &inBaseBonus
	if p.once {
		bonus = &noBaseBonus
	}
	r.top = firstRowBest(r.pos, r.v0, r.v1, x.classes(e), bonus)
	return r
}

// add appends y, with its rest and gain when g keeps them, and offers it
// to h.
func (g *segment) add(y hit, rest, gain int32, h *topK) {
	g.hits = append(g.hits, y)
	if g.rest != nil {
		g.rest, g.gain = append(g.rest, rest), append(g.gain, gain)
	}
	h.offer(y)
}

// newSegment returns a segment sized for n candidates of q and a row of
// cells cells, from recycled buffers when there are. A query of one ASCII
// rune keeps no rows: the row of one rune is rebuilt as cheaply as it
// is read (Ranker.last).
func newSegment(n, cells int, q *query) segment {
	g := segment{hits: getHits(n)}
	if p := q.tail; p != nil && (len(q.sets) > 1 || len(p.runes) > 1 || p.bytes == nil) {
		g.pos, g.v0, g.v1 = getInts(cells), getInts(cells), getInts(cells)
	}
	if q.multi() {
		g.rest, g.gain = getInts(n), getInts(n)
	}
	return g
}

// try matches path j of block x (index base+j) for pl.q and adds a match
// to g and h: the sets pl.judged, added to rest and gain, and then the
// tail, continuing prev, the last row of its first pl.m runes, unless
// prev is nil. When only the tail's last rune is left to align, its row
// is built straight into g.
func (r *Ranker) try(s *scratch, x *index, base int, pl *plan, j int, rest, gain int32, prev *row, g *segment, h *topK) {
	q := pl.q
	e := &x.ents[j]
	if e.mask&q.mask != q.mask {
		return
	}
	if len(pl.judged) > 0 {
		v, more, ok := x.judge(s, pl.judged, j)
		if !ok {
			return
		}
		rest, gain = rest+v, max(gain, more)
	}
	y := hit{idx: int32(base + j), row: int32(len(g.pos)), n: -1}
	switch p := q.tail; {
	case p == nil:
		y.score = rest + gain - e.bytes
		if !q.ranked {
			y.score = 0
		}
	case prev != nil && pl.m == len(p.runes)-1, prev == nil && len(p.runes) == 1:
		y.score, y.n = x.scoreLast(s, p, j, prev, g)
	case prev != nil:
		y.score, y.n = scoreElse(s, x, p, j, prev, pl.m, g)
	default:
		y.score, y.n = scoreElse(s, x, p, j, nil, 0, g)
	}
	if y.score == noMatch {
		return
	}
	if p := q.tail; p != nil {
		y.score += rest + max(gain, x.tailGain(s, p, j, y.score))
	}
	g.add(y, rest, gain, h)
}

// tailGain is what tail term p of a query of several sets gains by the
// base-name bonus in path j, where its score without it is v (less the
// unmatched bytes); zero for a term that keeps the bonus in its score.
func (x *index) tailGain(s *scratch, p *pattern, j int, v int32) int32 {
	if !p.once {
		return 0
	}
	b := x.alignBase(s, p, j, false)
	if b == noMatch {
		return 0
	}
	return max(0, b-(v+x.ents[j].bytes-int32(len(p.runes))))
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

// best returns the k best hits of set (all when k <= 0), best first. The
// scored hits are ranked first; then the unscored ones whose bounds reach
// the k-th best are scored (and stay scored in set) and ranked with them.
func (r *Ranker) best(t *table, set *matchSet, k int) []hit {
	if !set.q.ranked {
		return inOrder(set, k)
	}
	left := 0 // unscored hits
	for i := range set.segs {
		left += set.segs[i].unscored
	}
	heaps := make([]topK, len(r.scratch))
	var next atomic.Int32
	r.parallel(set.total, func(w int) {
		heaps[w].init(t.compare, k)
		for c := int(next.Add(1) - 1); c < len(set.segs); c = int(next.Add(1) - 1) {
			for _, x := range set.segs[c].hits {
				if x.scored() {
					heaps[w].offer(x)
				}
			}
		}
	})
	if left == 0 {
		return r.merge(t, heaps, set, k)
	}
	var top []hit // the best k scored hits
	floor := int32(noMatch)
	if k > 0 {
		top = r.merge(t, heaps, set, k)
		if len(top) == k {
			floor = top[k-1].score
		}
	}
	p := set.q.tail
	heaps = make([]topK, len(r.scratch))
	next.Store(0)
	r.parallel(left, func(w int) {
		heaps[w].init(t.compare, k)
		for c := int(next.Add(1) - 1); c < len(set.segs); c = int(next.Add(1) - 1) {
			g := &set.segs[c]
			x, base := t.blocks[c], c*chunkSize
			for i, y := range g.hits {
				if y.scored() || y.score < floor {
					continue
				}
				g.hits[i] = hit{idx: y.idx, score: x.unscoredScore(r.scratch[w], p, int(y.idx)-base), n: -1}
				g.unscored--
				heaps[w].offer(g.hits[i])
			}
		}
	})
	if k <= 0 {
		return r.merge(t, heaps, set, k)
	}
	heaps = append(heaps, topK{items: top})
	return r.merge(t, heaps, set, k)
}

// merge returns the best k hits, best first: the union of the workers'
// heaps sorted and cut, or for k <= 0 every hit of set sorted. A query of
// inverse terms only lists its matches in input order.
func (r *Ranker) merge(t *table, heaps []topK, set *matchSet, k int) []hit {
	switch {
	case !set.q.ranked:
		return inOrder(set, k)
	case k <= 0:
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

// inOrder returns the first k hits of set (all when k <= 0) in index
// order.
func inOrder(set *matchSet, k int) []hit {
	var out []hit
	for _, g := range set.segs {
		for _, y := range g.hits {
			if k > 0 && len(out) == k {
				return out
			}
			out = append(out, y)
		}
	}
	return out
}
