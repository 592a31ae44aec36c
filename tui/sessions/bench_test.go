package sessions

import (
	"fmt"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
)

// benchModel is a page holding n rows with sentence-like titles.
func benchModel(n int) *Model {
	words := []string{"fix", "parser", "refactor", "tree", "bench", "ranking", "docs", "frontend", "session", "discovery", "provider", "refresh"}
	rows := make([]wire.SessionRow, n)
	for i := range rows {
		rows[i] = wire.SessionRow{ID: fmt.Sprintf("s%05d", i), Title: fmt.Sprintf("%s the %s of %s #%d", words[i%12], words[(i/12)%12], words[(i/144)%12], i)}
	}
	m := New(Options{Backend: bridgetest.New(bridgetest.Options{})})
	m.add(rows)
	return m
}

// filterOnce is what one keystroke costs: Update of the filter, the
// ranking Cmd, Update with its result.
func filterOnce(m *Model, q string) {
	m.input.SetValue(q)
	if msg := m.refilter()(); msg != nil {
		m.handleRank(msg.(rankMsg))
	}
}

// BenchmarkFilterKeystroke is one keystroke over 10,000 titles.
func BenchmarkFilterKeystroke(b *testing.B) {
	m := benchModel(10000)
	queries := []string{"f", "fi", "fix", "fix t", "fix tr", "fix tre"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		filterOnce(m, queries[i%len(queries)])
	}
}

// BenchmarkFilterNewPage is a page of rows arriving under a query: the
// ranker is built again over 10,000 titles (in the Cmd) and ranks them.
func BenchmarkFilterNewPage(b *testing.B) {
	m := benchModel(10000)
	b.ReportAllocs()
	for b.Loop() {
		m.filter.ranker = nil
		filterOnce(m, "fix tre")
	}
}

// BenchmarkView draws a page of 10,000 rows filtered, at 200×50.
func BenchmarkView(b *testing.B) {
	m := benchModel(10000)
	m.complete = true
	m.width, m.height = 200, 50
	filterOnce(m, "fix")
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}
