package rank

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// refMatches reports whether line matches the query ParseQuery parsed
// into sets by fzf's rules, written naively from fzf's algo.go: every set
// has a positive term that matches or an inverse term that does not.
func refMatches(sets [][]Term, line string) bool {
	for _, set := range sets {
		met := false
		for _, t := range set {
			if refTerm(t, line) != t.Inverse {
				met = true
			}
		}
		if !met {
			return false
		}
	}
	return true
}

// refTerm reports whether term t, its inverse aside, matches line.
func refTerm(t Term, line string) bool {
	orig := []rune(line)
	text := make([]rune, len(orig))
	for i, r := range orig {
		switch {
		case t.CaseSensitive:
		case t.Kind == Fuzzy && r < utf8.RuneSelf:
			r = unicode.ToLower(r)
		case t.Kind == Fuzzy:
			if !unicode.IsLower(r) && unicode.IsUpper(r) {
				r = unicode.ToLower(r)
			}
		default:
			r = unicode.ToLower(r)
		}
		if t.Normalize {
			r = normalizeRune(r)
		}
		text[i] = r
	}
	pat := []rune(t.Text)
	at := func(i int) bool { return i >= 0 && i+len(pat) <= len(text) && slices.Equal(text[i:i+len(pat)], pat) }
	word := func(i int) bool { return i >= 0 && i < len(orig) && fzfWordRune(orig[i]) }
	lo, end := 0, len(text)
	if !unicode.IsSpace(pat[0]) {
		for lo < len(orig) && unicode.IsSpace(orig[lo]) {
			lo++
		}
	}
	if !unicode.IsSpace(pat[len(pat)-1]) {
		for end > 0 && unicode.IsSpace(orig[end-1]) {
			end--
		}
	}
	switch t.Kind {
	case Fuzzy:
		k := 0
		for _, r := range text {
			if k < len(pat) && r == pat[k] {
				k++
			}
		}
		return k == len(pat)
	case Prefix:
		return at(lo)
	case Suffix:
		return at(end - len(pat))
	case Equal:
		return end-lo == len(pat) && at(lo)
	}
	for i := range text {
		if at(i) && (t.Kind == Exact || !word(i-1) && !word(i+len(pat))) {
			return true
		}
	}
	return false
}

// syntaxAlphabet builds random queries: letters in both cases, letters
// with diacritics, operators, escaped and plain spaces.
var syntaxAlphabet = []string{"a", "b", "s", "A", "S", "é", "É", "K", "/", ".", "_", " ", " ", "!", "^", "$", "'", "|", " | ", "\\ ", "ab", "sa"}

// pathAlphabet builds random paths, with runes that fold or normalize to
// ASCII (the Kelvin sign, é, Å) and white space at either end.
var pathAlphabet = []rune("aabbsSA/._- \u212aéÉÅåǅ")

func randomQuery(rng *rand.Rand) string {
	var b strings.Builder
	for range 1 + rng.IntN(5) {
		b.WriteString(syntaxAlphabet[rng.IntN(len(syntaxAlphabet))])
	}
	return b.String()
}

// TestQueryMatchesReference ranks random syntax queries over random paths
// and holds the match set to refMatches, the order to the reference
// scorer's when the query is one term, and typing, deleting and adding
// paths to a fresh ranking.
func TestQueryMatchesReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 22))
	paths := make([]string, 3*chunkSize)
	for i := range paths {
		paths[i] = randomString(rng, pathAlphabet, rng.IntN(14))
	}
	r := New(paths)
	half := New(paths[:len(paths)/2])
	half.Add(paths[len(paths)/2:])
	for n := range 400 {
		q := randomQuery(rng)
		res, err := r.Rank(context.Background(), q, 0)
		if err != nil {
			t.Fatal(err)
		}
		checkSyntaxMatches(t, q, paths, res)
		fresh, _ := uncached(r).Rank(context.Background(), q, 0)
		if !sameResult(res, fresh) {
			t.Fatalf("#%d %q: ranked after earlier queries, differs from fresh", n, q)
		}
		if added, _ := half.Rank(context.Background(), q, 0); !sameResult(added, fresh) {
			t.Fatalf("#%d %q: ranked over added paths, differs from fresh", n, q)
		}
	}
}

// checkSyntaxMatches checks res against refMatches over every path: the
// same set, each match once, positions ascending rune starts of its path.
func checkSyntaxMatches(t *testing.T, query string, paths []string, res Result) {
	t.Helper()
	found := make([]bool, len(paths))
	distinct := 0
	for _, m := range res.Matches {
		if !found[m.Index] {
			found[m.Index] = true
			distinct++
		}
		checkRuneStarts(t, query, paths[m.Index], m.Positions)
	}
	if res.Total != len(res.Matches) || distinct != len(res.Matches) {
		t.Fatalf("%q: total %d, %d matches, %d distinct", query, res.Total, len(res.Matches), distinct)
	}
	sets := ParseQuery(query)
	for i, p := range paths {
		if want := refMatches(sets, p); want != found[i] {
			t.Fatalf("%q in %q: matched %v, fzf's rules say %v", query, p, found[i], want)
		}
	}
}

// checkRuneStarts checks that pos are ascending rune starts of path, as
// ranging over it decodes them (an invalid byte is a rune of its own).
func checkRuneStarts(t *testing.T, query, path string, pos []int) {
	t.Helper()
	k := 0 // pos[:k] are starts already passed, in order
	for b := range path {
		if k < len(pos) && pos[k] == b {
			k++
		}
	}
	if k != len(pos) { // a position not a start, out of order or twice
		t.Fatalf("%q in %q: bad positions %v", query, path, pos)
	}
}
