package backend_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/asuser"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// Black-box tests of project.index's rules: cursors, admission, policy
// changes, cancellation and faults during a walk.

// pagedTree has 20,000 files at the top after three folders, so the first
// page (page_entries) lists the folders and the walk takes three steps.
func pagedTree(t *testing.T, extra ...string) string {
	t.Helper()
	dir := makefs.ScratchDir(t)
	fx := []string{"d1/a.go", "d2/b.go", "d2/sub/c.go", "d3/d.go"}
	for i := range 20000 {
		fx = append(fx, fmt.Sprintf("f%05d.go", i))
	}
	if err := makefs.Bulk(dir, fx); err != nil {
		t.Fatal(err)
	}
	if err := makefs.Make(dir, extra...); err != nil {
		t.Fatal(err)
	}
	return dir
}

// steady lifts the step deadline for tests that count on where pages end
// (on a loaded machine 250 ms may end a step before its page is full).
const steady = "SCOUT_DEBUG_INDEX_STEP_MS=600000"

func stepCode(t *testing.T, p *scouttest.Proc, cursor *string, code wire.Code) {
	t.Helper()
	if m := indexStep(t, p, cursor); m.Code() != code {
		t.Fatalf("project.index answered %q (%.300s), want %q", m.Code(), m.Raw, code)
	}
}

// TestIndexCursors: a cursor is single use (used again, it makes the walk
// stale_revision for good: its live successor too); a cursor of another
// child or a made-up one is invalid_cursor; any error abandons the walk;
// a fresh walk abandons the earlier one; a complete walk's cursors are
// stale; a cursor refused by the params schema is not used up.
func TestIndexCursors(t *testing.T) {
	t.Parallel()
	dir := pagedTree(t)
	p := startIndex(t, dir, scouttest.Options{Debug: true, Env: []string{steady}})
	other := startIndex(t, dir, scouttest.Options{})
	first := mustStep(t, p, dir, nil)
	if first.Progress != wire.ProgressPageEntries || first.Cursor == nil {
		t.Fatalf("first page: %d entries, %s", len(first.Entries), first.Progress)
	}
	foreign := mustStep(t, other, dir, nil).Cursor
	stepCode(t, p, foreign, wire.CodeInvalidCursor)
	made := "x1.1.1.AAAAAAAAAAAAAAAAAAAAAA"
	stepCode(t, p, &made, wire.CodeInvalidCursor)

	// An error abandons the walk: the invalid cursors above ended it.
	stepCode(t, p, first.Cursor, wire.CodeStaleRevision)

	// A fresh walk; its cursor survives a schema error and works once.
	first = mustStep(t, p, dir, nil)
	for _, bad := range []any{"", strings.Repeat("x", 65), "caf\u00e9", 7} {
		if m := p.Call(wire.MethodProjectIndex, map[string]any{"cursor": bad}); m.Code() != wire.CodeInvalidParams {
			t.Fatalf("cursor %v: %s", bad, m.Raw)
		}
	}
	if m := p.Call(wire.MethodProjectIndex, map[string]any{"cursor": nil, "x": 1}); m.Code() != wire.CodeInvalidParams {
		t.Fatalf("an extra member: %s", m.Raw)
	}
	second := mustStep(t, p, dir, first.Cursor)
	if second.Complete {
		t.Fatalf("second page complete: %d entries", len(second.Entries))
	}
	stepCode(t, p, first.Cursor, wire.CodeStaleRevision)  // reused
	stepCode(t, p, second.Cursor, wire.CodeStaleRevision) // the walk is poisoned

	// A fresh walk abandons the one before; a walked to its end, b's
	// cursors are stale too.
	a := mustStep(t, p, dir, nil)
	b := mustStep(t, p, dir, nil)
	pages := []indexPage{b}
	for c := b.Cursor; c != nil; {
		pg := mustStep(t, p, dir, c)
		pages = append(pages, pg)
		c = pg.Cursor
	}
	if got := len(filesOf(allEntries(pages))); got != 20004 {
		t.Errorf("the walk listed %d files", got)
	}
	stepCode(t, p, a.Cursor, wire.CodeStaleRevision)
	stepCode(t, p, b.Cursor, wire.CodeStaleRevision)
}

// TestIndexBusyAndTheScanSlot: a project.files scan and an index step
// never run at once. While a step is stalled, project.files and a second
// project.index answer busy, status answers at once, and the busy
// request's cursor stays usable; between steps project.files succeeds.
// While a scan is stalled, a step answers busy and its cursor is not used
// up.
func TestIndexBusyAndTheScanSlot(t *testing.T) {
	t.Parallel()
	dir := pagedTree(t)
	p := startIndex(t, dir, scouttest.Options{Debug: true, Env: []string{"SCOUT_DEBUG_INDEX_STALL_MS=1500", steady}})
	first := mustStep(t, p, dir, nil)
	scanFiles(t, p, dir) // between steps: the slot is free

	p.Request("x1", wire.MethodProjectIndex, cursorParams(first.Cursor))
	if m := p.Next(scouttest.DefaultTimeout); m.Method != wire.NotifyCommandStarted {
		t.Fatalf("first message %s", m.Raw)
	}
	var took []time.Duration
	for range 3 {
		id := p.NextID()
		sent := time.Now()
		p.Request(id, wire.MethodStatus, nil)
		m, _ := p.Await(id)
		took = append(took, m.At.Sub(sent))
	}
	scouttest.CheckPrompt(t, "during a step", took, 1500*time.Millisecond)
	p.Request("f1", wire.MethodProjectFiles, map[string]any{})
	awaitCode(t, p, "f1", wire.CodeBusy)
	p.Request("x2", wire.MethodProjectIndex, cursorParams(first.Cursor))
	awaitCode(t, p, "x2", wire.CodeBusy)
	m, _ := p.Await("x1")
	if m.Error != nil {
		t.Fatalf("the stalled step: %s", m.Raw)
	}
	scanFiles(t, p, dir) // the slot was freed before the page was written

	// A scan stalled in its worker holds the slot: the step is busy, and
	// its cursor stays live.
	r := startIndex(t, dir, scouttest.Options{Debug: true, Env: []string{"SCOUT_DEBUG_SCAN_STALL_MS=1000", steady}})
	live := mustStep(t, r, dir, nil).Cursor
	r.Request("f1", wire.MethodProjectFiles, map[string]any{})
	r.Next(scouttest.DefaultTimeout) // rpc.command.started
	r.Request("x1", wire.MethodProjectIndex, cursorParams(live))
	awaitCode(t, r, "x1", wire.CodeBusy)
	if m, _ := r.Await("f1"); m.Error != nil {
		t.Fatalf("stalled scan: %s", m.Raw)
	}
	mustStep(t, r, dir, live) // the cursor answered busy was not used up
}

// TestIndexCancel: operation.cancel of a step answers operation_cancelled
// after its acknowledgement, and abandons the walk: its cursor is stale.
func TestIndexCancel(t *testing.T) {
	t.Parallel()
	dir := pagedTree(t)
	p := startIndex(t, dir, scouttest.Options{Debug: true, Env: []string{"SCOUT_DEBUG_INDEX_STALL_MS=800", steady}})
	first := mustStep(t, p, dir, nil)
	p.Request("x1", wire.MethodProjectIndex, cursorParams(first.Cursor))
	p.Next(scouttest.DefaultTimeout) // rpc.command.started
	p.Request("c1", wire.MethodCancel, map[string]any{"request_id": "x1"})
	if m, _ := p.Await("c1"); m.Error != nil {
		t.Fatalf("cancel: %s", m.Raw)
	}
	awaitCode(t, p, "x1", wire.CodeOperationCancelled)
	retryIndex(t, p, first.Cursor, wire.CodeStaleRevision)
	fresh := retryIndex(t, p, nil, "")
	if len(fresh.Entries) != 10000 {
		t.Errorf("a fresh walk after the cancel: %d entries", len(fresh.Entries))
	}
}

// retryIndex sends a step while it answers busy (a stalled worker keeps
// the slot after its request was answered) and wants code ("" success).
func retryIndex(t *testing.T, p *scouttest.Proc, cursor *string, code wire.Code) indexPage {
	t.Helper()
	deadline := time.Now().Add(scouttest.DefaultTimeout)
	for time.Now().Before(deadline) {
		m := indexStep(t, p, cursor)
		if m.Code() == wire.CodeBusy {
			time.Sleep(50 * time.Millisecond)
			continue
		}
		if m.Code() != code {
			t.Fatalf("project.index answered %q (%.300s), want %q", m.Code(), m.Raw, code)
		}
		var pg indexPage
		if m.Error == nil {
			m.Decode(t, &pg.ProjectIndexResult)
		}
		return pg
	}
	t.Fatal("the scan slot was never released")
	return indexPage{}
}

// TestIndexTrustMidWalk: workspace.trust between steps announces the new
// generation, and the walk's cursor answers stale_revision; a fresh walk
// runs under the new policy. A step in flight when trust begins is
// answered operation_cancelled after the notification.
func TestIndexTrustMidWalk(t *testing.T) {
	t.Parallel()
	dir := pagedTree(t, trustFixture("[files]\ndeny = [\"private/**\", \"d2/\"]\n")...)
	p := startIndex(t, dir, scouttest.Options{Debug: true, Env: []string{"SCOUT_DEBUG_INDEX_STALL_MS=1000", steady}})
	first := mustStep(t, p, dir, nil)
	p.MustCall(wire.MethodWorkspaceTrust, map[string]any{}, nil)
	stepCode(t, p, first.Cursor, wire.CodeStaleRevision)

	// A walk under generation 2, and a trust while its next step runs.
	first = mustStep(t, p, dir, nil)
	if first.Generation != 2 || slices.ContainsFunc(first.Entries, func(e wire.FileEntry) bool { return e.Path == "d2" }) {
		t.Fatalf("after trust: generation %d", first.Generation)
	}
	p.Request("x1", wire.MethodProjectIndex, cursorParams(first.Cursor))
	p.Next(scouttest.DefaultTimeout) // rpc.command.started
	trustCancels(t, p, "x1")
	retryIndex(t, p, first.Cursor, wire.CodeStaleRevision)
	pages := []indexPage{retryIndex(t, p, nil, "")}
	for c := pages[0].Cursor; c != nil; {
		pg := mustStep(t, p, dir, c)
		pages = append(pages, pg)
		c = pg.Cursor
	}
	if pages[0].Generation != 3 {
		t.Fatalf("generation %d after the second trust", pages[0].Generation)
	}
	for _, e := range allEntries(pages) {
		if strings.HasPrefix(e.Path, "private/") || strings.HasPrefix(e.Path, "d2") {
			t.Errorf("hidden by the trusted configuration, listed: %q", e.Path)
		}
	}
}

// TestIndexDirectoryMadeUnreadable: a directory listed in one page and
// made unreadable before the walk reads it stays listed, without
// children; the walk goes on and completes.
func TestIndexDirectoryMadeUnreadable(t *testing.T) {
	t.Parallel()
	dir := pagedTree(t)
	asuser.Share(dir)
	p := startIndex(t, dir, scouttest.Options{Unprivileged: true, Debug: true, Env: []string{steady}})
	first := mustStep(t, p, dir, nil)
	if !slices.ContainsFunc(first.Entries, func(e wire.FileEntry) bool { return e.Path == "d2" }) {
		t.Fatal("d2 is not on the first page")
	}
	if err := os.Chmod(filepath.Join(dir, "d2"), 0); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "d2"), 0o755) })
	pages := []indexPage{first}
	for c := first.Cursor; c != nil; {
		pg := mustStep(t, p, dir, c)
		pages = append(pages, pg)
		c = pg.Cursor
	}
	entries := allEntries(pages)
	checkWalkOrder(t, entries)
	var paths []string
	for _, e := range entries {
		if strings.HasPrefix(e.Path, "d") {
			paths = append(paths, e.Path)
		}
	}
	if want := []string{"d1", "d2", "d3", "d1/a.go", "d3/d.go"}; !slices.Equal(paths, want) {
		t.Errorf("folders and their entries: %q, want %q", paths, want)
	}
}

// TestIndexDeadline: with the step deadline cut to 1 ms, steps end at the
// deadline (an empty page is continued like any other), each still does
// some work, and the walk lists what a walk with the full deadline lists.
func TestIndexDeadline(t *testing.T) {
	t.Parallel()
	// Enough files that no 1 ms step walks them all, however fast the
	// machine.
	const files = 4000
	var fx []string
	for i := range files {
		fx = append(fx, fmt.Sprintf("a%02d/b%d/f%d.go", i%20, i%7, i))
	}
	dir := makefs.MustMake(t, fx...)
	full := allEntries(walkIndex(t, startIndex(t, dir, scouttest.Options{}), dir))
	p := startIndex(t, dir, scouttest.Options{Debug: true, Env: []string{"SCOUT_DEBUG_INDEX_STEP_MS=1"}})
	pages := walkIndex(t, p, dir)
	deadlines := 0
	for _, pg := range pages {
		if pg.Progress == wire.ProgressDeadline {
			deadlines++
		}
	}
	if deadlines == 0 || len(pages) < 3 {
		t.Errorf("%d pages, %d at the deadline", len(pages), deadlines)
	}
	if got := allEntries(pages); !slices.Equal(got, full) || len(full) != files+20+140 {
		t.Errorf("%d entries, the full deadline's walk %d", len(got), len(full))
	}
}

// TestIndexWhenNothingIsVisible: a workspace whose configuration cannot
// be read shows nothing: one complete, empty page.
func TestIndexWhenNothingIsVisible(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "a.go")
	home := filepath.Join(t.TempDir(), "home")
	if err := makefs.Make(filepath.Dir(home), "home/config.toml << [files]\nrespect = true\n"); err != nil {
		t.Fatal(err)
	}
	p := startIndex(t, dir, scouttest.Options{Env: []string{"SCOUT_HOME=" + home}})
	pg := mustStep(t, p, dir, nil)
	if !pg.Complete || len(pg.Entries) != 0 || !strings.Contains(string(pg.raw), `"entries":[],"cursor":null,"complete":true`) {
		t.Fatalf("page: %s", pg.raw)
	}
}

// TestIndexNeedsItsCapability: without project.index negotiated the
// method answers unsupported_capability and initialize has no extension.
func TestIndexNeedsItsCapability(t *testing.T) {
	t.Parallel()
	p := scouttest.Start(t, scouttest.Options{Env: []string{"SCOUT_HOME=" + filepath.Join(t.TempDir(), "home")}})
	if init := p.Initialize(wire.MethodProjectFiles); init.Extensions.ProjectIndex != nil || !slices.Contains(init.Capabilities, wire.MethodProjectIndex) {
		t.Fatalf("initialize: %+v", init)
	}
	if m := p.Call(wire.MethodProjectIndex, map[string]any{}); m.Code() != wire.CodeUnsupportedCapability {
		t.Fatalf("project.index: %s", m.Raw)
	}
}
