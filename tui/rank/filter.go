package rank

import (
	"cmp"
	"context"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Filter is New(paths).Order(ctx, query, k) for one query: the indices of
// the best k paths (all when k <= 0), best first, and how many match. It
// streams instead of building a Ranker: each core takes chunks of paths,
// drops the ASCII paths that cannot match (the bytes of a term that alone
// makes up a set are not a subsequence of theirs, folded unless the term
// is case-sensitive), prepares the rest in an index of its own that the
// next chunk reuses, and keeps each match's index and score, nothing
// more: no index of every path, no rows to continue. A one-shot ranking
// (`scout filter`) otherwise spends most of its time and memory preparing
// paths that the first comparison would reject. The result is Order's
// exactly: the same scores, and compare's order over the matches.
func Filter(ctx context.Context, paths []string, query string, k int) (int, []int, error) {
	q := compileQuery(query)
	if q == nil {
		hits := all(len(paths), k)
		return len(paths), indices(hits), ctx.Err()
	}
	chunks := (len(paths) + filterChunk - 1) / filterChunk
	found := make([][]hit, chunks) // per chunk, in index order
	var next atomic.Int32
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(chunks, 1)) {
		wg.Go(func() {
			f := newFilterer(q)
			for c := int(next.Add(1) - 1); c < chunks && ctx.Err() == nil; c = int(next.Add(1) - 1) {
				found[c] = f.chunk(paths, c*filterChunk, min((c+1)*filterChunk, len(paths)))
			}
		})
	}
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return 0, nil, err
	}
	total := 0
	for _, hs := range found {
		total += len(hs)
	}
	return total, filterOrder(paths, q, found, total, k), nil
}

// filterChunk is how many paths a Filter worker takes at a time: its
// index and rows stay in the cache, and chunks are many enough to share
// out evenly.
const filterChunk = 1024

// filterer is one Filter worker's reusable state.
type filterer struct {
	q    *query
	need []*pattern // the terms that alone make up a set, ASCII
	pl   plan
	x    index
	s    scratch
	g    segment
	kept []string // the chunk's paths that may match
	at   []int32  // their indices
	none topK     // keeps nothing: the matches are collected from g
}

func newFilterer(q *query) *filterer {
	return &filterer{q: q, pl: freshPlan(q), need: needed(q)}
}

// needed returns the terms of q that alone make up a set and are ASCII:
// a path matches q only if it may match each (mayMatchAll).
func needed(q *query) []*pattern {
	var need []*pattern
	for _, set := range q.sets {
		if p := set[0]; len(set) == 1 && !p.Inverse && p.bytes != nil {
			need = append(need, p)
		}
	}
	return need
}

// Sieve returns the test Filter drops paths with before it ranks them for
// query: false only for a path that cannot match. So Filter over the
// paths that pass it, in their order, gives exactly what Filter over all
// of them gives (the same matches, scores and order: the order never
// depends on a path that does not match, only on the matches' relative
// order) — which lets a caller that gets its paths page by page (`scout
// filter` over project.index) keep only those that pass, and rank them
// at the end. A query with no such term keeps every path.
func Sieve(query string) func(path string) bool {
	q := compileQuery(query)
	if q == nil {
		return func(string) bool { return true }
	}
	need := needed(q)
	return func(p string) bool { return mayMatchAll(p, need) }
}

// chunk returns the matches among paths [lo, hi), in index order.
func (f *filterer) chunk(paths []string, lo, hi int) []hit {
	f.kept, f.at = f.kept[:0], f.at[:0]
	for i := lo; i < hi; i++ {
		if mayMatchAll(paths[i], f.need) {
			f.kept, f.at = append(f.kept, paths[i]), append(f.at, int32(i))
		}
	}
	if len(f.kept) == 0 {
		return nil
	}
	f.x.reset(f.kept)
	f.g.hits, f.g.rest, f.g.gain = f.g.hits[:0], nil, nil
	f.g.pos, f.g.v0, f.g.v1 = f.g.pos[:0], f.g.v0[:0], f.g.v1[:0]
	if f.q.multi() {
		f.g.rest, f.g.gain = []int32{}, []int32{}
	}
	var r Ranker // the scan's methods use none of its fields
	r.fresh(&f.s, &f.x, 0, f.q, 0, len(f.kept), &f.g, &f.none)
	out := make([]hit, len(f.g.hits))
	for i, h := range f.g.hits {
		out[i] = hit{idx: f.at[h.idx], score: h.score}
	}
	return out
}

// filterOrder returns the indices of the best k of the matches found (all
// when k <= 0), best first, or in input order for a query of inverse
// terms only.
func filterOrder(paths []string, q *query, found [][]hit, total, k int) []int {
	if !q.ranked {
		var out []int
		for _, hs := range found {
			for _, h := range hs {
				if k > 0 && len(out) == k {
					return out
				}
				out = append(out, int(h.idx))
			}
		}
		return out
	}
	path := func(i int32) string { return paths[i] }
	if k > 0 {
		var h topK
		h.init(func(a, b hit) int { return comparePaths(paths, a, b) }, k)
		for _, hs := range found {
			for _, x := range hs {
				h.offer(x)
			}
		}
		slices.SortFunc(h.items, h.compare)
		return indices(h.items)
	}
	ks := make([]keyed, 0, total)
	for _, hs := range found {
		for _, h := range hs {
			ks = append(ks, keyOf(h, len(paths[h.idx])))
		}
	}
	ks = sortKeyed(ks, path)
	out := make([]int, len(ks))
	for i, x := range ks {
		out[i] = int(x.idx)
	}
	return out
}

// comparePaths is compare over hits indexing paths.
func comparePaths(paths []string, a, b hit) int {
	if a.score != b.score {
		return cmp.Compare(b.score, a.score)
	}
	pa, pb := paths[a.idx], paths[b.idx]
	return cmp.Or(cmp.Compare(len(pa), len(pb)), cmp.Compare(pa, pb), cmp.Compare(a.idx, b.idx))
}

// indices returns the indices of hits.
func indices(hits []hit) []int {
	out := make([]int, len(hits))
	for i, h := range hits {
		out[i] = int(h.idx)
	}
	return out
}

// mayMatchAll reports whether path p may match every term of ps (ASCII
// terms): false only for an ASCII path of which a term's bytes are not a
// subsequence. Other paths may hold runes that fold or normalize to
// ASCII (the Kelvin sign folds to k, é to e), so they are kept for the
// matcher to decide.
func mayMatchAll(p string, ps []*pattern) bool {
	for _, t := range ps {
		if !mayMatch(p, t.bytes, t.sensitive) {
			return false
		}
	}
	return true
}

// mayMatch reports whether path p may match the ASCII term q (folded
// unless sensitive): q's bytes are a subsequence of p's, each found with
// IndexByte (a letter in either case when not sensitive, as fzf's
// asciiFuzzyIndex finds them), or p is not ASCII.
func mayMatch(p string, q []byte, sensitive bool) bool {
	rest := p
	for _, c := range q {
		i := strings.IndexByte(rest, c)
		if u := upperOf[c]; !sensitive && u != 0 {
			scope := rest
			if i >= 0 {
				scope = rest[:i] // only an earlier capital is better
			}
			if k := strings.IndexByte(scope, u); k >= 0 {
				i = k
			}
		}
		if i < 0 {
			return !isASCII(p)
		}
		rest = rest[i+1:]
	}
	return true
}

// upperOf is the upper-case form of each lower-case ASCII letter, else 0.
var upperOf = func() (u [256]byte) {
	for c := 'a'; c <= 'z'; c++ {
		u[c] = byte(c - 'a' + 'A')
	}
	return u
}()
