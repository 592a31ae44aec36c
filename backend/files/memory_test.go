package files

import (
	"context"
	"os"
	"runtime"
	"testing"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
)

// TestReportHeapPerEntry measures what the backend holds per entry of a
// 10,000-entry snapshot while it answers (GenerateTree with 10,000 files:
// 1,111 folders and the first 8,889 files are selected): the scan's
// selection, the report's entries, and the encoded response line. It also
// gives what the scan allocates in all. Run with -v (SCOUT_TEST_MEMORY=1)
// for docs/performance.md.
func TestReportHeapPerEntry(t *testing.T) {
	if os.Getenv("SCOUT_TEST_MEMORY") == "" {
		t.Skip("SCOUT_TEST_MEMORY is not set")
	}
	dir := t.TempDir()
	if err := GenerateTree(dir, 10000); err != nil {
		t.Fatal(err)
	}
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	pol, err := policy.New(1, dir, policy.Rules{RespectIgnore: true})
	if err != nil {
		t.Fatal(err)
	}
	// One scan first, so that what the process keeps between scans
	// (pooled read buffers) is not counted as the snapshot's.
	if _, err := Scan(context.Background(), root, pol, DefaultLimits); err != nil {
		t.Fatal(err)
	}
	var res *Result
	var rep *wire.ProjectFilesResult
	var line []byte
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	steps := []struct {
		name string
		do   func() error
	}{
		{"scan (selection)", func() (err error) { res, err = Scan(context.Background(), root, pol, DefaultLimits); return err }},
		{"report (entries)", func() (err error) { rep, err = Report("1", 1, res, wire.DefaultFilesExtension.ReportBytes); return err }},
		{"encoded line", func() (err error) { line, err = rep.AppendJSON(nil); return err }},
	}
	var total uint64
	held := make([]uint64, len(steps))
	for i, st := range steps {
		before := liveHeap()
		if err := st.do(); err != nil {
			t.Fatal(err)
		}
		held[i] = liveHeap() - before
		total += held[i]
	}
	runtime.ReadMemStats(&ms1)
	n := float64(len(rep.Entries))
	for i, st := range steps {
		t.Logf("%-20s %8d bytes, %5.1f bytes/entry", st.name, held[i], float64(held[i])/n)
	}
	t.Logf("%-20s %8d bytes, %5.1f bytes/entry (%d entries, line %d bytes)", "held", total, float64(total)/n, len(rep.Entries), len(line))
	t.Logf("allocated in all: %d bytes (%.0f bytes/entry), %d allocations (%.2f per entry)",
		ms1.TotalAlloc-ms0.TotalAlloc, float64(ms1.TotalAlloc-ms0.TotalAlloc)/n, ms1.Mallocs-ms0.Mallocs, float64(ms1.Mallocs-ms0.Mallocs)/n)
	runtime.KeepAlive(res)
	runtime.KeepAlive(line)
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
