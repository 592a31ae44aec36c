package files_test

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/files"
)

func newFake(preview bool) *bridgetest.Fake {
	return bridgetest.New(bridgetest.Options{Files: fixture, Contents: fixtureContents, Preview: preview})
}

func filtered(t *testing.T, query string) []string {
	t.Helper()
	out, err := files.Filter(context.Background(), files.Candidates(bridgetest.Entries(fixture)), query, 0)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestTypingNarrowsAndHighlights(t *testing.T) {
	h := start(t, newFake(true), files.Options{}, 100, 20)
	h.settled("")
	var prev []string
	for i, q := range []string{"m", "ma", "mai", "main"} {
		h.typeText(q[i:])
		f := h.settled(q)
		if want := filtered(t, q); !slices.Equal(f.rows, want) {
			t.Fatalf("query %q: rows %q, want the ranking %q", q, f.rows, want)
		}
		for _, r := range f.rows {
			if prev != nil && !slices.Contains(prev, r) {
				t.Fatalf("query %q: %q was not a match of the shorter query", q, r)
			}
		}
		prev = f.rows
	}
	f := h.waitText("Notes about main.")
	golden.RequireEqual(t, ansi256(f.view))
}

func TestEnterAcceptsTheFocusedMatch(t *testing.T) {
	h := start(t, newFake(false), files.Options{}, 80, 24)
	h.settled("")
	h.typeText("http")
	f := h.settled("http")
	h.press(tea.KeyDown)
	h.wait("the focus to move", func(g frame) bool { return g.focused == f.rows[1] })
	h.press(tea.KeyEnter)
	out := h.outcome()
	if out.Cancelled || !slices.Equal(out.Items, []string{f.rows[1]}) {
		t.Fatalf("outcome %+v, want %q", out, f.rows[1])
	}
}

func TestTabMarksInMultiMode(t *testing.T) {
	h := start(t, newFake(false), files.Options{Multi: true}, 80, 24)
	h.settled("")
	h.typeText("go")
	f := h.settled("go")
	h.press(tea.KeyTab)                  // marks row 0, down
	h.press(tea.KeyTab)                  // marks row 1, down
	h.pressMod(tea.KeyTab, tea.ModShift) // marks row 2, up
	h.pressMod(tea.KeyTab, tea.ModShift) // unmarks row 1, up
	h.wait("two marks", func(g frame) bool { return len(g.marked) == 2 && g.focused == f.rows[0] })
	h.press(tea.KeyEnter)
	out := h.outcome()
	if want := []string{f.rows[0], f.rows[2]}; !slices.Equal(out.Items, want) {
		t.Fatalf("accepted %q, want the marked rows in marking order %q", out.Items, want)
	}
}

func TestTabDoesNotMarkWithoutMulti(t *testing.T) {
	h := start(t, newFake(false), files.Options{}, 80, 24)
	h.settled("")
	h.typeText("go")
	f := h.settled("go")
	h.press(tea.KeyTab)
	h.press(tea.KeyEnter)
	if out := h.outcome(); !slices.Equal(out.Items, f.rows[:1]) {
		t.Fatalf("accepted %q, want only the focused row %q", out.Items, f.rows[0])
	}
}

func TestEnterWithNoMatchChoosesNothing(t *testing.T) {
	h := start(t, newFake(false), files.Options{Query: "zzzz"}, 80, 24)
	h.settled("zzzz")
	h.waitText("no match")
	h.press(tea.KeyEnter)
	if out := h.outcome(); out.Cancelled || len(out.Items) != 0 {
		t.Fatalf("outcome %+v, want nothing chosen", out)
	}
}

func TestEscCancels(t *testing.T) {
	h := start(t, newFake(false), files.Options{}, 80, 24)
	h.settled("")
	h.press(tea.KeyEscape)
	if out := h.outcome(); !out.Cancelled {
		t.Fatalf("outcome %+v, want cancelled", out)
	}
}

func TestEnterRightAfterTypingWaitsForTheRanking(t *testing.T) {
	h := start(t, newFake(false), files.Options{}, 80, 24)
	h.typeText("manager")
	h.press(tea.KeyEnter)
	if out := h.outcome(); !slices.Equal(out.Items, []string{"pkg/maintenance/manager.go"}) {
		t.Fatalf("accepted %q, want the best match of the typed query", out.Items)
	}
}

func TestInvalidationMidTypingClearsAndRescans(t *testing.T) {
	fake := newFake(true)
	fake.SetFiles(func(ctx context.Context, n int, def wire.ProjectFilesResult) (wire.ProjectFilesResult, error) {
		if n > 1 { // after the policy change, web/ is denied and one file is new
			def.Entries = bridgetest.Entries(append(slices.DeleteFunc(slices.Clone(fixture), func(p string) bool {
				return strings.HasPrefix(p, "web/")
			}), "cmd/scout/maintain.go"))
		}
		return def, nil
	})
	h := start(t, fake, files.Options{Multi: true}, 100, 20)
	h.settled("")
	h.typeText("ma")
	h.settled("ma")
	h.press(tea.KeyTab)
	h.wait("a mark", func(f frame) bool { return len(f.marked) == 1 })
	gen := fake.Invalidate()
	h.typeText("in")
	f := h.wait("the rescanned snapshot", func(f frame) bool {
		return f.settled && f.query == "main" && slices.Contains(f.rows, "cmd/scout/maintain.go")
	})
	if slices.Contains(f.rows, "web/src/main.ts") {
		t.Fatalf("rows %q still hold a file of the old generation", f.rows)
	}
	if len(f.marked) != 0 {
		t.Fatalf("marks %q survived the invalidation", f.marked)
	}
	if got := fake.Calls(wire.MethodProjectFiles); got != 2 {
		t.Fatalf("project.files called %d times, want 2", got)
	}
	h.waitText("gen " + itoa(gen))
}

func TestLateReportOfAnOlderGenerationIsIgnored(t *testing.T) {
	fake := newFake(false)
	release := make(chan struct{})
	old := bridgetest.Entries([]string{"stale/old_generation.go"})
	fake.SetFiles(func(ctx context.Context, n int, def wire.ProjectFilesResult) (wire.ProjectFilesResult, error) {
		switch n {
		case 1: // held until after the invalidation, then answers gen 1
			<-release
			def.Generation, def.Entries = 1, old
		case 3: // committed before the notification: gen 1 again
			def.Generation, def.Entries = 1, old
		}
		return def, nil
	})
	h := start(t, fake, files.Options{}, 80, 24)
	h.wait("the first scan to start", func(frame) bool { return fake.Calls(wire.MethodProjectFiles) == 1 })
	fake.Invalidate()
	h.waitText("README.md") // scan 2 answered with generation 2
	close(release)          // scan 1's late answer, dropped
	h.pressMod('r', tea.ModCtrl)
	h.wait("the rescan after the stale report", func(f frame) bool {
		return fake.Calls(wire.MethodProjectFiles) == 4 && f.settled
	})
	f := h.settled("")
	if plain := ansi.Strip(f.view); strings.Contains(plain, "stale") || !strings.Contains(plain, "README.md") {
		t.Fatalf("a report of generation 1 was shown:\n%s", plain)
	}
}

func TestResizeTo40x10(t *testing.T) {
	h := start(t, newFake(true), files.Options{}, 100, 30)
	h.settled("")
	h.tm.Send(tea.WindowSizeMsg{Width: 40, Height: 10})
	f := h.wait("the small size", func(f frame) bool { return len(lines(f.view)) == 10 })
	checkFits(t, f.view, 40, 10)
	golden.RequireEqual(t, ansi256(f.view))
	h.typeText("server")
	f = h.wait("the ranking", func(f frame) bool { return f.settled && f.query == "server" })
	checkFits(t, f.view, 40, 10)
	for _, w := range []int{1, 5, 20} {
		h.tm.Send(tea.WindowSizeMsg{Width: w, Height: 3})
		f = h.wait("a tiny size", func(f frame) bool { return len(lines(f.view)) == 3 })
		checkFits(t, f.view, w, 3)
	}
}

func checkFits(t *testing.T, view string, w, h int) {
	t.Helper()
	ls := strings.Split(view, "\n")
	if len(ls) > h {
		t.Fatalf("%d lines for a height of %d", len(ls), h)
	}
	for _, l := range ls {
		if ansi.StringWidth(l) > w {
			t.Fatalf("line %q is wider than %d", ansi.Strip(l), w)
		}
	}
}

func TestTreeOpensAndClosesFolders(t *testing.T) {
	h := start(t, newFake(false), files.Options{}, 80, 24)
	f := h.settled("")
	if !slices.Equal(f.rows, []string{"cmd", "docs", "internal", "pkg", "vendor", "web", "README.md", "go.mod"}) &&
		!slices.Equal(f.rows, []string{"README.md", "cmd", "docs", "go.mod", "internal", "pkg", "vendor", "web"}) {
		t.Fatalf("top level rows %q", f.rows)
	}
	for f.focused != "cmd" {
		h.press(tea.KeyDown)
		f = h.wait("the focus to move", func(g frame) bool { return g.focused != f.focused })
	}
	h.press(tea.KeyRight)
	f = h.wait("cmd to open", func(g frame) bool { return slices.Contains(g.rows, "cmd/scout") })
	h.press(tea.KeyRight) // into the open folder
	h.press(tea.KeyRight) // open cmd/scout
	f = h.wait("cmd/scout to open", func(g frame) bool { return slices.Contains(g.rows, "cmd/scout/main.go") })
	h.press(tea.KeyLeft) // close cmd/scout
	h.press(tea.KeyLeft) // to its parent
	h.press(tea.KeyLeft) // close cmd
	h.wait("cmd to close", func(g frame) bool { return g.focused == "cmd" && !slices.Contains(g.rows, "cmd/scout") })
}

func TestPreviewUnavailableWithoutProjectRead(t *testing.T) {
	h := start(t, newFake(false), files.Options{Query: "main.go"}, 100, 20)
	h.settled("main.go")
	// The reason is wrapped in the pane, not cut off at its edge.
	h.waitText("preview unavailable")
	h.waitText("project.read")
	if got := h.fake.Calls(wire.MethodProjectList) + h.fake.Calls(wire.MethodProjectRead); got != 0 {
		t.Fatalf("%d list/read calls to a backend that does not offer them", got)
	}
}

func TestPreviewWalksOneFolderAtATimeAndCaches(t *testing.T) {
	h := start(t, newFake(true), files.Options{Query: "cmd/scout/"}, 100, 20)
	f := h.settled("cmd/scout/")
	if f.focused != "cmd/scout/main.go" {
		t.Fatalf("focused %q", f.focused)
	}
	h.waitText("func main()")
	// root, cmd, cmd/scout listed once each, then the file read by id. On
	// a loaded machine the ranking's first rows may hold another file long
	// enough for its preview to be read too: one read more, never a list.
	if l, r := h.fake.Calls(wire.MethodProjectList), h.fake.Calls(wire.MethodProjectRead); l != 3 || r < 1 || r > 2 {
		t.Fatalf("%d lists and %d reads, want 3 and 1 (or 2)", l, r)
	}
	h.press(tea.KeyDown) // cmd/scout/root.go: its folder is cached
	h.wait("root.go's preview", func(f frame) bool { return f.focused == "cmd/scout/root.go" && f.settled })
	if l := h.fake.Calls(wire.MethodProjectList); l != 3 {
		t.Fatalf("%d lists after moving within a cached folder, want 3", l)
	}
}

func TestTruncatedSnapshotOpensFoldersLazily(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: fixture, Preview: true, Truncated: true, Without: []string{wire.MethodProjectIndex}})
	fake.SetFiles(func(ctx context.Context, n int, def wire.ProjectFilesResult) (wire.ProjectFilesResult, error) {
		def.Entries = slices.DeleteFunc(def.Entries, func(e wire.FileEntry) bool { return strings.HasPrefix(e.Path, "vendor/") })
		return def, nil
	})
	h := start(t, fake, files.Options{}, 80, 24)
	h.settled("")
	h.waitText("not every file is listed")
	for f := h.settled(""); f.focused != "vendor"; {
		h.press(tea.KeyDown)
		f = h.wait("the focus to move", func(g frame) bool { return g.focused != f.focused })
	}
	h.press(tea.KeyRight)
	h.wait("vendor's lazy listing", func(f frame) bool { return slices.Contains(f.rows, "vendor/github.com") })
}

func TestTypingNeverWaitsForTheBackend(t *testing.T) {
	fake := newFake(false)
	fake.SetFiles(func(ctx context.Context, n int, def wire.ProjectFilesResult) (wire.ProjectFilesResult, error) {
		<-ctx.Done() // a scan that never finishes
		return def, ctx.Err()
	})
	h := start(t, fake, files.Options{}, 80, 24)
	h.typeText("still typing")
	h.wait("the query", func(f frame) bool { return f.query == "still typing" })
	h.waitText("scanning")
}

func TestCrashedBackendIsShownAndRestartedWithR(t *testing.T) {
	fake := newFake(false)
	h := start(t, fake, files.Options{}, 100, 20)
	h.settled("")
	fake.Crash()
	h.waitText("press R to restart")
	h.waitText("down")
	h.typeText("R")
	h.wait("the restart and rescan", func(f frame) bool {
		return fake.Calls("restart") == 1 && fake.Calls(wire.MethodProjectFiles) == 2 && f.settled &&
			strings.Contains(ansi.Strip(f.view), "ready")
	})
	if f := h.settled(""); f.query != "" {
		t.Fatalf("R went into the query while restarting: %q", f.query)
	}
}

func TestNoColorKeepsTheHighlightWithAttributes(t *testing.T) {
	h := start(t, newFake(false), files.Options{Query: "main"}, 80, 12)
	h.settled("main")
	h.tm.Send(tea.ColorProfileMsg{Profile: colorprofile.ASCII})
	f := h.wait("a colourless frame", func(f frame) bool { return !strings.Contains(f.view, "38;") && f.settled })
	if strings.Contains(f.view, "48;") {
		t.Fatal("a background colour without colour")
	}
	if !strings.Contains(f.view, "\x1b[1;4") {
		t.Fatalf("no bold underline highlight in:\n%q", f.view)
	}
	golden.RequireEqual(t, withProfile(f.view, colorprofile.ASCII))
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestPasteGoesIntoTheQuery(t *testing.T) {
	h := start(t, newFake(false), files.Options{}, 80, 24)
	h.settled("")
	h.tm.Send(tea.PasteMsg{Content: "manager"})
	f := h.settled("manager")
	if len(f.rows) != 1 || f.rows[0] != "pkg/maintenance/manager.go" {
		t.Fatalf("rows %q after pasting", f.rows)
	}
}

// Help offers only the keys that do something: with a ranked query, →, ←,
// Home and End edit the query line, so they are not shown as tree keys.
func TestHelpOmitsTreeKeysWhileRanking(t *testing.T) {
	h := start(t, newFake(false), files.Options{}, 100, 24)
	h.waitText("open folder")
	h.typeText("main")
	f := h.settled("main")
	if v := ansi.Strip(f.view); strings.Contains(v, "open folder") {
		t.Fatalf("a ranked list offers → open folder:\n%s", v)
	}
	h.tm.Send(tea.KeyPressMsg{Code: '?', Text: "?"})
	f = h.waitText("toggle preview")
	for _, tree := range []string{"open folder", "close folder", "first", "last"} {
		if v := ansi.Strip(f.view); strings.Contains(v, tree) {
			t.Fatalf("help of a ranked list offers %q:\n%s", tree, v)
		}
	}
	h.press(tea.KeyEscape) // help closes
	h.pressMod('u', tea.ModCtrl)
	h.settled("")
	h.waitText("open folder")
}

// A key pressed while help is shown closes help and does nothing else:
// the page under help is not changed where the user cannot see it.
func TestKeyUnderHelpClosesItAndIsNotTyped(t *testing.T) {
	h := start(t, newFake(false), files.Options{}, 100, 24)
	h.settled("")
	h.tm.Send(tea.KeyPressMsg{Code: '?', Text: "?"})
	h.waitText("toggle preview")
	h.typeText("m")
	f := h.wait("help to close", func(f frame) bool { return !strings.Contains(ansi.Strip(f.view), "toggle preview") })
	if f.query != "" {
		t.Fatalf("a key under help typed %q into the query", f.query)
	}
	h.typeText("ain") // help is closed: typing reaches the query again
	h.settled("ain")
}

// A paste while help is shown closes help, so the query it changes is in
// view, never changed under help.
func TestPasteUnderHelpClosesIt(t *testing.T) {
	h := start(t, newFake(false), files.Options{}, 100, 24)
	h.settled("")
	h.tm.Send(tea.KeyPressMsg{Code: '?', Text: "?"})
	h.waitText("toggle preview")
	h.tm.Send(tea.PasteMsg{Content: "main"})
	f := h.settled("main")
	if v := ansi.Strip(f.view); strings.Contains(v, "toggle preview") {
		t.Fatalf("help still covers the query the paste changed:\n%s", v)
	}
}

// The truncated snapshot's notice (a backend without project.index) keeps
// what to do (→ opens a folder) at 40 columns: shorter words, not a cut
// sentence.
func TestTruncationNoticeFitsAt40Columns(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: fixture, Preview: true, Truncated: true, Without: []string{wire.MethodProjectIndex}})
	h := start(t, fake, files.Options{}, 40, 10)
	h.settled("")
	h.waitText("not all files listed; → opens a folder")
}

// Alt-P shows the preview on a terminal too narrow for it to be shown by
// itself: the key is never a silent no-op.
func TestAltPShowsThePreviewOnANarrowTerminal(t *testing.T) {
	h := start(t, newFake(true), files.Options{}, 60, 12)
	h.settled("")
	hasPane := func(f frame) bool { return strings.Contains(ansi.Strip(f.view), "│ README.md") }
	if f := h.settled(""); hasPane(f) {
		t.Fatalf("a pane at 60 columns before Alt-P:\n%s", ansi.Strip(f.view))
	}
	h.pressMod('p', tea.ModAlt)
	h.wait("the preview pane", hasPane)
	h.pressMod('p', tea.ModAlt)
	h.wait("the pane hidden again", func(f frame) bool { return !hasPane(f) })
}

// wideNames are names whose width is not the same counted by grapheme
// clusters and by runes, as a terminal without mode 2027 (tmux) counts:
// a soft hyphen (0 or 1), Devanagari with a virama (3 or 4), a skin tone
// (2 or 4), a ZWJ family (2 or 6).
var wideNames = []string{"a\u00adb.txt", "नमस्ते.txt", "👍🏽.md", "👨\u200d👩\u200d👧.go", "plain.txt"}

func TestWideNamesKeepThePaneInItsColumn(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: wideNames, Preview: true})
	h := start(t, fake, files.Options{}, 100, 20)
	f := h.wait("five files and the pane", func(f frame) bool {
		v := ansi.Strip(f.view)
		return strings.Contains(v, "5 files") && strings.Contains(v, "│")
	})
	col := -1
	for _, l := range strings.Split(ansi.Strip(f.view), "\n")[2:] { // past the tab bar and query
		i := strings.LastIndex(l, "│")
		if i < 0 {
			continue
		}
		// The renderer, with no report of mode 2027, counts by runes.
		c := ansi.StringWidthWc(l[:i])
		if col >= 0 && c != col {
			t.Fatalf("the pane's border is at column %d in %q, %d above", c, l, col)
		}
		col = c
	}
	if col < 0 {
		t.Fatalf("no preview pane:\n%s", ansi.Strip(f.view))
	}
	h.typeText("👨\u200d👩\u200d👧")
	f = h.settled("👨\u200d👩\u200d👧")
	if q := strings.Split(ansi.Strip(f.view), "\n")[1]; !strings.HasSuffix(q, "1/5") || ansi.StringWidthWc(q) != 100 {
		t.Fatalf("the query line %q (%d cells) does not end with its count at 100", q, ansi.StringWidthWc(q))
	}
}

func TestLineSeparatorsInNamesAreShownReplaced(t *testing.T) {
	names := []string{"two\u2028lines/a.go", "para\u2029b.md", "plain.txt"}
	fake := bridgetest.New(bridgetest.Options{Files: names, Preview: true, Contents: map[string]string{"para\u2029b.md": "text\n"}})
	h := start(t, fake, files.Options{}, 100, 20)
	f := h.waitText("3 files")
	for _, want := range []string{"two\uFFFDlines/", "para\uFFFDb.md"} { // the tree
		if !strings.Contains(ansi.Strip(f.view), want) {
			t.Fatalf("the tree does not show %q:\n%s", want, ansi.Strip(f.view))
		}
	}
	h.typeText("parab")
	f = h.wait("the preview of para\u2029b.md", func(f frame) bool {
		return f.settled && f.focused == "para\u2029b.md" && strings.Contains(f.view, "text")
	})
	if strings.ContainsAny(f.view, "\u2028\u2029") {
		t.Fatalf("a separator is drawn as it is:\n%q", ansi.Strip(f.view))
	}
	if n := strings.Count(ansi.Strip(f.view), "para\uFFFDb.md"); n != 2 { // the row and the pane's title
		t.Fatalf("%d rows show para\uFFFDb.md, want the match and the title:\n%s", n, ansi.Strip(f.view))
	}
	h.press(tea.KeyEnter)
	if got := h.outcome().Items; !slices.Equal(got, []string{"para\u2029b.md"}) {
		t.Fatalf("accepted %q, want the name as it is", got)
	}
}

// A file the scan lists but its folder's listing leaves out (a hard link,
// one that cannot be read: project.list serves only what it can) has no
// preview, said as such, not as a failure.
func TestPreviewOfAFileNotServedSaysSo(t *testing.T) {
	fake := newFake(true)
	fake.SetFiles(func(ctx context.Context, n int, def wire.ProjectFilesResult) (wire.ProjectFilesResult, error) {
		def.Entries = append(def.Entries, wire.FileEntry{Path: "zz-linked.txt", Kind: wire.KindFile})
		return def, nil
	})
	h := start(t, fake, files.Options{Query: "zz-linked"}, 120, 20)
	if f := h.settled("zz-linked"); f.focused != "zz-linked.txt" {
		t.Fatalf("focused %q", f.focused)
	}
	h.waitText("no preview: the backend does not serve this file")
}
