package backend_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// Black-box tests of the handoff from a truncated project.files to the
// fresh project.index that follows it (docs/protocol.md §10.10): the walk
// goes on from what the scan read instead of reading it again.

// keepHandoff lifts the handoff's wait, so a slow machine cannot let it
// lapse between the two requests.
const keepHandoff = "SCOUT_DEBUG_INDEX_HANDOFF_MS=600000"

// lateName sorts among the first names of pagedTree's root: a file made
// there after the scan is within what the scan read.
const lateName = "f00000late.go"

func hasPath(entries []wire.FileEntry, path string) bool {
	return slices.ContainsFunc(entries, func(e wire.FileEntry) bool { return e.Path == path })
}

// TestIndexContinuesATruncatedScan: a fresh walk right after a truncated
// snapshot lists exactly what a fresh walk in another child lists, in the
// same order, and lists the tree as the scan read it: a file made after
// the scan in a folder the scan had read is not listed (a walk that read
// the folder again would list it); after another project.files, or when
// the handoff has lapsed, the walk reads the tree again.
func TestIndexContinuesATruncatedScan(t *testing.T) {
	t.Parallel()
	dir := pagedTree(t)
	fresh := startIndex(t, dir, scouttest.Options{Debug: true, Env: []string{steady}})
	want := allEntries(walkIndex(t, fresh, dir))

	p := startIndex(t, dir, scouttest.Options{Debug: true, Env: []string{steady, keepHandoff}})
	if !scanFiles(t, p, dir).Truncated {
		t.Fatal("the snapshot is not truncated")
	}
	if err := os.WriteFile(filepath.Join(dir, lateName), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(filepath.Join(dir, lateName)) })
	got := allEntries(walkIndex(t, p, dir))
	if !slices.Equal(got, want) {
		t.Fatalf("the continued walk differs from a fresh one: %d and %d entries", len(got), len(want))
	}
	checkWalkOrder(t, got)

	// The handoff was taken: a second fresh walk reads the tree again.
	if again := allEntries(walkIndex(t, p, dir)); !hasPath(again, lateName) {
		t.Fatalf("a second fresh walk does not list %s", lateName)
	}
	// A later truncated scan hands over what it read (the new file too).
	scanFiles(t, p, dir)
	if got := allEntries(walkIndex(t, p, dir)); !hasPath(got, lateName) || len(got) != len(want)+1 {
		t.Fatalf("after a second scan: %d entries (want %d) with %s: %v", len(got), len(want)+1, lateName, hasPath(got, lateName))
	}
}

// TestIndexHandoffIsDropped: a policy change between the scan and the
// walk drops the walk the scan left, and so does the end of its wait.
func TestIndexHandoffIsDropped(t *testing.T) {
	t.Parallel()
	dir := pagedTree(t, trustFixture("[files]\ndeny = [\"d2/\"]\n")...)
	late := filepath.Join(dir, "f00000drop.go")

	// A policy change between the scan and the walk.
	p := startIndex(t, dir, scouttest.Options{Debug: true, Env: []string{steady, keepHandoff}})
	scanFiles(t, p, dir)
	if err := os.WriteFile(late, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(late) })
	p.MustCall(wire.MethodWorkspaceTrust, map[string]any{}, nil)
	if got := allEntries(walkIndex(t, p, dir)); !hasPath(got, filepath.Base(late)) {
		t.Fatal("after a policy change the walk went on from the old scan")
	}

	// The wait ends (1 ms) before the walk is asked for.
	q := startIndex(t, dir, scouttest.Options{Debug: true, Env: []string{steady, "SCOUT_DEBUG_INDEX_HANDOFF_MS=1"}})
	os.Remove(late)
	scanFiles(t, q, dir)
	if err := os.WriteFile(late, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := allEntries(walkIndex(t, q, dir)); !hasPath(got, filepath.Base(late)) {
		t.Fatal("the walk went on from a scan whose handoff had lapsed")
	}
}
