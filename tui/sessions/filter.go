package sessions

import (
	"context"
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
)

// The title filter (match.go says how a title matches). Typing never
// waits for a ranking: the filter line changes in Update, the ranking is
// made in a Cmd tagged with a revision, a newer keystroke or page cancels
// it, and a result of an older revision is dropped. Every match is ranked,
// with its highlights: the library places each match as it finds it, so a
// window of the best few would save only the sort. Rows are kept in
// arrival order, so a ranking made before more rows arrived still points
// at the right rows until the newer one replaces it. With an empty filter
// nothing is ranked: the rows are shown newest first.
//
// Each typed character narrows the previous result instead of starting
// over: a filter whose matches lie among the last ranked one's, over the
// same rows, is ranked among its matches.

// filterState is the filter's result over the rows.
type filterState struct {
	rev    int // the latest ranking asked for
	cancel context.CancelFunc
	query  string     // the query shown is the result of
	covers int        // how many rows that result covers
	shown  []shownRow // the rows shown, in order
	narrow narrowing
	// openWaits is Enter pressed while the ranking of the query typed was
	// not in yet: it opens what that ranking puts first.
	openWaits bool
}

// shownRow is one row shown: its index in Model.rows and the byte offsets
// of its title's matched runes.
type shownRow struct {
	row int
	pos []int
}

// narrowing is a finished ranking's matches, in the order the rows are
// shown without a filter: the only candidates of a longer filter over the
// same rows. rows is never modified, so rankings in flight may share it.
type narrowing struct {
	query   string
	scan, n int // the discovery and the number of rows it covered
	rows    []int
}

// rankMsg is ranking rev: the query's matches over the first n rows.
type rankMsg struct {
	rev     int
	scan    int // the discovery the rows are of
	query   string
	n       int
	shown   []shownRow // best first
	matched []int      // the matching rows, in candidate order
}

// refilter shows the rows for the query: at once for an empty query,
// else through a ranking Cmd.
func (m *Model) refilter() tea.Cmd {
	m.dropRanking()
	q := m.input.Value()
	if q == "" {
		shown := make([]shownRow, len(m.order))
		for i, r := range m.order {
			shown[i] = shownRow{row: r}
		}
		m.show(rankMsg{rev: m.filter.rev, n: len(m.rows), shown: shown})
		return m.settled()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.filter.cancel = cancel
	rev, scan, rows, cands := m.filter.rev, m.disc.seq, m.rows[:len(m.rows):len(m.rows)], m.candidates(q)
	return func() tea.Msg {
		defer cancel()
		matches, ok := matchTitles(ctx, q, cands, func(r int) string { return rows[r].Title })
		if !ok {
			return nil // cancelled: a newer ranking is on its way
		}
		msg := rankMsg{rev: rev, scan: scan, query: q, n: len(rows), matched: make([]int, len(matches))}
		for i, mt := range matches {
			msg.matched[i] = mt.row
		}
		bestFirst(matches)
		msg.shown = make([]shownRow, len(matches))
		for i, mt := range matches {
			msg.shown[i] = shownRow{row: mt.row, pos: mt.pos}
		}
		return msg
	}
}

// candidates are the rows a ranking of q looks at, in the order they are
// shown without a filter: the last ranking's matches when q's matches lie
// among them (a longer term or another term matches a subset; narrows
// says when) over the same rows, else every row.
func (m *Model) candidates(q string) []int {
	nw := m.filter.narrow
	if nw.query != "" && nw.scan == m.disc.seq && nw.n == len(m.rows) && narrows(nw.query, q) {
		return nw.rows
	}
	return slices.Clone(m.order)
}

// dropRanking cancels the ranking in flight; its result will be dropped.
func (m *Model) dropRanking() {
	if m.filter.cancel != nil {
		m.filter.cancel()
		m.filter.cancel = nil
	}
	m.filter.rev++
}

func (m *Model) handleRank(msg rankMsg) tea.Cmd {
	if msg.scan == m.disc.seq && msg.n == len(m.rows) {
		// Worth keeping for the next keystroke over the same rows, even
		// when a newer ranking was asked for meanwhile.
		m.filter.narrow = narrowing{query: msg.query, scan: msg.scan, n: msg.n, rows: msg.matched}
	}
	if msg.rev != m.filter.rev {
		return nil
	}
	m.show(msg)
	return m.settled()
}

// show makes a ranking the rows shown. The focused row stays focused when
// the query is the same and the user moved off the top; a cursor on the
// top row stays there (the newest session, or the best match, as pages
// arrive: fzf's cursor does the same); a new query focuses its best match.
func (m *Model) show(msg rankMsg) {
	keep := m.Focused()
	keepFocus := msg.query == m.filter.query && m.cursor > 0
	m.filter.query, m.filter.covers, m.filter.shown = msg.query, msg.n, msg.shown
	m.cursor = 0
	if keepFocus {
		if i := slices.IndexFunc(m.filter.shown, func(s shownRow) bool { return m.rows[s.row].ID == keep }); i >= 0 {
			m.cursor = i
		}
	}
	m.scrollTo()
}

// Settled reports whether the rows shown are the filter's result over
// every row found so far.
func (m *Model) Settled() bool {
	return m.filter.query == m.input.Value() && m.filter.covers == len(m.rows)
}

// settled opens what an Enter that waited for the ranking now focuses.
func (m *Model) settled() tea.Cmd {
	if !m.filter.openWaits || !m.Settled() {
		return nil
	}
	m.filter.openWaits = false
	return m.openFocused()
}

// sortOrder orders the row indices by updated_at, newest first, then by
// agent, then by id (session.list's order).
func (m *Model) sortOrder() {
	m.order = m.order[:0]
	for i := range m.rows {
		m.order = append(m.order, i)
	}
	slices.SortStableFunc(m.order, func(a, b int) int { return wire.CompareSessionRows(m.rows[a], m.rows[b]) })
}
