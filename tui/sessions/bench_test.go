package sessions

import (
	"fmt"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
)

// benchWords make the benchmarks' sentence-like titles.
var benchWords = []string{"fix", "parser", "refactor", "tree", "bench", "ranking", "docs", "frontend", "session", "discovery", "provider", "refresh"}

// benchModel is a page holding n rows with sentence-like titles ("fix the
// parser of docs #123"); with capitals, each title starts with one ("Fix
// the …").
func benchModel(n int, capitals bool) *Model {
	rows := make([]wire.SessionRow, n)
	for i := range rows {
		first := benchWords[i%12]
		if capitals {
			first = string(first[0]-'a'+'A') + first[1:]
		}
		rows[i] = wire.SessionRow{ID: fmt.Sprintf("s%05d", i), Title: fmt.Sprintf("%s the %s of %s #%d", first, benchWords[(i/12)%12], benchWords[(i/144)%12], i)}
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

// typing runs the keystrokes of typing queries, one after the other, and
// starts over: each keystroke but the first narrows the previous result.
func typing(b *testing.B, m *Model, queries []string) {
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		filterOnce(m, queries[i%len(queries)])
	}
}

// BenchmarkFilterKeystroke is one keystroke over 10,000 titles.
func BenchmarkFilterKeystroke(b *testing.B) {
	typing(b, benchModel(10000, false), []string{"f", "fi", "fix", "fix t", "fix tr", "fix tre"})
}

// BenchmarkFilterKeystrokeCaseSensitive is one keystroke of a filter with
// a capital over 10,000 titles that start with one: the titles are
// matched with their capitals swapped (match.go).
func BenchmarkFilterKeystrokeCaseSensitive(b *testing.B) {
	typing(b, benchModel(10000, true), []string{"F", "Fi", "Fix", "Fix t", "Fix tr", "Fix tre"})
}

// BenchmarkFilterNewPage is a page of rows arriving under a query: the
// previous result covers fewer rows, so every title is matched again.
func BenchmarkFilterNewPage(b *testing.B) {
	m := benchModel(10000, false)
	b.ReportAllocs()
	for b.Loop() {
		m.filter.narrow = narrowing{}
		filterOnce(m, "fix tre")
	}
}

// BenchmarkView draws a page of 10,000 rows filtered, at 200×50.
func BenchmarkView(b *testing.B) {
	m := benchModel(10000, false)
	m.complete = true
	m.Observe(tea.WindowSizeMsg{Width: 200, Height: 50})
	filterOnce(m, "fix")
	b.ReportAllocs()
	for b.Loop() {
		_ = m.View()
	}
}
