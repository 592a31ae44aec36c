// Package providers is the Providers page of the picker: a table of the
// providers from model.catalog.status (catalog status, whether a key is
// needed and ready, how many models are enabled, the outcome of the last
// refresh or else what to do), over the models of the focused provider
// from model.catalog.models (every model of its fetched list, enabled or
// not, and the enabled ones the list lacks) with the selection marked.
//
// Nothing here happens by itself. r refreshes the focused provider only
// (model.refresh, remote): a spinner and the elapsed time show while it
// runs, Esc cancels it (the request's context, which the client turns into
// operation.cancel), and its outcome is told in words with its reason and
// the models it added or removed, computed from the catalog before and
// after, and stays on the provider's row until the next refresh or
// restart; catalog and status are then read again. Space on a model
// enables or disables it (model.enable, one model per key press), and the
// page then restarts the backend child, which applies it, keeping the
// focus on that model. ←/→ choose the effort of the focused model among
// its efforts; Enter selects it with model.select under the revision of
// the latest read; when that revision went stale the catalog is read again
// and the user asked to press Enter again. R restarts the backend child.
// Every reply carries the number of the load, refresh, change or selection
// that asked for it, so replies no longer wanted are dropped.
package providers

import (
	"slices"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/internal/page"
)

// Options configure the Providers page.
type Options struct {
	Backend bridge.Backend
	// Now is the clock of the refresh's elapsed time (time.Now when nil).
	Now func() time.Time
	// ConfigFile is the path of the backend's config.toml, which every
	// sentence that asks for a configuration change names ("" when the
	// home is unknown: the sentences then say "config.toml in scout's
	// home" and point at scout config).
	ConfigFile string
}

// Sections of the page; Tab moves between them.
const (
	sectionProviders = iota
	sectionModels
)

// Model is the Providers page.
type Model struct {
	page.Base
	backend bridge.Backend
	keys    KeyMap
	styles  Styles
	now     func() time.Time

	configFile string

	load    loadState
	cat     *catalog // the latest catalog read (nil before the first)
	section int
	pcursor int // focused provider
	mcursor int // focused model of the focused provider
	moffset int // first model shown

	refresh refreshState
	// outcomes are the last refresh's outcome per provider, shown on its
	// row until the next refresh of it or a restart.
	outcomes map[string]outcome
	choose   selectState
	enable   enableState
	// efforts are the efforts chosen with ←/→, per provider/model ("" or
	// absent: none, the model's default).
	efforts map[string]string
	// msg is what just happened (a refresh's outcome, a selection), shown
	// under the tables until replaced.
	msg    string
	msgBad bool
}

// New returns the Providers page.
func New(opts Options) *Model {
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	m := &Model{
		Base:       page.New(opts.Backend),
		backend:    opts.Backend,
		keys:       DefaultKeyMap(),
		now:        now,
		configFile: opts.ConfigFile,
		outcomes:   map[string]outcome{},
		efforts:    map[string]string{},
	}
	m.restyle()
	return m
}

func (m *Model) restyle() {
	m.styles = DefaultStyles(m.IsDark(), m.NoColor())
}

// Title implements tui.Page.
func (m *Model) Title() string { return "Providers" }

// Keys implements tui.Page.
// The keys that ask the backend are left out while it is down: R
// restarts it.
func (m *Model) Keys() help.KeyMap {
	k := m.keys
	if m.Down() {
		for _, b := range []*key.Binding{&k.Refresh, &k.Reload, &k.Select, &k.Enable} {
			b.SetEnabled(false)
		}
	}
	return k
}

// Init implements tui.Page: nothing until the page is shown.
func (m *Model) Init() tea.Cmd { return nil }

// CapturesKey implements tui.KeyCapturer: Esc cancels a running refresh
// instead of quitting.
func (m *Model) CapturesKey(msg tea.KeyPressMsg) bool {
	return m.refresh.running && key.Matches(msg, m.keys.Cancel)
}

// Revision returns the revision of the catalog shown ("" before the first
// read).
func (m *Model) Revision() string {
	if m.cat == nil {
		return ""
	}
	return m.cat.revision
}

// Busy reports whether a load, refresh, change or selection is in flight.
func (m *Model) Busy() bool {
	return m.load.running || m.refresh.running || m.choose.running || m.enable.running
}

// Update implements tui.Page.
func (m *Model) Update(msg tea.Msg) (tui.Page, tea.Cmd) {
	switch msg := m.Observe(msg).(type) {
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.WindowSizeMsg:
		m.scrollModels()
	case page.RestyleMsg:
		m.restyle()
	case spinner.TickMsg:
		return m, m.Turn(msg, m.Busy())
	case page.FirstShownMsg:
		return m, m.startLoad()
	case page.FirstShownDownMsg: // RestartedMsg reads the catalog
		m.load.err = "The backend is not running, so the catalog cannot be read. Press R to restart it; it is then read."
	case loadedMsg:
		return m, m.handleLoaded(msg)
	case refreshedMsg:
		return m, m.handleRefreshed(msg)
	case elapsedMsg:
		return m, m.handleElapsed(msg)
	case selectedMsg:
		return m, m.handleSelected(msg)
	case enabledMsg:
		return m, m.handleEnabled(msg)
	case bridge.RestartedMsg:
		m.keys.Restart.SetEnabled(true)
		m.msg, m.msgBad = "The backend was restarted with the current settings.", false
		if m.enable.restarting != "" { // the restart a change asked for
			m.msg, m.enable.restarting = m.enable.restarting, ""
		}
		m.abandonAll("The backend was restarted")
		clear(m.outcomes) // a new child: the refresh outcomes were the old one's
		if m.Shown() {
			return m, m.startLoad()
		}
	case bridge.DownMsg:
		// The root's R restarts a dead child; help lists it once.
		m.keys.Restart.SetEnabled(false)
		if !m.msgBad {
			m.msg = "" // what the child did before it died is no news now
		}
		m.abandonAll("The backend stopped")
	}
	return m, nil
}

// abandonAll drops the work in flight when the child went away, saying so
// if a refresh was running.
func (m *Model) abandonAll(why string) {
	if m.refresh.running {
		m.msg, m.msgBad = why+", so the refresh of "+m.refresh.provider+" was abandoned.", true
	}
	m.refresh.abandon()
	m.keys.Cancel.SetEnabled(false)
	m.choose.abandon()
	m.enable.abandon()
	m.load.abandon()
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Cancel):
		return m.cancelRefresh()
	case key.Matches(msg, k.Restart):
		return tui.RestartBackend()
	case key.Matches(msg, k.Refresh):
		return m.startRefresh()
	case key.Matches(msg, k.Select):
		return m.enter()
	case key.Matches(msg, k.Enable):
		return m.startEnable()
	case key.Matches(msg, k.EffortNext):
		m.chooseEffort(1)
	case key.Matches(msg, k.EffortPrev):
		m.chooseEffort(-1)
	case key.Matches(msg, k.Reload):
		if m.Down() {
			return tui.ReportError(tui.ErrDown)
		}
		return m.startLoad()
	case key.Matches(msg, k.Switch):
		m.setSection(1 - m.section)
		m.scrollModels()
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.PageUp):
		m.move(-max(m.modelRows(), 1))
	case key.Matches(msg, k.PageDown):
		m.move(max(m.modelRows(), 1))
	}
	return nil
}

// enter selects the focused model; on a provider it shows all its models
// (on the selected one, else the first).
func (m *Model) enter() tea.Cmd {
	if m.section == sectionModels {
		return m.startSelect()
	}
	p, ok := m.focusedProvider()
	if !ok {
		return nil
	}
	rows := m.rows()
	if len(rows) == 0 {
		m.msg, m.msgBad = p.Provider+" has no model list to show: "+noListWhy(p), false
		return nil
	}
	m.setSection(sectionModels)
	m.mcursor = 0
	if sel := m.cat.selection; sel != nil && sel.Provider == p.Provider {
		m.mcursor = max(slices.IndexFunc(rows, func(r wire.ModelRow) bool { return r.Model == sel.Model }), 0)
	}
	m.scrollModels()
	return nil
}

// setSection focuses a section; the keys that act on a model work in the
// models only.
func (m *Model) setSection(s int) {
	m.section = s
	m.keys.models(s == sectionModels)
}

func (m *Model) move(d int) {
	if m.section == sectionProviders {
		before := m.pcursor
		m.pcursor = clamp(m.pcursor+d, len(m.providers()))
		if m.pcursor != before { // another provider's models
			m.mcursor, m.moffset = 0, 0
		}
		return
	}
	m.mcursor = clamp(m.mcursor+d, len(m.rows()))
	m.scrollModels()
}

func clamp(i, n int) int { return max(min(i, n-1), 0) }

func (m *Model) providers() []wire.ProviderStatus {
	if m.cat == nil {
		return nil
	}
	return m.cat.providers
}

func (m *Model) choices() []wire.Choice {
	if m.cat == nil {
		return nil
	}
	return m.cat.choices
}

func (m *Model) focusedProvider() (wire.ProviderStatus, bool) {
	ps := m.providers()
	if m.pcursor < 0 || m.pcursor >= len(ps) {
		return wire.ProviderStatus{}, false
	}
	return ps[m.pcursor], true
}

// rows are the focused provider's models: every model of its fetched list
// and the enabled ones the list lacks (model.catalog.models), or, from a
// backend without that list, its choices.
func (m *Model) rows() []wire.ModelRow {
	p, ok := m.focusedProvider()
	if !ok {
		return nil
	}
	return rowsOf(m.cat, p.Provider)
}

func rowsOf(cat *catalog, provider string) []wire.ModelRow {
	var out []wire.ModelRow
	if cat.rows == nil { // a backend without model.catalog.models
		for _, c := range cat.choices {
			if c.Provider == provider {
				out = append(out, wire.ModelRow{Provider: c.Provider, Model: c.Model, Name: c.Name, Efforts: c.Efforts, Enabled: true, Listed: true})
			}
		}
		return out
	}
	for _, r := range cat.rows {
		if r.Provider == provider {
			out = append(out, r)
		}
	}
	return out
}

func (m *Model) focusedRow() (wire.ModelRow, bool) {
	rs := m.rows()
	if m.mcursor < 0 || m.mcursor >= len(rs) {
		return wire.ModelRow{}, false
	}
	return rs[m.mcursor], true
}

// choiceOf is the choice of the catalog for a model row, if it is one.
func (m *Model) choiceOf(r wire.ModelRow) (wire.Choice, bool) {
	i := slices.IndexFunc(m.choices(), func(c wire.Choice) bool { return c.Provider == r.Provider && c.Model == r.Model })
	if i < 0 {
		return wire.Choice{}, false
	}
	return m.choices()[i], true
}
