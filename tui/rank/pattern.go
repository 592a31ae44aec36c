package rank

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// pattern is one compiled term.
type pattern struct {
	Term
	key       string     // the term's canonical form
	mask      uint64     // runeMask of the lower-cased text: a matching path's mask covers it
	runes     []rune     // the text
	bytes     []byte     // runes as bytes when all are ASCII, else nil
	distinct  []rune     // the distinct runes of runes, in order
	at        [][]int32  // per distinct rune: its positions in runes
	ascii     [128]int16 // per ASCII rune: 1 + its index in distinct, or 0
	sensitive bool       // Term.CaseSensitive, for the matcher's hot paths
	// once says the term belongs to a query of several sets: the
	// base-name bonus is counted once per path (plan.go), so the term's
	// alignment leaves it out and alignBase scores it apart.
	once bool
}

// find returns the index in distinct of rune e, or -1.
func (p *pattern) find(e rune) int {
	if e < utf8.RuneSelf {
		return int(p.ascii[e]) - 1
	}
	for d, r := range p.distinct {
		if r == e {
			return d
		}
	}
	return -1
}

// compile prepares text as one fuzzy term, with smart case and
// normalization as ParseQuery decides them, spaces and operators taken
// literally: what the tests and the benchmarks score.
func compile(text string) *pattern {
	lower := strings.ToLower(text)
	t := Term{Kind: Fuzzy, Text: text, CaseSensitive: text != lower, Normalize: lower == normalizeString(lower)}
	if !t.CaseSensitive {
		t.Text = lower
	}
	if t.Normalize {
		t.Text = normalizeString(t.Text)
	}
	return compileTerm(t)
}

// compileTerm prepares a term with a non-empty text.
func compileTerm(t Term) *pattern {
	p := &pattern{Term: t, sensitive: t.CaseSensitive, runes: []rune(t.Text)}
	p.key = fmt.Sprintf("%d%c%c%c%s", t.Kind, sign(t.Inverse), sign(t.CaseSensitive), sign(t.Normalize), t.Text)
	ascii := true
	for _, r := range p.runes {
		p.mask |= runeMask(unicode.ToLower(r))
		ascii = ascii && r < utf8.RuneSelf
	}
	p.index()
	if ascii {
		p.bytes = []byte(string(p.runes))
	}
	return p
}

// runePrefix reports whether the runes p begin s.
func runePrefix(s, p []rune) bool {
	return len(p) <= len(s) && slices.Equal(s[:len(p)], p)
}

func sign(b bool) byte {
	if b {
		return '+'
	}
	return '-'
}

// index lists the distinct runes and where each occurs in the text.
func (p *pattern) index() {
	for j, r := range p.runes {
		d := p.find(r)
		if d < 0 {
			d = len(p.distinct)
			p.distinct, p.at = append(p.distinct, r), append(p.at, nil)
			if r < utf8.RuneSelf {
				p.ascii[r] = int16(d + 1)
			}
		}
		p.at[d] = append(p.at[d], int32(j))
	}
}

// query is a compiled query: sets of terms, every set must match.
type query struct {
	text string       // as typed
	key  string       // canonical form: queries of one key match and rank alike
	keys []string     // each set's canonical form
	sets [][]*pattern // each set matches when one of its terms does
	// ranked says the query has a term that is not inverse: its matches
	// are ranked by score. Matches of a query of inverse terms only are
	// listed in input order, as fzf lists them.
	ranked bool
	mask   uint64 // runeMask bits every matching path holds
	// tail is the last set's only term when it is a positive fuzzy term:
	// typing extends it, so each match keeps that term's last row.
	tail *pattern
}

// compileQuery compiles text; it returns nil for a query of no terms,
// which matches every path.
func compileQuery(text string) *query {
	terms := ParseQuery(text)
	if len(terms) == 0 {
		return nil
	}
	q := &query{text: text}
	var keys []string
	for _, set := range terms {
		var ps []*pattern
		var setKeys []string
		mask := ^uint64(0)
		for _, t := range set {
			p := compileTerm(t)
			ps = append(ps, p)
			setKeys = append(setKeys, p.key)
			q.ranked = q.ranked || !t.Inverse
			if t.Inverse {
				mask = 0
			}
			mask &= p.mask
		}
		q.sets = append(q.sets, ps)
		q.mask |= mask
		keys = append(keys, strings.Join(setKeys, "\x01"))
	}
	q.key, q.keys = strings.Join(keys, "\x00"), keys
	if len(q.sets) > 1 {
		for _, set := range q.sets {
			for _, p := range set {
				p.once = true
			}
		}
	}
	if last := q.sets[len(q.sets)-1]; len(last) == 1 && last[0].Kind == Fuzzy && !last[0].Inverse {
		q.tail = last[0]
	}
	return q
}

// others are the sets of q but its tail's: what a match must satisfy
// besides the tail term.
func (q *query) others() [][]*pattern {
	if q.tail == nil {
		return q.sets
	}
	return q.sets[:len(q.sets)-1]
}

// implies reports whether every path q matches is matched by r: every set
// of r is implied by one of q's. It may report false for some queries
// that do imply r; narrowing then starts from a larger set.
func (q *query) implies(r *query) bool {
	for _, b := range r.sets {
		found := false
		for _, a := range q.sets {
			if setImplies(a, b) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// setImplies reports whether set a matching a path implies set b
// matching it: every term of a implies one of b's.
func setImplies(a, b []*pattern) bool {
	for _, x := range a {
		found := false
		for _, y := range b {
			if termImplies(x, y) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// termImplies reports whether term a matching a path implies term b
// matching it, for the pairs typing produces: b's text begins a's, and
// b's kind is satisfied by any match of a's (a substring is a fuzzy
// match, a prefix a substring). For inverse terms the other way round: a
// path without "fo" has no "foo". Terms of different case modes,
// normalization or kinds fold the path differently for non-ASCII runes,
// so they imply each other only when b's text is ASCII.
func termImplies(a, b *pattern) bool {
	if a.key == b.key {
		return true
	}
	if a.Inverse || b.Inverse {
		return a.Inverse && b.Inverse && a.Kind == b.Kind && (a.Kind == Exact || a.Kind == Prefix || a.Kind == Fuzzy) &&
			a.CaseSensitive == b.CaseSensitive && a.Normalize == b.Normalize && runePrefix(b.runes, a.runes)
	}
	same := a.Kind == b.Kind && a.CaseSensitive == b.CaseSensitive && a.Normalize == b.Normalize
	if !same && (!isASCII(b.Text) || b.CaseSensitive && !a.CaseSensitive) {
		return false
	}
	text := a.runes
	if !b.CaseSensitive && a.CaseSensitive {
		text = []rune(strings.ToLower(a.Text))
	}
	if !runePrefix(text, b.runes) {
		return false
	}
	switch b.Kind {
	case Fuzzy:
		return true
	case Exact:
		return a.Kind != Fuzzy
	case Prefix:
		return a.Kind == Prefix || a.Kind == Equal
	}
	return false
}
