package sessions

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"github.com/sahilm/fuzzy"

	"github.com/scoutdev/scout/tui/rank"
)

// Titles are matched with github.com/sahilm/fuzzy, the frontend's fuzzy
// matcher, called plainly, one term at a time. The filter is in the query
// syntax of the Files page (rank.ParseQuery: terms separated by spaces
// must all match, 'exact, ^prefix, suffix$, !negation, a | b), always
// case-insensitive, as titles are prose. A fuzzy term is matched by the
// library, its score counts and its MatchedIndexes, byte offsets of the
// matched runes in the title, are highlighted; a term of the other kinds
// is matched as the Files page matches it (rank.Locate), its occurrence
// highlighted, adding nothing to the score. Each set of terms is matched
// over the titles the sets before it left.

// titleMatch is a row whose title matches the filter.
type titleMatch struct {
	row   int   // index in Model.rows
	at    int   // index in the candidates: ties keep their order
	score int   // the sum of the library's scores; higher is better
	pos   []int // byte offsets in the title of the matched runes, ascending
}

// checkEvery is how many titles are matched between looks at the
// context: a look costs little next to matching 256 titles, and a
// cancelled ranking stops within about a millisecond.
const checkEvery = 256

// titleTerms parses a filter for titles: every term case-insensitive,
// without fzf's normalization of diacritics (the library has none).
func titleTerms(query string) [][]rank.Term {
	sets := rank.ParseQuery(strings.ToLower(query))
	for _, set := range sets {
		for i := range set {
			set[i].CaseSensitive, set[i].Normalize = false, false
		}
	}
	return sets
}

// matchTitles returns the candidates (row indices, in the order ties
// keep) whose titles match query, in candidate order; title gives a
// row's title. It reports false when ctx ended first.
func matchTitles(ctx context.Context, query string, cands []int, title func(row int) string) ([]titleMatch, bool) {
	ms := make([]titleMatch, len(cands))
	for i, r := range cands {
		ms[i] = titleMatch{row: r, at: i}
	}
	for _, set := range titleTerms(query) {
		var ok bool
		if ms, ok = matchSet(ctx, set, ms, title); !ok {
			return nil, false
		}
	}
	for i := range ms {
		slices.Sort(ms[i].pos)
		ms[i].pos = slices.Compact(ms[i].pos)
	}
	return ms, true
}

// termMatch is one term's match of one title.
type termMatch struct {
	ok    bool
	score int
	pos   []int
}

// matchSet keeps the matches whose titles one of set's terms matches
// (a positive term that matches, or an inverse one that does not), adding
// the best matching positive term's score and positions.
func matchSet(ctx context.Context, set []rank.Term, ms []titleMatch, title func(row int) string) ([]titleMatch, bool) {
	met := make([]bool, len(ms))
	chosen := make([]termMatch, len(ms))
	for _, t := range set {
		found, ok := matchTerm(ctx, t, ms, title)
		if !ok {
			return nil, false
		}
		for i, f := range found {
			switch {
			case t.Inverse:
				met[i] = met[i] || !f.ok
			case f.ok && (!chosen[i].ok || f.score > chosen[i].score):
				met[i], chosen[i] = true, f
			}
		}
	}
	out := ms[:0]
	for i, m := range ms {
		if met[i] {
			m.score += chosen[i].score
			m.pos = append(m.pos, chosen[i].pos...)
			out = append(out, m)
		}
	}
	return out, true
}

// matchTerm matches term t, its inverse aside, against the titles of ms.
// It reports false when ctx ended first.
func matchTerm(ctx context.Context, t rank.Term, ms []titleMatch, title func(row int) string) ([]termMatch, bool) {
	out := make([]termMatch, len(ms))
	if t.Kind != rank.Fuzzy {
		for i, m := range ms {
			if i%checkEvery == 0 && ctx.Err() != nil {
				return nil, false
			}
			pos, ok := rank.Locate(t, title(m.row))
			out[i] = termMatch{ok: ok, pos: pos}
		}
		return out, true
	}
	titles := func(yield func(string) bool) {
		for i, m := range ms {
			if i%checkEvery == 0 && ctx.Err() != nil {
				return
			}
			if !yield(title(m.row)) {
				return
			}
		}
	}
	found := fuzzy.FindFromIterNoSort(t.Text, titles)
	if ctx.Err() != nil {
		return nil, false
	}
	for _, f := range found {
		out[f.Index] = termMatch{ok: true, score: f.Score, pos: f.MatchedIndexes}
	}
	return out, true
}

// bestFirst orders matches by score, best first; equal scores keep the
// candidates' order.
func bestFirst(ms []titleMatch) {
	slices.SortFunc(ms, func(a, b titleMatch) int { return cmp.Or(cmp.Compare(b.score, a.score), cmp.Compare(a.at, b.at)) })
}

// narrows reports whether the matches of filter next lie among those of
// filter prev, so a ranking of next need only look at prev's.
func narrows(prev, next string) bool {
	return rank.Narrows(strings.ToLower(prev), strings.ToLower(next))
}
