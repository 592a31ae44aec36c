package sessions

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// rank matches query over titles and returns the matching titles best
// first, each with its matched runes in brackets.
func rank(t *testing.T, query string, titles []string) []string {
	t.Helper()
	cands := make([]int, len(titles))
	for i := range cands {
		cands[i] = i
	}
	ms, ok := matchTitles(context.Background(), query, cands, func(r int) string { return titles[r] })
	if !ok {
		t.Fatal("not cancelled, yet no result")
	}
	bestFirst(ms)
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = bracket(titles[m.row], m.pos)
	}
	return out
}

// bracket puts the runes of s at byte offsets pos in brackets.
func bracket(s string, pos []int) string {
	var b strings.Builder
	for i, r := range s {
		if slices.Contains(pos, i) {
			b.WriteString("[" + string(r) + "]")
		} else {
			b.WriteRune(r)
		}
	}
	return b.String()
}

func TestMatchTitles(t *testing.T) {
	for _, tc := range []struct {
		query  string
		titles []string
		want   []string
	}{
		// The later word that starts the filter wins over the first
		// occurrence the library anchors on.
		{"tree", []string{"Fix the parser's error recovery", "Refactor tui/tree rows"},
			[]string{"Refactor tui/[t][r][e][e] rows", "Fix [t]he pa[r]s[e]r's [e]rror recovery"}},
		{"re", []string{"Fix the parser's error recovery", "Refactor tui/tree rows"},
			[]string{"[R][e]factor tui/tree rows", "Fix the parser's error [r][e]covery"}},
		// A later word starting with a capital (camelCase) counts too.
		{"tab", []string{"the taleTab view"}, []string{"the tale[T][a][b] view"}},
		// Smart case: lower case matches either case, a capital only itself.
		{"fix", []string{"FIX the build", "fix it"}, []string{"[f][i][x] it", "[F][I][X] the build"}},
		{"Tree", []string{"the tree", "Tree view", "a TreeTable", "TREE"},
			[]string{"[T][r][e][e] view", "a [T][r][e][e]Table"}},
		{"tT", []string{"the tree", "the Tree"}, []string{"[t]he [T]ree"}},
		{"Éc", []string{"école", "École", "Écoute"}, []string{"[É][c]ole", "[É][c]oute"}},
		{"éc", []string{"École", "école"}, []string{"[É][c]ole", "[é][c]ole"}},
		// A stand-in written in a title is no capital's stand-in.
		{"Ab", []string{"𝐀b", "Ab"}, []string{"[A][b]"}},
		{"𝐀", []string{"A", "𝐀"}, []string{"[𝐀]"}},
		{"x", []string{"no match here"}, []string{}},
	} {
		if got := rank(t, tc.query, tc.titles); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.query, got, tc.want)
		}
	}
}

// related reports whether title rune r matches filter rune q under the
// filter's case rule: any case without capitals in the filter; else the
// same rune, or two runes neither of which is a capital that fold
// together (lower-case variants of one letter).
func related(r, q rune, sensitive bool) bool {
	if !sensitive {
		return strings.EqualFold(string(r), string(q))
	}
	return r == q || !capital(r) && !capital(q) && strings.EqualFold(string(r), string(q))
}

// subsequence reports whether q's runes occur in s in order.
func subsequence(s, q string, sensitive bool) bool {
	qs := []rune(q)
	for _, r := range s {
		if len(qs) > 0 && related(r, qs[0], sensitive) {
			qs = qs[1:]
		}
	}
	return len(qs) == 0
}

// TestMatchTitlesProperties matches random filters over random titles
// with capitals, non-ASCII letters, lower-case variants and separators:
// a title matches exactly when the filter's runes occur in it in order,
// the highlighted runes spell the filter, and a longer filter with the
// same case rule matches a subset (what narrowing relies on).
func TestMatchTitlesProperties(t *testing.T) {
	alphabet := []rune("abcABC tT/-_.Ééſs KkK1#")
	rnd := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		rs := make([]rune, n)
		for i := range rs {
			rs[i] = alphabet[rnd.IntN(len(alphabet))]
		}
		return string(rs)
	}
	titles := make([]string, 400)
	for i := range titles {
		titles[i] = word(1 + rnd.IntN(24))
	}
	all := make([]int, len(titles))
	for i := range all {
		all[i] = i
	}
	title := func(r int) string { return titles[r] }
	for range 300 {
		q := word(1 + rnd.IntN(4))
		sensitive := caseSensitive(q)
		ms, _ := matchTitles(context.Background(), q, all, title)
		matched := map[int]bool{}
		for _, m := range ms {
			matched[m.row] = true
			s := titles[m.row]
			var spelled []rune
			for _, p := range m.pos {
				r, _ := utf8.DecodeRuneInString(s[p:])
				spelled = append(spelled, r)
			}
			if !slices.IsSorted(m.pos) || len(spelled) != utf8.RuneCountInString(q) || !subsequence(string(spelled), q, sensitive) {
				t.Fatalf("%q in %q: highlights %v spell %q", q, s, m.pos, string(spelled))
			}
		}
		for i, s := range titles {
			if matched[i] != subsequence(s, q, sensitive) {
				t.Fatalf("%q in %q: matched %v, want %v", q, s, matched[i], !matched[i])
			}
		}
		longer := q + word(1)
		if caseSensitive(longer) != sensitive {
			continue
		}
		narrowed := make([]int, 0, len(ms))
		for _, m := range ms {
			narrowed = append(narrowed, m.row)
		}
		full, _ := matchTitles(context.Background(), longer, all, title)
		part, _ := matchTitles(context.Background(), longer, narrowed, title)
		if len(full) != len(part) {
			t.Fatalf("%q after %q: %d matches over every title, %d over the shorter filter's", longer, q, len(full), len(part))
		}
	}
}

func TestMatchTitlesStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	titles := []string{"a title", "another title"}
	if _, ok := matchTitles(ctx, "ti", []int{0, 1}, func(r int) string { return titles[r] }); ok {
		t.Fatal("a cancelled ranking returned a result")
	}
}
