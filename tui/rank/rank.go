// Package rank ranks a snapshot's relative paths for a fuzzy query and
// reports which bytes matched, for highlighting. It is pure: no terminal,
// no I/O.
//
// The scoring model is github.com/sahilm/fuzzy's (the same bonuses for the
// path's first rune, runes after a separator, camelCase humps and adjacent
// runes, the same penalties for leading and unmatched bytes) with a
// path-aware layer that fixes its weaknesses: the best alignment is chosen
// over all occurrences instead of the first, runs do not snowball, and the
// base name counts more than the directories. score.go explains the
// algorithm; quality_test.go holds it to fzf's ranking of two real trees
// (Go's and Python's). The library itself is not called while ranking: it
// allocates for every match and costs 0.3 to 0.5 µs a path, most of a
// keystroke's budget at 10,000 paths, and it cannot continue an alignment
// from one keystroke to the next. TestBaseIsSahilm holds the base terms to the library's own
// scores, and the benchmarks run it alongside.
//
// Queries are in fzf's extended search syntax (query.go): terms separated
// by spaces must all match, `'exact`, `^prefix`, `suffix$`, `!negation`
// and `a | b`, smart case and normalization of diacritics per term, so
// that a query selects exactly the lines `fzf --filter` selects. A match
// is ranked by the sum of its terms' scores (plan.go), and every term's
// matched runes are highlighted.
//
// A Ranker remembers recent queries' match sets, so typing narrows the
// previous result instead of rescanning the snapshot (and continues each
// match's alignment from where the shorter query left it), and deleting a
// rune restores an earlier result. Paths can be added to a live Ranker
// (Add, for an index or a stream that arrives page by page) without
// waiting for a ranking in flight; cached results are extended with the
// new paths' matches when next used (table.go). A keystroke of a
// one-term query scores only the matches that can enter the best k: once
// a worker holds k, a candidate is first bounded (a first rune by its
// block's best cell of that rune, a rune added by the shorter query's
// score plus the most the rune's row can add) and, when the bound is
// below the worst kept, is kept unscored with its bound; a later ranking
// of the cached set scores those whose bounds reach its k-th best
// (scan.go). Candidates are
// prefiltered by a rune bitmask, scored without allocating per candidate,
// split across cores and cut to the best k with a heap. The order is
// total and deterministic: score, then shorter path, then path bytes,
// then input index. The
// complete order (Order, which `scout filter` prints, without highlight
// positions) radix-sorts (score, length) keys and compares path bytes only
// within runs of equal keys; Filter, for a ranking done once, drops the
// paths that cannot match before preparing the rest.
package rank

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// Ranker holds a snapshot's paths and a cache of earlier results. Its
// methods are safe for concurrent use. Rankings run one at a time, so
// cancel the context of a call that has gone stale (the user typed again)
// and the next call starts as soon as the stale one notices, within one
// chunk. Add, Len and Path never wait for a ranking (table.go).
type Ranker struct {
	mu      sync.Mutex // one ranking at a time: the cache and the scratch
	scratch []*scratch // one per worker; scratch[0] also serves the caller
	cache   *queryCache

	addMu sync.Mutex // one Add at a time
	tab   atomic.Pointer[table]

	// eager scores every match (no hit is left unscored, scan.go): the
	// tests' reference for the ranking that skips them.
	eager bool
}

// Result is one ranking.
type Result struct {
	Query   string  // the query ranked
	Paths   int     // how many paths were ranked: Len() when the ranking began
	Total   int     // how many of them match
	Matches []Match // the best matches, best first
}

// Match is one matching path.
type Match struct {
	Index     int   // index into the paths given to New
	Score     int   // higher is better; comparable only within one query
	Positions []int // byte offsets in the path of the matched runes, ascending
}

// New prepares paths (slash-separated relative paths) for ranking, in
// time linear in their total length. The Ranker keeps its own copy of
// them, so the caller may reuse the slice and drop the strings; a new
// snapshot gets a new Ranker, more paths of the same snapshot are given
// to Add.
func New(paths []string) *Ranker { return newRanker(newTable(paths)) }

// newRanker is a Ranker of the paths of t, with nothing cached.
func newRanker(t *table) *Ranker {
	r := &Ranker{cache: newQueryCache()}
	r.tab.Store(t)
	for range runtime.GOMAXPROCS(0) {
		r.scratch = append(r.scratch, &scratch{})
	}
	return r
}

// Add appends paths after the ones the Ranker holds: the first gets index
// Len(), in time linear in their total length (plus one pointer per 1,024
// paths held), whatever the Ranker holds. It does not wait for a ranking
// in flight, which goes on over the paths it began with. Rankings begun
// afterwards see the new paths, in the same order as if they had all been
// given to New: each cached result is extended with the matches among the
// new paths when it is next used. paths may be reused by the caller.
func (r *Ranker) Add(paths []string) {
	if len(paths) == 0 {
		return
	}
	r.addMu.Lock()
	defer r.addMu.Unlock()
	r.tab.Store(r.tab.Load().with(paths))
}

// Len returns the number of paths.
func (r *Ranker) Len() int { return r.tab.Load().n }

// Path returns path i (0 <= i < Len()).
func (r *Ranker) Path(i int) string { return r.tab.Load().path(int32(i)) }

// Rank returns how many paths match query and the best k of them (all
// when k <= 0), best first, each with the positions that earned its
// score. The query is in fzf's extended syntax (ParseQuery); its matches
// are ranked by the sum of their terms' scores, except that a query of
// inverse terms only lists them in input order. Rank(q, 0) is the
// complete order; Rank(q, k) is its first k. An empty query (or one of no
// terms) matches every path, in input order, with score 0 and no
// positions. Rank returns ctx's error if ctx is done before the ranking
// is complete.
func (r *Ranker) Rank(ctx context.Context, query string, k int) (Result, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	t := r.tab.Load()
	q, total, top, err := r.top(ctx, t, query, k)
	switch {
	case err != nil:
		return Result{}, err
	case q == nil:
		return Result{Query: query, Paths: t.n, Total: total, Matches: bare(top)}, nil
	}
	res := Result{Query: query, Paths: t.n, Total: total, Matches: make([]Match, len(top))}
	s := r.scratch[0]
	for i, h := range top {
		x, j := t.block(int(h.idx))
		res.Matches[i] = Match{int(h.idx), int(h.score), x.highlight(s, q, j)}
	}
	return res, nil
}

// Order is Rank without the positions and scores: how many paths match
// query and the indices of the best k (all when k <= 0), best first. It
// is for callers that only list the paths (`scout filter`), which would
// otherwise pay for tracing every match's alignment again.
func (r *Ranker) Order(ctx context.Context, query string, k int) (int, []int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	_, total, top, err := r.top(ctx, r.tab.Load(), query, k)
	if err != nil {
		return 0, nil, err
	}
	out := make([]int, len(top))
	for i, h := range top {
		out[i] = int(h.idx)
	}
	return total, out, nil
}

// top ranks query over t: its compiled form (nil for a query of no
// terms), the number of matches and the best k hits. The caller holds
// r.mu.
func (r *Ranker) top(ctx context.Context, t *table, text string, k int) (*query, int, []hit, error) {
	if err := ctx.Err(); err != nil {
		return nil, 0, nil, err
	}
	q := compileQuery(text)
	if q == nil {
		return nil, t.n, all(t.n, k), nil
	}
	set, top, err := r.rank(ctx, t, q, k)
	if err != nil {
		return nil, 0, nil, err
	}
	return q, set.total, top, nil
}

// bare turns hits into matches without positions.
func bare(top []hit) []Match {
	if top == nil {
		return nil
	}
	out := make([]Match, len(top))
	for i, h := range top {
		out[i] = Match{Index: int(h.idx), Score: int(h.score)}
	}
	return out
}

// rank returns q's match set over t and its best k hits: the cached set
// when there is one (extended to t's paths first, if it covers fewer),
// else a scan narrowing the narrowest cached set q implies, cached.
func (r *Ranker) rank(ctx context.Context, t *table, q *query, k int) (*matchSet, []hit, error) {
	r.cache.fit(t.n)
	if set := r.cache.lookup(q.key); set != nil {
		if err := r.extend(ctx, t, set); err != nil {
			return nil, nil, err
		}
		return set, r.best(t, set, k), nil
	}
	src := r.cache.narrowest(q)
	var before int
	if src != nil {
		before = src.size() // a scan may fill in its memos (plan.go)
	}
	set, top, err := r.scan(ctx, t, q, src, k)
	if src != nil {
		r.cache.held += src.size() - before
	}
	if err != nil {
		return nil, nil, err
	}
	r.cache.add(set)
	return set, top, nil
}

// all is the ranking of the empty query over n paths: the first k in
// input order.
func all(n, k int) []hit {
	if k > 0 {
		n = min(n, k)
	}
	out := make([]hit, n)
	for i := range n {
		out[i] = hit{idx: int32(i)}
	}
	return out
}
