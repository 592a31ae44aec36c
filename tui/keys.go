package tui

import (
	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
)

// KeyMap is the root model's bindings: tabs, help, quitting, and restarting
// a dead backend.
type KeyMap struct {
	GoTo    key.Binding // alt+1..alt+9: that tab
	Next    key.Binding
	Prev    key.Binding
	Help    key.Binding
	Quit    key.Binding
	Suspend key.Binding // ctrl+z: back to the shell, fg resumes
	Restart key.Binding // only while the backend is down
}

// DefaultKeyMap returns the root's bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		GoTo:    key.NewBinding(key.WithKeys("alt+1", "alt+2", "alt+3"), key.WithHelp("alt+1-3", "go to tab")),
		Next:    key.NewBinding(key.WithKeys("ctrl+right"), key.WithHelp("ctrl+→", "next tab")),
		Prev:    key.NewBinding(key.WithKeys("ctrl+left"), key.WithHelp("ctrl+←", "previous tab")),
		Help:    key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit:    key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "quit")),
		Suspend: key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend (fg resumes)")),
		Restart: key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "restart backend"), key.WithDisabled()),
	}
}

// helpKeys joins the root's bindings with the active page's for help.
type helpKeys struct {
	root KeyMap
	page help.KeyMap
}

func (h helpKeys) ShortHelp() []key.Binding {
	return append(append([]key.Binding{h.root.Help}, h.page.ShortHelp()...), h.root.Restart, h.root.Quit)
}

// FullHelp lists Quit with both its keys (the short help has room for
// Esc only).
func (h helpKeys) FullHelp() [][]key.Binding {
	quit := h.root.Quit
	quit.SetHelp("esc/ctrl+c", quit.Help().Desc)
	root := []key.Binding{h.root.GoTo, h.root.Next, h.root.Prev, h.root.Help, h.root.Restart, h.root.Suspend, quit}
	return append(h.page.FullHelp(), root)
}

// LineEditHelp is the help entry of the query lines' own editing keys
// (bubbles/textinput's), which pages list in their full help: the keys
// are the input's, the entry only names them.
func LineEditHelp(desc string) key.Binding {
	return key.NewBinding(key.WithKeys("ctrl+a", "ctrl+e", "ctrl+w", "ctrl+u", "ctrl+k"), key.WithHelp("ctrl+a/e/w/u/k", desc))
}
