package rank

import (
	"bytes"
	"unsafe"
)

// bytesOf returns s's bytes without copying them. The matcher only reads
// them, and the strings are the caller's, unchanged for the Ranker's life.
func bytesOf(s string) []byte {
	return unsafe.Slice(unsafe.StringData(s), len(s))
}

// view is one path as the matcher reads it for a pattern: its text in the
// pattern's case mode, as bytes (ASCII paths) or runes, with its rune
// classes and, for runes, each rune's byte offset.
type view struct {
	b     []byte
	r     []rune
	cls   []uint8
	off   []int32
	bytes int32
}

// view sets v to path j as fuzzy term p reads it, or reports false when
// p cannot match it: a rune of p is missing from it, or p has non-ASCII
// runes and the path none.
func (x *index) view(s *scratch, p *pattern, j int, v *view) bool {
	e := &x.ents[j]
	if e.mask&p.mask != p.mask || e.ascii && p.bytes == nil {
		return false
	}
	v.bytes = e.bytes
	if e.ascii {
		v.b, v.r, v.cls, v.off = x.bytesFor(e, p.sensitive), nil, x.classes(e), nil
		return true
	}
	a, b := x.runeSpan(j)
	v.b, v.r, v.cls, v.off = nil, x.runesFor(s, p, j), x.rcls[a:b], x.roff[a:b]
	return true
}

// unmatched is sahilm's penalty for the path bytes a query of m runes
// leaves unmatched.
func (v *view) unmatched(m int) int32 {
	return v.bytes - int32(m)
}

// score scores path j for fuzzy term p, or returns noMatch. It reports
// whether the last row of the alignment is left at s.last (not for
// inputs past maxCells). With trace the matched rune indices are left in
// s.pos.
func (x *index) score(s *scratch, p *pattern, j int, trace bool) (int32, bool) {
	sc, listed := x.alignment(s, p, j, trace)
	if sc == noMatch {
		return noMatch, false
	}
	return sc - (x.ents[j].bytes - int32(len(p.runes))), listed
}

// align is the score of the best alignment of fuzzy term p in path j
// (scoreOf's terms, without the unmatched-bytes term), or noMatch.
func (x *index) align(s *scratch, p *pattern, j int, trace bool) int32 {
	sc, _ := x.alignment(s, p, j, trace)
	return sc
}

// alignment is align, reporting also whether the last row is left at
// s.last.
func (x *index) alignment(s *scratch, p *pattern, j int, trace bool) (int32, bool) {
	var v view
	if !x.view(s, p, j, &v) || len(p.runes) > len(v.cls) {
		return noMatch, false
	}
	var listed bool
	if v.b != nil {
		listed = collectBytes(s, v.b, p)
	} else {
		listed = collectRunes(s, v.r, p)
	}
	switch {
	case !listed && v.b != nil:
		return p.unbased(v.cls, s.pos, greedy(s, v.b, p.bytes, v.cls, nil)), false
	case !listed:
		return p.unbased(v.cls, s.pos, greedy(s, v.r, p.runes, v.cls, v.off)), false
	}
	return align(s, len(v.cls), v.cls, v.off, !p.once, trace), true
}

// unbased is score v of the alignment pos without the base-name bonus
// when term p leaves it out (p.once).
func (p *pattern) unbased(cls []uint8, pos []int32, v int32) int32 {
	if p.once && v != noMatch && cls[pos[0]]&clsInBase != 0 {
		return v - layerAllInBase
	}
	return v
}

// alignBase is the best alignment of fuzzy term p in path j's base name
// alone, with the base-name bonus, or noMatch (also for inputs past
// maxCells). With trace the matched rune indices are left in s.pos.
func (x *index) alignBase(s *scratch, p *pattern, j int, trace bool) int32 {
	var v view
	if !x.view(s, p, j, &v) || len(p.runes) > len(v.cls) {
		return noMatch
	}
	var listed bool
	base := x.baseOf(j)
	if v.b != nil {
		if !subsequence(v.b[base:], p.bytes) {
			return noMatch // the usual case: not every rune is in the base name
		}
		listed = collectBytes(s, v.b, p)
	} else {
		listed = collectRunes(s, v.r, p)
	}
	if !listed {
		return noMatch
	}
	for k, l := range s.lists[:len(p.runes)] {
		i := 0
		for i < len(l) && l[i] < base {
			i++
		}
		s.lists[k] = l[:copy(l, l[i:])] // in place: the buffer keeps its start
	}
	return align(s, len(v.cls), v.cls, v.off, true, trace)
}

// extend scores path i for p from prev, the last row of p's first m runes
// in the path, adding one row per further rune, and leaves s.last at the
// new last row. It returns the score, or noMatch; it reports false, and
// no score, for inputs past maxCells, which score handles instead.
func (x *index) extend(s *scratch, p *pattern, i, m int, prev *row) (int32, bool) {
	var v view
	if !x.view(s, p, i, &v) {
		return noMatch, true
	}
	for j := m; j < len(p.runes); j++ {
		cur := &s.next[j%2]
		cur.pos = v.after(cur.pos[:0], p.runes[j], prev.pos[0])
		if len(cur.pos) == 0 {
			return noMatch, true
		}
		if len(cur.pos) > maxCells {
			return noMatch, false
		}
		cur.v0, cur.v1 = grow(cur.v0, len(cur.pos)), grow(cur.v1, len(cur.pos))
		nextRow(prev, cur, v.cls)
		prev = cur
	}
	s.last = &s.next[(len(p.runes)-1)%2]
	_, _, best := s.last.best()
	return best - v.unmatched(len(p.runes)), true
}

// scoreLast scores path i for p when only p's last rune remains to be
// aligned: p has one rune (prev is nil) or prev is the last row of all of
// p but its last rune. The new last row is built in place at the end of
// g's row storage; its length is returned with the score, or noMatch and
// g unchanged.
func (x *index) scoreLast(s *scratch, p *pattern, i int, prev *row, g *segment) (int32, int32) {
	if e := &x.ents[i]; e.ascii && p.bytes != nil {
		return x.lastASCII(p, i, e, prev, g)
	}
	var v view
	if !x.view(s, p, i, &v) {
		return noMatch, 0
	}
	a, after := len(g.pos), int32(-1)
	if prev != nil {
		after = prev.pos[0]
	}
	g.pos = v.after(g.pos, p.runes[len(p.runes)-1], after)
	n := len(g.pos) - a
	if n == 0 {
		return noMatch, 0
	}
	g.v0, g.v1 = extend32(g.v0, a+n), extend32(g.v1, a+n)
	r := row{g.pos[a:], g.v0[a:], g.v1[a:]}
	if prev == nil {
		firstRow(&r, v.cls, v.off, !p.once)
	} else {
		nextRow(prev, &r, v.cls)
	}
	_, _, best := r.best()
	return best - v.unmatched(len(p.runes)), int32(n)
}

// lastASCII is scoreLast for an ASCII path e (path i) and an ASCII
// pattern, the hot path of every keystroke: the same row and score,
// without the view, with the row's best found while it is built.
func (x *index) lastASCII(p *pattern, i int, e *entry, prev *row, g *segment) (int32, int32) {
	if e.mask&p.mask != p.mask {
		return noMatch, 0
	}
	t := x.bytesFor(e, p.sensitive)
	from := 0
	if prev != nil {
		from = int(prev.pos[0]) + 1
	}
	a := len(g.pos)
	g.pos = appendPositions(g.pos, t, p.bytes[len(p.bytes)-1], from)
	n := len(g.pos) - a
	if n == 0 {
		return noMatch, 0
	}
	g.v0, g.v1 = extend32(g.v0, a+n), extend32(g.v1, a+n)
	cls := x.classes(e)
	var best int32
	if prev == nil {
		bonus := &inBaseBonus
		if p.once {
			bonus = &noBaseBonus
		}
		best = firstRowBest(g.pos[a:a+n], g.v0[a:a+n], g.v1[a:a+n], cls, bonus)
	} else {
		best = nextRowBest(prev, g.pos[a:a+n], g.v0[a:a+n], g.v1[a:a+n], cls)
	}
	return best - (e.bytes - int32(len(p.runes))), int32(n)
}

// after appends to pos the positions after a holding rune c.
func (v *view) after(pos []int32, c rune, a int32) []int32 {
	if v.b == nil {
		for i := int(a) + 1; i < len(v.r); i++ {
			if v.r[i] == c {
				pos = append(pos, int32(i))
			}
		}
		return pos
	}
	return appendPositions(pos, v.b, byte(c), int(a)+1)
}

// extend32 returns b lengthened to n, its contents kept, reallocated
// (doubling) when too small.
func extend32(b []int32, n int) []int32 {
	if cap(b) >= n {
		return b[:n]
	}
	c := make([]int32, n, 2*n)
	copy(c, b)
	return c
}

// grow returns b resliced to n, reallocated if it is too small.
func grow(b []int32, n int) []int32 {
	if cap(b) < n {
		return make([]int32, n, 2*n)
	}
	return b[:n]
}

// subsequence reports whether q occurs in t in order.
func subsequence(t, q []byte) bool {
	i := 0
	for _, c := range q {
		k := bytes.IndexByte(t[i:], c)
		if k < 0 {
			return false
		}
		i += k + 1
	}
	return true
}

// positions converts the rune indices left in s.pos by a traced score of
// path i to byte offsets.
func (x *index) positions(s *scratch, i int) []int {
	pos := make([]int, len(s.pos))
	if x.ents[i].ascii {
		for k, r := range s.pos {
			pos[k] = int(r)
		}
		return pos
	}
	a, _ := x.runeSpan(i)
	for k, r := range s.pos {
		pos[k] = int(x.roff[a+r])
	}
	return pos
}
