package rank

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// goldenQueries are realistic queries over testdata/golden/paths.txt, the
// files of the fzf repository (junegunn/fzf at 956562d).
var goldenQueries = []string{
	"algo", "algo.go", "srcalgo", "termgo", "src/term", "keybind", "keybindingsbash",
	"readme", "README", "Makefile", "install", "tmux", "test", "fzfvim", "ci",
	"options_test", "ansi", "chlog", "indexbyte", "tui/light", "m",
}

// goldenSyntax are queries of several terms and operators over the same
// paths: every term's runes are highlighted, an inverse term's none.
var goldenSyntax = []string{
	"src algo", "algo src", "term go", "^src 'algo", "_test.go$ !tui", "ansi | tui", "'README",
	"install !bash", "src/ .go$", "Makefile | README", "shell key bash", "^src/tui light",
	"'options_test go", "'algo' go", "!src !test go$", "key-bindings .bash$", "README !VIM",
	"^README.md$", "chlog | changelog", "vim fzf",
}

// TestGolden ranks goldenQueries and compares the top ten of each, with
// the matched runes in brackets, to testdata/golden/top.txt (go test
// -update rewrites it).
func TestGolden(t *testing.T) {
	t.Parallel()
	checkGolden(t, goldenQueries, "testdata/golden/top.txt")
}

// TestGoldenSyntax is TestGolden for goldenSyntax, in
// testdata/golden/syntax.txt.
func TestGoldenSyntax(t *testing.T) {
	t.Parallel()
	checkGolden(t, goldenSyntax, "testdata/golden/syntax.txt")
}

// checkGolden ranks queries over testdata/golden/paths.txt and compares
// the top ten of each, the matched runes in brackets, with file golden.
func checkGolden(t *testing.T, queries []string, golden string) {
	data, err := os.ReadFile("testdata/golden/paths.txt")
	if err != nil {
		t.Fatal(err)
	}
	paths := strings.Split(strings.TrimSpace(string(data)), "\n")
	r := New(paths)
	var out bytes.Buffer
	for _, q := range queries {
		res, err := r.Rank(context.Background(), q, 10)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&out, "%s (%d matches)\n", q, res.Total)
		for _, m := range res.Matches {
			fmt.Fprintf(&out, "  %4d  %s\n", m.Score, highlight(paths[m.Index], m.Positions))
		}
	}
	if *update {
		if err := os.WriteFile(golden, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != string(want) {
		t.Errorf("rankings differ from %s (go test -update rewrites it):\n%s", golden, firstDiff(got, string(want)))
	}
}

// highlight brackets each run of matched bytes: "src/[algo]/algo.go".
func highlight(path string, pos []int) string {
	matched := map[int]bool{}
	for _, p := range pos {
		matched[p] = true
	}
	var b strings.Builder
	in := false
	for i, r := range path {
		if matched[i] != in {
			b.WriteString(map[bool]string{true: "[", false: "]"}[matched[i]])
			in = matched[i]
		}
		b.WriteRune(r)
	}
	if in {
		b.WriteByte(']')
	}
	return b.String()
}

// firstDiff returns the first differing line of got and want.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got: %s\nwant: %s", i+1, gl, wl)
		}
	}
	return ""
}

func TestHighlight(t *testing.T) {
	t.Parallel()
	if got := highlight("src/algo/algo.go", []int{0, 4, 5, 6, 7}); got != "[s]rc/[algo]/algo.go" {
		t.Errorf("got %q", got)
	}
}
