package files_test

import (
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/files"
)

// longGo is a Go file of 60 numbered functions, one line each after the
// package clause.
func longGo() string {
	var b strings.Builder
	b.WriteString("package long\n")
	for i := 2; i <= 60; i++ {
		fmt.Fprintf(&b, "func f%d() int { return %d }\n", i, i)
	}
	return b.String()
}

func previewFake() *bridgetest.Fake {
	return bridgetest.New(bridgetest.Options{
		Files:    append([]string{"src/long.go", "notes.unknownext"}, fixture...),
		Contents: map[string]string{"src/long.go": longGo(), "notes.unknownext": "plain words\n"},
		Preview:  true,
	})
}

// paneLine returns the preview pane's text on screen row i of a view
// ("" when the row has no pane).
func paneLine(view string, i int) string {
	rows := lines(view)
	if i >= len(rows) {
		return ""
	}
	_, pane, _ := strings.Cut(rows[i], "│")
	return strings.TrimSpace(pane)
}

func TestPreviewIsNumberedColouredAndScrolls(t *testing.T) {
	h := start(t, previewFake(), files.Options{Query: "long.go"}, 120, 24)
	f := h.wait("the coloured preview", func(f frame) bool {
		return f.focused == "src/long.go" && f.settled && strings.Contains(ansi.Strip(f.view), "func f2()")
	})
	// Row 0 is the tab bar, 1 the query line, 2 the pane's title.
	if got := paneLine(f.view, 3); got != "1 package long" {
		t.Fatalf("first line of the pane %q, want it numbered:\n%s", got, ansi.Strip(f.view))
	}
	if _, pane, _ := strings.Cut(strings.Split(f.view, "\n")[3], "│"); !strings.Contains(pane, "38;2;") {
		t.Fatalf("no colour in the preview of a .go file: %q", pane)
	}
	h.pressMod(tea.KeyDown, tea.ModShift)
	h.pressMod(tea.KeyDown, tea.ModShift)
	f = h.wait("two lines scrolled", func(f frame) bool { return strings.HasPrefix(paneLine(f.view, 3), "3 func f3()") })
	h.pressMod(tea.KeyPgDown, tea.ModShift)
	f = h.wait("a page scrolled", func(f frame) bool { return !strings.HasPrefix(paneLine(f.view, 3), "3 ") })
	var n int
	if _, err := fmt.Sscan(paneLine(f.view, 3), &n); err != nil || n < 10 {
		t.Fatalf("after a page down the pane starts at %q", paneLine(f.view, 3))
	}
	for range 10 {
		h.pressMod(tea.KeyPgDown, tea.ModShift)
	}
	f = h.wait("the end of the file", func(f frame) bool { return strings.Contains(ansi.Strip(f.view), "60 func f60()") })
	h.pressMod(tea.KeyPgUp, tea.ModShift)
	h.pressMod(tea.KeyUp, tea.ModShift)
	h.wait("scrolled back up", func(f frame) bool { return !strings.Contains(ansi.Strip(f.view), "60 func f60()") })
	// The rows' selection did not move.
	if f := h.wait("settled", func(f frame) bool { return f.settled }); f.focused != "src/long.go" {
		t.Fatalf("scrolling the preview moved the focus to %q", f.focused)
	}
}

func TestPreviewOfAnUnknownLanguageIsPlain(t *testing.T) {
	h := start(t, previewFake(), files.Options{Query: "unknownext"}, 120, 24)
	f := h.wait("the preview", func(f frame) bool { return f.settled && strings.Contains(ansi.Strip(f.view), "1 plain words") })
	for _, row := range strings.Split(f.view, "\n") {
		if _, pane, _ := strings.Cut(row, "│"); strings.Contains(pane, "plain words") && strings.Contains(pane, "38;2;") {
			t.Fatalf("a file without a language was coloured: %q", pane)
		}
	}
}

func TestPreviewScrollKeysAreInHelp(t *testing.T) {
	h := start(t, previewFake(), files.Options{}, 120, 40)
	h.settled("")
	h.typeText("?")
	h.waitText("scroll preview")
	h.waitText("shift+pgup/pgdn")
}
