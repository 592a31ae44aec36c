package sessions_test

import (
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/internal/pagetest"
	"github.com/scoutdev/scout/tui/sessions"
)

// now is the fixed clock of the tests' relative times.
var now = time.Date(2026, 3, 10, 12, 0, 0, 0, time.UTC)

func ago(d time.Duration) string { return now.Add(-d).Format("2006-01-02T15:04:05.000Z") }

func row(id, title string, age time.Duration) wire.SessionRow {
	return wire.SessionRow{ID: id, Title: title, CreatedAt: ago(age + time.Hour), UpdatedAt: ago(age), Cwd: wire.CwdVerified, Records: 12}
}

// fixture is a store's rows in directory order (not by date).
var fixture = func() []wire.SessionRow {
	rows := []wire.SessionRow{
		row("s-tree", "Refactor tui/tree rows", 2*time.Hour),
		row("s-parser", "Fix the parser's error recovery", 5*time.Minute),
		row("s-legacy", "Port the old CLI flags", 3*24*time.Hour),
		row("s-untitled", "", 10*24*time.Hour),
		row("s-bench", "Benchmark ranking on 100k paths", 40*time.Minute),
		row("s-docs", "Write docs/frontend.md for the pages", 26*time.Hour),
		row("s-e2e", "End-to-end tests in tmux", 20*time.Second),
	}
	rows[1].Busy = true
	rows[2].Cwd = wire.CwdUnverified
	rows[1].Agent, rows[4].Agent, rows[5].Agent = wire.AgentClaudeCode, wire.AgentCodex, wire.AgentGemini
	return rows
}()

// newestFirst is the fixture's ids as the page lists them.
var newestFirst = []string{"s-e2e", "s-parser", "s-bench", "s-tree", "s-docs", "s-legacy", "s-untitled"}

// state is what the probe reads from the page.
type state struct {
	query    string
	rows     []string
	focused  string
	complete bool
	settled  bool // the rows are the filter's result over every row
}

type harness struct {
	*pagetest.Harness
	t    *testing.T
	page *sessions.Model
}

// start runs the picker on the Sessions tab (or on tab active) over fake.
func start(t *testing.T, fake *bridgetest.Fake, w, h int, active ...int) *harness {
	t.Helper()
	page := sessions.New(sessions.Options{Backend: fake, Now: func() time.Time { return now }})
	tab := 1
	if len(active) > 0 {
		tab = active[0]
	}
	hs := &harness{t: t, page: page}
	hs.Harness = pagetest.Start(t, fake, pagetest.Options{
		Pages: []tui.Page{
			tui.NewPlaceholder("Files", "files page"),
			page,
			tui.NewPlaceholder("Providers", "providers page"),
		},
		Active: tab, Width: w, Height: h,
		Probe: func() any {
			return state{query: page.Query(), rows: page.Rows(), focused: page.Focused(), complete: page.Complete(), settled: page.Settled()}
		},
	})
	return hs
}

func st(f pagetest.Frame) state { s, _ := f.State.(state); return s }

// complete waits for a finished list.
func (h *harness) complete() pagetest.Frame {
	h.t.Helper()
	return h.Wait("discovery to complete", func(f pagetest.Frame) bool { return st(f).complete && st(f).settled })
}

// filtered waits until the rows are the ranking of query.
func (h *harness) filtered(query string) pagetest.Frame {
	h.t.Helper()
	return h.Wait("the ranking of "+query, func(f pagetest.Frame) bool { return st(f).query == query && st(f).settled })
}
