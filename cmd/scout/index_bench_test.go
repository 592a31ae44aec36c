package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/internal/scouttest"
)

// Measurements of the whole-tree index for docs/performance.md (bench/index.sh
// runs them): the first ranked frame in a tree of a million files against
// one of ten thousand, and the peak memory of the picker holding the whole
// index against fzf holding the same paths.

// rankedCount matches a ranked count ("12/9890") in the query line.
var rankedCount = regexp.MustCompile(`\d+/\d+`)

// BenchmarkFirstRankedFrameIndexed measures, per op, launch to the first
// frame showing the query's ranking (`scout --query Q` without the
// frontend process's own start, as BenchmarkLaunchToFirstRankedFrame)
// in the 10,000-entry tree and in $SCOUT_BENCH_INDEX_TREE (made by
// bench/index.sh), interleaved in each op so a shared machine's load
// hits both alike. The big tree's first frame is its snapshot's: the
// index follows after it. It reports each tree's median (tree-ms).
func BenchmarkFirstRankedFrameIndexed(b *testing.B) {
	big := os.Getenv("SCOUT_BENCH_INDEX_TREE")
	if big == "" {
		b.Skip("SCOUT_BENCH_INDEX_TREE is not set (bench/index.sh sets it)")
	}
	bin := scouttest.Binary(b)
	small, err := genDir()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(small, "api")); err != nil {
		generateTree(b, small)
	}
	env := append(scouttest.Environ(), "SCOUT_HOME="+b.TempDir())
	trees := []struct{ name, dir, query string }{{"gen10k", small, "srvhttp"}, {"big", big, "part05file12"}}
	times := make([][]float64, len(trees))
	for b.Loop() {
		for i, tree := range trees {
			start := time.Now()
			launchUntil(b, bin, tree.dir, env, tree.query, rankedCount)
			times[i] = append(times[i], float64(time.Since(start).Microseconds())/1000)
		}
	}
	for i, tree := range trees {
		slices.Sort(times[i])
		b.ReportMetric(times[i][len(times[i])/2], tree.name+"-ms")
	}
}

// procCPU is the user and system time process pid has used so far
// (/proc/PID/stat, in clock ticks of 1/100 s).
func procCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		t.Fatal(err)
	}
	f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])) // comm may hold spaces
	utime, err1 := strconv.Atoi(f[11])
	stime, err2 := strconv.Atoi(f[12])
	if err1 != nil || err2 != nil {
		t.Fatalf("/proc/%d/stat: %v %v", pid, err1, err2)
	}
	return time.Duration(utime+stime) * 10 * time.Millisecond
}

// TestIndexPeakRSS runs the real picker in tmux in $SCOUT_BENCH_INDEX_TREE,
// types a query, waits until the index is complete (the count is every
// file's) and reports the peak resident set (VmHWM) of the frontend and
// its backend child; then fzf 0.38 (Debian's) and $SCOUT_BENCH_FZF_GO (fzf
// built from its Go module, when set) read the same paths from stdin in the same terminal, are
// given the same query, and their peak is reported beside. Run by
// bench/index.sh (SCOUT_TEST_MEMORY=1).
func TestIndexPeakRSS(t *testing.T) {
	big := os.Getenv("SCOUT_BENCH_INDEX_TREE")
	if os.Getenv("SCOUT_TEST_MEMORY") == "" || big == "" {
		t.Skip("SCOUT_TEST_MEMORY or SCOUT_BENCH_INDEX_TREE is not set (bench/index.sh sets them)")
	}
	const query = "part05file12"
	cmd := exec.Command(scouttest.Binary(t), "filter", "")
	cmd.Dir, cmd.Env = big, append(scouttest.Environ(), env(t)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(out), "\n")
	list := filepath.Join(t.TempDir(), "paths.txt")
	if err := os.WriteFile(list, out, 0o644); err != nil {
		t.Fatal(err)
	}
	total := fmt.Sprintf("/%d", n)
	x := scouttest.StartTmux(t, big, 120, 40, env(t), `"$SCOUT" --query `+query+` > "$OUTDIR/out" 2> "$OUTDIR/err"`)
	x.WaitScreen("the whole index ranked", func(s string) bool { return strings.Contains(s, total) && !strings.Contains(s, "indexing") })
	front := childOf(t, x.PanePID())
	back := childOf(t, front)
	fh, bh := statusKiB(t, front, "VmHWM"), statusKiB(t, back, "VmHWM")
	t.Logf("scout, %d files: frontend VmHWM %d KiB, backend VmHWM %d KiB, together %d KiB; CPU time frontend %v, backend %v",
		n, fh, bh, fh+bh, procCPU(t, front), procCPU(t, back))
	x.Keys("Escape")
	for _, fzf := range []string{"fzf", os.Getenv("SCOUT_BENCH_FZF_GO")} {
		if fzf == "" {
			continue
		}
		if _, err := exec.LookPath(fzf); err != nil {
			t.Logf("%s is not installed", fzf)
			continue
		}
		y := scouttest.StartTmux(t, big, 120, 40, env(t), fzf+` --query `+query+` < `+list+` > "$OUTDIR/out"`)
		y.WaitScreen(fzf+" holding every path", func(s string) bool { return strings.Contains(s, total) })
		pid := childOf(t, y.PanePID())
		hwm := statusKiB(t, pid, "VmHWM")
		t.Logf("%s: VmHWM %d KiB; scout ÷ %s %.2f×", fzf, hwm, fzf, float64(fh+bh)/float64(hwm))
		y.Keys("Escape")
	}
}
