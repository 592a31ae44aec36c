package rank

// scratch is one worker's reusable memory for alignments, so that scoring a
// candidate allocates nothing once the buffers have grown to fit.
type scratch struct {
	m0, m1      []int32 // score matrices by (query rune, path rune): run began off / at a word start
	first, last []int32 // per query rune: the span of path runes where it can match
	pos         []int32 // positions of the last alignment (rune indices), set by trace
}

// fit grows the buffers for m query runes and the given number of cells.
func (s *scratch) fit(m, cells int) {
	if cap(s.first) < m {
		s.first, s.last, s.pos = make([]int32, m), make([]int32, m), make([]int32, m)
	}
	s.first, s.last, s.pos = s.first[:m], s.last[:m], s.pos[:m]
	if cap(s.m0) < cells {
		s.m0, s.m1 = make([]int32, cells), make([]int32, cells)
	}
	s.m0, s.m1 = s.m0[:cells], s.m1[:cells]
}

// align returns the best alignment score of query q in text t (both already
// folded for the case mode), or noMatch. cls holds the rune classes of t and
// off the byte offset of each rune (nil when runes are bytes). With trace
// the matched rune indices are left in s.pos.
func align[E byte | rune](s *scratch, t, q []E, cls []uint8, off []int32, trace bool) int32 {
	m := len(q)
	if m == 0 || m > len(t) {
		return noMatch
	}
	s.fit(m, 0)
	if !span(s, t, q) {
		return noMatch
	}
	if m == 1 {
		return alignOne(s, t, q[0], cls, off, trace)
	}
	lo, hi := int(s.first[0]), int(s.last[m-1])
	w := hi - lo + 1
	if m*w > maxCells {
		return greedy(s, t, q, cls, off)
	}
	s.fit(m, m*w)
	firstRow(s, t, q[0], cls, off, lo, w)
	for j := 1; j < m; j++ {
		nextRow(s, t, q[j], cls, j, lo, w)
	}
	at, st, best := s.end(m, lo, w)
	if trace {
		s.trace(cls, m, lo, w, at, st)
	}
	return best
}

// span finds, for every query rune, the first position where it can match
// (greedy forwards) and the last (greedy backwards), and reports whether q
// is a subsequence of t at all.
func span[E byte | rune](s *scratch, t, q []E) bool {
	i := 0
	for j, c := range q {
		for i < len(t) && t[i] != c {
			i++
		}
		if i == len(t) {
			return false
		}
		s.first[j] = int32(i)
		i++
	}
	i = len(t) - 1
	for j := len(q) - 1; j >= 0; j-- {
		for t[i] != q[j] {
			i--
		}
		s.last[j] = int32(i)
		i--
	}
	return true
}

// alignOne scores a one-rune query: the best single position, the later one
// on ties.
func alignOne[E byte | rune](s *scratch, t []E, c E, cls []uint8, off []int32, trace bool) int32 {
	best, at := int32(neg), 0
	for i := int(s.first[0]); i <= int(s.last[0]); i++ {
		if t[i] != c {
			continue
		}
		k := cls[i]
		if v := bonusOf[state(wordStartOf[k])][k] + first(i, k, off); v >= best {
			best, at = v, i
		}
	}
	if trace {
		s.pos[0] = int32(at)
	}
	return best
}

// greedy aligns inputs too large for the matrices: the first occurrence of
// the last rune found forwards, then the shortest window ending there found
// backwards (fzf's V1), scored by scoreOf. The positions are always traced.
func greedy[E byte | rune](s *scratch, t, q []E, cls []uint8, off []int32) int32 {
	i := int(s.first[len(q)-1])
	for j := len(q) - 1; j >= 0; j-- {
		for t[i] != q[j] {
			i--
		}
		s.pos[j] = int32(i)
		i--
	}
	return scoreOf(cls, off, s.pos)
}

// firstRow fills row 0: query rune 0 matched at each position of its span.
func firstRow[E byte | rune](s *scratch, t []E, c E, cls []uint8, off []int32, lo, w int) {
	m0, m1 := s.m0[:w], s.m1[:w]
	for x := range w {
		m0[x], m1[x] = neg, neg
	}
	for i := int(s.first[0]); i <= int(s.last[0]); i++ {
		if t[i] != c {
			continue
		}
		k := cls[i]
		if wordStartOf[k] {
			m1[i-lo] = bonusOf[1][k] + first(i, k, off)
		} else {
			m0[i-lo] = bonusOf[0][k] + first(i, k, off)
		}
	}
}

// nextRow fills row j from row j-1. d carries the best gap predecessor:
// the best cell of the previous row at least two positions back, minus the
// gap it leaves.
func nextRow[E byte | rune](s *scratch, t []E, c E, cls []uint8, j, lo, w int) {
	prev0, prev1 := s.m0[(j-1)*w:j*w], s.m1[(j-1)*w:j*w]
	cur0, cur1 := s.m0[j*w:(j+1)*w], s.m1[j*w:(j+1)*w]
	for x := range w {
		cur0[x], cur1[x] = neg, neg
	}
	pf, pl := int(s.first[j-1]), int(s.last[j-1])
	f, l := int(s.first[j]), int(s.last[j])
	d := int32(neg)
	for i := pf + 1; i <= l; i++ {
		d -= layerGapExtend
		if p := i - 2; p >= pf && p <= pl {
			d = max(d, max(prev0[p-lo], prev1[p-lo])-layerGapStart)
		}
		if i < f || t[i] != c {
			continue
		}
		k, x := cls[i], i-lo
		c0 := prev0[x-1] + baseAdjacent
		c1 := prev1[x-1] + baseAdjacent + layerWordRun
		if wordStartOf[k] {
			cur1[x] = bonusOf[1][k] + max(c1, c0, d)
		} else {
			cur1[x] = bonusOf[1][k] + c1
			cur0[x] = bonusOf[0][k] + max(c0, d)
		}
	}
}

// end finds the best cell of the last row: its position, state (1: the run
// began at a word start) and score. Ties prefer the later position.
func (s *scratch) end(m, lo, w int) (at int, st uint8, best int32) {
	row := (m - 1) * w
	best = neg
	for i := int(s.first[m-1]); i <= int(s.last[m-1]); i++ {
		v, vs := s.m1[row+i-lo], uint8(1)
		if v0 := s.m0[row+i-lo]; v0 > v {
			v, vs = v0, 0
		}
		if v >= best {
			at, st, best = i, vs, v
		}
	}
	return at, st, best
}

// trace replays the recurrences backwards from the best end cell and
// leaves the positions that earned the score in s.pos.
func (s *scratch) trace(cls []uint8, m, lo, w, at int, st uint8) {
	for j := m - 1; ; j-- {
		s.pos[j] = int32(at)
		if j == 0 {
			return
		}
		at, st = s.step(cls, j, lo, w, at, st)
	}
}

// step finds the predecessor of cell (j, i) in state st. It prefers the
// adjacent predecessor, then the nearest gap, as the forward pass did.
func (s *scratch) step(cls []uint8, j, lo, w, i int, st uint8) (int, uint8) {
	row, prev, x := j*w, (j-1)*w, i-lo
	k := cls[i]
	v := s.m0[row+x]
	if st == 1 {
		v = s.m1[row+x]
	}
	v -= bonusOf[st][k]
	if st == 1 && s.m1[prev+x-1]+baseAdjacent+layerWordRun == v {
		return i - 1, 1
	}
	if (st == 0 || wordStartOf[k]) && s.m0[prev+x-1]+baseAdjacent == v {
		return i - 1, 0
	}
	for p := min(i-2, int(s.last[j-1])); p >= int(s.first[j-1]); p-- {
		g := gapCost(i - p - 1)
		if s.m1[prev+p-lo]-g == v {
			return p, 1
		}
		if s.m0[prev+p-lo]-g == v {
			return p, 0
		}
	}
	panic("rank: alignment trace found no predecessor")
}
