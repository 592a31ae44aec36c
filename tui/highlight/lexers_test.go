package highlight

import (
	"context"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	chromalexers "github.com/alecthomas/chroma/v2/lexers"
	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/tui/highlight/internal/lexers"
)

// The test binary links chroma's own registry to compare ours with it;
// the product must not (TestProductLeavesChromasRegistryOut).

// TestRegistryIsChromas: the same lexers, with the same configurations
// (their content analysers aside), in the same order.
func TestRegistryIsChromas(t *testing.T) {
	t.Parallel()
	theirs, ours := chromalexers.GlobalLexerRegistry.Lexers, lexers.All()
	if len(ours) != len(theirs) || len(ours) < 250 {
		t.Fatalf("%d lexers, chroma has %d", len(ours), len(theirs))
	}
	for i, l := range theirs {
		want := *l.Config()
		want.Analyse = nil
		got := *ours[i].Config()
		got.Analyse = nil
		if !reflect.DeepEqual(got, want) {
			t.Errorf("lexer %d: %+v, chroma's %+v", i, got, want)
		}
	}
}

// TestMatchIsChromas: for a name made from every file glob of every
// lexer, and for names that several lexers claim, none does, or that end
// in a backup suffix, Match chooses the lexer chroma's lexers.Match
// chooses.
func TestMatchIsChromas(t *testing.T) {
	t.Parallel()
	names := []string{
		"Makefile", "GNUmakefile", "Dockerfile", "CMakeLists.txt", "go.mod", "go.sum",
		"README.md", "notes.txt", "x.unknown", "main.go.orig", "config.yaml.in", "a/b/c.py",
		".bashrc", ".zshrc", "PKGBUILD", "x.h", "x.as", "x.php", "x.inc", "x.m", "x.pl", "x.v",
		"x.ts", "x.tsx", "x.jsx", "x.json", "x.toml", "x.rs", "x.sql", "x.html", "x.xml", "x",
		"dir/x.go", "x.py.bak", "x.c~", "x.json.orig", "Makefile.in", "x.rb.dpkg-old",
	}
	for _, l := range chromalexers.GlobalLexerRegistry.Lexers {
		c := l.Config()
		for _, glob := range append(append([]string(nil), c.Filenames...), c.AliasFilenames...) {
			names = append(names, nameFor(glob))
		}
	}
	// Every backup suffix chroma ignores, after every 48th of those names.
	for i, n := 0, len(names); i < n; i += 48 {
		for _, suf := range []string{"~", ".bak", ".old", ".orig", ".dpkg-dist", ".dpkg-old", ".ucf-dist", ".ucf-new", ".ucf-old", ".rpmnew", ".rpmorig", ".rpmsave", ".in", ".tmp"} {
			names = append(names, names[i]+suf)
		}
	}
	for _, name := range names {
		if got, want := lexerName(lexers.Match(name)), lexerName(chromalexers.Match(name)); got != want {
			t.Errorf("Match(%q) = %q, chroma's %q", name, got, want)
		}
	}
	t.Logf("%d names compared", len(names))
}

// nameFor is a file name that glob matches.
func nameFor(glob string) string {
	var b strings.Builder
	for i := 0; i < len(glob); i++ {
		switch glob[i] {
		case '*':
			b.WriteString("x")
		case '?':
			b.WriteString("a")
		case '[':
			j := strings.IndexByte(glob[i:], ']')
			if j < 0 {
				b.WriteByte('[')
				continue
			}
			b.WriteByte(glob[i+1]) // the class's first byte
			i += j
		case '\\':
			if i+1 < len(glob) {
				i++
				b.WriteByte(glob[i])
			}
		default:
			b.WriteByte(glob[i])
		}
	}
	return b.String()
}

func lexerName(l chroma.Lexer) string {
	if l == nil {
		return "<none>"
	}
	return l.Config().Name
}

// samples are files of the languages a project shows most, some of them
// lexers that delegate to others (Markdown's code blocks, HTML's scripts,
// PHP in HTML).
var samples = []struct{ name, text string }{
	{"main.go", "package main\n\nimport \"fmt\"\n\n// main says hello.\nfunc main() { fmt.Println(\"hi\", 42) }\n"},
	{"tool.py", "import os\n\n\ndef main():\n    \"\"\"Say hi.\"\"\"\n    print(os.getcwd(), 42)  # the place\n"},
	{"README.md", "# Title\n\nSome *emphasis* and `code`.\n\n```go\nfunc f() int { return 1 }\n```\n\n- item\n"},
	{"package.json", "{\n  \"name\": \"x\",\n  \"version\": 2,\n  \"private\": true\n}\n"},
	{"ci.yaml", "on: push\njobs:\n  test:\n    runs-on: ubuntu-latest # here\n    steps: [1, 2]\n"},
	{"build.sh", "#!/bin/sh\nset -eu\nfor f in *.go; do echo \"$f\"; done # all\n"},
	{"index.html", "<!doctype html>\n<html><head><style>p { color: red }</style></head>\n<body><script>let x = 1;</script><p class=\"a\">hi</p></body></html>\n"},
	{"page.php", "<html><?php echo \"hi\" . $name; ?></html>\n"},
	{"app.ts", "export const f = (x: number): string => `${x}`; // done\n"},
	{"lib.rs", "fn main() { let x: u32 = 42; println!(\"{}\", x); }\n"},
	{"Cargo.toml", "[package]\nname = \"x\"\nversion = \"0.1.0\"\n"},
	{"Dockerfile", "FROM golang:1.26\nRUN go build ./...\n"},
	{"Makefile", "all: build\n\nbuild:\n\tgo build ./... # it\n"},
	{"x.c", "#include <stdio.h>\nint main(void) { return printf(\"hi\\n\"); }\n"},
	{"q.sql", "SELECT name FROM users WHERE id = 42; -- one\n"},
	{"init.el", "(defun hi (x) \"Say hi.\" (when x (message \"hi %s\" x)))\n"},
	{"x.lisp", "(defun f (x &optional y) (let ((z 1)) (car (list x y z))))\n"},
}

// TestLanguagesHighlightAsChromas: each sample is tokenised by our
// registry's lexer exactly as by chroma's own, and comes back coloured.
func TestLanguagesHighlightAsChromas(t *testing.T) {
	t.Parallel()
	for _, s := range samples {
		got, want := tokens(t, lexers.Match(s.name), s.text), tokens(t, chromalexers.Match(s.name), s.text)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: tokens %v, chroma's %v", s.name, got, want)
		}
		if distinct(got) < 3 {
			t.Errorf("%s: only %d kinds of token: %v", s.name, distinct(got), got)
		}
		lines := strings.Split(strings.TrimSuffix(s.text, "\n"), "\n")
		out, err := Lines(context.Background(), s.name, lines, true)
		if err != nil {
			t.Fatal(err)
		}
		if joined := strings.Join(out, "\n"); !strings.Contains(joined, "38;2;") || ansi.Strip(joined) != strings.Join(lines, "\n") {
			t.Errorf("%s: not coloured, or its text changed: %q", s.name, joined)
		}
	}
}

func tokens(t *testing.T, l chroma.Lexer, text string) []chroma.Token {
	t.Helper()
	if l == nil {
		t.Fatalf("no lexer for %q", text)
	}
	it, err := l.Tokenise(nil, text)
	if err != nil {
		t.Fatal(err)
	}
	return it.Tokens()
}

func distinct(ts []chroma.Token) int {
	seen := map[chroma.TokenType]bool{}
	for _, t := range ts {
		seen[t.Type] = true
	}
	return len(seen)
}

// TestProductLeavesChromasRegistryOut: the scout binary does not link
// chroma's lexers package (whose initialization is the cost this
// package's registry avoids), and does link ours.
func TestProductLeavesChromasRegistryOut(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "github.com/scoutdev/scout/cmd/scout").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	deps := map[string]bool{}
	for _, p := range strings.Fields(string(out)) {
		deps[p] = true
	}
	if deps["github.com/alecthomas/chroma/v2/lexers"] || deps["github.com/alecthomas/chroma/v2/styles"] {
		t.Error("cmd/scout links chroma's lexers or styles package")
	}
	if !deps["github.com/scoutdev/scout/tui/highlight/internal/lexers"] {
		t.Error("cmd/scout does not link tui/highlight's registry: the check above proves nothing")
	}
}

// BenchmarkMatch looks up the lexer of a few common names: ours, then
// chroma's registry's (the same answers, TestMatchIsChromas).
func BenchmarkMatch(b *testing.B) {
	names := []string{"main.go", "README.md", "Makefile", "x.unknown", "tui/files/model_test.go.orig"}
	for _, c := range []struct {
		name  string
		match func(string) chroma.Lexer
	}{{"scout", lexers.Match}, {"chroma", chromalexers.Match}} {
		b.Run(c.name, func(b *testing.B) {
			c.match("warm") // the registry is built on first use
			for b.Loop() {
				for _, n := range names {
					c.match(n)
				}
			}
		})
	}
}
