package files_test

import (
	"context"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/files"
)

// lazyFake is a bridge.Lazy whose start counts and returns fake.
func lazyFake(fake *bridgetest.Fake, starts *atomic.Int32) *bridge.Lazy {
	return bridge.NewLazy(func(ctx context.Context) (bridge.Backend, func(), error) {
		starts.Add(1)
		return fake, fake.Close, nil
	})
}

// startLines runs the page over the lines written to the returned pipe.
func startLines(t *testing.T, opts files.Options, w, h int) (*harness, *io.PipeWriter, *atomic.Int32) {
	t.Helper()
	pr, pw := io.Pipe()
	t.Cleanup(func() { _ = pw.Close() })
	fake := bridgetest.New(bridgetest.Options{
		Files:    []string{"stdin_test.go", "preview_test.go"},
		Contents: map[string]string{"stdin_test.go": "package files_test\n\nfunc lines() {}\n"},
		Preview:  true,
	})
	starts := &atomic.Int32{}
	opts.Lines = files.ReadLines(pr, '\n')
	return startWith(t, lazyFake(fake, starts), fake, opts, w, h), pw, starts
}

func write(t *testing.T, w io.Writer, s string) {
	t.Helper()
	if _, err := io.WriteString(w, s); err != nil {
		t.Fatal(err)
	}
}

func TestInputLinesAreRankedAndTheChoicePrintedAsRead(t *testing.T) {
	h, pw, starts := startLines(t, files.Options{}, 100, 20)
	write(t, pw, "alpha\nbeta\r\ngamma\n")
	_ = pw.Close()
	h.wait("the lines in input order", func(f frame) bool { return slices.Equal(f.rows, []string{"alpha", "beta", "gamma"}) })
	h.typeText("bet")
	h.wait("the ranking", func(f frame) bool { return f.settled && slices.Equal(f.rows, []string{"beta"}) })
	h.waitText("1/3")
	h.press(tea.KeyEnter)
	if out := h.outcome(); !slices.Equal(out.Items, []string{"beta"}) {
		t.Fatalf("outcome %+v, want beta", out)
	}
	if n := starts.Load(); n != 0 {
		t.Fatalf("the backend was started %d times for lines that name no file", n)
	}
}

func TestInputStreamsWhileTheProducerWrites(t *testing.T) {
	h, pw, _ := startLines(t, files.Options{Query: "line"}, 100, 20)
	write(t, pw, "line one\n")
	h.wait("the first line", func(f frame) bool { return slices.Equal(f.rows, []string{"line one"}) })
	h.waitText("reading")
	write(t, pw, "line two\nother\n")
	h.wait("the count to grow", func(f frame) bool { return len(f.rows) == 2 && strings.Contains(ansi.Strip(f.view), "2/3") })
	_ = pw.Close()
	f := h.wait("the end of the input", func(f frame) bool { return f.settled && !strings.Contains(ansi.Strip(f.view), "reading") })
	if !strings.Contains(ansi.Strip(f.view), "3 lines") {
		t.Fatalf("status after the end:\n%s", ansi.Strip(f.view))
	}
}

func TestInputMultiSelectAndControlCharacters(t *testing.T) {
	h, pw, _ := startLines(t, files.Options{Multi: true}, 100, 20)
	write(t, pw, "one\x1b[31m red\ntwo\tthree\n")
	_ = pw.Close()
	f := h.wait("the lines", func(f frame) bool { return len(f.rows) == 2 })
	if v := f.view; strings.Contains(v, "\x1b[31m red") || !strings.Contains(ansi.Strip(v), "one^[[31m red") {
		t.Fatalf("an escape in a line reached the terminal:\n%q", v)
	}
	h.press(tea.KeyTab)
	h.press(tea.KeyTab)
	h.wait("two marks", func(f frame) bool { return len(f.marked) == 2 })
	h.press(tea.KeyEnter)
	if out := h.outcome(); !slices.Equal(out.Items, []string{"one\x1b[31m red", "two\tthree"}) {
		t.Fatalf("outcome %q, want the lines exactly as read", out.Items)
	}
}

// A line that names a file of the project (this package's own test file,
// in the test's working directory) is previewed through the backend,
// which is started for it, once; lines that name none start nothing.
func TestInputPreviewStartsTheBackendForAFileOfTheProject(t *testing.T) {
	h, pw, starts := startLines(t, files.Options{}, 120, 20)
	write(t, pw, "./stdin_test.go\nnot a file at all\n")
	_ = pw.Close()
	h.wait("the preview through the started backend", func(f frame) bool {
		return f.settled && strings.Contains(ansi.Strip(f.view), "func lines()")
	})
	h.press(tea.KeyDown)
	h.waitText("no preview: this line names no file of the project")
	h.press(tea.KeyUp)
	h.wait("the preview again", func(f frame) bool { return f.settled && strings.Contains(ansi.Strip(f.view), "func lines()") })
	if n := starts.Load(); n != 1 {
		t.Fatalf("the backend was started %d times, want once", n)
	}
}

func TestNoPreviewPaneForLinesThatNameNoFile(t *testing.T) {
	h, pw, _ := startLines(t, files.Options{}, 120, 20)
	write(t, pw, "alpha\nbeta\n")
	_ = pw.Close()
	f := h.wait("the lines", func(f frame) bool { return f.settled && len(f.rows) == 2 })
	if rows := lines(f.view); strings.Contains(strings.Join(rows[1:], "\n"), "│") {
		t.Fatalf("a preview pane for lines that name no file:\n%s", ansi.Strip(f.view))
	}
}

func TestEmptyInputSaysSo(t *testing.T) {
	h, pw, _ := startLines(t, files.Options{}, 100, 20)
	_ = pw.Close()
	f := h.waitText("no input: standard input had no lines")
	if strings.Contains(ansi.Strip(f.view), "rescan") {
		t.Fatalf("help offers a rescan of standard input:\n%s", ansi.Strip(f.view))
	}
	h.press(tea.KeyEnter)
	if out := h.outcome(); out.Cancelled || len(out.Items) != 0 {
		t.Fatalf("outcome %+v, want nothing chosen", out)
	}
}

func TestDirsPicksFoldersOnly(t *testing.T) {
	h := start(t, newFake(false), files.Options{Dirs: true}, 100, 20)
	f := h.settled("")
	for _, r := range f.rows {
		if strings.Contains(r, ".") && !strings.HasPrefix(r, "vendor/github.com") {
			t.Fatalf("a file among the folders: %q in %q", r, f.rows)
		}
	}
	h.waitText("folders")
	h.typeText("srv")
	f = h.wait("the ranking", func(f frame) bool { return f.settled && f.query == "srv" })
	if len(f.rows) == 0 || f.rows[0] != "internal/server" {
		t.Fatalf("folders ranked for srv: %q", f.rows)
	}
	h.press(tea.KeyEnter)
	if out := h.outcome(); !slices.Equal(out.Items, []string{"internal/server"}) {
		t.Fatalf("outcome %q", out.Items)
	}
}

// TestCountsOfOne: one file, one folder and one line are counted in the
// singular, on the query line and the status line alike.
func TestCountsOfOne(t *testing.T) {
	for _, tc := range []struct {
		opts  files.Options
		paths []string
		want  string
	}{
		{files.Options{}, []string{"only.txt"}, "1 file"},
		{files.Options{}, []string{"a.txt", "b.txt"}, "2 files"},
		{files.Options{Dirs: true}, []string{"docs/a.md"}, "1 folder"},
	} {
		h := start(t, bridgetest.New(bridgetest.Options{Files: tc.paths}), tc.opts, 100, 20)
		f := h.settled("")
		if got := countOf(f); got != tc.want {
			t.Errorf("%q: count %q, want %q", tc.paths, got, tc.want)
		}
		if v := ansi.Strip(f.view); !regexp.MustCompile(`· ` + tc.want + `\b`).MatchString(v) {
			t.Errorf("%q: status line without %q:\n%s", tc.paths, tc.want, v)
		}
	}
	h, pw, _ := startLines(t, files.Options{}, 100, 20)
	write(t, pw, "one line\n")
	_ = pw.Close()
	h.wait("one line counted", func(f frame) bool {
		return f.settled && !strings.Contains(ansi.Strip(f.view), "reading") && regexp.MustCompile(`\b1 line\b`).MatchString(ansi.Strip(f.view))
	})
}
