package files

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/tree"
)

// TestSnapshotHeapPerEntry measures what the frontend keeps per entry of a
// 10,000-file snapshot (10,104 entries with their folders): the decoded
// report, the candidates and the ranker's index, the tree's entries and
// the tree. Run with -v (SCOUT_TEST_MEMORY=1) for docs/performance.md.
func TestSnapshotHeapPerEntry(t *testing.T) {
	if os.Getenv("SCOUT_TEST_MEMORY") == "" {
		t.Skip("SCOUT_TEST_MEMORY is not set")
	}
	rep := benchReport()
	line, err := rep.AppendJSON(nil)
	if err != nil {
		t.Fatal(err)
	}
	n := len(rep.Entries)
	var res wire.ProjectFilesResult
	var snap *snapshot
	var tr *tree.Tree
	steps := []struct {
		name string
		do   func()
	}{
		{"report (decoded)", func() {
			if err := res.DecodeValid(line); err != nil {
				t.Fatal(err)
			}
		}},
		{"candidates, ranker index, tree entries", func() { snap = newSnapshot(res, false) }},
		{"tree", func() {
			if tr, err = tree.New(snap.tree); err != nil {
				t.Fatal(err)
			}
		}},
	}
	total := uint64(0)
	t.Logf("%d entries, %d files, report line %d bytes", n, len(Candidates(rep.Entries)), len(line))
	for _, st := range steps {
		before := liveHeap()
		st.do()
		d := liveHeap() - before
		total += d
		t.Logf("%-40s %8d bytes, %5.1f bytes/entry", st.name, d, float64(d)/float64(n))
	}
	t.Logf("%-40s %8d bytes, %5.1f bytes/entry", "total", total, float64(total)/float64(n))
	runtime.KeepAlive(line)
	runtime.KeepAlive(tr)
}

// liveHeap is the heap in use after two collections (the second drops
// what sync.Pools kept through the first).
func liveHeap() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// benchReport is benchPaths as a report, folders included.
func benchReport() *wire.ProjectFilesResult {
	rep := &wire.ProjectFilesResult{CommandID: "1", Generation: 1}
	seen := map[string]bool{}
	for _, p := range benchPaths() {
		for i := range len(p) {
			if p[i] == '/' && !seen[p[:i]] {
				seen[p[:i]] = true
				rep.Entries = append(rep.Entries, wire.FileEntry{Path: p[:i], Kind: wire.KindDirectory})
			}
		}
		rep.Entries = append(rep.Entries, wire.FileEntry{Path: p, Kind: wire.KindFile})
	}
	// the report's order: by path components
	slices.SortFunc(rep.Entries, func(a, b wire.FileEntry) int {
		return slices.Compare(strings.Split(a.Path, "/"), strings.Split(b.Path, "/"))
	})
	rep.SetTS("2026-11-29T00:00:00.000Z")
	return rep
}
