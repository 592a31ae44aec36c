package files

import (
	"charm.land/bubbles/v2/key"

	"github.com/scoutdev/scout/tui"
)

// KeyMap is the Files page's bindings. Printable keys go to the query.
type KeyMap struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	Expand   key.Binding // tree: open the focused folder
	Collapse key.Binding // tree: close it, or go to its parent
	Mark     key.Binding // --multi only
	MarkUp   key.Binding // --multi only
	Accept   key.Binding
	Rescan   key.Binding
	Preview  key.Binding
	// The preview's scroll: a line, a page.
	PreviewUp, PreviewDown, PreviewPageUp, PreviewPageDown key.Binding
}

// DefaultKeyMap returns the Files page's bindings; Mark and MarkUp are
// enabled with multi.
func DefaultKeyMap(multi bool) KeyMap {
	k := KeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑/ctrl+p", "up")),
		Down:     key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓/ctrl+n", "down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Top:      key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "first")),
		Bottom:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "last")),
		Expand:   key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "open folder")),
		Collapse: key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "close folder")),
		Mark:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "mark")),
		MarkUp:   key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "mark, go up")),
		Accept:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "accept")),
		Rescan:   key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "rescan")),
		Preview:  key.NewBinding(key.WithKeys("alt+p"), key.WithHelp("alt+p", "toggle preview")),

		// Help lists each pair once, under the first of it.
		PreviewUp:       key.NewBinding(key.WithKeys("shift+up"), key.WithHelp("shift+↑/↓", "scroll preview")),
		PreviewDown:     key.NewBinding(key.WithKeys("shift+down"), key.WithHelp("shift+↑/↓", "scroll preview")),
		PreviewPageUp:   key.NewBinding(key.WithKeys("shift+pgup"), key.WithHelp("shift+pgup/pgdn", "page preview")),
		PreviewPageDown: key.NewBinding(key.WithKeys("shift+pgdown"), key.WithHelp("shift+pgup/pgdn", "page preview")),
	}
	k.Mark.SetEnabled(multi)
	k.MarkUp.SetEnabled(multi)
	return k
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Accept, k.Mark, k.Expand, k.Rescan}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Top, k.Bottom, tui.LineEditHelp("edit the query")},
		{k.Expand, k.Collapse, k.Mark, k.MarkUp, k.Accept, k.Rescan, k.Preview, k.PreviewUp, k.PreviewPageUp},
	}
}
