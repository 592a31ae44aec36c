package sessions

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

// Titles are matched with github.com/sahilm/fuzzy, the frontend's fuzzy
// matcher, called directly. Titles are sentences, not paths, and its
// scoring suits text typed to find a sentence: bonuses for the first
// character, for characters after a space or other separator, for
// camelCase humps and for adjacent runs; penalties for leading and
// unmatched characters. Its MatchedIndexes, byte offsets of the matched
// runes in the title, are the highlights. A title matches when the
// filter's runes occur in it in order.
//
// The library places each filter rune but the last at the best
// occurrence it has seen when the next rune first follows, so it anchors
// a filter at the first word that can start it: "tree" in "Refactor
// tui/tree rows" takes the t of "Refactor". A matching title is
// therefore matched again once for each later word (at most maxStarts)
// that starts with the filter's first rune, with the occurrences before
// that word masked by a character of the same class that the filter does
// not hold, so that positions, lengths and every bonus stay what they
// are; the best of these alignments, all scored by the library, counts.
// Only ASCII first runes are realigned (masking keeps byte offsets only
// for them).
//
// Smart case, as on the Files page: smartcase.go.

// titleMatch is a row whose title matches the filter.
type titleMatch struct {
	row   int   // index in Model.rows
	at    int   // index in the candidates: ties keep their order
	score int   // the library's score; higher is better
	pos   []int // byte offsets in the title of the matched runes
}

// checkEvery is how many titles are matched between looks at the
// context: a look costs little next to matching 256 titles, and a
// cancelled ranking stops within about a millisecond.
const checkEvery = 256

// maxStarts bounds the later words a title is matched again from: a
// title rarely has more words starting with one letter, and each costs
// a match.
const maxStarts = 8

// matchTitles returns the candidates (row indices, in the order ties
// keep) whose titles match query, in candidate order; title gives a
// row's title. It reports false when ctx ended first.
func matchTitles(ctx context.Context, query string, cands []int, title func(row int) string) ([]titleMatch, bool) {
	p := compile(query)
	titles := func(yield func(string) bool) {
		for i, r := range cands {
			if i%checkEvery == 0 && ctx.Err() != nil {
				return
			}
			if !yield(p.form(title(r))) {
				return
			}
		}
	}
	found := fuzzy.FindFromIterNoSort(p.text, titles)
	if ctx.Err() != nil {
		return nil, false
	}
	out := make([]titleMatch, len(found))
	for i, f := range found {
		r := cands[f.Index]
		out[i] = titleMatch{row: r, at: f.Index, score: f.Score, pos: p.offsets(title(r), f.MatchedIndexes)}
	}
	if !p.realign(ctx, out, title) {
		return nil, false
	}
	return out, true
}

// realign gives each match the best of its alignments from later words
// that start with the filter's first rune. It reports false when ctx
// ended first.
func (p *pattern) realign(ctx context.Context, ms []titleMatch, title func(row int) string) bool {
	if p.first == 0 {
		return true
	}
	var owner []int // per variant: its match
	variants := func(yield func(string) bool) {
		for i := range ms {
			if i%checkEvery == 0 && ctx.Err() != nil {
				return
			}
			t := title(ms[i].row)
			for _, s := range p.laterStarts(t, ms[i].pos[0]) {
				owner = append(owner, i)
				if !yield(p.form(p.masked(t, s))) {
					return
				}
			}
		}
	}
	found := fuzzy.FindFromIterNoSort(p.text, variants)
	if ctx.Err() != nil {
		return false
	}
	for _, f := range found {
		m := &ms[owner[f.Index]]
		if f.Score > m.score {
			m.score, m.pos = f.Score, p.offsets(title(m.row), f.MatchedIndexes)
		}
	}
	return true
}

// bestFirst orders matches by score, best first; equal scores keep the
// candidates' order.
func bestFirst(ms []titleMatch) {
	slices.SortFunc(ms, func(a, b titleMatch) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.at, b.at)) })
}

// pattern is a filter prepared for matching.
type pattern struct {
	text      string // the filter as the library gets it
	sensitive bool   // smart case: the filter has an upper-case rune
	// first is the filter's first rune when matches are realigned on it:
	// the filter has more runes and first is ASCII (else 0). Its
	// occurrences are masked by a letter of the same case (lower, upper)
	// when it is a letter, else by a character of its class (other: a
	// separator for a separator), none of which the filter holds.
	first               byte
	lower, upper, other byte
}

// separators are the library's word separators.
const separators = "/-_ .\\"

// compile prepares a non-empty filter.
func compile(query string) *pattern {
	p := &pattern{text: query, sensitive: caseSensitive(query)}
	if p.sensitive {
		p.text = swapCapitals(query)
	}
	if utf8.RuneCountInString(query) < 2 || query[0] >= utf8.RuneSelf {
		return p
	}
	var mask byte
	switch first := query[0]; {
	case isLetter(first):
		p.lower = unused(query, "abcdefghijklmnopqrstuvwxyz")
		p.upper, mask = p.lower&^0x20, p.lower
	case strings.IndexByte(separators, first) >= 0:
		p.other = unused(query, separators)
		mask = p.other
	default:
		p.other = unused(query, "#%&*+0123456789:;<=>?@^|~!")
		mask = p.other
	}
	if mask != 0 {
		p.first = query[0]
	}
	return p
}

// unused returns the first of candidates that matches none of query's
// runes, as the library compares them (0 when all do).
func unused(query, candidates string) byte {
	for _, c := range []byte(candidates) {
		if !strings.ContainsFunc(query, func(r rune) bool { return strings.EqualFold(string(r), string(rune(c))) }) {
			return c
		}
	}
	return 0
}

// form is a title as the library gets it.
func (p *pattern) form(t string) string {
	if p.sensitive {
		return swapCapitals(t)
	}
	return t
}

// offsets turns the library's offsets in p.form(t) into offsets in t.
func (p *pattern) offsets(t string, pos []int) []int {
	if p.sensitive {
		return unswappedOffsets(t, pos)
	}
	return pos
}

// holds reports whether byte b of a title is an occurrence of the first
// rune.
func (p *pattern) holds(b byte) bool {
	if p.sensitive || !isLetter(p.first) {
		return b == p.first
	}
	return isLetter(b) && b|0x20 == p.first|0x20
}

// laterStarts returns the offsets after from of words in t that start
// with the first rune: at most maxStarts.
func (p *pattern) laterStarts(t string, from int) []int {
	var starts []int
	for i := from + 1; i < len(t) && len(starts) < maxStarts; i++ {
		if p.holds(t[i]) && wordStart(t, i) {
			starts = append(starts, i)
		}
	}
	return starts
}

// wordStart reports whether t[i] starts a word as the library's bonuses
// see it: after a separator, or an upper-case letter after a lower-case
// one.
func wordStart(t string, i int) bool {
	prev, _ := utf8.DecodeLastRuneInString(t[:i])
	return strings.ContainsRune(separators, prev) || unicode.IsLower(prev) && unicode.IsUpper(rune(t[i]))
}

// masked returns t with the first rune's occurrences before offset s
// masked.
func (p *pattern) masked(t string, s int) string {
	b := []byte(t)
	for i := range s {
		switch {
		case !p.holds(b[i]):
		case 'a' <= b[i] && b[i] <= 'z':
			b[i] = p.lower
		case 'A' <= b[i] && b[i] <= 'Z':
			b[i] = p.upper
		default:
			b[i] = p.other
		}
	}
	return string(b)
}

func isLetter(b byte) bool { return 'a' <= b|0x20 && b|0x20 <= 'z' }
