package providers

import (
	"charm.land/lipgloss/v2"

	"github.com/scoutdev/scout/tui/internal/palette"
)

// Styles is the Providers page's look.
type Styles struct {
	Header   lipgloss.Style // a section's title, when it is not focused
	Focus    lipgloss.Style // a section's title, when it is
	Column   lipgloss.Style // the table's column names
	Row      lipgloss.Style
	Cursor   lipgloss.Style // the focused row of the focused section
	Marked   lipgloss.Style // the focused provider while the models are focused
	Gutter   lipgloss.Style
	Good     lipgloss.Style // available, ready
	Bad      lipgloss.Style // a state that needs the user
	Dim      lipgloss.Style
	Selected lipgloss.Style // the selection's marker
	Note     lipgloss.Style
	Error    lipgloss.Style
}

// DefaultStyles returns the styles for a dark or light background; with
// noColor every distinction is made with attributes alone.
func DefaultStyles(isDark, noColor bool) Styles {
	c := palette.For(isDark)
	s := Styles{
		Header:   lipgloss.NewStyle().Bold(true).Faint(true),
		Focus:    lipgloss.NewStyle().Bold(true).Underline(true),
		Column:   lipgloss.NewStyle().Faint(true),
		Row:      lipgloss.NewStyle(),
		Cursor:   lipgloss.NewStyle(),
		Marked:   lipgloss.NewStyle().Bold(true),
		Gutter:   lipgloss.NewStyle().Bold(true),
		Good:     lipgloss.NewStyle(),
		Bad:      lipgloss.NewStyle().Bold(true),
		Dim:      lipgloss.NewStyle().Faint(true),
		Selected: lipgloss.NewStyle().Bold(true),
		Note:     lipgloss.NewStyle().Italic(true),
		Error:    lipgloss.NewStyle().Bold(true),
	}
	if noColor {
		s.Cursor = s.Cursor.Reverse(true)
		return s
	}
	s.Focus = s.Focus.Foreground(c.Accent)
	s.Cursor = s.Cursor.Background(c.FocusBg)
	s.Gutter = s.Gutter.Foreground(c.Accent)
	s.Good = s.Good.Foreground(c.OK)
	s.Bad = s.Bad.Foreground(c.Warn)
	s.Selected = s.Selected.Foreground(c.OK)
	s.Note = s.Note.Foreground(c.Warn)
	s.Error = s.Error.Foreground(c.Error)
	return s
}
