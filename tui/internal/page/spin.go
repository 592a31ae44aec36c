package page

import (
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"github.com/scoutdev/scout/tui/internal/palette"
)

// Spin returns the Cmd that starts the spinner, to batch with work that
// starts; it then turns as long as Turn is told the page is busy.
func (b *Base) Spin() tea.Cmd { return b.spin.Tick }

// Turn moves the spinner one frame on its own tick while busy and
// returns the next tick; a tick of another page's spinner, or one that
// comes when the page is no longer busy, stops there.
func (b *Base) Turn(msg spinner.TickMsg, busy bool) tea.Cmd {
	if !busy {
		return nil
	}
	var cmd tea.Cmd
	b.spin, cmd = b.spin.Update(msg)
	return cmd
}

// Spinner is the spinner's current frame.
func (b *Base) Spinner() string { return b.spin.View() }

// restyleSpinner colours the spinner in the palette's accent, or not at
// all without colours.
func (b *Base) restyleSpinner() {
	b.spin.Style = lipgloss.NewStyle()
	if !b.noColor {
		b.spin.Style = b.spin.Style.Foreground(palette.For(b.isDark).Accent)
	}
}
