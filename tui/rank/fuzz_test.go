package rank

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzRank ranks any query over any newline-separated paths and checks
// that the result is complete and sound: exactly the paths fzf's rules
// select match (refMatches), each match's positions are ascending rune
// starts in bounds (holding the term's runes, for a query of one fuzzy
// term), and neither typing the query rune by rune first nor adding half
// the paths after a first ranking changes anything.
func FuzzRank(f *testing.F) {
	f.Add("srv", "net/http/server.go\ncmd/go/main.go\nsrv")
	f.Add("Ab", "aAb\nAB\nab/AbAb")
	f.Add("é/ü", "café/menü.txt\nÉ/Ü\né/ü")
	f.Add("\xff", "a\xffb\n\xff\xfe")
	f.Add("aaaa", strings.Repeat("a", 300))
	f.Add("K", "\u212a\nk\nK")
	f.Add("", "a\nb")
	f.Add("^a b$ !c 'd | e", "a/b\nax/d.b\na c b\n e\n")
	f.Add("'ab' cafe", "x/ab/café\nxab/cafe")
	f.Fuzz(func(t *testing.T, query, list string) {
		paths := strings.Split(list, "\n")
		res, err := New(paths).Rank(context.Background(), query, 0)
		if err != nil {
			t.Fatal(err)
		}
		checkMatches(t, query, paths, res)
		r := New(paths)
		for i := range query {
			if i > 0 && utf8.RuneStart(query[i]) {
				r.Rank(context.Background(), query[:i], 3)
			}
		}
		again, _ := r.Rank(context.Background(), query, 0)
		if !sameResult(again, res) {
			t.Fatalf("%q: typed rune by rune ranks differently", query)
		}
		half := New(paths[:len(paths)/2])
		half.Rank(context.Background(), query, 3)
		half.Add(paths[len(paths)/2:])
		if added, _ := half.Rank(context.Background(), query, 0); !sameResult(added, res) {
			t.Fatalf("%q: ranked over half the paths, then all added, ranks differently", query)
		}
	})
}

// checkMatches checks res against fzf's rules (refMatches) over every
// path and, for a query of one fuzzy term, that each match's positions
// hold the term's runes.
func checkMatches(t *testing.T, query string, paths []string, res Result) {
	t.Helper()
	sets := ParseQuery(query)
	if len(sets) == 0 {
		if res.Total != len(paths) || len(res.Matches) != len(paths) {
			t.Fatalf("no terms: %d of %d paths", res.Total, len(paths))
		}
		return
	}
	checkSyntaxMatches(t, query, paths, res)
	if len(sets) != 1 || len(sets[0]) != 1 || sets[0][0].Kind != Fuzzy || sets[0][0].Inverse {
		return
	}
	term := sets[0][0]
	for _, m := range res.Matches {
		checkPositions(t, term, paths[m.Index], m.Positions)
	}
}

// checkPositions checks that pos hold the runes of fuzzy term t in path,
// as fzf folds them.
func checkPositions(t *testing.T, term Term, path string, pos []int) {
	t.Helper()
	q := []rune(term.Text)
	if len(pos) != len(q) {
		t.Fatalf("%q in %q: %d positions", term.Text, path, len(pos))
	}
	for k, b := range pos {
		r, _ := utf8.DecodeRuneInString(path[b:])
		if !refTerm(Term{Kind: Fuzzy, Text: string(q[k]), CaseSensitive: term.CaseSensitive, Normalize: term.Normalize}, string(r)) {
			t.Fatalf("%q in %q: position %d holds %q", term.Text, path, b, r)
		}
	}
}
