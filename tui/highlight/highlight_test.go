package highlight

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
)

var goSource = []string{
	"package main",
	"",
	"import \"fmt\"",
	"",
	"// main says hello.",
	"func main() {",
	"\tfmt.Println(\"hello\", 42)",
	"}",
	"",
}

func TestLinesKeepTextAndAddColours(t *testing.T) {
	t.Parallel()
	for _, dark := range []bool{true, false} {
		out, err := Lines(context.Background(), "cmd/main.go", goSource, dark)
		if err != nil {
			t.Fatal(err)
		}
		if len(out) != len(goSource) {
			t.Fatalf("dark=%v: %d lines, want %d", dark, len(out), len(goSource))
		}
		for i, l := range out {
			if got := ansi.Strip(l); got != goSource[i] {
				t.Errorf("dark=%v line %d: text %q, want %q", dark, i, got, goSource[i])
			}
			if i := strings.LastIndex(l, "\x1b["); i >= 0 && !strings.HasPrefix(l[i:], reset) {
				t.Errorf("dark=%v line %d leaves an attribute set: %q", dark, i, l)
			}
		}
		if !strings.Contains(out[0], "\x1b[") || !strings.Contains(out[5], "38;2;") {
			t.Errorf("dark=%v: keywords not coloured: %q %q", dark, out[0], out[5])
		}
	}
	dark, _ := Lines(context.Background(), "main.go", goSource, true)
	light, _ := Lines(context.Background(), "main.go", goSource, false)
	if dark[5] == light[5] {
		t.Errorf("dark and light backgrounds got the same colours: %q", dark[5])
	}
}

func TestLinesWithoutLanguageArePlain(t *testing.T) {
	t.Parallel()
	in := []string{"just words", "more"}
	out, err := Lines(context.Background(), "notes.unknown-extension", in, true)
	if err != nil || strings.Join(out, "\n") != strings.Join(in, "\n") {
		t.Fatalf("got %q, %v", out, err)
	}
	if Supported("notes.unknown-extension") || !Supported("x/main.go") || !Supported("Makefile") {
		t.Error("Supported is wrong")
	}
}

func TestLinesCancelled(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Lines(ctx, "main.go", goSource, true); err == nil {
		t.Fatal("a cancelled highlight succeeded")
	}
}

func TestCut(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", MaxLineBytes) // two bytes a rune
	if got := Cut(long); len(got) > MaxLineBytes || !strings.HasPrefix(long, got) || !strings.HasSuffix(got, "é") {
		t.Fatalf("Cut kept %d bytes ending %q", len(got), got[len(got)-2:])
	}
	if Cut("short") != "short" {
		t.Fatal("a short line was cut")
	}
}

// TestMinifiedLineIsBounded: a 64 KiB line of minified JavaScript, cut as
// the preview cuts it, is highlighted as fast as a short file (the bound
// is what keeps a frame from stalling; the time is only logged).
func TestMinifiedLineIsBounded(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("var a=function(b){return b+1};", 64<<10/31)
	start := time.Now()
	out, err := Lines(context.Background(), "app.min.js", []string{Cut(line)}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := ansi.Strip(out[0]); got != Cut(line) {
		t.Fatalf("text changed: %d bytes, want %d", len(got), len(Cut(line)))
	}
	t.Logf("64 KiB line cut to %d bytes, highlighted in %v", len(Cut(line)), time.Since(start))
}
