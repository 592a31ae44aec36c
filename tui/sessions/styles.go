package sessions

import (
	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/internal/display"
	"github.com/scoutdev/scout/tui/internal/palette"
)

// Styles is the Sessions page's look.
type Styles struct {
	Input textinput.Styles
	// Title and Match style a finished row's title and its matched
	// characters; Provisional and ProvisionalMatch a row of a discovery
	// still running (dimmed: not a finished list yet).
	Title, Match                  lipgloss.Style
	Provisional, ProvisionalMatch lipgloss.Style
	// Focused is laid over the focused row.
	Focused lipgloss.Style
	Gutter  lipgloss.Style
	Time    lipgloss.Style
	Busy    lipgloss.Style
	NoCwd   lipgloss.Style
	Count   lipgloss.Style
	Footer  lipgloss.Style
	Note    lipgloss.Style
	Error   lipgloss.Style
	Empty   lipgloss.Style
	// Agents style each agent's tag (wire.Agent* names).
	Agents map[string]lipgloss.Style
}

// DefaultStyles returns the styles for a dark or light background; with
// noColor every distinction is made with attributes alone.
func DefaultStyles(isDark, noColor bool) Styles {
	c := palette.For(isDark)
	m := lipgloss.NewStyle().Bold(true)
	s := Styles{
		Input:            tui.InputStyles(isDark, noColor),
		Title:            lipgloss.NewStyle(),
		Match:            m,
		Provisional:      lipgloss.NewStyle().Faint(true).Italic(true),
		ProvisionalMatch: m.Italic(true),
		Gutter:           lipgloss.NewStyle().Bold(true),
		Time:             lipgloss.NewStyle().Faint(true),
		Busy:             lipgloss.NewStyle().Bold(true),
		NoCwd:            lipgloss.NewStyle().Faint(true).Underline(true),
		Count:            lipgloss.NewStyle().Faint(true),
		Footer:           lipgloss.NewStyle().Faint(true),
		Note:             lipgloss.NewStyle().Italic(true),
		Error:            lipgloss.NewStyle().Bold(true),
		Empty:            lipgloss.NewStyle().Faint(true).Italic(true),
		Agents:           agentStyles(isDark, noColor),
	}
	if noColor {
		s.Match, s.ProvisionalMatch = s.Match.Underline(true), s.ProvisionalMatch.Underline(true)
		s.Focused = lipgloss.NewStyle().Reverse(true)
	} else {
		s.Match = s.Match.Foreground(c.Match)
		s.ProvisionalMatch = s.ProvisionalMatch.Foreground(c.Match)
		s.Gutter = s.Gutter.Foreground(c.Accent)
		s.Busy = s.Busy.Foreground(c.Warn)
		s.Note = s.Note.Foreground(c.Warn)
		s.Error = s.Error.Foreground(c.Error)
		s.Focused = lipgloss.NewStyle().Background(c.FocusBg)
	}
	return s
}

// rowPaint is how one row is drawn, reduced to escape sequences.
type rowPaint struct {
	plain, title, match, time, busy, noCwd display.Paint
	tags                                   map[string]display.Paint // by agent
}

// paints are the rows' paints: [provisional][focused].
type paints [2][2]rowPaint

func (s Styles) paints() paints {
	var p paints
	for prov := range 2 {
		title, match := s.Title, s.Match
		if prov == 1 {
			title, match = s.Provisional, s.ProvisionalMatch
		}
		for foc := range 2 {
			on := func(st lipgloss.Style) display.Paint {
				if foc == 1 {
					st = st.Inherit(s.Focused)
				}
				return display.PaintOf(st)
			}
			p[prov][foc] = rowPaint{
				plain: on(lipgloss.NewStyle()), title: on(title), match: on(match),
				time: on(s.Time), busy: on(s.Busy), noCwd: on(s.NoCwd),
				tags: map[string]display.Paint{},
			}
			for a, st := range s.Agents {
				if prov == 1 {
					st = st.Faint(true)
				}
				p[prov][foc].tags[a] = on(st)
			}
		}
	}
	return p
}
