package sessions

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Smart case, as on the Files page: a filter without upper-case runes
// matches regardless of case; one upper-case rune makes the whole filter
// case-sensitive. sahilm/fuzzy always folds case, so a case-sensitive
// filter is matched against titles in which every capital (an upper- or
// title-case rune with another case) has been swapped with a stand-in
// that folds with nothing: the Mathematical Bold capitals for A to Z,
// which are upper case too and keep the library's camelCase bonus, and
// the supplementary private use planes for the others. Lower-case runes
// are left alone, so they still match lower-case variants of one letter
// (s and ſ, σ and ς). The swap is its own inverse, so a stand-in written
// in a title becomes a capital that folds only with other stand-ins.
// Scores of a case-sensitive filter count bytes of the swapped titles;
// they are compared only with each other.

// caseSensitive reports whether q has an upper-case rune (smart case).
func caseSensitive(q string) bool { return strings.IndexFunc(q, unicode.IsUpper) >= 0 }

// Stand-ins for capitals.
const (
	boldA       = 0x1D400 // MATHEMATICAL BOLD CAPITAL A: upper case, no other case
	privateBase = 0xF0000 // first rune of the supplementary private use planes
	capitalEnd  = 0x20000 // every capital is below this, so r+privateBase is a rune
)

// standIn returns the rune r is swapped with for a case-sensitive match
// (r itself when it is neither a capital nor a stand-in).
func standIn(r rune) rune {
	switch {
	case 'A' <= r && r <= 'Z':
		return r - 'A' + boldA
	case boldA <= r && r < boldA+26:
		return r - boldA + 'A'
	case r < utf8.RuneSelf:
		return r
	case r < capitalEnd && capital(r):
		return r + privateBase
	case r >= privateBase && capital(r-privateBase):
		return r - privateBase
	}
	return r
}

// capital reports whether r is an upper- or title-case rune with another
// case.
func capital(r rune) bool {
	return (unicode.IsUpper(r) || unicode.IsTitle(r)) && unicode.SimpleFold(r) != r
}

// swapCapitals returns s with every rune swapped by standIn.
func swapCapitals(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return standIn(r) != r }) {
		return s
	}
	b := make([]byte, 0, len(s)+len(s)/4)
	for _, r := range s {
		b = utf8.AppendRune(b, standIn(r))
	}
	return string(b)
}

// unswappedOffsets turns ascending byte offsets in swapCapitals(s) into
// the offsets of the same runes in s.
func unswappedOffsets(s string, pos []int) []int {
	out := make([]int, 0, len(pos))
	swapped := 0
	for i, r := range s {
		if len(out) == len(pos) {
			break
		}
		if pos[len(out)] == swapped {
			out = append(out, i)
		}
		swapped += utf8.RuneLen(standIn(r))
	}
	return out
}
