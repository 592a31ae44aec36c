package providers

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
)

// refreshTimeout bounds a refresh on our side: the backend bounds the
// provider's discovery by refresh_timeout (at most 300 s) and enrichment
// by 30 s; this only catches a backend that stopped answering.
const refreshTimeout = 6 * time.Minute

// refreshState is the refresh in flight.
type refreshState struct {
	seq      int
	running  bool
	provider string
	started  time.Time
	elapsed  time.Duration
	before   []string // the provider's models when r was pressed
	cancel   context.CancelFunc
	// cancelled is set by Esc: the call's context was cancelled, which
	// the client sends as operation.cancel.
	cancelled bool
}

func (r *refreshState) abandon() {
	if r.cancel != nil {
		r.cancel()
	}
	r.running = false
	r.seq++ // a late reply is not wanted
}

// refreshedMsg is the outcome of refresh seq.
type refreshedMsg struct {
	seq int
	res wire.RefreshResult
	err error
}

// elapsedMsg updates the elapsed time of refresh seq, once a second.
type elapsedMsg struct{ seq int }

func (m *Model) tickElapsed() tea.Cmd {
	seq := m.refresh.seq
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return elapsedMsg{seq} })
}

// startRefresh is r: model.refresh of the focused provider (in the models
// section, the focused model's provider). One at a time.
func (m *Model) startRefresh() tea.Cmd {
	switch {
	case m.Down():
		return tui.ReportError(tui.ErrDown)
	case m.refresh.running:
		m.msg, m.msgBad = "A refresh of "+m.refresh.provider+" is running; Esc cancels it.", false
		return nil
	case !bridge.Negotiated(m.backend, wire.MethodModelRefresh):
		m.msg, m.msgBad = "This backend does not offer refreshing providers.", true
		return nil
	}
	id := m.refreshTarget()
	if id == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), refreshTimeout)
	m.refresh = refreshState{
		seq: m.refresh.seq + 1, running: true, provider: id, started: m.now(),
		before: models(m.cat, id), cancel: cancel,
	}
	m.keys.Cancel.SetEnabled(true)
	m.msg = ""
	b, seq := m.backend, m.refresh.seq
	return tea.Batch(m.Spin(), m.tickElapsed(), func() tea.Msg {
		defer cancel()
		res, err := b.ModelRefresh(ctx, id)
		return refreshedMsg{seq: seq, res: res, err: err}
	})
}

// refreshTarget is the focused provider (the models shown are its own).
func (m *Model) refreshTarget() string {
	if p, ok := m.focusedProvider(); ok {
		return p.Provider
	}
	return ""
}

// cancelRefresh is Esc while a refresh runs.
func (m *Model) cancelRefresh() tea.Cmd {
	if !m.refresh.running {
		return nil
	}
	m.refresh.cancelled = true
	m.refresh.cancel()
	return nil
}

func (m *Model) handleElapsed(msg elapsedMsg) tea.Cmd {
	if msg.seq != m.refresh.seq || !m.refresh.running {
		return nil
	}
	m.refresh.elapsed = m.now().Sub(m.refresh.started)
	return m.tickElapsed()
}

// handleRefreshed tells the outcome, then reads catalog and status again
// (after any refresh that was admitted, cancelled ones included: its
// admission made every earlier revision stale) and, for a refresh that
// reached the provider, adds the models added and removed.
func (m *Model) handleRefreshed(msg refreshedMsg) tea.Cmd {
	r := m.refresh
	if msg.seq != r.seq || !r.running {
		return nil
	}
	m.refresh.running = false
	m.keys.Cancel.SetEnabled(false)
	id := r.provider
	switch {
	case msg.err == nil:
		m.outcomes[id] = outcomeOf(msg.res)
		return m.outcome(r, msg.res)
	case r.cancelled && errors.Is(msg.err, context.Canceled):
		m.outcomes[id] = outcomeCancelled
		m.msg, m.msgBad = fmt.Sprintf("%s: refresh cancelled after %s; its catalog is unchanged.", id, seconds(m.now().Sub(r.started))), false
		return m.startLoad()
	}
	m.msg, m.msgBad = id+": "+refreshError(msg.err), true
	cmds := []tea.Cmd{tui.ReportError(bridge.Explain(msg.err, "the refresh of "+id+" did not run to its end"))}
	switch bridge.Code(msg.err) {
	case wire.CodeRequestLimit:
		cmds[0] = tui.ReportError(msg.err) // the root restarts the child
	case wire.CodeBusy, wire.CodeInvalidParams:
		// Not admitted: nothing changed.
	default:
		m.outcomes[id] = outcomeUnfinished
		cmds = append(cmds, m.startLoad())
	}
	return tea.Batch(cmds...)
}

// outcome shows a refresh's result and reads the catalog after it.
func (m *Model) outcome(r refreshState, res wire.RefreshResult) tea.Cmd {
	id := r.provider
	if res.Outcome != wire.OutcomeRefreshed {
		reason := ""
		if res.Reason != nil {
			reason = *res.Reason
		}
		m.msg, m.msgBad = id+": refresh failed: "+reasonText(reason, m.configName())+".", true
		return m.startLoad()
	}
	if res.CatalogError != nil {
		m.msg, m.msgBad = id+": refreshed, but "+catalogErrorText(*res.CatalogError)+".", true
		return m.startLoad()
	}
	m.msg, m.msgBad = id+": refreshed; reading the catalog again…", false
	cmd := m.startLoad()
	m.load.then = func() tea.Cmd {
		after := models(m.cat, id)
		if len(r.before) == 0 && len(after) == 0 { // nothing enabled: say what there is
			m.msg = id + ": refreshed; " + listed(len(rowsOf(m.cat, id))) + "."
			return nil
		}
		m.msg = id + ": refreshed; " + changes(r.before, after) + "."
		return nil
	}
	return cmd
}

// changes says which of a provider's models a refresh added and removed.
func changes(before, after []string) string {
	var added, removed []string
	for _, id := range after {
		if !slices.Contains(before, id) {
			added = append(added, id)
		}
	}
	for _, id := range before {
		if !slices.Contains(after, id) {
			removed = append(removed, id)
		}
	}
	switch {
	case len(added) == 0 && len(removed) == 0:
		return "no change to its " + plural(len(after), "enabled model")
	case len(removed) == 0:
		return "new models: " + joinModels(added, 6)
	case len(added) == 0:
		return "models removed: " + joinModels(removed, 6)
	}
	return "new models: " + joinModels(added, 4) + "; removed: " + joinModels(removed, 4)
}

// listed says how many models a provider without enabled models lists,
// and how to enable one.
func listed(n int) string {
	return "it lists " + plural(n, "model") + ", none enabled: Enter shows them, space enables the focused one"
}

// refreshError says why a refresh call failed as a call.
func refreshError(err error) string {
	switch bridge.Code(err) {
	case wire.CodeBusy:
		return "the backend is busy with another refresh or selection; press r again in a moment."
	case wire.CodeInvalidParams:
		return "the backend does not know this provider (was the configuration changed?); restart (R)."
	case wire.CodeOperationCancelled:
		return "the backend cancelled the refresh; its previous catalog stays."
	case wire.CodeRequestLimit:
		return "the backend reached its request limit; it is being restarted. Press r again afterwards."
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "the backend did not answer in time; the refresh was abandoned."
	}
	return "the refresh failed: " + bridge.Describe(err) + "."
}

// seconds shows a duration in whole seconds.
func seconds(d time.Duration) string {
	return fmt.Sprintf("%ds", int(d.Round(time.Second)/time.Second))
}
