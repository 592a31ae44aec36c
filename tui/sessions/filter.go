package sessions

import (
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/tui/rank"
)

// The title filter reuses tui/rank, the Files page's matcher, rather than
// sahilm/fuzzy directly: the same smart case, the same best-alignment
// scoring (sahilm's bonuses for word starts and adjacent runes, without
// its first-occurrence weakness) and the same byte positions for the
// highlights, so both pages match alike. Its path layer only adds a bonus
// after the last "/" of a title that has one, which is harmless for
// sentences.
//
// As on the Files page, typing never waits for a ranking: the filter line
// changes in Update, the ranking (and, when rows arrived, the ranker over
// their titles) is made in a Cmd tagged with a revision, a newer keystroke
// or page cancels it, and a result of an older revision is dropped. Rows
// are kept in arrival order, so a ranking made before more rows arrived
// still points at the right rows until the newer one replaces it. With an
// empty filter nothing is ranked: the rows are shown newest first.

// filterState is the filter's result over the rows.
type filterState struct {
	ranker     *rank.Ranker // over the titles of rows[:rankerLen] of scan rankerScan
	rankerLen  int
	rankerScan int
	rev        int // the latest ranking asked for
	k          int // how many of the best matches are ranked
	cancel     context.CancelFunc
	query      string     // the query shown is the result of
	covers     int        // how many rows that result covers
	shown      []shownRow // the rows shown, in order
	total      int        // rows matching
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

// rankWindow is how many of the best matches are ranked at first; the
// window doubles when the cursor comes within a screen of its end (as on
// the Files page): placing and highlighting every match of a short query
// over thousands of titles costs ten times more than the best few.
const rankWindow = 200

// widen doubles the ranking window when the cursor nears the end of the
// matches ranked while more match.
func (m *Model) widen() tea.Cmd {
	if m.input.Value() == "" || m.filter.total <= len(m.filter.shown) || m.cursor < len(m.filter.shown)-m.listHeight() {
		return nil
	}
	m.filter.k *= 2
	return m.refilter()
}

// rankMsg is ranking rev: the query's matches over the first n rows.
type rankMsg struct {
	rev    int
	scan   int // the discovery the rows are of
	query  string
	n      int
	ranker *rank.Ranker
	shown  []shownRow
	total  int
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
		m.show(rankMsg{rev: m.filter.rev, n: len(m.rows), shown: shown, total: len(m.rows)})
		return m.settled()
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.filter.cancel = cancel
	rev, scan, n, ranker, k := m.filter.rev, m.disc.seq, len(m.rows), m.filter.ranker, m.filter.k
	if m.filter.rankerLen != n || m.filter.rankerScan != scan {
		ranker = nil
	}
	titles := make([]string, n)
	for i, r := range m.rows {
		titles[i] = r.Title
	}
	return func() tea.Msg {
		defer cancel()
		if ranker == nil {
			ranker = rank.New(titles)
		}
		res, err := ranker.Rank(ctx, q, k)
		if err != nil {
			return nil // cancelled: a newer ranking is on its way
		}
		msg := rankMsg{rev: rev, scan: scan, query: q, n: n, ranker: ranker, total: res.Total, shown: make([]shownRow, len(res.Matches))}
		for i, mt := range res.Matches {
			msg.shown[i] = shownRow{row: mt.Index, pos: mt.Positions}
		}
		return msg
	}
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
	if msg.scan == m.disc.seq && msg.ranker != nil && msg.n > m.filter.rankerLen {
		// Worth keeping for the next keystroke over the same rows.
		m.filter.ranker, m.filter.rankerLen, m.filter.rankerScan = msg.ranker, msg.n, msg.scan
	}
	if msg.rev != m.filter.rev {
		return nil
	}
	m.show(msg)
	return m.settled()
}

// show makes a ranking the rows shown. The focused row stays focused when
// the query is the same; a new query focuses its best match.
func (m *Model) show(msg rankMsg) {
	keep := m.Focused()
	sameQuery := msg.query == m.filter.query
	m.filter.query, m.filter.covers, m.filter.shown, m.filter.total = msg.query, msg.n, msg.shown, msg.total
	m.cursor = 0
	if sameQuery {
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
// id (session.list's order).
func (m *Model) sortOrder() {
	m.order = m.order[:0]
	for i := range m.rows {
		m.order = append(m.order, i)
	}
	slices.SortStableFunc(m.order, func(a, b int) int {
		ra, rb := m.rows[a], m.rows[b]
		if c := strings.Compare(rb.UpdatedAt, ra.UpdatedAt); c != 0 {
			return c
		}
		return strings.Compare(ra.ID, rb.ID)
	})
}
