package files_test

import (
	"context"
	"fmt"
	"path"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/files"
)

// bigTree is a project larger than its snapshot: 600 files in 30 folders
// two levels down, and two files far below the rest (602 files, 72
// folders, 674 entries).
func bigTree() []string {
	var out []string
	for i := range 600 {
		out = append(out, fmt.Sprintf("mod%02d/pkg%d/file%03d.go", i%30, i%3, i))
	}
	return append(out, "deep/a/b/c/d/e/f/g/needle.go", "aaa/b/c/d/file.go")
}

// held is an IndexFunc that answers each page only when a value is sent
// on its channel (closing the channel lets every page through).
func held() (files.Options, chan struct{}, bridgetest.IndexFunc) {
	gate := make(chan struct{})
	fn := func(ctx context.Context, n int, def wire.ProjectIndexResult, err error) (wire.ProjectIndexResult, error) {
		select {
		case <-gate:
		case <-ctx.Done():
			return def, ctx.Err()
		}
		return def, err
	}
	return files.Options{}, gate, fn
}

func countOf(f frame) string {
	first := lines(f.view)[1]
	return strings.TrimSpace(first[strings.LastIndex(first, "  ")+1:])
}

// TestIndexGrowsTheSnapshot: after a truncated snapshot the page follows
// project.index: the count grows page by page while "indexing" is shown,
// typing goes on while a page is awaited, the query's ranking is redone
// over the larger set, and at the end the count is every file's and the
// notice is gone.
func TestIndexGrowsTheSnapshot(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: bigTree(), Snapshot: 100, IndexPage: 90})
	opts, gate, fn := held()
	fake.SetIndex(fn)
	h := start(t, fake, opts, 100, 20)
	snap := h.waitText("indexing the rest of the tree")
	if !strings.Contains(countOf(snap), " files") {
		t.Fatalf("count %q", countOf(snap))
	}
	gate <- struct{}{}
	gate <- struct{}{}
	h.waitText("indexing the rest of the tree")
	h.typeText("needle") // a page is awaited: typing must not wait for it
	f := h.wait("the query", func(f frame) bool { return f.query == "needle" })
	if slices.Contains(f.rows, "deep/a/b/c/d/e/f/g/needle.go") {
		t.Fatal("the deep file is ranked before the index reached it")
	}
	close(gate)
	f = h.wait("the deep file ranked", func(f frame) bool {
		return len(f.rows) > 0 && f.rows[0] == "deep/a/b/c/d/e/f/g/needle.go"
	})
	f = h.wait("the whole count", func(f frame) bool { return strings.HasSuffix(countOf(f), "/602") })
	if strings.Contains(ansi.Strip(f.view), "indexing") {
		t.Errorf("still indexing at the end:\n%s", ansi.Strip(f.view))
	}
	if n := fake.Calls(wire.MethodProjectIndex); n != 8 { // the walk's 674 entries in pages of 90
		t.Errorf("%d pages asked for", n)
	}
}

// TestIndexKeepsQueryFocusAndMarks: pages that bring better matches
// (aaa/b/c/d/file.go, shorter than every file of the snapshot) redo the
// ranking under the user, who keeps the query, the focused file on its
// line and the marks.
func TestIndexKeepsQueryFocusAndMarks(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: bigTree(), Snapshot: 200, IndexPage: 50})
	opts, gate, fn := held()
	fake.SetIndex(fn)
	opts.Multi = true
	h := start(t, fake, opts, 100, 20)
	h.waitText("indexing")
	h.typeText("file")
	f := h.settled("file")
	h.press(tea.KeyDown)
	h.press(tea.KeyDown)
	f = h.wait("the focus on the third row", func(g frame) bool { return g.focused == f.rows[2] })
	focus := f.focused
	h.press(tea.KeyTab) // marks it and moves down
	h.press(tea.KeyUp)
	h.wait("the mark", func(g frame) bool { return slices.Equal(g.marked, []string{focus}) && g.focused == focus })
	close(gate)
	f = h.wait("the whole tree ranked", func(g frame) bool { return strings.HasSuffix(countOf(g), "/602") && g.rows[0] == "aaa/b/c/d/file.go" })
	if f.query != "file" || f.focused != focus || !slices.Equal(f.marked, []string{focus}) || f.rows[3] != focus {
		t.Fatalf("after the index: query %q, focus %q (was %q) on row %d, marks %q", f.query, f.focused, focus, slices.Index(f.rows, focus), f.marked)
	}
}

// TestIndexGrowsTheTree: a folder the snapshot left empty fills in once
// the index reaches it, expanded as the user left it.
func TestIndexGrowsTheTree(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: bigTree(), Snapshot: 32, IndexPage: 100})
	opts, gate, fn := held()
	fake.SetIndex(fn)
	h := start(t, fake, opts, 100, 40)
	h.waitText("indexing")
	for f := h.settled(""); f.focused != "mod00"; {
		h.press(tea.KeyDown)
		f = h.wait("the focus to move", func(g frame) bool { return g.focused != f.focused })
	}
	h.press(tea.KeyRight)
	f := h.wait("mod00 expanded", func(f frame) bool { return strings.Contains(ansi.Strip(f.view), "▾ mod00/") })
	if slices.Contains(f.rows, "mod00/pkg0/file000.go") {
		t.Fatal("a file the snapshot did not hold is in the tree")
	}
	close(gate)
	f = h.wait("mod00's folders from the index", func(f frame) bool { return slices.Contains(f.rows, "mod00/pkg0") })
	if f.focused != "mod00" || !strings.Contains(ansi.Strip(f.view), "▾ mod00/") {
		t.Errorf("focus %q after the tree grew:\n%s", f.focused, ansi.Strip(f.view))
	}
}

// TestInvalidationStartsTheIndexOver: project_files.invalidated clears
// what the index brought and starts over: a new snapshot, a fresh walk.
func TestInvalidationStartsTheIndexOver(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: bigTree(), Snapshot: 100, IndexPage: 200})
	h := start(t, fake, files.Options{}, 100, 20)
	h.wait("the whole count", func(f frame) bool { return countOf(f) == "602 files" })
	fresh := 0
	fake.SetIndex(func(ctx context.Context, n int, def wire.ProjectIndexResult, err error) (wire.ProjectIndexResult, error) {
		fresh++
		return def, err
	})
	fake.Invalidate()
	h.wait("the whole count again", func(f frame) bool { return countOf(f) == "602 files" && fresh > 0 })
	if s := fake.Calls(wire.MethodProjectFiles); s != 2 {
		t.Errorf("%d snapshots", s)
	}
}

// TestIndexCeiling: the ceiling (--max-indexed) stops following the index
// and the page says so.
func TestIndexCeiling(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: bigTree(), Snapshot: 100, IndexPage: 50})
	h := start(t, fake, files.Options{MaxIndexed: 230}, 120, 20)
	f := h.waitText("stopped indexing at the --max-indexed ceiling of 230 entries")
	// The first two pages are the snapshot's; then 50 + 50 + 30 reach 230.
	// The sixth was asked for before the fifth was merged, then cancelled.
	if n := fake.Calls(wire.MethodProjectIndex); n != 6 {
		t.Errorf("%d pages asked for, want 6", n)
	}
	if !strings.Contains(ansi.Strip(f.view), "index stopped at the ceiling") {
		t.Errorf("the status line does not say it:\n%s", ansi.Strip(f.view))
	}
	h = start(t, bridgetest.New(bridgetest.Options{Files: bigTree(), Snapshot: 100}), files.Options{MaxIndexed: -1}, 120, 20)
	h.waitText("stopped indexing at the --max-indexed ceiling of 0 entries")
}

// TestIndexBusyIsRetriedAndFailureSaid: a step answered busy is sent
// again with the same cursor; a step that fails ends the walk, and the
// page says so instead of claiming the files are all there.
func TestIndexBusyIsRetriedAndFailureSaid(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: bigTree(), Snapshot: 100, IndexPage: 100})
	fake.SetIndex(func(ctx context.Context, n int, def wire.ProjectIndexResult, err error) (wire.ProjectIndexResult, error) {
		switch n {
		case 2:
			return wire.ProjectIndexResult{}, wire.NewError(wire.CodeBusy)
		case 5:
			return wire.ProjectIndexResult{}, wire.NewError(wire.CodeInternal)
		}
		return def, err
	})
	h := start(t, fake, files.Options{}, 120, 20)
	f := h.waitText("indexing failed")
	if n := countOf(f); !strings.HasSuffix(n, " files") || strings.Contains(ansi.Strip(f.view), "602 files") {
		t.Errorf("count %q", n)
	}
	if c := fake.Calls(wire.MethodProjectIndex); c != 5 {
		t.Errorf("%d calls, want 5 (the busy one sent again)", c)
	}
}

// TestIndexWaitsForTheFirstRanking: started with a query, the walk waits
// for the snapshot's first ranking (the first ranked frame) and then
// still brings the deep file to the top.
func TestIndexWaitsForTheFirstRanking(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: bigTree(), Snapshot: 100, IndexPage: 100})
	first := make(chan int, 1)
	fake.SetIndex(func(ctx context.Context, n int, def wire.ProjectIndexResult, err error) (wire.ProjectIndexResult, error) {
		if n == 1 {
			first <- fake.Calls(wire.MethodProjectFiles)
		}
		return def, err
	})
	h := start(t, fake, files.Options{Query: "needle"}, 100, 20)
	h.wait("the deep file ranked", func(f frame) bool {
		return len(f.rows) > 0 && f.rows[0] == "deep/a/b/c/d/e/f/g/needle.go" && strings.HasSuffix(countOf(f), "/602")
	})
	if n := <-first; n != 1 {
		t.Errorf("the walk began after %d snapshots", n)
	}
}

// TestIndexFollowsDirs: in Dirs mode (Alt-C) the index's pages add
// folders, not files: the count ends at every folder of the tree, a folder
// only the index reached is ranked and chosen, and no file is a row of
// the tree.
func TestIndexFollowsDirs(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: bigTree(), Snapshot: 40, IndexPage: 90})
	h := start(t, fake, files.Options{Dirs: true}, 100, 40)
	f := h.wait("every folder counted", func(f frame) bool { return countOf(f) == "72 folders" })
	for _, r := range f.rows {
		if strings.HasSuffix(r, ".go") {
			t.Fatalf("a file in the folders' tree: %q in %q", r, f.rows)
		}
	}
	h.typeText("defg")
	f = h.wait("the deep folder ranked", func(f frame) bool { return f.settled && f.query == "defg" })
	if len(f.rows) == 0 || f.rows[0] != "deep/a/b/c/d/e/f/g" {
		t.Fatalf("folders ranked for defg: %q", f.rows)
	}
	for _, r := range f.rows {
		if strings.HasSuffix(r, ".go") {
			t.Fatalf("a file among the ranked folders: %q", f.rows)
		}
	}
	h.press(tea.KeyEnter)
	if out := h.outcome(); !slices.Equal(out.Items, []string{"deep/a/b/c/d/e/f/g"}) {
		t.Fatalf("outcome %q", out.Items)
	}
}

// TestTheIndexSupersedesTheSnapshot: a file the snapshot listed and the
// complete walk did not (removed in between, or no longer visible) leaves
// the page when the walk ends: the count is the walk's, a query no longer
// finds it, the tree no longer shows it, and a mark on it is taken back.
func TestTheIndexSupersedesTheSnapshot(t *testing.T) {
	fake := bridgetest.New(bridgetest.Options{Files: bigTree(), Snapshot: 300, IndexPage: 90})
	snap, err := fake.ProjectFiles(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	var gone, kept string
	for _, e := range snap.Entries {
		if e.Kind == wire.KindFile {
			if gone == "" {
				gone = e.Path
			} else if kept == "" {
				kept = e.Path
			}
		}
	}
	if gone == "" || kept == "" || !snap.Truncated {
		t.Fatalf("the snapshot holds no two files or is whole: %d entries", len(snap.Entries))
	}
	opts, gate, fn := held()
	fake.SetIndex(func(ctx context.Context, n int, def wire.ProjectIndexResult, err error) (wire.ProjectIndexResult, error) {
		def.Entries = slices.DeleteFunc(slices.Clone(def.Entries), func(e wire.FileEntry) bool { return e.Path == gone })
		return fn(ctx, n, def, err)
	})
	opts.Multi = true
	h := start(t, fake, opts, 120, 30)
	h.waitText("indexing the rest of the tree")
	h.typeText(path.Base(gone))
	f := h.wait("the snapshot's file found", func(f frame) bool { return f.settled && slices.Contains(f.rows, gone) })
	for f.focused != gone {
		h.press(tea.KeyDown)
		f = h.wait("the focus to move", func(g frame) bool { return g.focused != f.focused })
	}
	h.press(tea.KeyTab)
	h.wait("the mark", func(f frame) bool { return slices.Contains(f.marked, gone) })
	close(gate)
	h.wait("the walk's count", func(f frame) bool { return f.settled && strings.HasSuffix(countOf(f), "/601") })
	f = h.wait("the file gone from the ranking", func(f frame) bool { return f.settled && !slices.Contains(f.rows, gone) })
	if slices.Contains(f.marked, gone) {
		t.Errorf("the gone file is still marked: %q", f.marked)
	}
	for range len(path.Base(gone)) {
		h.press(tea.KeyBackspace)
	}
	f = h.wait("the tree with every file counted", func(f frame) bool { return f.settled && f.query == "" && countOf(f) == "601 files" })
	// Open the folders down to the gone file's: its siblings are there,
	// it is not.
	parts := strings.Split(gone, "/")
	for i := 1; i < len(parts); i++ {
		dir := strings.Join(parts[:i], "/")
		for f.focused != dir {
			h.press(tea.KeyDown)
			f = h.wait("the focus to move", func(g frame) bool { return g.focused != f.focused })
		}
		h.press(tea.KeyRight)
		f = h.wait(dir+" to open", func(g frame) bool {
			return slices.ContainsFunc(g.rows, func(r string) bool { return strings.HasPrefix(r, dir+"/") })
		})
	}
	if slices.Contains(f.rows, gone) {
		t.Errorf("the tree still shows %s: %q", gone, f.rows)
	}
}
