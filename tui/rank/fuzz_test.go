package rank

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// FuzzRank ranks any query over any newline-separated paths and checks
// that the result is complete and sound: exactly the paths holding the
// query's runes in order match (under smart case), each match's positions
// are ascending rune starts in bounds holding those runes, and neither
// typing the query rune by rune first nor adding half the paths after a
// first ranking changes anything.
func FuzzRank(f *testing.F) {
	f.Add("srv", "net/http/server.go\ncmd/go/main.go\nsrv")
	f.Add("Ab", "aAb\nAB\nab/AbAb")
	f.Add("é/ü", "café/menü.txt\nÉ/Ü\né/ü")
	f.Add("\xff", "a\xffb\n\xff\xfe")
	f.Add("aaaa", strings.Repeat("a", 300))
	f.Add("K", "\u212a\nk\nK")
	f.Add("", "a\nb")
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
		if !reflect.DeepEqual(again, res) {
			t.Fatalf("%q: typed rune by rune ranks differently", query)
		}
		half := New(paths[:len(paths)/2])
		half.Rank(context.Background(), query, 3)
		half.Add(paths[len(paths)/2:])
		if added, _ := half.Rank(context.Background(), query, 0); !reflect.DeepEqual(added, res) {
			t.Fatalf("%q: ranked over half the paths, then all added, ranks differently", query)
		}
	})
}

// checkMatches checks res against a plain subsequence test of every path.
func checkMatches(t *testing.T, query string, paths []string, res Result) {
	t.Helper()
	if query == "" {
		if res.Total != len(paths) || len(res.Matches) != len(paths) {
			t.Fatalf("empty query: %d of %d paths", res.Total, len(paths))
		}
		return
	}
	q := []rune(query)
	sensitive := strings.IndexFunc(query, unicode.IsUpper) >= 0
	found := map[int]bool{}
	for _, m := range res.Matches {
		found[m.Index] = true
		checkPositions(t, q, sensitive, paths[m.Index], m.Positions)
	}
	if res.Total != len(res.Matches) || len(found) != len(res.Matches) {
		t.Fatalf("total %d, %d matches, %d distinct", res.Total, len(res.Matches), len(found))
	}
	for i, p := range paths {
		if want := holds(p, q, sensitive); want != found[i] {
			t.Fatalf("%q in %q: matched %v, holds the runes in order %v", query, p, found[i], want)
		}
	}
}

// checkPositions checks that pos are ascending rune starts of path (as
// ranging over it decodes them) holding the runes of q.
func checkPositions(t *testing.T, q []rune, sensitive bool, path string, pos []int) {
	t.Helper()
	if len(pos) != len(q) {
		t.Fatalf("%q in %q: %d positions", string(q), path, len(pos))
	}
	starts := map[int]bool{}
	for b := range path {
		starts[b] = true
	}
	for k, b := range pos {
		if !starts[b] || k > 0 && b <= pos[k-1] {
			t.Fatalf("%q in %q: bad positions %v", string(q), path, pos)
		}
		r, _ := utf8.DecodeRuneInString(path[b:])
		if !same(r, q[k], sensitive) {
			t.Fatalf("%q in %q: position %d holds %q", string(q), path, b, r)
		}
	}
}

// holds reports whether path holds the runes of q in order.
func holds(path string, q []rune, sensitive bool) bool {
	k := 0
	for _, r := range path {
		if k < len(q) && same(r, q[k], sensitive) {
			k++
		}
	}
	return k == len(q)
}

func same(r, q rune, sensitive bool) bool {
	if sensitive {
		return r == q
	}
	return unicode.ToLower(r) == unicode.ToLower(q)
}
