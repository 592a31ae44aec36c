package providers

import "charm.land/lipgloss/v2"

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
	Spinner  lipgloss.Style
}

// DefaultStyles returns the styles for a dark or light background; with
// noColor every distinction is made with attributes alone.
func DefaultStyles(isDark, noColor bool) Styles {
	ld := lipgloss.LightDark(isDark)
	accent := ld(lipgloss.Color("#5A3FD0"), lipgloss.Color("#B9A8FF"))
	ok := ld(lipgloss.Color("#00875A"), lipgloss.Color("#5FD7A0"))
	warn := ld(lipgloss.Color("#9A6700"), lipgloss.Color("#FFD75F"))
	errc := ld(lipgloss.Color("#C0002B"), lipgloss.Color("#FF6B81"))
	focusBg := ld(lipgloss.Color("#E4E0F7"), lipgloss.Color("#2E2A45"))
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
		Spinner:  lipgloss.NewStyle(),
	}
	if noColor {
		s.Cursor = s.Cursor.Reverse(true)
		return s
	}
	s.Focus = s.Focus.Foreground(accent)
	s.Cursor = s.Cursor.Background(focusBg)
	s.Gutter = s.Gutter.Foreground(accent)
	s.Good = s.Good.Foreground(ok)
	s.Bad = s.Bad.Foreground(warn)
	s.Selected = s.Selected.Foreground(ok)
	s.Note = s.Note.Foreground(warn)
	s.Error = s.Error.Foreground(errc)
	s.Spinner = s.Spinner.Foreground(accent)
	return s
}
