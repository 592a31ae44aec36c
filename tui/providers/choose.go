package providers

import (
	"context"
	"errors"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
)

// selectTimeout bounds model.select on our side (it writes one small file).
const selectTimeout = 30 * time.Second

// selectState is the selection in flight.
type selectState struct {
	seq     int
	running bool
	choice  wire.Choice
	effort  string // "" for none
	cancel  context.CancelFunc
}

func (s *selectState) abandon() {
	if s.cancel != nil {
		s.cancel()
	}
	s.running = false
	s.seq++
}

// selectedMsg is the outcome of selection seq.
type selectedMsg struct {
	seq int
	res wire.SelectResult
	err error
}

// startSelect is Enter on a model: model.select of the focused model with
// the effort chosen for it, under the revision of the catalog shown. Never
// called but by that key.
func (m *Model) startSelect() tea.Cmd {
	r, ok := m.focusedRow()
	if !ok || m.choose.running {
		return nil
	}
	c, isChoice := m.choiceOf(r)
	switch {
	case !isChoice && !r.Enabled:
		m.msg, m.msgBad = rowName(r)+" is not enabled: press space to enable it (the backend restarts to apply it), then Enter selects it.", false
		return nil
	case !isChoice && !r.Listed:
		m.msg, m.msgBad = rowName(r)+" is enabled but not in "+r.Provider+"'s fetched list, so it cannot be selected.", true
		return nil
	case !isChoice:
		m.msg, m.msgBad = rowName(r)+" is enabled from the next start of the backend: press R, then Enter.", false
		return nil
	}
	switch {
	case m.Down():
		return tui.ReportError(tui.ErrDown)
	case m.refresh.running:
		m.msg, m.msgBad = "Wait for the refresh to end (Esc cancels it), then press Enter to select.", false
		return nil
	case m.load.running:
		m.msg, m.msgBad = "The catalog is being read; press Enter again once it is shown.", false
		return nil
	case !c.Selectable:
		m.msg, m.msgBad = name(c)+" cannot be selected: its provider has no API key. Configure it, then restart (R).", true
		return nil
	case !bridge.Negotiated(m.backend, wire.MethodModelSelect):
		m.msg, m.msgBad = "This backend does not offer selecting a model.", true
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), selectTimeout)
	effort := m.effortOf(r)
	m.choose = selectState{seq: m.choose.seq + 1, running: true, choice: c, effort: effort, cancel: cancel}
	b, seq, rev := m.backend, m.choose.seq, m.cat.revision
	var e *string
	if effort != "" {
		e = &effort
	}
	return tea.Batch(m.Spin(), func() tea.Msg {
		defer cancel()
		res, err := b.ModelSelect(ctx, c.Provider, c.Model, e, rev)
		return selectedMsg{seq: seq, res: res, err: err}
	})
}

// effortKey names a model in efforts.
func effortKey(r wire.ModelRow) string { return r.Provider + "/" + r.Model }

// effortOf is the effort chosen for a model: the one picked with ←/→, else
// the selection's when it is the selected model, else none.
func (m *Model) effortOf(r wire.ModelRow) string {
	if e, ok := m.efforts[effortKey(r)]; ok {
		return e
	}
	if sel := m.cat.selection; sel != nil && sel.Provider == r.Provider && sel.Model == r.Model && sel.Effort != nil {
		return *sel.Effort
	}
	return ""
}

// chooseEffort moves the focused model's effort d steps through none (the
// model's default) and its efforts, wrapping around.
func (m *Model) chooseEffort(d int) {
	r, ok := m.focusedRow()
	if !ok || m.section != sectionModels {
		return
	}
	if len(r.Efforts) == 0 {
		m.msg, m.msgBad = rowName(r)+" has no efforts to choose from (its list says none).", false
		return
	}
	options := append([]string{""}, r.Efforts...)
	i := max(slices.Index(options, m.effortOf(r)), 0)
	m.efforts[effortKey(r)] = options[(i+d+len(options))%len(options)]
	m.msg = ""
}

// handleSelected shows the new selection, or why there is none. A stale
// guard reads the catalog again and asks again: the selection is never
// retried by itself.
func (m *Model) handleSelected(msg selectedMsg) tea.Cmd {
	if msg.seq != m.choose.seq || !m.choose.running {
		return nil
	}
	m.choose.running = false
	c := m.choose.choice
	if msg.err == nil {
		sel := msg.res.Selection
		m.cat.selection = &sel
		m.msg, m.msgBad = "Selected "+name(c)+withEffort(m.choose.effort)+".", false
		return nil
	}
	if errors.Is(msg.err, context.Canceled) {
		return nil
	}
	switch bridge.Code(msg.err) {
	case wire.CodeSelectionStale:
		m.msg, m.msgBad = "The catalog changed since it was read, so nothing was selected. It has been read again: press Enter to select "+name(c)+".", true
		return m.startLoad()
	case wire.CodeSelectionInvalid:
		m.msg, m.msgBad = name(c)+" cannot be selected: it is not in its provider's catalog any more, or its key is unavailable. The catalog has been read again.", true
		return m.startLoad()
	case wire.CodeBusy:
		m.msg, m.msgBad = "The backend is busy with a refresh or another selection; press Enter again in a moment.", true
		return nil
	case wire.CodeRequestLimit:
		m.msg, m.msgBad = "The backend reached its request limit; it is being restarted. Press Enter again afterwards.", true
		return tui.ReportError(msg.err)
	}
	m.msg, m.msgBad = "Nothing was selected: "+bridge.Describe(msg.err)+".", true
	return tui.ReportError(bridge.Explain(msg.err, "nothing was selected"))
}

// name is a choice as sentences name it.
func name(c wire.Choice) string { return c.Provider + "/" + c.Model }

// withEffort is " (effort E)", or "" for none.
func withEffort(e string) string {
	if e == "" {
		return ""
	}
	return " (effort " + e + ")"
}
