package rank

import (
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
)

// The committed path lists (testdata/record.sh lists them), read once.
var (
	goTreeOnce = sync.OnceValues(func() ([]string, error) { return readList("testdata/gotree.txt") })
	pyTreeOnce = sync.OnceValues(func() ([]string, error) { return readList("testdata/pytree.txt") })
)

// readList reads a newline-separated path list.
func readList(name string) ([]string, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"), nil
}

// goTree is testdata/gotree.txt: the Go source tree's files, relative to
// GOROOT/src, in byte order.
func goTree(tb testing.TB) []string {
	tb.Helper()
	paths, err := goTreeOnce()
	if err != nil {
		tb.Fatalf("reading the Go tree's list: %v", err)
	}
	return paths
}

// pyTree is testdata/pytree.txt: the Python library tree's files.
func pyTree(tb testing.TB) []string {
	tb.Helper()
	paths, err := pyTreeOnce()
	if err != nil {
		tb.Fatalf("reading the Python tree's list: %v", err)
	}
	return paths
}

// rankOf returns the 1-based rank of path in res, or 0.
func rankOf(res Result, paths []string, path string) int {
	for i, m := range res.Matches {
		if paths[m.Index] == path {
			return i + 1
		}
	}
	return 0
}

// uncached is a Ranker of r's paths as New returns it (nothing cached,
// scratch of its own) without preparing them again: it shares r's table,
// which is never modified once published (table.go). The tests that hold
// a ranking after many others to one from scratch rank the one from
// scratch on it; preparing the paths anew for every query was most of
// their cost under -race, and New's own preparation is what the Ranker
// under test was built with.
func uncached(r *Ranker) *Ranker { return newRanker(r.tab.Load()) }

// reference scores every path of r for query one at a time, on one
// goroutine, and sorts the matches by compare: what Rank(query, 0) must
// return.
func reference(r *Ranker, query string) []hit {
	t, p := r.tab.Load(), compile(query)
	var ref []hit
	for i := range t.n {
		x, j := t.block(i)
		if v, _ := x.score(&scratch{}, p, j, false); v != noMatch {
			ref = append(ref, hit{idx: int32(i), score: v})
		}
	}
	slices.SortFunc(ref, t.compare)
	return ref
}

// cached returns the cached match set of query, or nil.
func cached(r *Ranker, query string) *matchSet {
	return r.cache.lookup(compileQuery(query).key)
}

// sameResult is reflect.DeepEqual(a, b) for two Results, written out: the
// heavy equivalence tests compare thousands of matches a step, which
// reflection makes the larger part of their time under -race.
// TestSameResultIsDeepEqual holds the two to the same answers.
func sameResult(a, b Result) bool {
	if a.Query != b.Query || a.Paths != b.Paths || a.Total != b.Total ||
		(a.Matches == nil) != (b.Matches == nil) || len(a.Matches) != len(b.Matches) {
		return false
	}
	for i, x := range a.Matches {
		y := b.Matches[i]
		if x.Index != y.Index || x.Score != y.Score ||
			(x.Positions == nil) != (y.Positions == nil) || !slices.Equal(x.Positions, y.Positions) {
			return false
		}
	}
	return true
}
