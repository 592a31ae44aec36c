package files

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/tui/bridge"
)

// millionLines is 1,000,000 path-like lines (1,000 folders of 1,000
// files, names like internal/server_http/handler_cache_123.go), one per
// line: the input of the stdin benchmarks. SCOUT_BENCH_LINES writes it to
// a file too, for fzf to read the same bytes (scripts/picker-bench.sh).
func millionLines() []byte {
	words := []string{"server", "client", "http", "handler", "router", "config", "store", "auth", "cache", "parser"}
	var b bytes.Buffer
	for i := range 1000 {
		dir := fmt.Sprintf("%s/%s_%s/%s", []string{"internal", "pkg", "cmd", "web"}[i%4], words[i%10], words[(i/10)%10], words[(i/100)%10])
		for j := range 1000 {
			fmt.Fprintf(&b, "%s/%s_%s_%d.go\n", dir, words[j%10], words[(j/10)%10], j)
		}
	}
	return b.Bytes()
}

// BenchmarkStdinMillion is the picker over 1,000,000 lines of standard
// input, in process: per op, the lines are read from memory as a pipe
// would give them and streamed into the page; first-ms is the time until
// a View shows rows, all-ms until every line is ranked (all-cpu-ms its
// CPU time, every thread), then a query is
// typed one character at a time (Update, the ranking Cmd, Update with
// its result, View at 120×40): key-p50-ms and key-max-ms over its
// keystrokes (the first sees every line), and their CPU time (all
// threads: the ranker splits a keystroke across cores).
//
//	go test -run '^$' -bench StdinMillion -benchtime 3x -count 3 ./tui/files
func BenchmarkStdinMillion(b *testing.B) {
	data := millionLines()
	if p := os.Getenv("SCOUT_BENCH_LINES"); p != "" {
		if err := os.WriteFile(p, data, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	const query = "srvhttp"
	var first, all, allCPU, keys, cpu []time.Duration
	for b.Loop() {
		f, a, ac, k, c := stdinRun(b, data, query)
		first, all, allCPU = append(first, f), append(all, a), append(allCPU, ac)
		keys, cpu = append(keys, k...), append(cpu, c...)
	}
	slices.Sort(keys)
	slices.Sort(cpu)
	b.ReportMetric(medianMs(first), "first-ms")
	b.ReportMetric(medianMs(all), "all-ms")
	b.ReportMetric(medianMs(allCPU), "all-cpu-ms")
	b.ReportMetric(ms(keys[len(keys)/2]), "key-p50-ms")
	b.ReportMetric(ms(keys[len(keys)-1]), "key-max-ms")
	b.ReportMetric(ms(cpu[len(cpu)/2]), "key-cpu-p50-ms")
	b.ReportMetric(ms(cpu[len(cpu)-1]), "key-cpu-max-ms")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func medianMs(ds []time.Duration) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	return ms(s[len(s)/2])
}

// stdinRun streams data into a page and types query: the time to the
// first rows, to every line ranked, and each keystroke's wall and CPU
// time. Cmds run in goroutines of their own and their messages are
// handled in the order they arrive, as in Bubble Tea (the page's
// additions and rankings overlap with the reading).
func stdinRun(b *testing.B, data []byte, query string) (first, all, allCPU time.Duration, keys, keysCPU []time.Duration) {
	start, startCPU := time.Now(), cpuTime()
	m := New(Options{Backend: bridge.NewLazy(nil), Lines: ReadLines(bytes.NewReader(data), '\n')})
	settle(m, []tea.Msg{tea.WindowSizeMsg{Width: 120, Height: 40}})
	msgs := make(chan tea.Msg, 64)
	inFlight := 0
	launch := func(cmd tea.Cmd) {
		if cmd == nil {
			return
		}
		inFlight++
		go func() { msgs <- cmd() }()
	}
	launch(m.listenLines())
	for inFlight > 0 {
		msg := <-msgs
		inFlight--
		if batch, ok := msg.(tea.BatchMsg); ok {
			for _, c := range batch {
				launch(c)
			}
			continue
		}
		if msg == nil {
			continue
		}
		_, cmd := m.Update(msg)
		launch(cmd)
		if first == 0 && m.rowCount() > 0 && strings.Contains(m.View(), "/") {
			first = time.Since(start)
		}
	}
	all, allCPU = time.Since(start), cpuTime()-startCPU
	if m.stdin.read != 1_000_000 || m.snap.files != 1_000_000 {
		b.Fatalf("%d lines read, %d ranked", m.stdin.read, m.snap.files)
	}
	for _, r := range query {
		t, c := time.Now(), cpuTime()
		_, cmd := m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
		settle(m, run(cmd))
		_ = m.View()
		keys, keysCPU = append(keys, time.Since(t)), append(keysCPU, cpuTime()-c)
	}
	if m.rank.res == nil || m.rank.res.query != query || m.rank.res.res.Total == 0 {
		b.Fatal("the query was not ranked")
	}
	return first, all, allCPU, keys, keysCPU
}

// cpuTime is the process's user and system time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
