package files

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/tree"
)

// benchPaths is a 10,000-file tree (the snapshot bound) of realistic
// shape: 100 folders of compound names, 100 files each.
func benchPaths() []string {
	words := []string{"server", "client", "http", "handler", "router", "config", "store", "auth", "cache", "parser"}
	var out []string
	for i := range 100 {
		dir := fmt.Sprintf("%s/%s_%s", []string{"internal", "pkg", "cmd", "web"}[i%4], words[i%10], words[(i/10)%10])
		for j := range 100 {
			out = append(out, fmt.Sprintf("%s/%s%s_%d.go", dir, words[j%10], words[(j/10)%10], j))
		}
	}
	return out
}

// run executes cmd and every Cmd it batches, returning their messages.
// The page's Cmds in these benchmarks never sleep: the preview (whose Cmd
// is a timer) is off.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if batch, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range batch {
			out = append(out, run(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// settle feeds msgs and what they lead to back into m until nothing is
// left.
func settle(m *Model, msgs []tea.Msg) {
	for len(msgs) > 0 {
		msg := msgs[0]
		msgs = msgs[1:]
		if msg == nil {
			continue
		}
		_, cmd := m.Update(msg)
		msgs = append(msgs, run(cmd)...)
	}
}

func benchPage(b *testing.B) *Model {
	fake := bridgetest.New(bridgetest.Options{Files: benchPaths()})
	m := New(Options{Backend: fake})
	m.previewPref = previewOff
	settle(m, []tea.Msg{tea.WindowSizeMsg{Width: 120, Height: 40}})
	settle(m, run(m.Init()))
	if m.snap == nil || m.snap.files != 10000 {
		b.Fatalf("snapshot not loaded")
	}
	return m
}

// BenchmarkKeystrokeToView is the frontend's whole path for one typed
// character: Update (query line), the ranking Cmd, Update with its result,
// and View of a 120×40 page; a query of 7 characters typed one at a time,
// then cleared. ns/op is per keystroke.
func BenchmarkKeystrokeToView(b *testing.B) {
	m := benchPage(b)
	const query = "srvhttp"
	keys := 0
	for b.Loop() {
		for _, r := range query {
			_, cmd := m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			settle(m, run(cmd))
			_ = m.View()
			keys++
		}
		m.input.SetValue("")
		settle(m, run(m.queryChanged()))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(keys), "ns/key")
	if m.snap == nil {
		b.Fatal("lost the snapshot")
	}
}

// BenchmarkView renders a 200×50 page of ranked rows with highlights.
func BenchmarkView(b *testing.B) {
	m := benchPage(b)
	settle(m, []tea.Msg{tea.WindowSizeMsg{Width: 200, Height: 50}})
	m.input.SetValue("srvhttp")
	settle(m, run(m.queryChanged()))
	if m.rowCount() < 40 {
		b.Fatalf("only %d rows", m.rowCount())
	}
	for b.Loop() {
		_ = m.View()
	}
}

// BenchmarkSnapshot is what a project.files report costs the frontend
// before the tree is shown: candidates and the ranker's index (in the scan
// Cmd), and the tree (in Update).
func BenchmarkSnapshot(b *testing.B) {
	entries := bridgetest.Entries(benchPaths())
	res := wire.ProjectFilesResult{Generation: 1, Entries: entries}
	for b.Loop() {
		s := newSnapshot(res, false)
		if _, err := tree.New(s.tree); err != nil {
			b.Fatal(err)
		}
	}
}
