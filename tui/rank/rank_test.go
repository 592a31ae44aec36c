package rank

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
)

// ranked returns the matched paths of Rank(query, k), best first.
func ranked(t *testing.T, r *Ranker, query string, k int) []string {
	t.Helper()
	res, err := r.Rank(context.Background(), query, k)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range res.Matches {
		out = append(out, r.Path(m.Index))
	}
	return out
}

func TestRankOrder(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, query string
		paths       []string
		want        []string
	}{
		{"base name beats directories", "netip",
			[]string{"net/ip.go", "net/netip/netip.go", "netx/ip/p.go"},
			[]string{"net/netip/netip.go", "net/ip.go", "netx/ip/p.go"}},
		{"directory query names directories", "cmdgo",
			[]string{"cmd/internal/script/cmds.go", "cmd/go/main.go"},
			[]string{"cmd/go/main.go", "cmd/internal/script/cmds.go"}},
		{"contiguous beats scattered", "server",
			[]string{"src/e/r/v/e/r.go", "x/server.go"},
			[]string{"x/server.go", "src/e/r/v/e/r.go"}},
		{"one-rune words are not whole words", "ab",
			[]string{"a/b/c/d/e/f.go", "x/ab.go"},
			[]string{"x/ab.go", "a/b/c/d/e/f.go"}},
		{"word start beats mid-word", "map",
			[]string{"bitmap.go", "map.go"},
			[]string{"map.go", "bitmap.go"}},
		{"camelCase humps are word starts", "fb",
			[]string{"fooxbar.go", "fooBar.go"},
			[]string{"fooBar.go", "fooxbar.go"}},
		{"shorter path wins a tie", "x",
			[]string{"bb/x.go", "a/x.go"},
			[]string{"a/x.go", "bb/x.go"}},
		{"then path bytes, then index", "x",
			[]string{"b/x.go", "a/x.go", "a/x.go"},
			[]string{"a/x.go", "a/x.go", "b/x.go"}},
		{"file named after its directory", "unsafe",
			[]string{"math/unsafe.go", "unsafe/unsafe.go"},
			[]string{"unsafe/unsafe.go", "math/unsafe.go"}},
		{"no match", "zz", []string{"a", "b"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ranked(t, New(tt.paths), tt.query, 0); !slices.Equal(got, tt.want) {
				t.Errorf("%q: got %q, want %q", tt.query, got, tt.want)
			}
		})
	}
}

func TestRankIndexesForDuplicates(t *testing.T) {
	t.Parallel()
	res, err := New([]string{"b/x.go", "a/x.go", "a/x.go"}).Rank(context.Background(), "x", 0)
	if err != nil {
		t.Fatal(err)
	}
	var idx []int
	for _, m := range res.Matches {
		idx = append(idx, m.Index)
	}
	if !slices.Equal(idx, []int{1, 2, 0}) {
		t.Errorf("indexes %v, want [1 2 0]", idx)
	}
}

func TestRankSmartCase(t *testing.T) {
	t.Parallel()
	paths := []string{"README.md", "readme.txt", "ReadMe.rst", "docs/rEADME"}
	tests := []struct {
		query string
		want  []string
	}{
		{"readme", []string{"README.md", "ReadMe.rst", "readme.txt", "docs/rEADME"}},
		{"README", []string{"README.md"}},
		{"ReadMe", []string{"ReadMe.rst"}},
		{"RM", []string{"README.md", "ReadMe.rst"}},
		{"rM", []string{"docs/rEADME"}},
	}
	r := New(paths)
	for _, tt := range tests {
		got := ranked(t, r, tt.query, 0)
		slices.Sort(got)
		slices.Sort(tt.want)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: got %q, want %q", tt.query, got, tt.want)
		}
	}
}

func TestRankPositions(t *testing.T) {
	t.Parallel()
	tests := []struct {
		path, query string
		want        []int
	}{
		{"net/http/server.go", "server.go", []int{9, 10, 11, 12, 13, 14, 15, 16, 17}},
		{"net/http/server.go", "http/server", []int{4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}},
		{"cmd/go/main.go", "cmdgo", []int{0, 1, 2, 4, 5}},
		{"src/sort/sort.go", "sort", []int{9, 10, 11, 12}},
		{"café/menü.txt", "menü", []int{6, 7, 8, 9}},
		{"café/menü.txt", "éme", []int{3, 6, 7}},
		{"ÉCOLE/x", "école", []int{0, 2, 3, 4, 5}},
	}
	for _, tt := range tests {
		res, err := New([]string{tt.path}).Rank(context.Background(), tt.query, 0)
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Matches) != 1 || !slices.Equal(res.Matches[0].Positions, tt.want) {
			t.Errorf("%q in %q: got %+v, want positions %v", tt.query, tt.path, res.Matches, tt.want)
		}
	}
}

func TestRankEmptyQuery(t *testing.T) {
	t.Parallel()
	r := New([]string{"b", "a", "c"})
	res, err := r.Rank(context.Background(), "", 2)
	if err != nil {
		t.Fatal(err)
	}
	want := Result{Paths: 3, Total: 3, Matches: []Match{{Index: 0}, {Index: 1}}}
	if !sameResult(res, want) {
		t.Errorf("got %+v, want %+v", res, want)
	}
	if res, _ := r.Rank(context.Background(), "", 0); len(res.Matches) != 3 {
		t.Errorf("k=0: %d matches, want 3", len(res.Matches))
	}
}

// typing lists the queries of typing query one rune at a time, then
// deleting it back to one rune.
func typing(query string) []string {
	var qs []string
	for i := range query {
		qs = append(qs, query[:i+1])
	}
	for i := len(query) - 1; i > 0; i-- {
		qs = append(qs, query[:i])
	}
	return qs
}

// TestRankIncrementalEqualsFresh types and deletes queries on one Ranker
// (narrowing from and restoring cached results) and compares every
// result with a fresh Ranker's and with the top k of the full order.
func TestRankIncrementalEqualsFresh(t *testing.T) {
	t.Parallel()
	paths := goTree(t)
	r := New(paths)
	for _, query := range []string{"nethttpserver", "Server", "ctxgo", "zzzzq", "a/b/c"} {
		for _, q := range typing(query) {
			got, err := r.Rank(context.Background(), q, 20)
			if err != nil {
				t.Fatal(err)
			}
			want, err := uncached(r).Rank(context.Background(), q, 0)
			if err != nil {
				t.Fatal(err)
			}
			want.Matches = want.Matches[:min(20, len(want.Matches))]
			if !sameResult(got, want) {
				t.Fatalf("%q: incremental and fresh rankings differ:\n%+v\n%+v", q, got, want)
			}
		}
	}
}

// TestRankCachedThenAll ranks the top few first, which leaves most cached
// matches unscored, then everything from that cache entry.
func TestRankCachedThenAll(t *testing.T) {
	t.Parallel()
	paths := goTree(t)
	r := New(paths)
	for _, q := range []string{"s", "sr", "go", "Test"} {
		if _, err := r.Rank(context.Background(), q, 5); err != nil {
			t.Fatal(err)
		}
		got, _ := r.Rank(context.Background(), q, 0)
		want, _ := uncached(r).Rank(context.Background(), q, 0)
		if !sameResult(got, want) {
			t.Fatalf("%q: ranking all from a partly scored cache differs", q)
		}
	}
}

// TestRankMatchesReference compares Rank over the Go tree (parallel
// chunks, heaps) with scoring every path on one goroutine and sorting.
func TestRankMatchesReference(t *testing.T) {
	t.Parallel()
	paths := goTree(t)
	if len(paths) < 2*parallelMin {
		t.Fatalf("%d paths do not exercise the parallel scan", len(paths))
	}
	r := New(paths)
	for _, q := range []string{"s", "go", "srv", "server", "internalhttp"} {
		ref := reference(r, q)
		for _, k := range []int{0, 1, 50} {
			res, err := r.Rank(context.Background(), q, k)
			if err != nil {
				t.Fatal(err)
			}
			want := ref
			if k > 0 {
				want = ref[:min(k, len(ref))]
			}
			if res.Total != len(ref) || !sameHits(res.Matches, want) {
				t.Fatalf("%q k=%d: total %d (want %d), matches differ from reference", q, k, res.Total, len(ref))
			}
		}
	}
}

func sameHits(ms []Match, hs []hit) bool {
	if len(ms) != len(hs) {
		return false
	}
	for i, m := range ms {
		if m.Index != int(hs[i].idx) || m.Score != int(hs[i].score) {
			return false
		}
	}
	return true
}

// cancelAfter is a context whose Err reports cancellation from its n-th
// call on, so a test can stop a ranking at a chosen point.
type cancelAfter struct {
	context.Context
	mu    sync.Mutex
	calls int
	n     int
}

func (c *cancelAfter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls++
	if c.calls >= c.n {
		return context.Canceled
	}
	return nil
}

func TestRankCancelled(t *testing.T) {
	t.Parallel()
	paths := goTree(t)
	r := New(paths)
	for n := 1; n <= 3; n++ {
		ctx := &cancelAfter{Context: context.Background(), n: n}
		if _, err := r.Rank(ctx, "server", 10); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at call %d: err %v", n, err)
		}
	}
	if cached(r, "server") != nil {
		t.Fatal("a cancelled ranking was cached")
	}
	got, err := r.Rank(context.Background(), "server", 10)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := New(paths).Rank(context.Background(), "server", 10)
	if !sameResult(got, want) {
		t.Fatal("ranking after cancellations differs from a fresh one")
	}
}

// TestRankConcurrent calls one Ranker from several goroutines (run with
// -race); each result must equal the sequential one.
func TestRankConcurrent(t *testing.T) {
	t.Parallel()
	paths := goTree(t)
	queries := []string{"s", "se", "ser", "serv", "http", "htt", "cmdgo", "x"}
	want := map[string]Result{}
	for _, q := range queries {
		want[q], _ = New(paths).Rank(context.Background(), q, 10)
	}
	r := New(paths)
	var wg sync.WaitGroup
	errs := make(chan error, 4*len(queries))
	for g := range 4 {
		wg.Go(func() {
			for i := range queries {
				q := queries[(i+g)%len(queries)]
				if got, err := r.Rank(context.Background(), q, 10); err != nil || !sameResult(got, want[q]) {
					errs <- fmt.Errorf("%q: %v", q, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error("concurrent ranking differs:", err)
	}
}

// setOf returns a match set of n hits with rows cells rows each.
func setOf(query string, n, rows int) *matchSet {
	q := compileQuery(query)
	g := newSegment(n, n*rows, q)
	for i := range n {
		g.hits = append(g.hits, hit{idx: int32(i), row: int32(len(g.pos)), n: int32(rows)})
		g.pos = append(g.pos, make([]int32, rows)...)
		g.v0 = append(g.v0, make([]int32, rows)...)
		g.v1 = append(g.v1, make([]int32, rows)...)
	}
	return &matchSet{q: q, total: n, segs: []segment{g}}
}

func TestQueryCacheBounds(t *testing.T) {
	t.Parallel()
	c := newQueryCache()
	c.fit(10) // budget 120: hits plus row cells
	for i := range 4 {
		c.add(setOf(strings.Repeat("a", i+1), 10, 2)) // 30 each
	}
	if c.held != 120 || len(c.sets) != 4 {
		t.Fatalf("held %d in %d sets, want 120 in 4", c.held, len(c.sets))
	}
	c.add(setOf("aaaaa", 10, 2))
	if c.held > c.budget || len(c.sets) != 5 || c.sets[0].rows() != 0 || c.sets[4].rows() != 20 {
		t.Fatalf("rows dropped wrongly: held %d, %d sets", c.held, len(c.sets))
	}
	if got := c.narrowest(compileQuery("aaaaab")); got == nil || got.q.text != "aaaaa" {
		t.Errorf("narrowest: %v", got)
	}
	if got := c.narrowest(compileQuery("aaa")); got == nil || got.q.text != "aa" {
		t.Errorf("narrowest of a cached query: %v", got)
	}
	c.add(setOf("big", 10, 200))
	if big := c.lookup(compileQuery("big").key); c.held > c.budget || big == nil || big.rows() != 0 {
		t.Errorf("a set with rows beyond the budget: held %d", c.held)
	}
	for i := range 100 {
		c.add(setOf(strings.Repeat("b", i+1), 1, 0))
	}
	if len(c.sets) > cacheEntries {
		t.Errorf("%d sets kept", len(c.sets))
	}
}

func TestNarrowestOnRuneBoundary(t *testing.T) {
	t.Parallel()
	c := newQueryCache()
	c.fit(10)
	c.add(setOf("a\xc3", 1, 0))
	if got := c.narrowest(compileQuery("aé")); got != nil {
		t.Errorf("narrowed %q from %q, which cuts a rune", "aé", got.q.text)
	}
}
