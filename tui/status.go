package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/internal/display"
)

// unservedHint follows why the backend serves nothing: what to do.
const unservedHint = "fix it, then press R"

// handleDiagnostic shows the child's diagnostic on the status line; one
// that says the backend serves nothing of the workspace makes the state
// StateUnserved (R restarts the child) and reaches the pages, whose empty
// lists say why.
func (m Model) handleDiagnostic(msg bridge.DiagnosticMsg) (tea.Model, tea.Cmd) {
	m.note = msg.Text
	listen := bridge.ListenDiagnostics(m.diags)
	if !msg.Unserved {
		return m, listen
	}
	m.note = strings.TrimSuffix(msg.Text, wire.UnservedNote) + "; nothing is listed: " + unservedHint
	if m.state == StateRestarting {
		m.unserved = &msg // said once the restart is done
		return m, listen
	}
	if m.state == StateReady {
		m.state = StateUnserved
	}
	m.restyle()
	m, cmd := m.broadcast(msg)
	return m, tea.Batch(listen, cmd)
}

// statusLines is the status line: the backend's state, its errors, the
// generation, the trust note and the page's status. Errors are never cut:
// when they do not fit on the line beside the state, they are wrapped
// onto lines of their own under it (at most all but two of the
// terminal's rows), and the line keeps the rest. How many lines it takes
// depends on the errors and the width only, not on the page's counts.
func (m Model) statusLines() []string {
	sep := m.styles.Dim.Render(" · ")
	state, errs, rest := m.statusParts()
	line := func(parts []string) string { return strings.Join(parts, sep) }
	plain := ansi.Strip(line(append(append([]string(nil), state...), errs...)))
	if len(errs) == 0 || display.Width(plain) <= m.Width() {
		return []string{display.Truncate(line(append(append(state, errs...), rest...)), m.Width(), "…")}
	}
	lines := []string{display.Truncate(line(append(state, rest...)), m.Width(), "…")}
	for _, e := range m.errorTexts() {
		for _, l := range wrapWhole(e, m.Width()) {
			lines = append(lines, m.styles.Error.Render(l))
		}
	}
	return lines[:max(min(len(lines), m.Height()-2), 1)]
}

// statusParts are the status line's parts: the state, the errors (red)
// and the rest.
func (m Model) statusParts() (state, errs, rest []string) {
	started := m.child != 0 || m.state != StateReady // a lazy backend (bridge.Lazy) runs no child yet
	if started {
		state = append(state, m.styles.State[m.state].Render("● "+string(m.state)))
	}
	for _, e := range m.errorTexts() {
		errs = append(errs, m.styles.Error.Render(e))
	}
	if m.state != StateDown && started {
		rest = append(rest, m.styles.Dim.Render(fmt.Sprintf("gen %d", m.Gen())))
	}
	if m.trust == wire.TrustUntrusted && m.state != StateDown {
		// The project's .scout/config.toml exists but is not applied: say
		// how to adopt it (scout never trusts on its own).
		rest = append(rest, m.styles.Dim.Render("project config not trusted (scout trust, then restart)"))
	}
	if s := m.pages[m.active].Status(); s != "" {
		rest = append(rest, s)
	}
	return state, errs, rest
}

// errorTexts are the errors the status line shows: the last error, then
// the child's last diagnostic. A dead child's error that does not fit
// beside the state gives way to what to do.
func (m Model) errorTexts() []string {
	var out []string
	if e := m.lastErr; e != "" {
		if m.state == StateDown && display.Width("● down · "+e) > m.Width() {
			e = "press R to restart it"
		}
		out = append(out, e)
	}
	if m.note != "" {
		out = append(out, m.note)
	}
	return out
}

// wrapWhole wraps text at spaces into lines of at most w cells, breaking
// a word longer than a line (a path) rather than cutting it.
func wrapWhole(text string, w int) []string {
	return strings.Split(display.WrapWords(text, max(w, 1), ""), "\n")
}
