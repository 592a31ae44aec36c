package rank

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// row is one row of the sparse dynamic program: the positions where one
// query rune can match and, at each, the best score of the query up to that
// rune matched there, by whether the run ending there began at a word start
// (v1) or not (v0). A row depends only on the query runes up to its own, so
// the last row of a query is also the start of every longer query's
// alignment.
type row struct {
	pos, v0, v1 []int32
}

// best returns the row's best cell: its index, state (1: the run began at
// a word start) and score. Ties prefer the later position, then state 1.
func (r *row) best() (at int, st uint8, best int32) {
	best = neg
	for x := range r.pos {
		v, vs := r.v1[x], uint8(1)
		if r.v0[x] > v {
			v, vs = r.v0[x], 0
		}
		if v >= best {
			at, st, best = x, vs, v
		}
	}
	return at, st, best
}

// scoredRow is a row with its best score.
type scoredRow struct {
	row
	top int32
}

// scratch is one worker's reusable memory for alignments, so that scoring a
// candidate allocates nothing once the buffers have grown to fit.
type scratch struct {
	first  scoredRow // a first row rebuilt (Ranker.last)
	lists  [][]int32 // per query rune: every position holding it
	rows   []row     // per query rune: its row, within its feasible span
	v0, v1 []int32   // the rows' scores, concatenated
	next   [2]row    // the rows of an extension (extend), alternating
	last   *row      // the last row of the last score or extension
	pos    []int32   // positions of the last alignment (rune indices), set by trace
	best   []int32   // the best occurrence so far of an exact term
	runes  []rune    // a non-ASCII path's runes folded for a term
}

// fit sizes the per-rune buffers for m query runes.
func (s *scratch) fit(m int) {
	for len(s.lists) < m {
		s.lists = append(s.lists, nil)
	}
	if cap(s.rows) < m {
		s.rows, s.pos = make([]row, m), make([]int32, m)
	}
	s.rows, s.pos = s.rows[:m], s.pos[:m]
	for j := range m {
		s.lists[j] = s.lists[j][:0]
	}
}

// align returns the best alignment score of the query in a path, or
// noMatch, once collectBytes or collectRunes has listed where its runes
// occur; the last row stays in s.rows. cls holds the path's rune classes
// and off the byte offset of each rune (nil when runes are bytes). With
// trace the matched rune indices are left in s.pos.
//
// With base false the base-name bonus (layerAllInBase) is left out: a
// term of a query of several sets earns it apart (alignBase), once per
// path.
func align(s *scratch, n int, cls []uint8, off []int32, base, trace bool) int32 {
	if !s.feasible(n) {
		return noMatch
	}
	s.layout()
	firstRow(&s.rows[0], cls, off, base)
	for j := 1; j < len(s.rows); j++ {
		nextRow(&s.rows[j-1], &s.rows[j], cls)
	}
	s.last = &s.rows[len(s.rows)-1]
	x, st, best := s.last.best()
	if trace {
		s.trace(cls, x, st)
	}
	return best
}

// collectBytes lists, for every query rune, the positions of ASCII path t
// holding it: one pass per distinct query rune. It reports false, leaving
// the lists incomplete, past maxCells positions.
func collectBytes(s *scratch, t []byte, p *pattern) bool {
	s.fit(len(p.runes))
	if !subsequence(t, p.bytes) {
		return true // every list stays empty: no match
	}
	total := 0
	for d, c := range p.distinct {
		js := p.at[d]
		l := &s.lists[js[0]]
		*l = appendPositions(*l, t, byte(c), 0)
		if total += len(*l) * len(js); total > maxCells {
			return false
		}
		for _, j := range js[1:] {
			s.lists[j] = append(s.lists[j], *l...)
		}
	}
	return true
}

// appendPositions appends to pos every index i >= from where t[i] == c.
// It tests eight bytes at a time (the exact zero-byte test on t's word
// xor c in every byte), then the last word again, overlapping, for the
// tail: a path holds a few occurrences of a rune in a few words, where
// calling bytes.IndexByte once per occurrence cost more than the search.
func appendPositions(pos []int32, t []byte, c byte, from int) []int32 {
	if from >= len(t) {
		return pos
	}
	// Room for every byte to match, so the loop stores without append's
	// checks (which spilled its registers).
	pos = slices.Grow(pos, len(t)-from)
	out := pos[len(pos) : len(pos)+len(t)-from]
	k := 0
	rep := lsbs * uint64(c)
	i := from
	for ; i+8 <= len(t); i += 8 {
		for z := zeroBytes(binary.LittleEndian.Uint64(t[i:i+8]) ^ rep); z != 0; z &= z - 1 {
			out[k] = int32(i + bits.TrailingZeros64(z)>>3)
			k++
		}
	}
	if i < len(t) && len(t) >= 8 {
		j := len(t) - 8
		z := zeroBytes(binary.LittleEndian.Uint64(t[j:j+8])^rep) & (^uint64(0) << (8 * (i - j)))
		for ; z != 0; z &= z - 1 {
			out[k] = int32(j + bits.TrailingZeros64(z)>>3)
			k++
		}
	} else {
		for ; i < len(t); i++ {
			if t[i] == c {
				out[k] = int32(i)
				k++
			}
		}
	}
	return pos[:len(pos)+k]
}

const (
	lsbs  = 0x0101010101010101
	low7s = 0x7f7f7f7f7f7f7f7f
)

// zeroBytes returns x with the high bit of every zero byte set and every
// other bit clear.
func zeroBytes(x uint64) uint64 {
	return ^((x&low7s + low7s) | x | low7s)
}

// collectRunes is collectBytes for a path of runes.
func collectRunes(s *scratch, t []rune, p *pattern) bool {
	s.fit(len(p.runes))
	total := 0
	for i, e := range t {
		d := p.find(e)
		if d < 0 {
			continue
		}
		if total += len(p.at[d]); total > maxCells {
			return false
		}
		s.add(p.at[d], i)
	}
	return true
}

// add records position i for the query runes js.
func (s *scratch) add(js []int32, i int) {
	for _, j := range js {
		s.lists[j] = append(s.lists[j], int32(i))
	}
}

// feasible narrows every query rune's positions to those that can be part
// of a complete match: after the first possible position of the rune
// before (greedy forwards) and before the last possible position of the
// rune after (greedy backwards). The last rune keeps every position after
// its first possible one. It reports whether there is a match.
func (s *scratch) feasible(n int) bool {
	after := int32(-1)
	for j, l := range s.lists[:len(s.rows)] {
		x := 0
		for x < len(l) && l[x] <= after {
			x++
		}
		if x == len(l) {
			return false
		}
		s.rows[j].pos, after = l[x:], l[x]
	}
	before := int32(n)
	for j := len(s.rows) - 1; j >= 0; j-- {
		r := s.rows[j].pos
		y := len(r)
		for r[y-1] >= before {
			y--
		}
		s.rows[j].pos, before = r[:y], r[y-1]
	}
	return true
}

// layout gives every row its share of v0 and v1, growing them to fit.
func (s *scratch) layout() {
	n := 0
	for _, r := range s.rows {
		n += len(r.pos)
	}
	if cap(s.v0) < n {
		s.v0, s.v1 = make([]int32, n, 2*n), make([]int32, n, 2*n)
	}
	s.v0, s.v1 = s.v0[:n], s.v1[:n]
	n = 0
	for j := range s.rows {
		r := &s.rows[j]
		r.v0, r.v1 = s.v0[n:n+len(r.pos)], s.v1[n:n+len(r.pos)]
		n += len(r.pos)
	}
}

// greedy aligns paths whose query rune positions exceed maxCells: the
// first occurrence of the last rune found forwards, then the shortest
// window ending there found backwards (fzf's V1), scored by scoreOf. The
// positions are always traced.
func greedy[E byte | rune](s *scratch, t, q []E, cls []uint8, off []int32) int32 {
	i := 0
	for _, c := range q {
		for i < len(t) && t[i] != c {
			i++
		}
		if i == len(t) {
			return noMatch
		}
		i++
	}
	for j := len(q) - 1; j >= 0; j-- {
		for i--; t[i] != q[j]; i-- {
		}
		s.pos[j] = int32(i)
	}
	return scoreOf(cls, off, s.pos)
}

// firstRow scores the first query rune at each position of r, with the
// base-name bonus unless base is false.
func firstRow(r *row, cls []uint8, off []int32, base bool) {
	for x, i := range r.pos {
		r.v0[x], r.v1[x] = neg, neg
		k := classAt(cls[i], i)
		v := first(int(i), k, off)
		if !base {
			v -= inBaseBonus[k]
		}
		if wordStartOf[k] {
			r.v1[x] = bonusOf[1][k] + v
		} else {
			r.v0[x] = bonusOf[0][k] + v
		}
	}
}

// firstRowBest is firstRow for an ASCII path (byte offsets are rune
// indices), returning the row's best score, which row.best would find.
// bonus is inBaseBonus, or noBaseBonus to leave the base-name bonus out.
func firstRowBest(pos, v0, v1 []int32, cls []uint8, bonus *[clsCount]int32) int32 {
	best := int32(neg)
	v0, v1 = v0[:len(pos)], v1[:len(pos)]
	for x, i := range pos {
		k := classAt(cls[i], i)
		v := -min(i*baseLeadPerByte, baseLeadMax) + bonus[k]
		if wordStartOf[k] {
			v += bonusOf[1][k]
			v0[x], v1[x] = neg, v
		} else {
			v += bonusOf[0][k]
			v0[x], v1[x] = v, neg
		}
		best = max(best, v)
	}
	return best
}

// firstBest is the best score firstRowBest finds for the one-rune term c
// in ASCII path t of classes cls (tab is firstScoreIn, or firstScoreNo to
// leave the base-name bonus out), or noMatch when t has no c: the
// keystroke of a query's first rune, over every path, without building
// the row. It reads t eight bytes at a time, as appendPositions does.
func firstBest(t []byte, c byte, cls []uint8, tab *[clsCount]int32) int32 {
	best := int32(noMatch)
	if len(t) == 0 {
		return best
	}
	cls = cls[:len(t)]
	// The path's first rune: its own class bit and no lead penalty.
	if t[0] == c {
		best = tab[uint16(cls[0])|clsPathStart]
	}
	rep := lsbs * uint64(c)
	i := 0
	for ; i+8 <= len(t); i += 8 {
		z := zeroBytes(binary.LittleEndian.Uint64(t[i:i+8]) ^ rep)
		if i == 0 {
			z &^= 0x80 // position 0, done above
		}
		for ; z != 0; z &= z - 1 {
			j := i + bits.TrailingZeros64(z)>>3
			best = max(best, tab[cls[j]]-min(int32(j)*baseLeadPerByte, baseLeadMax))
		}
	}
	for j := max(i, 1); j < len(t); j++ {
		if t[j] == c {
			best = max(best, tab[cls[j]]-min(int32(j)*baseLeadPerByte, baseLeadMax))
		}
	}
	return best
}

// nextGain bounds what a rune c adds to a term's alignment in ASCII path
// t of classes cls, whose rune before c is before and whose shorter
// query's greedy alignment ends before from: the first position at or
// after from holding c (or -1, no match) and the most a cell of c's row
// can score above the best cell of the row before (gainAdjacent after
// before, else gainGap, by c's class; nextRowBest's recurrences never add
// more). It reads t eight bytes at a time, as appendPositions does.
func nextGain(t []byte, cls []uint8, c, before byte, from int) (int32, int32) {
	at, gain := int32(-1), int32(neg)
	if from >= len(t) {
		return at, gain
	}
	cls = cls[:len(t)]
	try := func(j int) {
		if at < 0 {
			at = int32(j)
		}
		gain = max(gain, cellGain(t, cls, j, before))
	}
	rep := lsbs * uint64(c)
	i := from
	for ; i+8 <= len(t); i += 8 {
		for z := zeroBytes(binary.LittleEndian.Uint64(t[i:i+8]) ^ rep); z != 0; z &= z - 1 {
			try(i + bits.TrailingZeros64(z)>>3)
		}
	}
	if i < len(t) && len(t) >= 8 {
		j := len(t) - 8
		z := zeroBytes(binary.LittleEndian.Uint64(t[j:j+8])^rep) & (^uint64(0) << (8 * (i - j)))
		for ; z != 0; z &= z - 1 {
			try(j + bits.TrailingZeros64(z)>>3)
		}
	} else {
		for ; i < len(t); i++ {
			if t[i] == c {
				try(i)
			}
		}
	}
	return at, gain
}

// cellGain bounds what the cell of the rune at j > 0 of t can score
// above the best cell of the row before: gainAdjacent by its class when
// the byte before it is before (the rune before it in the query), else
// gainGap.
func cellGain(t []byte, cls []uint8, j int, before byte) int32 {
	if t[j-1] == before {
		return gainAdjacent[cls[j]]
	}
	return gainGap[cls[j]]
}

// firstNextGain is firstBest of the one-rune term c0 in ASCII path t and
// nextGain of the rune c1 after c0's first occurrence, read in one pass:
// the second keystroke's bound of a path whose first was left unscored
// (Ranker.last). at is -1, and gain meaningless, when c1 does not follow
// c0.
func firstNextGain(t []byte, cls []uint8, c0, c1 byte, tab *[clsCount]int32) (best, at, gain int32) {
	best, at, gain = noMatch, -1, neg
	if len(t) == 0 {
		return best, at, gain
	}
	cls = cls[:len(t)]
	end := -1 // c0's first occurrence
	if t[0] == c0 {
		best, end = tab[uint16(cls[0])|clsPathStart], 0
	}
	next := func(j int) {
		if at < 0 {
			at = int32(j)
		}
		gain = max(gain, cellGain(t, cls, j, c0))
	}
	rep0, rep1 := lsbs*uint64(c0), lsbs*uint64(c1)
	i := 0
	for ; i+8 <= len(t); i += 8 {
		w := binary.LittleEndian.Uint64(t[i : i+8])
		z := zeroBytes(w ^ rep0)
		if i == 0 {
			z &^= 0x80 // position 0, done above
		}
		for ; z != 0; z &= z - 1 {
			j := i + bits.TrailingZeros64(z)>>3
			if end < 0 {
				end = j
			}
			best = max(best, tab[cls[j]]-min(int32(j)*baseLeadPerByte, baseLeadMax))
		}
		if end < 0 {
			continue
		}
		z = zeroBytes(w ^ rep1)
		if end >= i {
			z &= ^uint64(0) << (8 * (end - i + 1))
		}
		for ; z != 0; z &= z - 1 {
			next(i + bits.TrailingZeros64(z)>>3)
		}
	}
	for j := max(i, 1); j < len(t); j++ {
		if t[j] == c0 {
			if end < 0 {
				end = j
			}
			best = max(best, tab[cls[j]]-min(int32(j)*baseLeadPerByte, baseLeadMax))
		}
		if t[j] == c1 && end >= 0 && j > end {
			next(j)
		}
	}
	return best, at, gain
}

// A gap's best predecessor is kept in two running maxima: over the
// previous row's cells in the current cell's component (after the last
// slash before it) and over those before that slash, which pay
// layerCross. Positions ascend, so when a cell lies past another slash,
// every cell seen so far lies before it: the first maximum joins the
// second.

// gaps is the gap predecessors' state while a row is built.
type gaps struct {
	same, cross int32 // max of score + extend*position, by component
	slash       int32 // the last slash before the current cell, or -1
	next        int32 // the first slash after slash, or len(cls)
}

// newGaps starts the gaps of a row whose previous row's cells lie at or
// after position from: slashes before it separate none of them.
func newGaps(cls []uint8, from int32) gaps {
	return gaps{same: neg, cross: neg, slash: -1, next: nextSlash(cls, from+1)}
}

// at moves to the cell at position i.
func (g *gaps) at(cls []uint8, i int32) {
	if g.next >= i {
		return
	}
	for g.next < i {
		g.slash, g.next = g.next, nextSlash(cls, g.next+1)
	}
	g.cross, g.same = max(g.cross, g.same), neg
}

// add offers a previous row's cell at position p with best score v.
func (g *gaps) add(p, v int32) {
	v += layerGapExtend * p
	if p >= g.slash {
		g.same = max(g.same, v)
	} else {
		g.cross = max(g.cross, v)
	}
}

// best is the best score reaching position i across a gap.
func (g *gaps) best(i int32) int32 {
	return max(g.same, g.cross-layerCross) - layerGapStart - layerGapExtend*(i-2)
}

// nextSlash returns the position of the first slash at or after from in
// a path with rune classes cls, or len(cls). It tests eight classes at a
// time.
func nextSlash(cls []uint8, from int32) int32 {
	i := int(from)
	for ; i+8 <= len(cls); i += 8 {
		if w := binary.LittleEndian.Uint64(cls[i:i+8]) & (lsbs * uint64(clsSlash)); w != 0 {
			return int32(i + bits.TrailingZeros64(w)>>3)
		}
	}
	for ; i < len(cls); i++ {
		if cls[i]&clsSlash != 0 {
			return int32(i)
		}
	}
	return int32(len(cls))
}

// nextRowBest is nextRow into the row (pos, v0, v1), returning its best
// score, which row.best would find.
func nextRowBest(prev *row, pos, v0, v1 []int32, cls []uint8) int32 {
	g, y, best := newGaps(cls, prev.pos[0]), 0, int32(neg)
	v0, v1 = v0[:len(pos)], v1[:len(pos)]
	pp, p0, p1 := prev.pos, prev.v0[:len(prev.pos)], prev.v1[:len(prev.pos)]
	for x, i := range pos {
		g.at(cls, i)
		for ; y < len(pp) && pp[y] <= i-2; y++ {
			g.add(pp[y], max(p0[y], p1[y]))
		}
		d := g.best(i)
		c0, c1 := int32(neg), int32(neg)
		if y < len(pp) && pp[y] == i-1 {
			c0, c1 = p0[y]+baseAdjacent, p1[y]+baseAdjacent+layerWordRun
		}
		k := uint16(cls[i])
		if wordStartOf[k] {
			v0[x], v1[x] = neg, bonusOf[1][k]+max(c1, c0, d)
		} else {
			v0[x], v1[x] = bonusOf[0][k]+max(c0, d), bonusOf[1][k]+c1
		}
		best = max(best, v0[x], v1[x])
	}
	return best
}

// nextRow scores a query rune at each position of cur from the previous
// rune's row prev.
//
// A cell is reached from the previous rune's cell one position back
// (adjacent) or across a gap. For gaps, the running maxima (gaps) hold
// the previous row's cells at least two positions back of score +
// extend*p, so that subtracting start + extend*(i-2) charges each its own
// gap (and layerCross the cells in another component).
func nextRow(prev, cur *row, cls []uint8) {
	g, y := newGaps(cls, prev.pos[0]), 0
	for x, i := range cur.pos {
		g.at(cls, i)
		for ; y < len(prev.pos) && prev.pos[y] <= i-2; y++ {
			g.add(prev.pos[y], max(prev.v0[y], prev.v1[y]))
		}
		d := g.best(i)
		c0, c1 := int32(neg), int32(neg)
		if y < len(prev.pos) && prev.pos[y] == i-1 {
			c0, c1 = prev.v0[y]+baseAdjacent, prev.v1[y]+baseAdjacent+layerWordRun
		}
		k := uint16(cls[i])
		cur.v0[x], cur.v1[x] = neg, bonusOf[1][k]+c1
		if wordStartOf[k] {
			cur.v1[x] = bonusOf[1][k] + max(c1, c0, d)
		} else {
			cur.v0[x] = bonusOf[0][k] + max(c0, d)
		}
	}
}

// trace replays the recurrences backwards from cell x of the last row in
// state st and leaves the positions that earned the score in s.pos.
func (s *scratch) trace(cls []uint8, x int, st uint8) {
	for j := len(s.rows) - 1; ; j-- {
		s.pos[j] = s.rows[j].pos[x]
		if j == 0 {
			return
		}
		x, st = step(&s.rows[j-1], &s.rows[j], cls, x, st)
	}
}

// step finds the predecessor in row prev of cell x of row cur in state st.
// It prefers the adjacent predecessor, then the nearest gap, as the
// forward pass did.
func step(prev, cur *row, cls []uint8, x int, st uint8) (int, uint8) {
	i := cur.pos[x]
	k := uint16(cls[i])
	v := cur.v0[x]
	if st == 1 {
		v = cur.v1[x]
	}
	v -= bonusOf[st][k]
	y := len(prev.pos) - 1
	for y >= 0 && prev.pos[y] > i-1 {
		y--
	}
	if y >= 0 && prev.pos[y] == i-1 {
		if st == 1 && prev.v1[y]+baseAdjacent+layerWordRun == v {
			return y, 1
		}
		if (st == 0 || wordStartOf[k]) && prev.v0[y]+baseAdjacent == v {
			return y, 0
		}
		y--
	}
	return gapFrom(prev, cls, i, y, v)
}

// gapFrom finds the nearest cell of prev, at index y or before, from which
// a gap to position i leaves score v.
func gapFrom(prev *row, cls []uint8, i int32, y int, v int32) (int, uint8) {
	for ; y >= 0; y-- {
		g := crossCost(cls, prev.pos[y], i)
		if prev.v1[y]-g == v {
			return y, 1
		}
		if prev.v0[y]-g == v {
			return y, 0
		}
	}
	panic("rank: alignment trace found no predecessor")
}
