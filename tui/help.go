package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/tui/internal/display"
)

// helpScroll are the keys that scroll help when it does not fit.
var helpScroll = struct{ up, down key.Binding }{
	up:   key.NewBinding(key.WithKeys("up", "k", "pgup")),
	down: key.NewBinding(key.WithKeys("down", "j", "pgdown")),
}

// handleHelpKey handles a key while help is shown (the keys the root
// handles itself are handled before): scrolling, or closing help. A key
// that closes help does nothing else, so the page hidden under help never
// changes where the user cannot see it.
func (m Model) handleHelpKey(msg tea.KeyPressMsg) Model {
	switch {
	case key.Matches(msg, helpScroll.up):
		m.helpOff = max(m.helpOff-1, 0)
	case key.Matches(msg, helpScroll.down):
		m.helpOff++
	default:
		m.showHelp = false
	}
	return m
}

// helpView shows every binding of the root and the active page: in
// bubbles/help's columns when they fit, else as one scrolling column of
// "key description" lines (narrow or short terminals).
func (m Model) helpView(w, h int) string {
	groups := m.helpKeys().FullHelp()
	unbounded := m.help
	unbounded.SetWidth(0) // measure it whole: with a width it cuts columns
	full := unbounded.FullHelpView(groups)
	if fw, fh := display.Width(longestLine(full)), strings.Count(full, "\n")+1; fw <= w && fh <= h {
		return full
	}
	var lines []string
	keyWidth := 0
	for _, g := range groups {
		for _, b := range g {
			if b.Enabled() {
				keyWidth = max(keyWidth, display.Width(b.Help().Key))
			}
		}
	}
	for _, g := range groups {
		for _, b := range g {
			if !b.Enabled() {
				continue
			}
			k := b.Help().Key
			lines = append(lines, m.styles.Help.FullKey.Render(k+strings.Repeat(" ", keyWidth-display.Width(k)))+"  "+m.styles.Help.FullDesc.Render(b.Help().Desc))
		}
	}
	off := min(m.helpOff, max(len(lines)-(h-1), 0))
	end := min(off+h-1, len(lines))
	out := append([]string{}, lines[off:end]...)
	if off > 0 || end < len(lines) {
		out = append(out, m.styles.Dim.Render("↑/↓ more"))
	} else {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

func longestLine(s string) string {
	longest := ""
	for l := range strings.SplitSeq(s, "\n") {
		if display.Width(l) > display.Width(longest) {
			longest = l
		}
	}
	return longest
}
