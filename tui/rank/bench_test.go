package rank

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/sahilm/fuzzy"
	"github.com/scoutdev/scout/tui/internal/pathgen"
)

// benchQueries are typed in the benchmarks: 1, 3, 6 and 12 runes, each
// matching in every list below.
var benchQueries = []string{"s", "srv", "server", "internalhttp"}

// benchK is how many matches the picker shows: a tall terminal's worth.
const benchK = 50

// benchList is a path list for the benchmarks.
type benchList struct {
	name  string
	paths func(testing.TB) []string
}

var (
	gen10k  = sync.OnceValue(func() []string { return pathgen.Paths(10_000, 1) })
	gen100k = sync.OnceValue(func() []string { return pathgen.Paths(100_000, 1) })
)

var benchLists = []benchList{
	{"gotree", goTree},
	{"gen10k", func(testing.TB) []string { return gen10k() }},
	{"gotree100k", goTree100k},
	{"gen100k", func(testing.TB) []string { return gen100k() }},
}

// goTree100k is the Go source tree nine times, under go1.18/ to go1.26/
// (103,302 paths, in byte order): a monorepo holding copies of one tree,
// as bench/compare.sh writes it for fzf.
func goTree100k(tb testing.TB) []string {
	var out []string
	for v := 18; v <= 26; v++ {
		for _, p := range goTree(tb) {
			out = append(out, fmt.Sprintf("go1.%d/%s", v, p))
		}
	}
	return out
}

// BenchmarkRank ranks each list for each query: typed one rune at a time
// on a cold cache (and again with the cache emptied before each
// keystroke, scout-retyped, which shows what narrowing saves) (p50-ms/key and max-ms/key are the median keystroke and
// the median of each session's slowest, cpu-ms/key the mean CPU time of a
// keystroke), from scratch for the TUI (top benchK) and for `scout filter`
// (all), and with plain sahilm/fuzzy.Find for comparison.
func BenchmarkRank(b *testing.B) {
	for _, list := range benchLists {
		paths := list.paths(b)
		r := New(paths)
		for _, q := range benchQueries {
			name := fmt.Sprintf("%s/q%02d", list.name, len(q))
			b.Run(name+"/scout-typed", func(b *testing.B) {
				benchTyped(b, len(q), func(i int) { rankCold(b, r, q[:i+1], benchK, i == 0) })
			})
			b.Run(name+"/scout-retyped", func(b *testing.B) { // typed, each keystroke from scratch: the cache's worth
				benchTyped(b, len(q), func(i int) { rankCold(b, r, q[:i+1], benchK, true) })
			})
			b.Run(name+"/scout-top50", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					rankCold(b, r, q, benchK, true)
				}
			})
			b.Run(name+"/scout-all", func(b *testing.B) {
				for b.Loop() {
					rankCold(b, r, q, 0, true)
				}
			})
			b.Run(name+"/scout-order", func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					orderCold(b, r, q)
				}
			})
			b.Run(name+"/sahilm-typed", func(b *testing.B) {
				benchTyped(b, len(q), func(i int) { fuzzy.Find(q[:i+1], paths) })
			})
			b.Run(name+"/sahilm", func(b *testing.B) {
				for b.Loop() {
					fuzzy.Find(q, paths)
				}
			})
		}
	}
}

// rankCold ranks query, first emptying the cache when cold. The emptied
// cache's buffers are recycled, as a full cache's evictions recycle them in
// steady use.
func rankCold(b testing.TB, r *Ranker, query string, k int, cold bool) {
	if cold {
		for _, set := range r.cache.sets {
			set.recycle()
		}
		r.cache = newQueryCache()
	}
	if _, err := r.Rank(context.Background(), query, k); err != nil {
		b.Fatal(err)
	}
}

// orderCold is `scout filter`'s ranking: Order(query, 0) on a cold cache.
func orderCold(b testing.TB, r *Ranker, query string) {
	for _, set := range r.cache.sets {
		set.recycle()
	}
	r.cache = newQueryCache()
	if _, _, err := r.Order(context.Background(), query, 0); err != nil {
		b.Fatal(err)
	}
}

// benchTyped runs typing sessions of n keystrokes, key(i) handling the
// i-th, and reports the median keystroke and the median slowest one, wall
// clock, and the CPU time per keystroke (all threads, GC included), which
// a shared machine disturbs less.
func benchTyped(b *testing.B, n int, key func(i int)) {
	b.ReportAllocs()
	var all, slowest []time.Duration
	cpu := cpuTime()
	for b.Loop() {
		var worst time.Duration
		for i := range n {
			start := time.Now()
			key(i)
			d := time.Since(start)
			all = append(all, d)
			worst = max(worst, d)
		}
		slowest = append(slowest, worst)
	}
	b.ReportMetric(median(all), "p50-ms/key")
	b.ReportMetric(median(slowest), "max-ms/key")
	b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(len(all)), "cpu-ms/key")
}

// median returns the median of ds in milliseconds.
func median(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2]) / float64(time.Millisecond)
}

// BenchmarkNew prepares each list (once per snapshot).
func BenchmarkNew(b *testing.B) {
	for _, list := range benchLists {
		paths := list.paths(b)
		b.Run(list.name, func(b *testing.B) {
			for b.Loop() {
				New(paths)
			}
		})
	}
}

// TestBenchQueriesMatch keeps the benchmarks honest: every query matches
// in every list, and a keystroke narrows, so typing measures real work.
func TestBenchQueriesMatch(t *testing.T) {
	t.Parallel()
	for _, list := range benchLists[:2] {
		r := New(list.paths(t))
		for _, q := range benchQueries {
			res, err := r.Rank(context.Background(), q, 1)
			if err != nil || res.Total == 0 {
				t.Errorf("%s: %q matches nothing (%v)", list.name, q, err)
			}
		}
	}
}

// BenchmarkScore scores every path of gen10k on one goroutine, without
// the cache: the cost per candidate of the hot loop, and its allocations.
func BenchmarkScore(b *testing.B) {
	paths := gen10k()
	x, s := newIndex(paths), &scratch{}
	for _, q := range benchQueries {
		p := compile(q)
		b.Run(fmt.Sprintf("q%02d", len(q)), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for i := range paths {
					x.score(s, p, i, false)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(paths)), "ns/path")
		})
	}
}

// BenchmarkExtend continues, on one goroutine, every gen10k path's last
// row for "se" by one rune to "ser": the hot loop of a keystroke.
func BenchmarkExtend(b *testing.B) {
	paths := gen10k()
	x, s := newIndex(paths), &scratch{}
	short, long := compile("se"), compile("ser")
	var g segment
	var prevs []row
	var idx []int
	for i := range paths {
		if v, kept := x.score(s, short, i, false); v != noMatch && kept {
			prevs = append(prevs, row{slices.Clone(s.last.pos), slices.Clone(s.last.v0), slices.Clone(s.last.v1)})
			idx = append(idx, i)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		g.pos, g.v0, g.v1 = g.pos[:0], g.v0[:0], g.v1[:0]
		for k, i := range idx {
			x.scoreLast(s, long, i, &prevs[k], &g)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(idx)), "ns/path")
}

// goTree1M is the Go source tree 88 times over, under go1.0/ to go1.87/
// (1,010,064 paths): the million paths of a large monorepo's index.
func goTree1M(tb testing.TB) []string {
	tree := goTree(tb)
	goTree1MOnce.Do(func() {
		for v := range 88 {
			for _, p := range tree {
				goTree1MPaths = append(goTree1MPaths, fmt.Sprintf("go1.%d/%s", v, p))
			}
		}
	})
	return goTree1MPaths
}

var (
	goTree1MOnce  sync.Once
	goTree1MPaths []string
)

// BenchmarkAdd adds pages of 10,000 paths to a Ranker of a million (the
// whole-tree index streaming in): Add alone, and Add followed by the
// ranking of a query typed before, which extends its cached result.
func BenchmarkAdd(b *testing.B) {
	paths := goTree1M(b)
	page := make([]string, 10_000)
	for i := range page {
		page[i] = "added/" + paths[i*97%len(paths)]
	}
	b.Run("10k-into-1M", func(b *testing.B) {
		r := New(paths)
		b.ReportAllocs()
		for b.Loop() {
			r.Add(page)
		}
	})
	b.Run("10k-into-1M-then-rank", func(b *testing.B) {
		r := New(paths)
		rankCold(b, r, "srv", benchK, true)
		b.ReportAllocs()
		for b.Loop() {
			r.Add(page)
			rankCold(b, r, "srv", benchK, false)
		}
	})
}

// syntaxBenchQueries are queries of several terms, typed term by term as
// a person types them (every prefix is a keystroke): two fuzzy terms, a
// term and a negation, an exact term and a suffix, an OR.
var syntaxBenchQueries = []string{"http server", "srv !test", "'internal go$", "server | client go"}

// BenchmarkRankSyntax types each of syntaxBenchQueries one rune at a time
// on a cold cache over each list, the picker's best 50 a keystroke
// (p50-ms/key, max-ms/key and cpu-ms/key as in BenchmarkRank).
func BenchmarkRankSyntax(b *testing.B) {
	for _, list := range benchLists {
		r := New(list.paths(b))
		for i, q := range syntaxBenchQueries {
			b.Run(fmt.Sprintf("%s/s%d", list.name, i), func(b *testing.B) {
				benchTyped(b, len(q), func(i int) { rankCold(b, r, q[:i+1], benchK, i == 0) })
			})
		}
	}
}

// TestSyntaxBenchQueriesMatch keeps BenchmarkRankSyntax honest: every
// query matches in every list, so typing measures real work.
func TestSyntaxBenchQueriesMatch(t *testing.T) {
	t.Parallel()
	for _, list := range benchLists[:2] {
		r := New(list.paths(t))
		for _, q := range syntaxBenchQueries {
			if res, err := r.Rank(context.Background(), q, 1); err != nil || res.Total == 0 {
				t.Errorf("%s: %q matches nothing (%v)", list.name, q, err)
			}
		}
	}
}

// millionQueries are typed at a million paths: 1, 3, 7 and 12 runes, and
// ssagen.
var millionQueries = []string{"s", "srv", "httpsrv", "ssagen", "internalhttp"}

// BenchmarkRank1M types each of millionQueries one rune at a time on a
// cold cache over goTree1M, the picker's best 50 a keystroke: p50-ms/key,
// max-ms/key (the median session's slowest keystroke) and cpu-ms/key as
// in BenchmarkRank.
func BenchmarkRank1M(b *testing.B) {
	r := New(goTree1M(b))
	for _, q := range millionQueries {
		b.Run(fmt.Sprintf("q%02d", len(q)), func(b *testing.B) {
			benchTyped(b, len(q), func(i int) { rankCold(b, r, q[:i+1], benchK, i == 0) })
		})
	}
}
