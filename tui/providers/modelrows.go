package providers

import (
	"strings"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/internal/display"
)

// The models of the focused provider: every model of its fetched list
// with [x] when enabled, the enabled ones the list lacks, the selection
// marked ●, and on the focused model the effort ←/→ chose.

func (m *Model) modelLines(h int) []string {
	rs := m.rows()
	if len(rs) == 0 {
		return m.emptyLines(m.modelsEmpty(), h)
	}
	var lines []string
	for i := m.moffset; i < min(m.moffset+h, len(rs)); i++ {
		lines = append(lines, m.modelRow(rs[i], i == m.mcursor))
	}
	return padLines(lines, h)
}

func (m *Model) isSelected(r wire.ModelRow) bool {
	s := m.cat.selection
	return s != nil && s.Provider == r.Provider && s.Model == r.Model
}

// modelWords are what a model's row says after its id.
func (m *Model) modelWords(r wire.ModelRow, focused bool) []string {
	var extra []string
	if r.Name != "" && r.Name != r.Model {
		extra = append(extra, display.Clean(r.Name))
	}
	effort := m.effortOf(r)
	switch {
	case len(r.Efforts) > 0 && focused && m.section == sectionModels:
		label := effort
		if label == "" {
			label = "default"
		}
		e := "effort ‹" + display.Clean(label) + "›"
		if m.Width() >= wideFrom {
			e += " of " + display.Clean(strings.Join(r.Efforts, "/"))
		}
		extra = append(extra, e)
	case effort != "":
		extra = append(extra, "effort "+display.Clean(effort))
	case len(r.Efforts) > 0:
		extra = append(extra, "efforts "+display.Clean(strings.Join(r.Efforts, "/")))
	}
	if !r.Listed {
		extra = append(extra, "not in the fetched list")
	}
	if c, ok := m.choiceOf(r); ok && !c.Selectable {
		extra = append(extra, "no key: not selectable")
	}
	if m.isSelected(r) {
		extra = append(extra, "selected")
	}
	return extra
}

func (m *Model) modelRow(r wire.ModelRow, focused bool) string {
	mark := "  "
	if m.isSelected(r) {
		mark = "● "
	}
	box := "[ ] "
	if r.Enabled {
		box = "[x] "
	}
	text := box + display.Clean(r.Model)
	rest := ""
	if extra := m.modelWords(r, focused); len(extra) > 0 {
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
	if !r.Enabled || !r.Listed {
		st = m.styles.Dim
	}
	return g + m.styles.Selected.Render(mark) + st.Render(text) + m.styles.Dim.Render(rest)
}
