package main_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/rpcclient"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/files"
)

// benchWords name the generated tree's folders and files.
var benchWords = strings.Fields(`server client http handler router config store auth
	cache parser lexer index search query token session render view model widget`)

var benchTops = strings.Fields("api cmd internal pkg web tools docs test deploy scripts")

// generateTree writes 9,890 files in 110 folders under dir: exactly the
// 10,000 entries project.files keeps, so the snapshot is whole.
func generateTree(tb testing.TB, dir string) {
	tb.Helper()
	write := func(p string) {
		if err := os.WriteFile(filepath.Join(dir, p), nil, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	n := 0
	for ti, top := range benchTops {
		for si := range 10 {
			sub := filepath.Join(top, benchWords[(ti+si)%len(benchWords)])
			if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
				tb.Fatal(err)
			}
			for fi := range 98 {
				a, c := benchWords[fi%len(benchWords)], benchWords[(fi/len(benchWords)+si)%len(benchWords)]
				write(filepath.Join(sub, fmt.Sprintf("%s_%s%d.go", a, c, fi)))
				n++
			}
		}
		for fi := range 9 {
			write(filepath.Join(top, fmt.Sprintf("%s_%d.md", benchWords[fi], ti)))
			n++
		}
	}
	if n != 9890 {
		tb.Fatalf("generated %d files", n)
	}
}

// genDir is where the benchmarks' generated tree lives: $SCOUT_BENCH_TREE
// when set (kept between runs), else a new temporary directory.
var genDir = sync.OnceValues(func() (string, error) {
	if dir := os.Getenv("SCOUT_BENCH_TREE"); dir != "" {
		return dir, os.MkdirAll(dir, 0o755)
	}
	dir, err := os.MkdirTemp("", "scout-launch-bench-")
	return dir, err
})

// frameWatcher is the program's terminal: it reports when the bytes
// written so far match (hold the ranked count "/N", say).
type frameWatcher struct {
	mu    sync.Mutex
	buf   bytes.Buffer
	match func([]byte) bool
	done  chan struct{}
	once  sync.Once
}

func (w *frameWatcher) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.buf.Write(p)
	if w.match(w.buf.Bytes()) {
		w.once.Do(func() { close(w.done) })
	}
	return len(p), nil
}

// BenchmarkLaunchToFirstRankedFrame measures, per op, what `scout
// --query Q` does before the first frame showing Q's ranking reaches the
// terminal: spawn and initialize `scout backend`, take the snapshot, rank
// it, render, flush. The frontend process's own start is not included
// (see docs/performance.md for it).
func BenchmarkLaunchToFirstRankedFrame(b *testing.B) {
	bin := scouttest.Binary(b)
	trees := []struct {
		name, query string
		dir         func(testing.TB) string
	}{
		{"gen10k", "srvhttp", func(tb testing.TB) string {
			dir, err := genDir()
			if err != nil {
				tb.Fatal(err)
			}
			if _, err := os.Stat(filepath.Join(dir, "api")); err != nil {
				generateTree(tb, dir)
			}
			return dir
		}},
		{"goroot", "server", func(tb testing.TB) string {
			out, err := exec.Command("go", "env", "GOROOT").Output()
			if err != nil {
				tb.Fatalf("go env GOROOT: %v", err)
			}
			return filepath.Join(strings.TrimSpace(string(out)), "src")
		}},
	}
	env := append(scouttest.Environ(), "SCOUT_HOME="+b.TempDir())
	for _, tree := range trees {
		b.Run(tree.name, func(b *testing.B) {
			dir := tree.dir(b)
			n := countFiles(b, bin, dir, env)
			cpu0 := cpuTime()
			for b.Loop() {
				launchOnce(b, bin, dir, env, tree.query, fmt.Sprintf("/%d", n))
			}
			// CPU time of this process and the backend children, the
			// teardown included: steadier than wall time on a busy machine.
			b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// cpuTime is the user and system time of this process and of its
// children that have been waited for.
func cpuTime() time.Duration {
	var self, kids syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &kids)
	tv := func(t syscall.Timeval) time.Duration { return time.Duration(t.Nano()) }
	return tv(self.Utime) + tv(self.Stime) + tv(kids.Utime) + tv(kids.Stime)
}

// countFiles is the number of files the snapshot of dir holds.
func countFiles(b *testing.B, bin, dir string, env []string) int {
	cmd := exec.Command(bin, "filter", "")
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.Output()
	if err != nil {
		b.Fatal(err)
	}
	return strings.Count(string(out), "\n")
}

func launchOnce(b *testing.B, bin, dir string, env []string, query, marker string) {
	launchUntil(b, bin, dir, env, query, regexp.MustCompile(regexp.QuoteMeta(marker)))
}

// launchUntil starts the picker with query over dir and returns once its
// terminal output matches frame; the teardown is not timed.
func launchUntil(b *testing.B, bin, dir string, env []string, query string, frame *regexp.Regexp) {
	ctx := context.Background()
	c, err := rpcclient.Start(ctx, rpcclient.Options{Exe: bin, Dir: dir, Env: env, Capabilities: bridge.Required, Optional: bridge.Optional})
	if err != nil {
		b.Fatal(err)
	}
	page := files.New(files.Options{Backend: c, Query: query})
	m := tui.New(tui.Options{Backend: c, Pages: []tui.Page{page}})
	w := &frameWatcher{match: frame.Match, done: make(chan struct{})}
	p := tea.NewProgram(m, tea.WithInput(nil), tea.WithOutput(w), tea.WithWindowSize(120, 40),
		tea.WithoutSignals(), tea.WithColorProfile(colorprofile.ANSI256))
	ended := make(chan struct{})
	go func() { _, _ = p.Run(); close(ended) }()
	<-w.done
	b.StopTimer()
	p.Quit()
	<-ended
	c.Close()
	b.StartTimer()
}

// TestGenerateBenchTree writes the benchmark's generated tree into
// $SCOUT_BENCH_TREE, for measuring outside Go (docs/performance.md);
// without it the test is skipped.
func TestGenerateBenchTree(t *testing.T) {
	dir := os.Getenv("SCOUT_BENCH_TREE")
	if dir == "" {
		t.Skip("SCOUT_BENCH_TREE is not set")
	}
	generateTree(t, dir)
}

// BenchmarkFilterPhases does per op what `scout filter Q` does after its
// own process has started, phase by phase: spawn and initialize `scout
// backend` (the real binary), project.files (scan, encode, pipe, decode),
// the candidates, the ranking (rank.New and the full order), printing,
// and closing the child. It reports each phase's median wall time and the
// CPU time of both processes per op.
func BenchmarkFilterPhases(b *testing.B) {
	bin := scouttest.Binary(b)
	env := append(scouttest.Environ(), "SCOUT_HOME="+b.TempDir())
	dir, err := genDir()
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "api")); err != nil {
		generateTree(b, dir)
	}
	names := []string{"start", "files", "candidates", "rank", "print", "close"}
	phases := make([][]time.Duration, len(names))
	cpu0 := cpuTime()
	for b.Loop() {
		var marks []time.Time
		mark := func() { marks = append(marks, time.Now()) }
		mark()
		ctx := context.Background()
		c, err := rpcclient.Start(ctx, rpcclient.Options{Exe: bin, Dir: dir, Env: env, Capabilities: bridge.Required})
		if err != nil {
			b.Fatal(err)
		}
		mark()
		res, err := c.ProjectFiles(ctx)
		if err != nil {
			b.Fatal(err)
		}
		mark()
		cands := files.Candidates(res.Entries)
		mark()
		out, err := files.Filter(ctx, cands, "srvhttp", 0)
		if err != nil || len(out) == 0 {
			b.Fatal(err, len(out))
		}
		mark()
		w := bufio.NewWriter(io.Discard)
		for _, p := range out {
			w.WriteString(p)
			w.WriteByte('\n')
		}
		w.Flush()
		mark()
		c.Close()
		mark()
		for i := range names {
			phases[i] = append(phases[i], marks[i+1].Sub(marks[i]))
		}
	}
	b.ReportMetric(float64((cpuTime()-cpu0).Microseconds())/1000/float64(b.N), "cpu-ms/op")
	for i, name := range names {
		slices.Sort(phases[i])
		b.ReportMetric(float64(phases[i][len(phases[i])/2].Microseconds())/1000, name+"-ms")
	}
}
