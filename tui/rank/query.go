package rank

import (
	"cmp"
	"encoding/binary"
	"slices"
	"strings"
	"unicode/utf8"
)

// The query syntax is fzf's extended search, parsed exactly as fzf's
// parseTerms (src/pattern.go) parses it, so that a query selects the
// lines fzf selects:
//
//   - Terms are separated by spaces and must all match, in any order.
//     Leading spaces and unescaped trailing spaces are ignored; `\ ` is a
//     literal space inside a term.
//   - `term` matches its runes in order (fuzzy); `'term` is an exact
//     substring, `'term'` a substring at word boundaries, `^term` a
//     prefix of the line, `term$` a suffix, `^term$` the whole line
//     (prefixes and suffixes ignore the line's leading and trailing
//     white space unless the term starts or ends with a space).
//   - `!term` matches a line that does not contain term as a substring;
//     `!^term`, `!term$`, `!^term$` and `!'term` (not holding the runes
//     in order) likewise.
//   - `a | b` matches a line that either term matches: a term followed
//     by `|` and another term forms one set with it.
//   - Smart case per term: a term with an upper-case rune (one that
//     strings.ToLower changes) is case-sensitive, otherwise it matches
//     either case. A term without letters with diacritics matches them
//     by their base letters (café for cafe), as fzf normalizes.

// TermKind is how a term matches a line.
type TermKind uint8

// The term kinds, as fzf names them.
const (
	Fuzzy    TermKind = iota // term: its runes in order
	Exact                    // 'term: a substring
	Boundary                 // 'term': a substring starting and ending at word boundaries
	Prefix                   // ^term: the start of the line
	Suffix                   // term$: the end of the line
	Equal                    // ^term$: the whole line
)

// Term is one term of a parsed query.
type Term struct {
	Kind    TermKind
	Inverse bool // !term: matches a line the term does not match
	// Text is the term's text, in lower case unless CaseSensitive, with
	// letters with diacritics replaced by their base letters when
	// Normalize.
	Text          string
	CaseSensitive bool
	// Normalize says the line's letters with diacritics are matched by
	// their base letters: the term's text has none itself.
	Normalize bool
}

// ParseQuery parses query in fzf's extended search syntax (above) into
// sets of terms: a line matches when every set has a term that matches
// it. A query of no terms (empty, spaces, a lone `!`, `^` or `'`)
// matches every line.
func ParseQuery(query string) [][]Term {
	query = strings.TrimLeft(query, " ")
	for strings.HasSuffix(query, " ") && !strings.HasSuffix(query, "\\ ") {
		query = query[:len(query)-1]
	}
	var sets [][]Term
	var set []Term
	switchSet, afterBar := false, false
	for _, token := range splitSpaces(strings.ReplaceAll(query, "\\ ", "\t")) {
		text := strings.ReplaceAll(token, "\t", " ")
		lower := strings.ToLower(text)
		t := Term{CaseSensitive: text != lower, Normalize: lower == normalizeString(lower)}
		if !t.CaseSensitive {
			text = lower
		}
		if len(set) > 0 && !afterBar && text == "|" {
			switchSet, afterBar = false, true
			continue
		}
		afterBar = false
		t.Kind, t.Inverse, text = termKind(text)
		if text == "" {
			continue
		}
		if switchSet {
			sets, set = append(sets, set), nil
		}
		if t.Normalize {
			text = normalizeString(text)
		}
		t.Text = text
		set, switchSet = append(set, t), true
	}
	if len(set) > 0 {
		sets = append(sets, set)
	}
	return sets
}

// termKind reads a token's operators as fzf does, in fzf's order: `!`,
// then `$`, then `'…'`, `'` or `^`. It returns the kind, whether the term
// is inverse, and the text without its operators.
func termKind(text string) (TermKind, bool, string) {
	kind, inv := Fuzzy, false
	if strings.HasPrefix(text, "!") {
		kind, inv, text = Exact, true, text[1:]
	}
	if text != "$" && strings.HasSuffix(text, "$") {
		kind, text = Suffix, text[:len(text)-1]
	}
	switch {
	case len(text) > 2 && strings.HasPrefix(text, "'") && strings.HasSuffix(text, "'"):
		kind, text = Boundary, text[1:len(text)-1]
	case strings.HasPrefix(text, "'"):
		// flips exactness: 'term is exact, !'term fuzzy
		kind, text = Exact, text[1:]
		if inv {
			kind = Fuzzy
		}
	case strings.HasPrefix(text, "^"):
		text = text[1:]
		if kind == Suffix {
			kind = Equal
		} else {
			kind = Prefix
		}
	}
	return kind, inv, text
}

// splitSpaces splits s at every run of spaces, as fzf's regexp " +" does
// (a leading or trailing run yields an empty token).
func splitSpaces(s string) []string {
	var out []string
	for {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i])
		s = strings.TrimLeft(s[i:], " ")
	}
}

// normalizeString replaces the runes fzf normalizes by their base
// letters, as string(algo.NormalizeRunes([]rune(s))) does in fzf (so
// invalid UTF-8 becomes U+FFFD).
func normalizeString(s string) string {
	rs := []rune(s)
	for i, r := range rs {
		rs[i] = normalizeRune(r)
	}
	return string(rs)
}

//go:generate go run ./testdata/gennorm -o normalize_table.go

// normalizeRune is fzf's normalizeRune: the base letter of r, or r.
func normalizeRune(r rune) rune {
	if r < 0x00C0 || r > 0xFF61 {
		return r
	}
	if i, ok := slices.BinarySearchFunc(normalized[:], r, func(p [2]rune, r rune) int { return cmp.Compare(p[0], r) }); ok {
		return normalized[i][1]
	}
	return r
}

// isASCII reports whether s is all ASCII, eight bytes at a time (the
// last eight again, overlapping, for the tail).
func isASCII(s string) bool {
	b := bytesOf(s)
	if len(b) < 8 {
		for _, c := range b {
			if c >= utf8.RuneSelf {
				return false
			}
		}
		return true
	}
	high := binary.LittleEndian.Uint64(b[len(b)-8:])
	for i := 0; i+8 <= len(b); i += 8 {
		high |= binary.LittleEndian.Uint64(b[i : i+8])
	}
	return high&(0x80*lsbs) == 0
}

// Locate reports whether term t of one of the exact kinds (not Fuzzy)
// matches s, its inverse aside, by the rules the Ranker follows, and the
// byte offsets in s of the runes it matched: the best occurrence, as a
// path's would be scored. It is for short texts matched one at a time
// (session titles): it prepares s each call.
func Locate(t Term, s string) ([]int, bool) {
	if t.Kind == Fuzzy || t.Text == "" {
		return nil, false
	}
	x, p, sc := newIndex([]string{s}), compileTerm(t), &scratch{}
	if _, _, ok := x.matches(sc, p, 0, traceBest); !ok {
		return nil, false
	}
	sc.pos = sc.pos[:len(p.runes)]
	return x.positions(sc, 0), true
}

// Narrows reports whether every line query next matches is matched by
// query prev, so that next's matches can be searched among prev's. It
// may report false for some such pairs (then the caller searches
// everything); typing a term longer, or another term, narrows.
func Narrows(prev, next string) bool {
	p, n := compileQuery(prev), compileQuery(next)
	switch {
	case p == nil:
		return true
	case n == nil:
		return false
	}
	return n.implies(p)
}
