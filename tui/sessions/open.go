package sessions

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
)

// openTimeout bounds session.open on our side: it re-reads one history,
// which the backend bounds; this only catches a backend that stopped
// answering.
const openTimeout = 30 * time.Second

// openState is the session.open in flight.
type openState struct {
	seq     int
	running bool
	title   string
	cancel  context.CancelFunc
}

func (o *openState) abandon() {
	if o.cancel != nil {
		o.cancel()
	}
	o.running = false
}

// openMsg is the session.open answer for open seq.
type openMsg struct {
	seq   int
	title string
	res   wire.SessionOpenResult
	err   error
}

// noteStillReading answers Enter on provisional rows; the list's
// completion takes it away.
const noteStillReading = "Sessions are still being read; Enter opens one once the list is complete."

// openFocused is Enter. Provisional rows are not a finished list: until
// discovery completes Enter only says so. With nothing to open (no
// session, no match) the picker ends with nothing chosen.
func (m *Model) openFocused() tea.Cmd {
	switch {
	case m.open.running:
		return nil
	case m.Down():
		return tui.ReportError(tui.ErrDown)
	case !m.complete && m.disc.running:
		m.note, m.noteBad = noteStillReading, false
		return nil
	case !m.complete:
		m.note, m.noteBad = "There is no finished list to open from; press Ctrl-R to read the sessions again.", true
		return nil
	}
	if !m.Settled() {
		m.filter.openWaits = true // for the ranking of the query typed
		return nil
	}
	r, ok := m.focused()
	if !ok {
		return tui.Accept(nil)
	}
	if !m.canOpen {
		m.note, m.noteBad = "This backend does not offer opening sessions.", true
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), openTimeout)
	m.open = openState{seq: m.open.seq + 1, running: true, title: displayTitle(r.Title), cancel: cancel}
	m.note = ""
	b, seq, id, agent, title := m.backend, m.open.seq, r.ID, rowAgent(r), m.open.title
	return tea.Batch(m.Spin(), func() tea.Msg {
		defer cancel()
		res, err := b.SessionOpen(ctx, id, agent)
		return openMsg{seq: seq, title: title, res: res, err: err}
	})
}

// handleOpen ends the picker with the opened session's agent and id
// ("claude-code 0f3c…"), or says why it was not opened; the backend's
// attachment is then unchanged.
func (m *Model) handleOpen(msg openMsg) tea.Cmd {
	if msg.seq != m.open.seq || !m.open.running {
		return nil
	}
	m.open.running = false
	if msg.err == nil {
		a := msg.res.Attachment
		return tui.Accept([]string{attachedAgent(a) + " " + a.SessionID})
	}
	if errors.Is(msg.err, context.Canceled) {
		return nil
	}
	if bridge.Code(msg.err) == wire.CodeRequestLimit {
		m.note, m.noteBad = "The backend reached its request limit; it is being restarted and the sessions are read again. Press Enter again afterwards.", true
		return tui.ReportError(msg.err)
	}
	m.note, m.noteBad = openError(msg.title, msg.err), true
	return tui.ReportError(bridge.Explain(msg.err, "the session was not opened; the previous attachment stays"))
}

// openError says why a session was not opened and what to do.
func openError(title string, err error) string {
	const kept = " The previous attachment stays."
	what := "“" + title + "” was not opened: "
	switch bridge.Code(err) {
	case wire.CodeCwdMismatch:
		return what + "its history now records another directory, so it belongs to another project." + kept + " Press Ctrl-R to read the sessions again."
	case wire.CodeSessionInvalid:
		return what + "its history is now malformed, unsafe or unreadable." + kept
	case wire.CodeNotFound:
		return what + "it no longer exists (deleted or archived)." + kept + " Press Ctrl-R to read the sessions again."
	case wire.CodeBusy:
		return what + "the backend is busy opening or selecting something else." + kept + " Press Enter again in a moment."
	case wire.CodeUnsupportedCapability:
		return what + "this backend does not offer opening sessions." + kept
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return what + "the backend did not answer in time." + kept
	}
	return what + bridge.Describe(err) + "." + kept
}
