package providers

import "charm.land/bubbles/v2/key"

// KeyMap is the Providers page's bindings.
type KeyMap struct {
	Up       key.Binding
	Down     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Switch   key.Binding // providers <-> models
	Refresh  key.Binding // r: the focused provider, deliberately
	Cancel   key.Binding // esc while a refresh runs
	Select   key.Binding
	// Enable toggles the focused model's enabled state (model.enable),
	// one model per press; the page then restarts the backend.
	Enable key.Binding
	// EffortPrev and EffortNext choose the focused model's effort.
	EffortPrev key.Binding
	EffortNext key.Binding
	Reload     key.Binding // ctrl+r: read catalog and status again (no network)
	Restart    key.Binding // R: restart the backend child
}

// DefaultKeyMap returns the Providers page's bindings.
func DefaultKeyMap() KeyMap {
	k := KeyMap{
		Up:         key.NewBinding(key.WithKeys("up", "k", "ctrl+p"), key.WithHelp("↑/k", "up")),
		Down:       key.NewBinding(key.WithKeys("down", "j", "ctrl+n"), key.WithHelp("↓/j", "down")),
		PageUp:     key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup", "page up")),
		PageDown:   key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn", "page down")),
		Switch:     key.NewBinding(key.WithKeys("tab", "shift+tab"), key.WithHelp("tab", "providers/models")),
		Refresh:    key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh focused provider")),
		Cancel:     key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel refresh")),
		Select:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "models / select")),
		Enable:     key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "enable/disable model")),
		EffortPrev: key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "previous effort")),
		EffortNext: key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "next effort")),
		Reload:     key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "reload catalog")),
		Restart:    key.NewBinding(key.WithKeys("R"), key.WithHelp("R", "restart backend")),
	}
	k.Cancel.SetEnabled(false)
	k.models(false)
	return k
}

// models enables the keys that act on a model, while the models have the
// focus.
func (k *KeyMap) models(on bool) {
	k.Enable.SetEnabled(on)
	k.EffortPrev.SetEnabled(on)
	k.EffortNext.SetEnabled(on)
}

// ShortHelp implements help.KeyMap.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Refresh, k.Cancel, k.Select, k.Enable, k.EffortNext, k.Switch, k.Restart}
}

// FullHelp implements help.KeyMap.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Up, k.Down, k.PageUp, k.PageDown, k.Switch},
		{k.Refresh, k.Cancel, k.Select, k.Enable, k.EffortPrev, k.EffortNext},
		{k.Reload, k.Restart},
	}
}
