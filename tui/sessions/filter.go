package sessions

import (
	"context"

	"github.com/scoutdev/scout/tui/internal/display"
	"github.com/scoutdev/scout/tui/rank"
)

// The title filter reuses tui/rank, the Files page's matcher, rather than
// sahilm/fuzzy directly: the same smart case, the same best-alignment
// scoring (sahilm's bonuses for word starts and adjacent runes, without
// its first-occurrence weakness) and the same byte positions for the
// highlights, so both pages match alike. Its path layer only adds a bonus
// after the last "/" of a title that has one, which is harmless for
// sentences. Titles are few compared with paths (over 10,000 titles a
// keystroke ranks in about 2 ms and a page of rows arriving under a query
// in about 8 ms: BenchmarkFilter*), so the ranking runs in Update on every
// keystroke and on every page of rows, with no stale work to drop. With an
// empty filter no ranker is built at all.

// filterState is the filter's result over the rows.
type filterState struct {
	ranker *rank.Ranker // over the titles of rows
	rev    int          // the rows revision ranker was built for
	shown  []shownRow   // the rows shown, in order
	total  int          // rows matching
}

// shownRow is one row shown: its index in Model.rows and the byte offsets
// of its title's matched runes.
type shownRow struct {
	row int
	pos []int
}

// refilter ranks the rows for the query again. The focused row stays
// focused when it is still shown, unless the query changed (typing moves
// the focus to the best match).
func (m *Model) refilter(queryChanged bool) {
	keep := m.Focused()
	m.filter.shown = m.filter.shown[:0]
	q := m.input.Value()
	if q == "" {
		// Every row, newest first: no ranker needed.
		for i := range m.rows {
			m.filter.shown = append(m.filter.shown, shownRow{row: i})
		}
		m.filter.total = len(m.rows)
	} else {
		res, _ := m.ranker().Rank(context.Background(), q, 0)
		m.filter.total = res.Total
		for _, mt := range res.Matches {
			m.filter.shown = append(m.filter.shown, shownRow{row: mt.Index, pos: mt.Positions})
		}
	}
	m.cursor = 0
	if !queryChanged {
		for i, s := range m.filter.shown {
			if m.rows[s.row].ID == keep {
				m.cursor = i
			}
		}
	}
	m.scrollTo()
}

// ranker returns the ranker over the rows' titles, built again when the
// rows changed.
func (m *Model) ranker() *rank.Ranker {
	if m.filter.ranker == nil || m.filter.rev != m.rowsRev {
		titles := make([]string, len(m.rows))
		for i, r := range m.rows {
			titles[i] = r.Title
		}
		m.filter.ranker, m.filter.rev = rank.New(titles), m.rowsRev
	}
	return m.filter.ranker
}

// cleanTitle makes a title safe for the terminal.
func cleanTitle(s string) string { return display.Clean(s) }
