package providers

import (
	"context"
	"errors"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
)

// enableTimeout bounds model.enable on our side (it writes one small file).
const enableTimeout = 30 * time.Second

// enableState is the change in flight and what follows it: the backend
// applies a change only in a new child, so a recorded change restarts it,
// and the reload after the restart puts the focus back on the model.
type enableState struct {
	seq     int
	running bool
	row     wire.ModelRow // the model being changed
	on      bool          // enabling (else disabling)
	cancel  context.CancelFunc
	// restarting is the sentence to show once the restart the change
	// asked for is done ("" when none is pending).
	restarting string
	// focus is the model to focus in the first catalog read after it.
	focus *wire.ModelRow
}

func (e *enableState) abandon() {
	if e.cancel != nil {
		e.cancel()
	}
	e.running = false
	e.seq++
}

// enabledMsg is the outcome of change seq.
type enabledMsg struct {
	seq int
	err error
}

// startEnable is space on a model: model.enable of the focused model, the
// opposite of its state. Never called but by that key.
func (m *Model) startEnable() tea.Cmd {
	r, ok := m.focusedRow()
	switch {
	case !ok || m.section != sectionModels || m.enable.running:
		return nil
	case m.Down():
		return tui.ReportError(tui.ErrDown)
	case m.refresh.running:
		m.msg, m.msgBad = "Wait for the refresh to end (Esc cancels it), then press space.", false
		return nil
	case m.load.running || m.choose.running:
		m.msg, m.msgBad = "The catalog is being read; press space again once it is shown.", false
		return nil
	case !r.Listed:
		m.msg, m.msgBad = r.Model+" is not in "+r.Provider+"'s fetched list, so it cannot be disabled here: remove it from enabled_models in "+
			m.configName()+" (or from "+m.homeFile("enabled.json")+" if it was enabled here), then restart (R).", true
		return nil
	case !bridge.Negotiated(m.backend, wire.MethodModelEnable):
		m.msg, m.msgBad = "This backend does not offer enabling models: add "+r.Model+" to enabled_models in "+m.configName()+", then restart (R).", true
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), enableTimeout)
	m.enable = enableState{seq: m.enable.seq + 1, running: true, row: r, on: !r.Enabled, cancel: cancel}
	b, seq, on := m.backend, m.enable.seq, !r.Enabled
	return tea.Batch(m.Spin(), func() tea.Msg {
		defer cancel()
		_, err := b.ModelEnable(ctx, r.Provider, r.Model, on)
		return enabledMsg{seq: seq, err: err}
	})
}

// handleEnabled restarts the backend after a recorded change (the running
// child keeps its configuration), or says why nothing changed.
func (m *Model) handleEnabled(msg enabledMsg) tea.Cmd {
	if msg.seq != m.enable.seq || !m.enable.running {
		return nil
	}
	m.enable.running = false
	r, done := m.enable.row, "Disabled "
	if m.enable.on {
		done = "Enabled "
	}
	if msg.err == nil {
		row := r
		m.enable.focus = &row
		m.enable.restarting = done + rowName(r) + "; the backend was restarted to apply it."
		m.msg, m.msgBad = done+rowName(r)+"; restarting the backend to apply it…", false
		return tui.RestartBackend()
	}
	if errors.Is(msg.err, context.Canceled) {
		return nil
	}
	m.msg, m.msgBad = "Nothing was changed: "+enableError(msg.err, r), true
	switch bridge.Code(msg.err) {
	case wire.CodeRequestLimit:
		return tui.ReportError(msg.err) // the root restarts the child
	case wire.CodeInvalidParams:
		return m.startLoad() // the list changed under us: show it as it is
	}
	return nil
}

// enableError says why model.enable failed.
func enableError(err error, r wire.ModelRow) string {
	switch bridge.Code(err) {
	case wire.CodeBusy:
		return "the backend is busy with a refresh or a selection; press space again in a moment."
	case wire.CodeInvalidParams:
		return rowName(r) + " is not in its provider's fetched list any more; the catalog has been read again."
	case wire.CodeInternal:
		return "the backend could not save the setting in scout's home; check that it is writable and has room."
	case wire.CodeRequestLimit:
		return "the backend reached its request limit; it is being restarted. Press space again afterwards."
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "the backend did not answer in time."
	}
	return bridge.Describe(err) + "."
}

// rowName is a model as sentences name it.
func rowName(r wire.ModelRow) string { return r.Provider + "/" + r.Model }
