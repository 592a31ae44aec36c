// Package page is the plumbing the picker's root model and every page
// share, written once and embedded: Base keeps the size of the area
// drawn, the terminal's background and colour profile, whether the
// backend child is down, whether the page has been shown, and the newest
// workspace generation seen, and holds the page's spinner.
//
// Observe is a filter in front of a page's Update (as tea.WithFilter is
// in front of a program's): it records what a message says and returns
// what is left for the page to do, so the page's one type switch reacts
// (rebuilds its styles, starts its work, starts over) and keeps none of
// this state itself.
package page

import (
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"

	"github.com/scoutdev/scout/tui/bridge"
)

// ShownMsg tells a page that it became the active tab: at start for the
// tab shown first, then on every switch to it (tui.ShownMsg is this
// type). A page whose work is costly and only of use when it is seen
// (session discovery reads every history) starts that work on its first
// ShownMsg (Observe makes it a FirstShownMsg) rather than in Init.
type ShownMsg struct{}

// FirstShownMsg is what Observe makes of the first ShownMsg while the
// backend is up: the page is seen for the first time and starts its
// costly work.
type FirstShownMsg struct{}

// FirstShownDownMsg is what Observe makes of the first ShownMsg while the
// backend is down: the page asks nothing of it and says that it is not
// running and that R restarts it; its work starts on the RestartedMsg
// (Shown is then true).
type FirstShownDownMsg struct{}

// RestyleMsg is what Observe makes of a tea.BackgroundColorMsg or a
// tea.ColorProfileMsg: the page rebuilds its styles for IsDark and
// NoColor.
type RestyleMsg struct{}

// Base is the state every page and the root keep about their terminal
// and their backend. It is embedded by value; its zero value is not
// ready for use (New).
type Base struct {
	width, height   int
	isDark, noColor bool
	down, shown     bool
	gen             int64
	spin            spinner.Model
}

// New returns the base of a page, or of the root, over backend: at the
// generation of its workspace, on a dark background until the terminal
// says otherwise.
func New(backend bridge.Backend) Base {
	b := Base{
		isDark: true,
		gen:    backend.Init().Workspace.Generation,
		spin:   spinner.New(spinner.WithSpinner(spinner.MiniDot)),
	}
	b.restyleSpinner()
	return b
}

// Observe records what msg says about the terminal and the backend and
// returns what is left for the page to handle:
//   - tea.WindowSizeMsg: recorded (Width, Height) and returned.
//   - tea.BackgroundColorMsg, tea.ColorProfileMsg: recorded (IsDark,
//     NoColor) and returned as a RestyleMsg.
//   - ShownMsg: the first is returned as a FirstShownMsg, or as a
//     FirstShownDownMsg while the backend is down; the others as nil
//     (nothing to do).
//   - bridge.DownMsg: recorded (Down) and returned.
//   - bridge.RestartedMsg: returned; when the restart succeeded the
//     backend is up again at the new child's generation (Gen).
//   - bridge.InvalidatedMsg: returned, and recorded, when its generation
//     is newer than Gen; nil otherwise.
//
// Every other message is returned as it is.
func (b *Base) Observe(msg tea.Msg) tea.Msg {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		b.width, b.height = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		b.isDark = msg.IsDark()
		return b.restyle()
	case tea.ColorProfileMsg:
		b.noColor = msg.Profile <= colorprofile.ASCII
		return b.restyle()
	case ShownMsg:
		return b.show()
	case bridge.DownMsg:
		b.down = true
	case bridge.RestartedMsg:
		if msg.Err == nil {
			b.down, b.gen = false, msg.Init.Workspace.Generation
		}
	case bridge.InvalidatedMsg:
		if !b.Advance(msg.Generation) {
			return nil
		}
	}
	return msg
}

func (b *Base) restyle() tea.Msg {
	b.restyleSpinner()
	return RestyleMsg{}
}

func (b *Base) show() tea.Msg {
	if b.shown {
		return nil
	}
	b.shown = true
	if b.down {
		return FirstShownDownMsg{}
	}
	return FirstShownMsg{}
}

// Advance records gen when it is newer than the newest generation seen
// (a report can be the first news of a policy change) and reports
// whether it was.
func (b *Base) Advance(gen int64) bool {
	if gen <= b.gen {
		return false
	}
	b.gen = gen
	return true
}

// Width is the width of the area drawn.
func (b *Base) Width() int { return b.width }

// Height is the height of the area drawn.
func (b *Base) Height() int { return b.height }

// IsDark reports whether the terminal's background is dark.
func (b *Base) IsDark() bool { return b.isDark }

// NoColor reports whether colours are off (NO_COLOR, a terminal without
// colour): every distinction is then made with attributes alone.
func (b *Base) NoColor() bool { return b.noColor }

// Down reports whether the backend child is down.
func (b *Base) Down() bool { return b.down }

// Shown reports whether the page has been shown (its first ShownMsg
// came).
func (b *Base) Shown() bool { return b.shown }

// Gen is the newest workspace generation seen.
func (b *Base) Gen() int64 { return b.gen }
