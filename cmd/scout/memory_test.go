package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/scoutdev/scout/internal/scouttest"
)

// TestFrontendPeakRSS runs the real picker in tmux on the benchmark tree
// (9,890 files in 110 folders: a 10,000-entry snapshot), types a query,
// and reports the peak resident set (VmHWM) of the frontend and of its
// backend child (docs/performance.md). It fails only far above what was
// measured (the bound is a guard, not a target). Run with
// SCOUT_TEST_MEMORY=1 (and SCOUT_BENCH_TREE to keep the tree).
func TestFrontendPeakRSS(t *testing.T) {
	if os.Getenv("SCOUT_TEST_MEMORY") == "" {
		t.Skip("SCOUT_TEST_MEMORY is not set")
	}
	dir, err := genDir()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "api")); err != nil {
		generateTree(t, dir)
	}
	x := scouttest.StartTmux(t, dir, 120, 40, env(t), `"$SCOUT" > "$OUTDIR/out" 2> "$OUTDIR/err"`)
	x.WaitScreen("the snapshot", func(s string) bool { return strings.Contains(s, "9890 files") })
	x.Type("srvhttp")
	x.WaitScreen("the ranking", func(s string) bool { return strings.Contains(s, "/9890") })
	front := childOf(t, x.PanePID())
	back := childOf(t, front)
	for _, p := range []struct {
		name string
		pid  int
	}{{"frontend", front}, {"backend", back}} {
		hwm, rss := statusKiB(t, p.pid, "VmHWM"), statusKiB(t, p.pid, "VmRSS")
		t.Logf("%s (pid %d): VmHWM %d KiB, VmRSS %d KiB", p.name, p.pid, hwm, rss)
		if hwm > 256<<10 {
			t.Errorf("%s peak RSS %d KiB is over 256 MiB", p.name, hwm)
		}
	}
	x.Keys("Escape")
}

// statusKiB reads a "kB" field of /proc/PID/status.
func statusKiB(t *testing.T, pid int, field string) int {
	t.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, field+":"); ok {
			n, err := strconv.Atoi(strings.TrimSuffix(strings.TrimSpace(v), " kB"))
			if err != nil {
				t.Fatal(err)
			}
			return n
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}
