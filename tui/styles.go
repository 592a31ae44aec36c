package tui

import (
	"image/color"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/scoutdev/scout/tui/internal/palette"
)

// Styles is the root model's look: the tab bar, the status line and help.
type Styles struct {
	Tab       lipgloss.Style
	ActiveTab lipgloss.Style
	TabGap    lipgloss.Style
	State     map[State]lipgloss.Style
	Status    lipgloss.Style
	Dim       lipgloss.Style
	Error     lipgloss.Style
	Banner    lipgloss.Style
	Help      help.Styles
}

// DefaultStyles returns the styles for a dark or light background. Without
// colour (NO_COLOR, a dumb terminal) every distinction is made with
// attributes alone: reverse, bold, faint, underline; help included.
func DefaultStyles(isDark, noColor bool) Styles {
	c := palette.For(isDark)
	s := Styles{
		Tab:       lipgloss.NewStyle().Padding(0, 1).Faint(true),
		ActiveTab: lipgloss.NewStyle().Padding(0, 1).Bold(true).Foreground(c.Accent),
		TabGap:    lipgloss.NewStyle().Faint(true),
		Status:    lipgloss.NewStyle(),
		Dim:       lipgloss.NewStyle().Faint(true),
		Error:     lipgloss.NewStyle().Foreground(c.Error).Bold(true),
		Banner:    lipgloss.NewStyle().Foreground(c.Warn).Bold(true),
		Help:      helpStyles(isDark, noColor),
	}
	s.State = map[State]lipgloss.Style{
		StateReady:      colored(c.OK, noColor),
		StateDown:       colored(c.Error, noColor).Bold(true).Reverse(noColor),
		StateUnserved:   colored(c.Error, noColor).Bold(true).Reverse(noColor),
		StateRestarting: colored(c.Warn, noColor),
	}
	if noColor {
		s.ActiveTab = s.ActiveTab.UnsetForeground().Reverse(true)
		s.Error = s.Error.UnsetForeground()
		s.Banner = s.Banner.UnsetForeground()
	}
	return s
}

func colored(c color.Color, noColor bool) lipgloss.Style {
	if noColor {
		return lipgloss.NewStyle()
	}
	return lipgloss.NewStyle().Foreground(c)
}

// helpStyles are bubbles/help's styles, or without colour the same
// order of emphasis made with faint text: keys plain, descriptions and
// separators faint.
func helpStyles(isDark, noColor bool) help.Styles {
	if !noColor {
		return help.DefaultStyles(isDark)
	}
	key, faint := lipgloss.NewStyle(), lipgloss.NewStyle().Faint(true)
	return help.Styles{
		ShortKey: key, ShortDesc: faint, ShortSeparator: faint, Ellipsis: faint,
		FullKey: key, FullDesc: faint, FullSeparator: faint,
	}
}

// InputStyles are the styles of a page's query line (bubbles/textinput)
// for a dark or light background, with a cursor that does not blink and
// the focused prompt in the palette's accent. Without colour the
// placeholder and suggestions are faint, and neither the text, the prompt
// nor the cursor is coloured.
func InputStyles(isDark, noColor bool) textinput.Styles {
	s := textinput.DefaultStyles(isDark)
	s.Cursor.Blink = false
	if !noColor {
		s.Focused.Prompt = s.Focused.Prompt.Foreground(palette.For(isDark).Accent)
		return s
	}
	faint := lipgloss.NewStyle().Faint(true)
	plain := textinput.StyleState{Placeholder: faint, Suggestion: faint, Prompt: lipgloss.NewStyle(), Text: lipgloss.NewStyle()}
	s.Focused, s.Blurred = plain, plain
	s.Cursor.Color = nil
	return s
}
