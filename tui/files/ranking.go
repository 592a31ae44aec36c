package files

import (
	"context"
	"errors"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/rank"
)

// rankWindow is how many matches are ranked for the list at first: a few
// screens' worth, so each keystroke computes highlights for few rows. The
// window doubles when the cursor comes within a screen of its end.
const rankWindow = 100

// rankState is the ranking shown and the one in flight.
type rankState struct {
	rev      int  // the ranking wanted
	k        int  // its window
	inflight bool // the ranking wanted is being computed
	cancel   context.CancelFunc
	res      *rankView // the ranking shown
}

// rankView is one finished ranking: which snapshot, which query.
type rankView struct {
	snap  *snapshot
	query string
	res   rank.Result
}

// path returns the path of row i.
func (v *rankView) path(i int) string { return v.snap.ranker.Path(v.res.Matches[i].Index) }

// rankMsg is a finished ranking of revision rev.
type rankMsg struct {
	rev  int
	view *rankView
	err  error
}

// queryChanged starts over for a new query: a ranking from the top with a
// fresh window, or the tree when the query is empty.
func (m *Model) queryChanged() tea.Cmd {
	m.rank.k = rankWindow
	if m.input.Value() == "" && m.stdin == nil {
		if m.rank.cancel != nil {
			m.rank.cancel()
		}
		m.rank.rev++
		m.rank.res, m.rank.inflight = nil, false
		m.cursor, m.offset = 0, 0
		return tea.Batch(m.settled(), m.moved(), m.growTree(), m.firstRanked())
	}
	return m.startRank()
}

// startRank cancels the ranking in flight and ranks the current query over
// the current snapshot in a Cmd.
func (m *Model) startRank() tea.Cmd {
	if m.rank.cancel != nil {
		m.rank.cancel()
	}
	q := m.input.Value()
	if q == "" && m.stdin == nil || m.snap == nil {
		return nil
	}
	m.rank.rev++
	ctx, cancel := context.WithCancel(context.Background())
	m.rank.cancel, m.rank.inflight = cancel, true
	snap, rev, k := m.snap, m.rank.rev, m.rank.k
	return func() tea.Msg {
		res, err := snap.ranker.Rank(ctx, q, k)
		return rankMsg{rev: rev, view: &rankView{snap: snap, query: q, res: res}, err: err}
	}
}

func (m *Model) handleRank(msg rankMsg) tea.Cmd {
	if msg.rev != m.rank.rev || msg.view.snap != m.snap {
		return nil // typed over, or ranked a snapshot since replaced
	}
	m.rank.inflight = false
	if msg.err != nil {
		if errors.Is(msg.err, context.Canceled) {
			return nil
		}
		return tea.Batch(tui.ReportError(msg.err), m.firstRanked())
	}
	prev := m.rank.res
	focus, _ := m.focused()
	m.rank.res = msg.view
	switch {
	case prev == nil || prev.query != msg.view.query:
		m.cursor, m.offset = 0, 0
	default:
		m.keepFocus(focus) // the same query over more paths (the index grew)
	}
	return tea.Batch(m.settled(), m.moved(), m.ranked())
}

// grow widens the ranking window when the cursor nears its end and more
// matches exist.
func (m *Model) grow() tea.Cmd {
	v := m.rank.res
	if m.treeMode() || v == nil || v.snap != m.snap || v.query != m.input.Value() {
		return nil
	}
	shown := len(v.res.Matches)
	if shown < m.rank.k || v.res.Total <= shown || m.cursor < shown-m.listHeight() {
		return nil
	}
	m.rank.k *= 2
	return m.startRank()
}
