package providers

import (
	"strings"

	"charm.land/lipgloss/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/internal/display"
)

// The providers table: one row per provider, its columns named for what
// they hold. catalog is the cache's status; key whether a key is needed
// and ready (or what the last refresh learnt of it); enabled how many of
// the fetched models are enabled; the last column the outcome of the last
// refresh, until the next one or a restart, else what to do.

// Column widths (cells) of the wide table.
const (
	catalogWidth = 12 // "other source"
	keyWidth     = 13 // "no key needed"
	enabledWidth = 9  // "14 of 120"
)

// header is the table's column names.
func (m *Model) header() string {
	return m.cells("provider", "catalog", "key", "enabled", "last refresh, or what to do")
}

// idWidth is the provider column's width.
func (m *Model) idWidth() int {
	w := 8
	for _, p := range m.providers() {
		w = max(w, display.Width(p.Provider))
	}
	return min(w, max(m.Width()/4, 8))
}

// cells lays out one wide table line after the two-cell gutter.
func (m *Model) cells(id, cat, key, enabled, last string) string {
	var b strings.Builder
	b.WriteString("  ")
	b.WriteString(display.Pad(display.Truncate(id, m.idWidth(), "…"), m.idWidth()))
	b.WriteString("  " + display.Pad(cat, catalogWidth))
	b.WriteString(" " + display.Pad(key, keyWidth))
	b.WriteString(" " + display.Pad(enabled, enabledWidth))
	b.WriteString(" " + last)
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

// rowCells are the words of a provider's row and the styles they take.
type rowCells struct {
	cat, key, enabled, last string
	catSt, keySt, lastSt    lipgloss.Style
}

func (m *Model) rowCells(p wire.ProviderStatus) rowCells {
	s := m.styles
	c := rowCells{cat: catalogWord(p.CatalogStatus), key: m.keyWord(p), enabled: m.enabledCount(p.Provider),
		catSt: s.Bad, keySt: s.Dim, lastSt: s.Row}
	if p.CatalogStatus == wire.CatalogAvailable {
		c.catSt = s.Good
	}
	switch {
	case c.key == "key rejected" || p.Authentication == wire.AuthUnavailable:
		c.keySt = s.Bad
	case p.Authentication == wire.AuthReady:
		c.keySt = s.Good
	}
	c.last, _ = recovery(p, m.configName())
	if o, ok := m.outcomes[p.Provider]; ok {
		c.last = o.word
		if o.bad {
			c.lastSt = s.Bad
		}
	}
	return c
}

// keyWord is the key cell: what the last refresh learnt of the key, else
// "no key needed" for a provider that needs none, else its
// authentication.
func (m *Model) keyWord(p wire.ProviderStatus) string {
	if o, ok := m.outcomes[p.Provider]; ok && o.key != "" {
		return o.key
	}
	if m.cat != nil && m.cat.keyless[p.Provider] {
		return keylessWord
	}
	return authWord(p.Authentication)
}

// enabledCount is "2 of 14": the enabled models of the fetched list and
// its size; "—" without a valid list.
func (m *Model) enabledCount(provider string) string {
	if m.cat == nil || m.cat.rows == nil {
		return "—"
	}
	listed, enabled := 0, 0
	for _, r := range rowsOf(m.cat, provider) {
		if r.Listed {
			listed++
			if r.Enabled {
				enabled++
			}
		}
	}
	if listed == 0 {
		return "—"
	}
	return itoa(enabled) + " of " + itoa(listed)
}

func (m *Model) providerRow(p wire.ProviderStatus, focused bool) string {
	if m.Width() < wideFrom {
		return m.narrowRow(p, focused)
	}
	c := m.rowCells(p)
	if focused && m.section == sectionProviders {
		line := m.cells(p.Provider, c.cat, c.key, c.enabled, c.last)
		return m.gutter(true) + m.styles.Cursor.Render(display.Pad(line[2:], m.Width()-2))
	}
	var b strings.Builder
	if focused {
		b.WriteString(m.gutter(true))
	} else {
		b.WriteString("  ")
	}
	b.WriteString(display.Pad(display.Truncate(p.Provider, m.idWidth(), "…"), m.idWidth()))
	b.WriteString("  " + c.catSt.Render(display.Pad(c.cat, catalogWidth)))
	b.WriteString(" " + c.keySt.Render(display.Pad(c.key, keyWidth)))
	b.WriteString(" " + m.styles.Row.Render(display.Pad(c.enabled, enabledWidth)))
	b.WriteString(" " + c.lastSt.Render(c.last))
	return b.String()
}

// narrowRow is a provider on a narrow terminal: its id, catalog, enabled
// count (2/14), and the last refresh's outcome or its key, separated by
// single spaces so that 40 columns hold them; the focused one's sentence
// is under the table.
func (m *Model) narrowRow(p wire.ProviderStatus, focused bool) string {
	c := m.rowCells(p)
	parts := []string{c.cat}
	if c.enabled != "—" {
		parts = append(parts, strings.Replace(c.enabled, " of ", "/", 1))
	}
	if o, ok := m.outcomes[p.Provider]; ok {
		parts = append(parts, o.word)
	} else {
		parts = append(parts, c.key)
	}
	text := display.Pad(display.Truncate(p.Provider, m.idWidth(), "…"), m.idWidth()) + " " + strings.Join(parts, " ")
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
