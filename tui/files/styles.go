package files

import (
	"image/color"

	"charm.land/bubbles/v2/textinput"
	"charm.land/lipgloss/v2"

	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/internal/display"
	"github.com/scoutdev/scout/tui/internal/palette"
)

// PathStyles style one path in a row: the directory part dimmed, the base
// name emphasised, and the matched characters of each highlighted.
type PathStyles struct {
	Dir, Base, DirMatch, BaseMatch lipgloss.Style
	// Plain is unemphasised text in the row (tree file names, padding).
	Plain lipgloss.Style
	// Icon is the tree's folder arrow.
	Icon lipgloss.Style
}

// Styles is the Files page's look.
type Styles struct {
	Input textinput.Styles
	// Row and Focused style paths in ordinary rows and in the focused row.
	Row, Focused PathStyles
	Gutter       lipgloss.Style // the focused row's marker
	Mark         lipgloss.Style
	Count        lipgloss.Style
	Notice       lipgloss.Style
	Empty        lipgloss.Style
	PreviewTitle lipgloss.Style
	PreviewBody  lipgloss.Style
	PreviewNote  lipgloss.Style
	LineNumber   lipgloss.Style // the preview's line numbers
	Border       lipgloss.Style
}

// DefaultStyles returns the styles for a dark or light background; with
// noColor every distinction is made with attributes alone (bold, faint,
// underline, reverse), so NO_COLOR loses no information.
func DefaultStyles(isDark, noColor bool) Styles {
	c := palette.For(isDark)
	base := lipgloss.NewStyle().Bold(true)
	dir := lipgloss.NewStyle().Faint(true)
	m := lipgloss.NewStyle().Bold(true)
	s := Styles{
		Input:        tui.InputStyles(isDark, noColor),
		Row:          PathStyles{Dir: dir, Base: base, DirMatch: m, BaseMatch: m, Plain: lipgloss.NewStyle(), Icon: lipgloss.NewStyle().Faint(true)},
		Gutter:       lipgloss.NewStyle().Bold(true),
		Mark:         lipgloss.NewStyle().Bold(true),
		Count:        lipgloss.NewStyle().Faint(true),
		Notice:       lipgloss.NewStyle().Italic(true),
		Empty:        lipgloss.NewStyle().Faint(true).Italic(true),
		PreviewTitle: lipgloss.NewStyle().Bold(true),
		PreviewBody:  lipgloss.NewStyle(),
		PreviewNote:  lipgloss.NewStyle().Faint(true).Italic(true),
		LineNumber:   lipgloss.NewStyle().Faint(true),
		Border:       lipgloss.NewStyle().Faint(true),
	}
	if noColor {
		// Without colour a match is told apart by an underline.
		s.Row.DirMatch, s.Row.BaseMatch = m.Underline(true), m.Underline(true)
	} else {
		s.Row.DirMatch = s.Row.DirMatch.Foreground(c.Match)
		s.Row.BaseMatch = s.Row.BaseMatch.Foreground(c.Match)
		s.Gutter = s.Gutter.Foreground(c.Accent)
		s.Mark = s.Mark.Foreground(c.Accent)
		s.Row.Icon = s.Row.Icon.Foreground(c.Accent)
		s.Notice = s.Notice.Foreground(c.Warn)
	}
	s.Focused = s.Row.on(c.FocusBg, noColor)
	return s
}

// on returns p for the focused row: on the focus background, or in reverse
// video without colour.
func (p PathStyles) on(bg color.Color, noColor bool) PathStyles {
	apply := func(st lipgloss.Style) lipgloss.Style {
		if noColor {
			return st.Reverse(true)
		}
		return st.Background(bg)
	}
	return PathStyles{apply(p.Dir), apply(p.Base), apply(p.DirMatch), apply(p.BaseMatch), apply(p.Plain), apply(p.Icon)}
}

// pathPaint is PathStyles painted.
type pathPaint struct {
	dir, base, dirMatch, baseMatch, plain, icon display.Paint
}

func (p PathStyles) paint() pathPaint {
	return pathPaint{display.PaintOf(p.Dir), display.PaintOf(p.Base), display.PaintOf(p.DirMatch), display.PaintOf(p.BaseMatch), display.PaintOf(p.Plain), display.PaintOf(p.Icon)}
}

// rowPaints are the painted styles of rows.
type rowPaints struct {
	row, focused pathPaint
	gutter, mark display.Paint
}

func (s Styles) paints() rowPaints {
	return rowPaints{row: s.Row.paint(), focused: s.Focused.paint(), gutter: display.PaintOf(s.Gutter), mark: display.PaintOf(s.Mark)}
}
