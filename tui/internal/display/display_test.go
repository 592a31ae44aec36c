package display

import (
	"slices"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestClean(t *testing.T) {
	for in, want := range map[string]string{
		"plain title, ünï": "plain title, ünï",
		"a\tb":             "a b",
		"\x1b[31mred":      "\uFFFD[31mred",
		"c1\u009b":         "c1\uFFFD",
		"bidi\u202eevil":   "bidi\uFFFDevil",
		"bad\xffutf8":      "bad\uFFFDutf8",
		"two\u2028lines":   "two\uFFFDlines",
		"two\u2029paras":   "two\uFFFDparas",
	} {
		if got := Clean(in); got != want {
			t.Errorf("Clean(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestVisibleKeepsByteOffsets(t *testing.T) {
	for in, want := range map[string]string{
		"plain/name.go":        "plain/name.go",
		"a\u2028b/c\u2029d.go": "a\uFFFDb/c\uFFFDd.go",
		"tab\tkept":            "tab\tkept", // the backend's policy keeps controls out of names
	} {
		got := Visible(in)
		if got != want || len(got) != len(in) {
			t.Errorf("Visible(%q) = %q (%d bytes), want %q (%d bytes)", in, got, len(got), want, len(in))
		}
	}
}

func TestHighlight(t *testing.T) {
	brackets := Paint{"[", "]"}
	for _, tc := range []struct {
		s    string
		pos  []int
		w    int
		want string
	}{
		{"fix parser", []int{0, 4}, 40, "[f]ix [p]arser"},
		{"fix parser", []int{0, 1, 2}, 40, "[fix] parser"},
		{"fix parser", []int{8}, 6, "fix p…"}, // the match is cut off
		{"fix parser", nil, 0, ""},
		{"日本語のタイトル", []int{3}, 7, "日[本]語…"},
	} {
		got, w := Highlight(tc.s, tc.pos, tc.w, Paint{}, brackets)
		if got != tc.want {
			t.Errorf("Highlight(%q, %v, %d) = %q, want %q", tc.s, tc.pos, tc.w, got, tc.want)
		}
		if plain := ansi.StringWidth(Clean(stripBrackets(got))); w != plain || w > tc.w {
			t.Errorf("Highlight(%q, %d): width %d, drawn %d", tc.s, tc.w, w, plain)
		}
	}
}

func stripBrackets(s string) string {
	out := []rune{}
	for _, r := range s {
		if r != '[' && r != ']' {
			out = append(out, r)
		}
	}
	return string(out)
}

func TestWrap(t *testing.T) {
	got := Wrap("Press r to fetch this provider's model list.", 16)
	want := []string{"Press r to fetch", "this provider's", "model list."}
	if !slices.Equal(got, want) {
		t.Fatalf("Wrap = %q, want %q", got, want)
	}
	if got := Wrap("averyveryverylongword", 5); len(got) != 1 || ansi.StringWidth(got[0]) > 5 {
		t.Fatalf("Wrap of a long word = %q", got)
	}
}
