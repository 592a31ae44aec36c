package rank

import "slices"

// A plan says how a scan finds a query's matches among a cached result's
// (src, the match set of a query that q implies: every match of q is
// among its matches), and among the paths src does not cover.
//
// Typing extends the last term. When q is src's query with its tail term
// (a positive fuzzy term, alone in the last set) longer, every other set
// is the same, so each candidate keeps src's score for them (rest) and
// the tail's alignment continues from the row src kept. Otherwise (a new
// term, a term edited in the middle, a rune deleted without a cached
// result) every set is matched again, over src's matches only: the
// narrowest result cached.
//
// A match's score is the sum, over the sets, of the chosen term's score
// and runes, less the path's length in bytes (sahilm's unmatched-bytes
// term, taken once). In a query of several sets the base-name bonus is
// counted once per path, for the term it helps most: a query of several
// terms names a file and its directories, and each term scored alone
// would let a long base name holding them all collect it for each
// ("runtime proc" is runtime/proc.go, not runtime/proc_runtime_test.go).
// So each term scores without it, and the largest gain a term makes with
// it is added once. rest is the sum over every set but the tail's, gain
// that largest gain among them.
//
// A new term starts a query of several sets from a cached one of a single
// set (src: "http", then "http s"), and so does every keystroke of a term
// that widens or edits (negations: "srv !t", "srv !te"). Each match of
// src then keeps, once computed, that set's score and gain as a query of
// several sets counts them (memo), so the keystrokes after the first
// match only the sets that changed.
type plan struct {
	q *query
	// judged are the sets matched for each candidate besides the tail
	// (and the memo's).
	judged [][]*pattern
	// memo is the set of q that is src's only set, whose score each of
	// src's matches keeps in its segment's memo, or nil.
	memo []*pattern
	// kept says a candidate of src keeps src's rest and gain.
	kept bool
	// m is how many of the tail's runes src's rows hold (0: the tail is
	// aligned afresh).
	m int
}

// freshPlan is the plan for paths no cached result covers.
func freshPlan(q *query) plan {
	return plan{q: q, judged: q.others()}
}

// planFrom is the plan for the matches of src.
func planFrom(q *query, src *matchSet) plan {
	s := src.q
	n := len(q.sets)
	if s.tail != nil && q.tail != nil && len(s.sets) == n && slices.Equal(s.keys[:n-1], q.keys[:n-1]) &&
		s.tail.sensitive == q.tail.sensitive && s.tail.Normalize == q.tail.Normalize &&
		len(s.tail.runes) < len(q.tail.runes) && slices.Equal(s.tail.runes, q.tail.runes[:len(s.tail.runes)]) {
		return plan{q: q, kept: true, m: len(s.tail.runes)}
	}
	pl := freshPlan(q)
	if i := slices.Index(q.keys, s.keys[0]); len(s.sets) == 1 && n > 1 && i >= 0 && i < len(q.others()) {
		pl.memo = q.sets[i]
		pl.judged = slices.Delete(slices.Clone(pl.judged), i, i+1)
	}
	return pl
}

// multi reports whether q's matches keep a rest and gain of their own: q
// has a tail and other sets.
func (q *query) multi() bool {
	return q.tail != nil && len(q.sets) > 1
}
