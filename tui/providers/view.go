package providers

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/scoutdev/scout/tui/internal/display"
)

// wideFrom is the width from which the table has a column header and its
// key and enabled columns.
const wideFrom = 60

// maxMsgLines bounds the lines of the message under the tables.
const maxMsgLines = 3

// layout is how the page's height is shared.
type layout struct {
	providers int      // provider rows
	detail    []string // about the focused provider, under the table
	models    int      // model rows
	msg       []string
}

func (m *Model) layout() layout {
	l := layout{msg: m.msgLines()}
	fixed := 3 + len(l.msg) // two section titles, the footer
	if m.Width() >= wideFrom {
		fixed++ // the column header
	}
	avail := max(m.Height()-fixed, 2)
	nP := len(m.providers())
	if nP == 0 {
		nP = len(display.Wrap(m.providersEmpty(), max(m.Width()-2, 1)))
	}
	// The focused section gets the room; the other keeps a row (three
	// models, when the models are not focused but there is room).
	mMin := 1
	if m.section == sectionModels {
		mMin = min(max(len(m.rows()), 1), max(avail-2, 1))
	} else if avail >= 12 {
		mMin = min(max(len(m.rows()), 1), 3)
	}
	l.detail = m.detail(avail - mMin - 1)
	l.providers = max(min(nP, avail-mMin-len(l.detail)), 1)
	l.models = max(avail-l.providers-len(l.detail), 1)
	return l
}

// detail is about the focused provider, under the table, in at most room
// lines: the enabled models its fetched list lacks, else what to do (the
// whole sentence on a wide terminal, the short one, which its row has no
// room for, on a narrow one).
func (m *Model) detail(room int) []string {
	p, ok := m.focusedProvider()
	if !ok || room < 1 {
		return nil
	}
	if miss := m.missing(p.Provider); len(miss) > 0 {
		d := display.Wrap(missingText(p.Provider, miss, m.configName()), max(m.Width()-4, 1))
		return d[:min(len(d), room, 2)]
	}
	short, long := recovery(p, m.configName())
	if o, ok := m.outcomes[p.Provider]; ok && o.reason != "" { // what to do now is the failure's
		short, long = o.word, "The last refresh failed: "+reasonText(o.reason, m.configName())+"."
	}
	if m.Width() < wideFrom {
		return []string{display.Truncate(short, max(m.Width()-2, 1), "…")}
	}
	if d := display.Wrap(long, max(m.Width()-4, 1)); len(d) <= min(room, 2) && m.Height() >= 16 {
		return d
	}
	return nil
}

// missing are provider's enabled models that its fetched list lacks.
func (m *Model) missing(provider string) []string {
	var ids []string
	for _, r := range rowsOf(m.cat, provider) {
		if !r.Listed {
			ids = append(ids, r.Model)
		}
	}
	return ids
}

// missingText is the notice about enabled models missing from a fetched
// list: they are not offered, and where to remove them.
func missingText(provider string, ids []string, config string) string {
	verb, it := " is", "it"
	if len(ids) > 1 {
		verb, it = " are", "them"
	}
	return joinModels(ids, 4) + verb + " enabled but not in " + provider + "'s fetched list, so not offered; remove " + it + " from enabled_models in " + config + " if that is a mistake."
}

// modelRows is the number of model rows on screen.
func (m *Model) modelRows() int { return m.layout().models }

// scrollModels keeps the focused model on screen.
func (m *Model) scrollModels() {
	h := m.modelRows()
	switch {
	case m.mcursor < m.moffset:
		m.moffset = m.mcursor
	case m.mcursor >= m.moffset+h:
		m.moffset = m.mcursor - h + 1
	}
	m.moffset = max(min(m.moffset, len(m.rows())-h), 0)
}

// View implements tui.Page: the providers table, what to know about the
// focused provider, its models with the selection marked, what just
// happened, and the footer.
func (m *Model) View() string {
	l := m.layout()
	var lines []string
	lines = append(lines, m.title(sectionProviders, "Providers", m.providersNote()))
	if m.Width() >= wideFrom {
		lines = append(lines, m.styles.Column.Render(m.header()))
	}
	lines = append(lines, m.providerLines(l.providers)...)
	for _, d := range l.detail {
		lines = append(lines, "  "+m.styles.Dim.Render(d))
	}
	lines = append(lines, m.title(sectionModels, m.modelsTitle(), m.modelsNote()))
	lines = append(lines, m.modelLines(l.models)...)
	lines = append(lines, l.msg...)
	lines = append(lines, m.footer())
	for i, s := range lines {
		lines[i] = display.Truncate(s, m.Width(), "…")
	}
	return strings.Join(lines, "\n")
}

func (m *Model) title(section int, name, note string) string {
	st := m.styles.Header
	if m.section == section {
		st = m.styles.Focus
	}
	if note == "" {
		return st.Render(name)
	}
	return st.Render(name) + m.styles.Dim.Render(" · "+note)
}

func (m *Model) providersNote() string {
	if m.cat == nil {
		return ""
	}
	return strconv.Itoa(len(m.cat.providers))
}

func (m *Model) modelsTitle() string {
	if p, ok := m.focusedProvider(); ok && m.Width() >= wideFrom {
		return "Models of " + p.Provider
	}
	return "Models"
}

// modelsNote is the selection, and how many of the shown models are
// enabled on a wide terminal.
func (m *Model) modelsNote() string {
	if m.cat == nil {
		return ""
	}
	sel := "nothing selected"
	if s := m.cat.selection; s != nil {
		sel = "selected: " + s.Provider + "/" + s.Model
		if s.Effort != nil {
			sel += " (" + *s.Effort + ")"
		}
	}
	if p, ok := m.focusedProvider(); ok && m.Width() >= wideFrom {
		if n := m.enabledCount(p.Provider); n != "—" {
			return n + " enabled · " + sel
		}
	}
	return sel
}

// configName names config.toml in sentences: its path, when known.
func (m *Model) configName() string {
	if m.configFile == "" {
		return "config.toml in scout's home (scout config prints where)"
	}
	return m.configFile
}

// homeFile names another file of the backend home in sentences.
func (m *Model) homeFile(name string) string {
	if m.configFile == "" {
		return name + " in scout's home"
	}
	return filepath.Join(filepath.Dir(m.configFile), name)
}

func (m *Model) emptyLines(text string, h int) []string {
	var lines []string
	for _, l := range display.Wrap(text, max(m.Width()-2, 1)) {
		lines = append(lines, "  "+m.styles.Dim.Render(l))
	}
	if len(lines) > h {
		lines = lines[:h]
	}
	return padLines(lines, h)
}

func padLines(lines []string, h int) []string {
	for len(lines) < h {
		lines = append(lines, "")
	}
	return lines
}

func (m *Model) providersEmpty() string {
	switch {
	case m.cat == nil && m.load.err != "":
		return m.load.err
	case m.cat == nil:
		return "Reading the providers' status…"
	}
	return "No provider is listed: " + m.configName() + " is broken (the status line says where) or hides every built-in provider. Fix it, then restart (R)."
}

// modelsEmpty says why the focused provider has no model to show.
func (m *Model) modelsEmpty() string {
	p, ok := m.focusedProvider()
	if !ok {
		return ""
	}
	return "No model to show for " + p.Provider + ": " + noListWhy(p)
}

// msgLines is what just happened, or why the last read failed, wrapped.
func (m *Model) msgLines() []string {
	text, bad := m.msg, m.msgBad
	if m.cat != nil && m.load.err != "" {
		text, bad = m.load.err, true
	}
	if text == "" {
		return nil
	}
	st := m.styles.Note
	if bad {
		st = m.styles.Error
	}
	lines := display.Wrap(text, max(m.Width(), 1))
	if len(lines) > maxMsgLines {
		lines = lines[:maxMsgLines]
	}
	for i, l := range lines {
		lines[i] = st.Render(l)
	}
	return lines
}

// footer is the work in flight, else the counts and the restart hint.
func (m *Model) footer() string {
	spin := m.Spinner() + " "
	switch {
	case m.refresh.running:
		return spin + fmt.Sprintf("refreshing %s… %s · esc cancels", m.refresh.provider, seconds(m.refresh.elapsed))
	case m.enable.running:
		return spin + "saving " + rowName(m.enable.row) + "…"
	case m.choose.running:
		return spin + "selecting " + name(m.choose.choice) + "…"
	case m.load.running:
		return spin + m.styles.Dim.Render("reading the catalog…")
	case m.cat == nil:
		return ""
	}
	counts := m.counts()
	if m.Width() < wideFrom {
		return m.styles.Dim.Render(counts)
	}
	return m.styles.Dim.Render(counts + " · space enables a model · R restarts the backend")
}

// counts is the providers and the models to choose from.
func (m *Model) counts() string {
	return plural(len(m.cat.providers), "provider") + " · " + plural(len(m.cat.choices), "enabled model")
}

// Status implements tui.Page.
func (m *Model) Status() string {
	switch {
	case m.refresh.running:
		return "refreshing " + m.refresh.provider + " " + seconds(m.refresh.elapsed)
	case m.cat == nil:
		return ""
	}
	return m.counts()
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func itoa(n int) string { return strconv.Itoa(n) }
