// Package palette is the picker's one set of colours. Each role (the
// accent, matched characters, a good state, a warning, an error, the
// focused row's background) has one colour for dark backgrounds and one
// for light ones; the root model and every page build their styles from
// it, and without colour (NO_COLOR) use none of it.
package palette

import (
	"image/color"

	"charm.land/lipgloss/v2"
)

// Palette is the colours for one background.
type Palette struct {
	// Accent marks what has the focus: the active tab, the focused row's
	// marker, the query line's prompt, spinners.
	Accent color.Color
	// Match colours the matched characters of a ranked row.
	Match color.Color
	// OK is a good state: a ready backend, an available catalog.
	OK color.Color
	// Warn is a state worth noticing: a restart, a notice, a busy session.
	Warn color.Color
	// Error is a failure.
	Error color.Color
	// FocusBg is the focused row's background.
	FocusBg color.Color
}

// For returns the palette for a dark (isDark) or a light background.
func For(isDark bool) Palette {
	ld := lipgloss.LightDark(isDark)
	return Palette{
		Accent:  ld(lipgloss.Color("#5A3FD0"), lipgloss.Color("#B9A8FF")),
		Match:   ld(lipgloss.Color("#C2185B"), lipgloss.Color("#FF87D7")),
		OK:      ld(lipgloss.Color("#00875A"), lipgloss.Color("#5FD7A0")),
		Warn:    ld(lipgloss.Color("#9A6700"), lipgloss.Color("#FFD75F")),
		Error:   ld(lipgloss.Color("#C0002B"), lipgloss.Color("#FF6B81")),
		FocusBg: ld(lipgloss.Color("#E4E0F7"), lipgloss.Color("#2E2A45")),
	}
}
