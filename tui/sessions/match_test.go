package sessions

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

// ranked matches query over titles and returns the matching titles best
// first, each with its matched runes in brackets.
func ranked(t *testing.T, query string, titles []string) []string {
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
	titles := []string{"Fix the parser's error recovery", "Refactor tui/tree rows", "FIX the build", "fix it"}
	for _, tc := range []struct {
		query string
		want  []string
	}{
		// One term: the library's own alignment, and order by its score.
		{"re", []string{"[R][e]factor tui/tree rows", "Fix the pa[r]ser's [e]rror recovery"}},
		// Case-insensitive whatever the filter's case: titles are prose.
		{"FIX", []string{"[f][i][x] it", "[F][I][X] the build", "[F][i][x] the parser's error recovery"}},
		{"Fix", []string{"[f][i][x] it", "[F][I][X] the build", "[F][i][x] the parser's error recovery"}},
		// Several terms, in any order, all required; each highlighted.
		{"fix build", []string{"[F][I][X] the [b][u][i][l][d]"}},
		{"build fix", []string{"[F][I][X] the [b][u][i][l][d]"}},
		{"fix zzz", []string{}},
		// The other kinds of term, and the inverse, and OR.
		{"'tree", []string{"Refactor tui/[t][r][e][e] rows"}},
		// (a term of these kinds adds no score: ties keep the rows' order)
		{"^fix", []string{"[F][i][x] the parser's error recovery", "[F][I][X] the build", "[f][i][x] it"}},
		{"it$", []string{"fix [i][t]"}},
		{"fix !build !it$", []string{"[F][i][x] the parser's error recovery"}},
		{"build | 'tree", []string{"FIX the [b][u][i][l][d]", "Refactor tui/[t][r][e][e] rows"}},
		{"the\\ b", []string{"FIX [t][h][e][ ][b]uild"}},
		{"x", []string{"fi[x] it", "FI[X] the build", "Fi[x] the parser's error recovery"}},
		{"   ", titles}, // no terms: every title, in order
	} {
		if got := ranked(t, tc.query, titles); !slices.Equal(got, tc.want) {
			t.Errorf("%q: got %q, want %q", tc.query, got, tc.want)
		}
	}
}

// TestMatchTitlesIsTheLibrary: a filter of one fuzzy term ranks titles
// exactly as fuzzy.Find does, with its scores and matched indexes.
func TestMatchTitlesIsTheLibrary(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	titles := randomTitles(rng, 500)
	all := allRows(len(titles))
	for range 300 {
		q := strings.ToLower(word(rng, 1+rng.IntN(4)))
		if strings.ContainsAny(q, " !^$'|\\") {
			continue
		}
		got, _ := matchTitles(context.Background(), q, all, func(r int) string { return titles[r] })
		want := fuzzy.Find(q, titles)
		if len(got) != len(want) {
			t.Fatalf("%q: %d matches, the library %d", q, len(got), len(want))
		}
		bestFirst(got)
		for i, w := range want {
			if g := got[i]; g.row != w.Index || g.score != w.Score || !slices.Equal(g.pos, w.MatchedIndexes) {
				t.Fatalf("%q #%d: %q %d %v, the library %q %d %v", q, i, titles[g.row], g.score, g.pos, w.Str, w.Score, w.MatchedIndexes)
			}
		}
	}
}

// TestMatchTitlesProperties matches random filters of several terms over
// random titles: a title matches exactly when every term does (a fuzzy
// term when its runes occur in order, in any case), the highlights are
// rune starts, and when narrows says a filter narrows another, its
// matches among the other's are its matches among every title (what the
// page's narrowing relies on).
func TestMatchTitlesProperties(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	titles := randomTitles(rng, 400)
	all := allRows(len(titles))
	title := func(r int) string { return titles[r] }
	for range 300 {
		terms := []string{word(rng, 1+rng.IntN(3))}
		if rng.IntN(2) == 0 {
			terms = append(terms, word(rng, 1+rng.IntN(3)))
		}
		q := strings.Join(terms, " ")
		ms, _ := matchTitles(context.Background(), q, all, title)
		matched := map[int]bool{}
		for _, m := range ms {
			matched[m.row] = true
			for _, p := range m.pos {
				if p < 0 || p >= len(titles[m.row]) || !utf8.RuneStart(titles[m.row][p]) {
					t.Fatalf("%q in %q: highlights %v", q, titles[m.row], m.pos)
				}
			}
		}
		for i, s := range titles {
			want := true
			for _, set := range titleTerms(q) {
				want = want && subsequence(s, set[0].Text)
			}
			if matched[i] != want {
				t.Fatalf("%q in %q: matched %v, want %v", q, s, matched[i], want)
			}
		}
		longer := q + word(rng, 1)
		if rng.IntN(3) == 0 {
			longer = q + " " + word(rng, 1)
		}
		if !narrows(q, longer) {
			t.Fatalf("%q does not narrow %q", longer, q)
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
	for _, tc := range [][2]string{{"fix", "fix | tree"}, {"fix !b", "fix !bu"}, {"fix", "fi"}, {"'fix", "fix"}} {
		if narrows(tc[0], tc[1]) {
			t.Errorf("%q said to narrow %q, which it widens", tc[1], tc[0])
		}
	}
}

// word returns n random filter runes: letters in both cases, a few
// non-ASCII ones and separators.
func word(rng *rand.Rand, n int) string {
	alphabet := []rune("abcABCtTéÉſsK/-_.")
	rs := make([]rune, n)
	for i := range rs {
		rs[i] = alphabet[rng.IntN(len(alphabet))]
	}
	return string(rs)
}

func randomTitles(rng *rand.Rand, n int) []string {
	titles := make([]string, n)
	for i := range titles {
		titles[i] = word(rng, 1+rng.IntN(24))
	}
	return titles
}

func allRows(n int) []int {
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	return rows
}

// subsequence reports whether q's runes occur in s in order, in any
// case, as the library matches them.
func subsequence(s, q string) bool {
	qs := []rune(q)
	for _, r := range s {
		if len(qs) > 0 && strings.EqualFold(string(r), string(qs[0])) {
			qs = qs[1:]
		}
	}
	return len(qs) == 0
}

func TestMatchTitlesStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	titles := []string{"a title", "another title"}
	if _, ok := matchTitles(ctx, "ti", []int{0, 1}, func(r int) string { return titles[r] }); ok {
		t.Fatal("a cancelled ranking returned a result")
	}
}
