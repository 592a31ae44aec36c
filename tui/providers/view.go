package providers

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/internal/display"
)

// wideFrom is the width from which the table has a column header and a
// relevance column.
const wideFrom = 60

// maxMsgLines bounds the lines of the message under the tables.
const maxMsgLines = 3

// layout is how the page's height is shared.
type layout struct {
	providers int      // provider rows
	detail    []string // the focused provider's whole recovery sentence
	choices   int      // choice rows
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
	// choices, when the models are not focused but there is room).
	cMin := 1
	if m.section == sectionModels {
		cMin = min(max(len(m.choices()), 1), max(avail-2, 1))
	} else if avail >= 12 {
		cMin = min(max(len(m.choices()), 1), 3)
	}
	l.detail = m.detail(avail - cMin - 1)
	l.providers = max(min(nP, avail-cMin-len(l.detail)), 1)
	l.choices = max(avail-l.providers-len(l.detail), 1)
	return l
}

// detail is the focused provider's recovery under the table, in at most
// room lines: the whole sentence on a wide terminal, the short one (which
// its row has no room for) on a narrow one.
func (m *Model) detail(room int) []string {
	p, ok := m.focusedProvider()
	if !ok || room < 1 {
		return nil
	}
	short, long := recovery(p)
	if m.Width() < wideFrom {
		return []string{ansi.Truncate(short, max(m.Width()-2, 1), "…")}
	}
	if d := display.Wrap(long, max(m.Width()-4, 1)); len(d) <= min(room, 2) && m.Height() >= 16 {
		return d
	}
	return nil
}

// choiceRows is the number of choice rows on screen.
func (m *Model) choiceRows() int { return m.layout().choices }

// scrollChoices keeps the focused choice on screen.
func (m *Model) scrollChoices() {
	h := m.choiceRows()
	switch {
	case m.ccursor < m.coffset:
		m.coffset = m.ccursor
	case m.ccursor >= m.coffset+h:
		m.coffset = m.ccursor - h + 1
	}
	m.coffset = max(min(m.coffset, len(m.choices())-h), 0)
}

// View implements tui.Page: the providers table, the focused provider's
// recovery in full (when there is room), the models with the selection
// marked, what just happened, and the footer.
func (m *Model) View() string {
	l := m.layout()
	var lines []string
	lines = append(lines, m.title(sectionProviders, "Providers", m.providersNote()))
	if m.Width() >= wideFrom {
		lines = append(lines, m.styles.Column.Render(m.cells("provider", "catalog", "key", "use", "what to do")))
	}
	lines = append(lines, m.providerLines(l.providers)...)
	for _, d := range l.detail {
		lines = append(lines, "  "+m.styles.Dim.Render(d))
	}
	lines = append(lines, m.title(sectionModels, "Models", m.selectionNote()))
	lines = append(lines, m.choiceLines(l.choices)...)
	lines = append(lines, l.msg...)
	lines = append(lines, m.footer())
	for i, s := range lines {
		lines[i] = ansi.Truncate(s, m.Width(), "…")
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

func (m *Model) selectionNote() string {
	if m.cat == nil {
		return ""
	}
	if s := m.cat.selection; s != nil {
		sel := "selected: " + s.Provider + "/" + s.Model
		if s.Effort != nil {
			sel += " (" + *s.Effort + ")"
		}
		return sel
	}
	return "nothing selected"
}

// column widths of the table
func (m *Model) idWidth() int {
	w := 8
	for _, p := range m.providers() {
		w = max(w, ansi.StringWidth(p.Provider))
	}
	return min(w, max(m.Width()/4, 8))
}

// cells lays out one table line after the two-cell gutter.
func (m *Model) cells(id, cat, auth, use, what string) string {
	var b strings.Builder
	b.WriteString("  ")
	b.WriteString(display.Pad(ansi.Truncate(id, m.idWidth(), "…"), m.idWidth()))
	b.WriteString("  " + display.Pad(cat, 12))
	b.WriteString(" " + display.Pad(auth, 11))
	if m.Width() >= wideFrom {
		b.WriteString(" " + display.Pad(use, 6))
	}
	b.WriteString(" " + what)
	return b.String()
}

func (m *Model) providerLines(h int) []string {
	ps := m.providers()
	if len(ps) == 0 {
		return m.emptyLines(m.providersEmpty(), h)
	}
	first := max(min(m.pcursor-h+1, len(ps)-h), 0)
	var lines []string
	for i := first; i < min(first+h, len(ps)); i++ {
		lines = append(lines, m.providerRow(ps[i], i == m.pcursor))
	}
	return lines
}

func (m *Model) providerRow(p wire.ProviderStatus, focused bool) string {
	short, _ := recovery(p)
	if m.Width() < wideFrom {
		return m.narrowRow(p, focused)
	}
	if focused && m.section == sectionProviders {
		line := m.cells(p.Provider, catalogWord(p.CatalogStatus), authWord(p.Authentication), useWord(p.Relevant), short)
		return m.gutter(true) + m.styles.Cursor.Render(display.Pad(line[2:], m.Width()-2))
	}
	s := m.styles
	cat := s.Bad
	if p.CatalogStatus == wire.CatalogAvailable {
		cat = s.Good
	}
	auth := s.Dim
	switch p.Authentication {
	case wire.AuthReady:
		auth = s.Good
	case wire.AuthUnavailable:
		auth = s.Bad
	}
	use := s.Row
	if !p.Relevant {
		use = s.Dim
	}
	var b strings.Builder
	if focused {
		b.WriteString(m.gutter(true))
	} else {
		b.WriteString("  ")
	}
	b.WriteString(display.Pad(ansi.Truncate(p.Provider, m.idWidth(), "…"), m.idWidth()))
	b.WriteString("  " + cat.Render(display.Pad(catalogWord(p.CatalogStatus), 12)))
	b.WriteString(" " + auth.Render(display.Pad(authWord(p.Authentication), 11)))
	if m.Width() >= wideFrom {
		b.WriteString(" " + use.Render(display.Pad(useWord(p.Relevant), 6)))
	}
	b.WriteString(" " + short)
	return b.String()
}

// narrowRow is a provider on a narrow terminal: its id, catalog and key
// words; the focused one's sentence is under the table.
func (m *Model) narrowRow(p wire.ProviderStatus, focused bool) string {
	text := display.Pad(ansi.Truncate(p.Provider, m.idWidth(), "…"), m.idWidth()) + " " +
		catalogWord(p.CatalogStatus) + " · " + authWord(p.Authentication)
	switch {
	case focused && m.section == sectionProviders:
		return m.gutter(true) + m.styles.Cursor.Render(display.Pad(text, m.Width()-2))
	case focused:
		return m.gutter(true) + text
	}
	return "  " + text
}

// gutter marks the focused row: a bar in the focused section, an arrow in
// the other.
func (m *Model) gutter(providers bool) string {
	if (m.section == sectionProviders) == providers {
		return m.styles.Gutter.Render("▌") + m.styles.Cursor.Render(" ")
	}
	return m.styles.Dim.Render("› ")
}

func (m *Model) choiceLines(h int) []string {
	cs := m.choices()
	if len(cs) == 0 {
		return m.emptyLines(m.choicesEmpty(), h)
	}
	var lines []string
	for i := m.coffset; i < min(m.coffset+h, len(cs)); i++ {
		lines = append(lines, m.choiceRow(cs[i], i == m.ccursor))
	}
	return padLines(lines, h)
}

func (m *Model) choiceRow(c wire.Choice, focused bool) string {
	selected := m.cat != nil && m.cat.selection != nil && m.cat.selection.Provider == c.Provider && m.cat.selection.Model == c.Model
	mark := "  "
	if selected {
		mark = "● "
	}
	text := display.Clean(c.Provider + "/" + c.Model)
	var extra []string
	if c.Name != "" && c.Name != c.Model {
		extra = append(extra, display.Clean(c.Name))
	}
	if len(c.Efforts) > 0 {
		extra = append(extra, "effort "+display.Clean(strings.Join(c.Efforts, "/")))
	}
	if selected {
		extra = append(extra, "selected")
	}
	if !c.Selectable {
		extra = append(extra, "no key: not selectable")
	}
	rest := ""
	if len(extra) > 0 {
		rest = "  " + strings.Join(extra, " · ")
	}
	if focused && m.section == sectionModels {
		return m.gutter(false) + m.styles.Cursor.Render(display.Pad(mark+text+rest, m.Width()-2))
	}
	g := "  "
	if focused {
		g = m.gutter(false)
	}
	st := m.styles.Row
	if !c.Selectable {
		st = m.styles.Dim
	}
	return g + m.styles.Selected.Render(mark) + st.Render(text) + m.styles.Dim.Render(rest)
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
	return "No provider is configured. Add [[providers]] to config.toml in scout's home, then restart (R)."
}

func (m *Model) choicesEmpty() string {
	if m.cat == nil {
		return ""
	}
	return "No model to choose: a provider needs enabled models and a fetched model list (r)."
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
	case m.choose.running:
		return spin + "selecting " + name(m.choose.choice) + "…"
	case m.load.running:
		return spin + m.styles.Dim.Render("reading the catalog…")
	case m.cat == nil:
		return ""
	}
	counts := plural(len(m.cat.providers), "provider") + " · " + plural(len(m.cat.choices), "model")
	if m.Width() < wideFrom {
		return m.styles.Dim.Render(counts)
	}
	return m.styles.Dim.Render(counts + " · settings changes need a restart (R)")
}

// Status implements tui.Page.
func (m *Model) Status() string {
	switch {
	case m.refresh.running:
		return "refreshing " + m.refresh.provider + " " + seconds(m.refresh.elapsed)
	case m.cat == nil:
		return ""
	}
	return plural(len(m.cat.providers), "provider") + " · " + plural(len(m.cat.choices), "model")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

func itoa(n int) string { return strconv.Itoa(n) }
