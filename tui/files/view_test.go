package files

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/internal/display"
)

// marks draws a painted path as text: matched runes in [brackets], the
// directory part in lower case and the base name as is.
var marks = pathPaint{
	dir: display.Paint{}, base: display.Paint{},
	dirMatch: display.Paint{Pre: "[", Post: "]"}, baseMatch: display.Paint{Pre: "[", Post: "]"},
}

func TestRenderPath(t *testing.T) {
	for _, tc := range []struct {
		path string
		pos  []int
		w    int
		want string
	}{
		{"cmd/scout/main.go", []int{10, 11, 12, 13}, 40, "cmd/scout/[main].go"},
		{"cmd/scout/main.go", []int{0, 10}, 40, "[c]md/scout/[m]ain.go"},
		{"cmd/scout/main.go", []int{0, 10}, 10, "…t/[m]ain.go"}, // the head is cut, its match with it
		{"cmd/scout/main.go", nil, 1, "…"},
		{"cmd/scout/main.go", nil, 0, ""},
		{"αβγ/δ.go", []int{2, 7}, 40, "α[β]γ/[δ].go"},
		{"日本/語.go", nil, 6, "…語.go"}, // wide runes: 2 cells each
		// Every match in the head: the window ends with the last match's
		// component instead of showing a row with nothing highlighted.
		{"cmd/scout/main.go", []int{0, 1, 2}, 10, "[cmd]/scout…"},
		{"a/bbbbbbbbbb/cc/dddddd/main.go", []int{2, 3}, 10, "a/[bb]bbbbb…"}, // the head fits
		{"a/bbbbbbbbbb/cc/dddddd/main.go", []int{13, 14}, 12, "…bbbbbbb/[cc]…"},
		{"a/bbbbbbbbbb/cc/dddddd/main.go", []int{3, 23}, 10, "…d/[m]ain.go"}, // one match in the tail: the tail as before
		{"cmd/scout/main.go", []int{0}, 2, "…o"},                             // too narrow for two ellipses
	} {
		var b strings.Builder
		renderPath(&b, tc.path, tc.pos, tc.w, marks)
		if got := b.String(); got != tc.want {
			t.Errorf("renderPath(%q, %v, %d) = %q, want %q", tc.path, tc.pos, tc.w, got, tc.want)
		}
		plain := strings.NewReplacer("[", "", "]", "").Replace(b.String())
		if ansi.StringWidth(plain) > max(tc.w, 0) {
			t.Errorf("renderPath(%q, %d) is %d cells wide", tc.path, tc.w, ansi.StringWidth(plain))
		}
	}
}

func TestSanitizeMakesControlsVisible(t *testing.T) {
	for in, want := range map[string]string{
		"a\tb":            "a   b",
		"\x1b[31mred":     "^[[31mred",
		"bell\x07":        "bell^G",
		"del\x7f":         "del^?",
		"c1\u009b31m":     "c1\uFFFD31m",
		"bidi\u202eevil":  "bidi\uFFFDevil",
		"plain text, ünï": "plain text, ünï",
		// Tab stops count display columns: a wide character is two, a
		// combining mark none, a control's caret form two.
		"ab\tX":      "ab  X",
		"中\tX":       "中  X",
		"中文\tX":      "中文    X",
		"abcd\tX":    "abcd    X",
		"e\u0301\tX": "e\u0301   X",
		"\x01\tX":    "^A  X",
		"a\tb\tc":    "a   b   c",
	} {
		if got := sanitize(in); got != want {
			t.Errorf("sanitize(%q) = %q, want %q", in, got, want)
		}
	}
	if got := contentLines("a\r\nb\n"); len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Errorf("contentLines = %q", got)
	}
}

func TestCompareComponentsOrdersLikeProjectFiles(t *testing.T) {
	paths := []string{"a", "a/b", "a/b/c", "a-b", "a.b", "ab"}
	for i := range paths {
		for j := range paths {
			got := compareComponents(paths[i], paths[j])
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got != want {
				t.Errorf("compare(%q, %q) = %d, want %d", paths[i], paths[j], got, want)
			}
		}
	}
}

func TestCandidatesAreTheFilesInSnapshotOrder(t *testing.T) {
	got := Candidates([]wire.FileEntry{{Path: "a", Kind: wire.KindDirectory}, {Path: "a/x", Kind: wire.KindFile}, {Path: "b", Kind: wire.KindFile}})
	if strings.Join(got, ",") != "a/x,b" {
		t.Fatalf("Candidates = %q", got)
	}
}
