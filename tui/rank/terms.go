package rank

import (
	"bytes"
	"slices"
	"unicode"
	"unicode/utf8"
)

// Matching a path against the terms of a query, with fzf's rules for
// which lines a term selects (its algo.go) and scout's scores.
//
// fzf folds a line's runes differently by kind: for a fuzzy term only
// runes that are upper case and not also lower case (fuzzyFold), for the
// other kinds every rune with a lower-case form (exactFold); ASCII runes
// alike either way. Then, when the term normalizes, letters with
// diacritics become their base letters. An ASCII path needs none of this
// beyond the folded bytes New keeps; other paths keep their runes folded
// for a fuzzy term that normalizes (the usual case) and fold the rest as
// they are matched.
//
// The exact kinds score their occurrence with scoreOf, the same terms as
// a fuzzy alignment of the same runes, taking the best occurrence.

// fuzzyFold is fzf's case folding of a line's rune for a fuzzy term.
func fuzzyFold(r rune) rune {
	if r < utf8.RuneSelf {
		return rune(lowerASCII(byte(r)))
	}
	if !unicode.IsLower(r) && unicode.IsUpper(r) {
		return unicode.To(unicode.LowerCase, r)
	}
	return r
}

// exactFold is fzf's case folding of a line's rune for the other kinds.
func exactFold(r rune) rune {
	if r < utf8.RuneSelf {
		return rune(lowerASCII(byte(r)))
	}
	return unicode.ToLower(r)
}

// foldMask is the runeMask bits of every form rune r of a path may be
// matched as: folded either way, normalized or not, in either case mode.
func foldMask(r rune) uint64 {
	m := uint64(0)
	for _, f := range [...]rune{r, fuzzyFold(r), exactFold(r)} {
		m |= runeMask(unicode.ToLower(f)) | runeMask(unicode.ToLower(normalizeRune(f)))
	}
	return m
}

// foldRunes writes rs as a term of kind fuzzy (or another) in the given
// case mode and normalization reads them into buf, and returns it.
func foldRunes(buf, rs []rune, fuzzy, sensitive, normalize bool) []rune {
	buf = buf[:0]
	for _, r := range rs {
		switch {
		case sensitive:
		case fuzzy:
			r = fuzzyFold(r)
		default:
			r = exactFold(r)
		}
		if normalize {
			r = normalizeRune(r)
		}
		buf = append(buf, r)
	}
	return buf
}

// runesFor returns the runes of non-ASCII path j as term p reads them.
func (x *index) runesFor(s *scratch, p *pattern, j int) []rune {
	a, b := x.runeSpan(j)
	switch fuzzy := p.Kind == Fuzzy; {
	case p.sensitive && !p.Normalize:
		return x.rorig[a:b]
	case fuzzy && !p.sensitive && p.Normalize:
		return x.rfold[a:b]
	default:
		s.runes = foldRunes(s.runes, x.rorig[a:b], fuzzy, p.sensitive, p.Normalize)
		return s.runes
	}
}

// traceMode says which alignment of a term matches leaves in s.pos.
type traceMode uint8

const (
	traceNone   traceMode = iota
	traceBest             // the alignment of w
	traceNoBase           // the alignment of n
)

// matches reports whether term p (its inverse aside) matches path j, and
// the scores of its best match there (scoreOf's terms, without the
// unmatched-bytes term): w with the base-name bonus, n without it when p
// leaves it out (p.once; else n is w). tr says which alignment's rune
// indices are left in s.pos.
func (x *index) matches(s *scratch, p *pattern, j int, tr traceMode) (w, n int32, ok bool) {
	e := &x.ents[j]
	if e.mask&p.mask != p.mask || e.ascii && p.bytes == nil {
		return 0, 0, false
	}
	if p.Kind != Fuzzy {
		return x.exact(s, p, j, tr)
	}
	n = x.align(s, p, j, tr != traceNone)
	if n == noMatch {
		return 0, 0, false
	}
	if !p.once {
		return n, n, true
	}
	b := x.alignBase(s, p, j, false)
	if b <= n {
		return n, n, true
	}
	if tr == traceBest {
		x.alignBase(s, p, j, true)
	}
	return b, n, true
}

// exact matches a term of one of the exact kinds: its best occurrence
// with the base-name bonus (w) and without it (n, for a term that leaves
// it out; else w).
func (x *index) exact(s *scratch, p *pattern, j int, tr traceMode) (w, n int32, ok bool) {
	e := &x.ents[j]
	var cls []uint8
	var off []int32
	var text []rune
	var bs []byte
	var a int32
	if e.ascii {
		cls, bs = x.classes(e), x.bytesFor(e, p.sensitive)
	} else {
		var b int32
		a, b = x.runeSpan(j)
		cls, off, text = x.rcls[a:b], x.roff[a:b], x.runesFor(s, p, j)
	}
	size, m := int(e.n), len(p.runes)
	if m > size {
		return 0, 0, false
	}
	orig := func(i int) rune { // the path's rune i as written
		if e.ascii {
			return rune(x.text(e)[i])
		}
		return x.rorig[int(a)+i]
	}
	lo, hi, ok := p.starts(size, orig)
	if !ok {
		return 0, 0, false
	}
	w, n = noMatch, noMatch
	s.fit(m)
	for i := lo; i <= hi; i++ {
		if e.ascii {
			k := bytes.Index(bs[i:hi+m], p.bytes)
			if k < 0 {
				break
			}
			i += k
		} else if !slices.Equal(text[i:i+m], p.runes) {
			continue
		}
		if p.Kind == Boundary && (i > 0 && fzfWordRune(orig(i-1)) || i+m < size && fzfWordRune(orig(i+m))) {
			continue
		}
		for k := range m {
			s.pos[k] = int32(i + k)
		}
		v := scoreOf(cls, off, s.pos)
		vn := p.unbased(cls, s.pos, v)
		if tr == traceBest && v >= w || tr == traceNoBase && vn >= n {
			s.best = append(s.best[:0], s.pos...)
		}
		w, n = max(w, v), max(n, vn)
	}
	if w == noMatch {
		return 0, 0, false
	}
	if tr != traceNone {
		copy(s.pos, s.best)
	}
	return w, n, true
}

// starts returns the first and last rune index at which exact-kind term p
// may occur in a path of size runes, orig(i) being rune i as written:
// anywhere, or where a prefix or suffix must be (past the path's leading
// and before its trailing white space, unless the term starts or ends
// with a space), as fzf's PrefixMatch, SuffixMatch and EqualMatch place
// them; false when it cannot occur.
func (p *pattern) starts(size int, orig func(int) rune) (lo, hi int, ok bool) {
	m := len(p.runes)
	lo, hi = 0, size-m
	if p.Kind == Prefix || p.Kind == Equal {
		if !unicode.IsSpace(p.runes[0]) {
			for lo < size && unicode.IsSpace(orig(lo)) {
				lo++
			}
		}
		hi = lo
	}
	if p.Kind == Suffix || p.Kind == Equal {
		end := size
		if !unicode.IsSpace(p.runes[m-1]) {
			for end > 0 && unicode.IsSpace(orig(end-1)) {
				end--
			}
		}
		if p.Kind == Equal && end-lo != m {
			return 0, 0, false
		}
		lo, hi = max(lo, end-m), end-m
	}
	return lo, hi, lo >= 0 && lo <= hi && hi+m <= size
}

// fzfWordRune reports whether fzf counts r as part of a word (its
// character classes lower, upper, letter and number): 'term' matches
// only where the runes around it are not.
func fzfWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLower(r) || unicode.IsUpper(r) || unicode.IsNumber(r) || unicode.IsLetter(r)
}

// judge scores path j for the sets of a query: the sum over the sets of
// the chosen term's score without the base-name bonus and runes (zero
// for a set met by an inverse term), the largest gain any set's term
// makes with that bonus, and false when a set does not match.
func (x *index) judge(s *scratch, sets [][]*pattern, j int) (sum, gain int32, ok bool) {
	for _, set := range sets {
		v, g, _, met := x.judgeSet(s, set, j, traceNone)
		if !met {
			return 0, 0, false
		}
		sum, gain = sum+v, max(gain, g)
	}
	return sum, gain, true
}

// judgeSet scores path j for one set: the best matching term (by its
// score with the base-name bonus), its score without that bonus plus its
// runes and the bonus's gain; zeros when only an inverse term is met.
// With tr the chosen term's alignment is left in s.pos.
func (x *index) judgeSet(s *scratch, set []*pattern, j int, tr traceMode) (v, gain int32, chosen *pattern, met bool) {
	var best int32
	for _, p := range set {
		w, n, ok := x.matches(s, p, j, traceNone)
		switch {
		case p.Inverse:
			met = met || !ok
		case ok && (chosen == nil || w > best):
			best, v, gain, chosen, met = w, n+int32(len(p.runes)), w-n, p, true
		}
	}
	if chosen != nil && tr != traceNone {
		x.matches(s, chosen, j, tr)
	}
	return v, gain, chosen, met
}

// highlight returns the byte offsets of the runes path j's match of q
// highlights: the positions of each set's chosen term, ascending, each
// once; the set whose term gains most by the base-name bonus (counted
// once) shows that alignment, the others theirs without it.
func (x *index) highlight(s *scratch, q *query, j int) []int {
	top, most := -1, int32(0)
	for i, set := range q.sets {
		if _, g, _, _ := x.judgeSet(s, set, j, traceNone); g > most {
			top, most = i, g
		}
	}
	var rs []int32
	for i, set := range q.sets {
		tr := traceNoBase
		if i == top || len(q.sets) == 1 {
			tr = traceBest
		}
		if _, _, p, _ := x.judgeSet(s, set, j, tr); p != nil {
			rs = append(rs, s.pos[:len(p.runes)]...)
		}
	}
	slices.Sort(rs)
	rs = slices.Compact(rs)
	s.pos = append(s.pos[:0], rs...)
	return x.positions(s, j)
}
