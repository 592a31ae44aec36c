package rank

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// addPaths is a list with every kind of path Add must place: generated
// paths, ASCII ones with capitals, non-ASCII ones, duplicates and the
// empty path.
func addPaths() []string {
	paths := slices.Clone(gen10k()[:5000])
	for i := range 40 {
		paths = append(paths, fmt.Sprintf("dir/ünï%d/kode.go", i), "dir/\u212aelvin.go", "", paths[i*7], fmt.Sprintf("Dir/SeRver%d/Kode.go", i))
	}
	rng := rand.New(rand.NewPCG(7, 8))
	rng.Shuffle(len(paths), func(i, j int) { paths[i], paths[j] = paths[j], paths[i] })
	return paths
}

// pages splits paths into pages of the given sizes, cycling, so that
// pages start and end on, before and after block boundaries.
func pages(paths []string, sizes []int) [][]string {
	var out [][]string
	for i, k := 0, 0; i < len(paths); k++ {
		n := min(sizes[k%len(sizes)], len(paths)-i)
		out = append(out, paths[i:i+n])
		i += n
	}
	return out
}

// TestAddEqualsNew adds a list page by page, typing and deleting queries
// between pages (so cached results must be extended, narrowed from and
// restored), and compares every ranking with a fresh Ranker's over the
// paths added so far: the same matches, scores, positions and order.
func TestAddEqualsNew(t *testing.T) {
	t.Parallel()
	paths := addPaths()
	queries := []string{"s", "sr", "srv", "ser", "server", "Se", "kode", "ünï", "k", "zzq", "internalhttp"}
	for _, sizes := range [][]int{{1, 1023, 1024, 1025}, {chunkSize}, {3000, 1, 7}, {len(paths)}} {
		t.Run(fmt.Sprint(sizes), func(t *testing.T) {
			ps := pages(paths, sizes)
			r := New(ps[0])
			n := len(ps[0])
			fresh := New(paths[:n])
			for i, page := range ps[1:] {
				q := queries[i%len(queries)]
				for _, typed := range typing(q) {
					checkAgainst(t, r, fresh, paths[:n], typed, 20)
				}
				r.Add(page)
				n += len(page)
				if r.Len() != n {
					t.Fatalf("Len %d after adding %d paths", r.Len(), n)
				}
				fresh = New(paths[:n])
				checkAgainst(t, r, fresh, paths[:n], q, 0)
			}
			for _, q := range queries {
				checkAgainst(t, r, fresh, paths, q, 0)
				checkAgainst(t, r, fresh, paths, q, 7)
			}
		})
	}
}

// checkRanker compares r's ranking of query with a fresh Ranker's over
// want, r's paths (New(want): prepared from scratch, not added), and r's
// Order with its Rank.
func checkRanker(t *testing.T, r *Ranker, want []string, query string, k int) {
	t.Helper()
	checkAgainst(t, r, New(want), want, query, k)
}

// checkAgainst is checkRanker with the fresh Ranker given: fresh is
// New(want), maybe ranked before (the ranking is of uncached(fresh)), so
// that the checks of one want share one preparation.
func checkAgainst(t *testing.T, r, fresh *Ranker, want []string, query string, k int) {
	t.Helper()
	for i, p := range want {
		if r.Path(i) != p {
			t.Fatalf("Path(%d) = %q, want %q", i, r.Path(i), p)
		}
	}
	got, err := r.Rank(context.Background(), query, k)
	if err != nil {
		t.Fatal(err)
	}
	if fresh.Len() != len(want) {
		t.Fatalf("the fresh Ranker holds %d paths, want %d", fresh.Len(), len(want))
	}
	res, err := uncached(fresh).Rank(context.Background(), query, k)
	if err != nil {
		t.Fatal(err)
	}
	if !sameResult(got, res) {
		t.Fatalf("%q k=%d over %d paths: added and fresh rankings differ:\n%+v\n%+v", query, k, len(want), head(got), head(res))
	}
	total, order, err := r.Order(context.Background(), query, k)
	if err != nil || total != got.Total || len(order) != len(got.Matches) {
		t.Fatalf("%q: Order %d matches (%d listed), Rank %d (%d) (%v)", query, total, len(order), got.Total, len(got.Matches), err)
	}
	for i, m := range got.Matches {
		if order[i] != m.Index {
			t.Fatalf("%q: Order and Rank differ at %d", query, i)
		}
	}
}

// head is res with at most five matches, for messages.
func head(res Result) Result {
	res.Matches = res.Matches[:min(5, len(res.Matches))]
	return res
}

// TestAddExtendsCache: a cached result is extended to the added paths,
// not searched again, and stays cached for narrowing.
func TestAddExtendsCache(t *testing.T) {
	t.Parallel()
	paths := gen10k()
	r := New(paths[:2500])
	if _, err := r.Rank(context.Background(), "se", 5); err != nil {
		t.Fatal(err)
	}
	before := cached(r, "se")
	r.Add(paths[2500:6000])
	checkRanker(t, r, paths[:6000], "se", 5)
	set := cached(r, "se")
	if set != before || set.covers != 6000 || len(set.segs) != len(r.tab.Load().blocks) {
		t.Fatalf("the cached set was not extended in place: covers %d, %d segments", set.covers, len(set.segs))
	}
	total := 0
	for _, g := range set.segs {
		total += len(g.hits)
		if !slices.IsSortedFunc(g.hits, func(a, b hit) int { return int(a.idx - b.idx) }) {
			t.Fatal("a segment's hits are out of index order")
		}
	}
	if total != set.total {
		t.Fatalf("segments hold %d hits, the set says %d", total, set.total)
	}
	r.Add(paths[6000:])
	checkRanker(t, r, paths, "ser", 50) // narrowed from "se", extended on the way
}

// TestAddExtendCancelled: a ranking cancelled while it extends a cached
// result leaves that result as it was, and the next ranking is right.
func TestAddExtendCancelled(t *testing.T) {
	t.Parallel()
	paths := gen10k()
	r := New(paths[:3000])
	if _, err := r.Rank(context.Background(), "srv", 10); err != nil {
		t.Fatal(err)
	}
	r.Add(paths[3000:])
	for n := 1; n <= 3; n++ {
		ctx := &cancelAfter{Context: context.Background(), n: n}
		if _, err := r.Rank(ctx, "srv", 10); !errors.Is(err, context.Canceled) {
			t.Fatalf("cancelled at call %d: err %v", n, err)
		}
		if set := cached(r, "srv"); set == nil || set.covers != 3000 {
			t.Fatalf("cancelled at call %d: the cached set changed", n)
		}
	}
	checkRanker(t, r, paths, "srv", 10)
}

// TestAddKeepsCallersSlice: New's paths are not written by a later Add,
// even when the caller's slice has room after its end.
func TestAddKeepsCallersSlice(t *testing.T) {
	t.Parallel()
	backing := []string{"a", "b", "c", "untouched", "untouched"}
	r := New(backing[:3])
	r.Add([]string{"d", "e"})
	if backing[3] != "untouched" || backing[4] != "untouched" {
		t.Fatalf("Add wrote into the caller's slice: %q", backing)
	}
	for _, n := range []int{1, chunkSize - 5, chunkSize + 3} { // filling the last block, then whole blocks
		page := make([]string, n)
		for i := range page {
			page[i] = "f"
		}
		at := r.Len()
		r.Add(page)
		for i := range page {
			page[i] = "changed"
		}
		for i := range n {
			if r.Path(at+i) != "f" {
				t.Fatalf("Path(%d) = %q: Add kept the caller's page", at+i, r.Path(at+i))
			}
		}
	}
}

// TestAddWhileRanking adds pages while other goroutines rank and read
// paths (run with -race). Every ranking must equal a fresh Ranker's over
// the paths it says it ranked.
func TestAddWhileRanking(t *testing.T) {
	t.Parallel()
	paths := addPaths()
	ps := pages(paths, []int{700, 1500, 1})
	r := New(ps[0])
	queries := []string{"s", "se", "ser", "srv", "kode", "x"}
	var mu sync.Mutex
	var results []Result
	var wg sync.WaitGroup
	done := make(chan struct{})
	for g := range 2 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				res, err := r.Rank(context.Background(), queries[(i+g)%len(queries)], 10)
				if err != nil {
					t.Error(err)
					return
				}
				if res.Paths > 0 {
					_ = r.Path(res.Paths - 1)
				}
				mu.Lock()
				results = append(results, res)
				mu.Unlock()
			}
		})
	}
	wg.Go(func() {
		defer close(done)
		for _, page := range ps[1:] {
			r.Add(page)
			_ = r.Path(r.Len() - 1)
		}
	})
	wg.Wait()
	for _, res := range results {
		want, _ := New(paths[:res.Paths]).Rank(context.Background(), res.Query, 10)
		if !sameResult(res, want) {
			t.Fatalf("%q over %d paths: ranked while adding, differs from fresh", res.Query, res.Paths)
		}
	}
}
