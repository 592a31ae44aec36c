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

// BenchmarkFilterKeystroke is one keystroke over 10,000 titles: the
// ranking runs in Update, so it must stay far below a frame.
func BenchmarkFilterKeystroke(b *testing.B) {
	m := benchModel(10000)
	queries := []string{"f", "fi", "fix", "fix t", "fix tr", "fix tre"}
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		m.input.SetValue(queries[i%len(queries)])
		m.refilter(true)
	}
}

// BenchmarkFilterNewPage is a page of rows arriving with a query typed:
// the ranker is rebuilt over 10,000 titles and ranks them.
func BenchmarkFilterNewPage(b *testing.B) {
	m := benchModel(10000)
	m.input.SetValue("fix tre")
	b.ReportAllocs()
	for b.Loop() {
		m.rowsRev++
		m.refilter(false)
	}
}
