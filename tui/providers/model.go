// Package providers is the Providers page of the picker: a table of the
// configured providers from model.catalog.status (catalog status,
// authentication, relevance, and what to do in a sentence) over the
// choices of model.catalog with the current selection marked.
//
// Nothing here happens by itself. r refreshes the focused provider only
// (model.refresh, remote): a spinner and the elapsed time show while it
// runs, Esc cancels it (the request's context, which the client turns into
// operation.cancel), and its outcome is told in words with its reason and
// the models it added or removed, computed from the catalog before and
// after; catalog and status are then read again. Enter selects the focused
// model with model.select under the revision of the latest read; when that
// revision went stale the catalog is read again and the user asked to
// press Enter again. R restarts the backend child, which settings changes
// need. Every reply carries the number of the load, refresh or selection
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

	load    loadState
	cat     *catalog // the latest catalog read (nil before the first)
	section int
	pcursor int // focused provider
	ccursor int // focused choice
	coffset int // first choice shown

	refresh refreshState
	choose  selectState
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
		Base:    page.New(opts.Backend),
		backend: opts.Backend,
		keys:    DefaultKeyMap(),
		now:     now,
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
func (m *Model) Keys() help.KeyMap { return m.keys }

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

// Busy reports whether a load, refresh or selection is in flight.
func (m *Model) Busy() bool { return m.load.running || m.refresh.running || m.choose.running }

// Update implements tui.Page.
func (m *Model) Update(msg tea.Msg) (tui.Page, tea.Cmd) {
	switch msg := m.Observe(msg).(type) {
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.WindowSizeMsg:
		m.scrollChoices()
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
	case bridge.RestartedMsg:
		m.keys.Restart.SetEnabled(true)
		m.msg, m.msgBad = "The backend was restarted with the current settings.", false
		m.abandonAll("The backend was restarted")
		if m.Shown() {
			return m, m.startLoad()
		}
	case bridge.DownMsg:
		// The root's R restarts a dead child; help lists it once.
		m.keys.Restart.SetEnabled(false)
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
	case key.Matches(msg, k.Reload):
		if m.Down() {
			return tui.ReportError(errDown)
		}
		return m.startLoad()
	case key.Matches(msg, k.Switch):
		m.section = 1 - m.section
		m.scrollChoices()
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.PageUp):
		m.move(-max(m.choiceRows(), 1))
	case key.Matches(msg, k.PageDown):
		m.move(max(m.choiceRows(), 1))
	}
	return nil
}

// enter selects the focused model; on a provider it moves to its models.
func (m *Model) enter() tea.Cmd {
	if m.section == sectionProviders {
		p, ok := m.focusedProvider()
		if !ok {
			return nil
		}
		i := slices.IndexFunc(m.choices(), func(c wire.Choice) bool { return c.Provider == p.Provider })
		if i < 0 {
			m.msg, m.msgBad = p.Provider+" has no model to choose: a provider needs enabled models and a fetched model list (r).", false
			return nil
		}
		m.section, m.ccursor = sectionModels, i
		m.scrollChoices()
		return nil
	}
	return m.startSelect()
}

func (m *Model) move(d int) {
	if m.section == sectionProviders {
		m.pcursor = clamp(m.pcursor+d, len(m.providers()))
		return
	}
	m.ccursor = clamp(m.ccursor+d, len(m.choices()))
	m.scrollChoices()
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

func (m *Model) focusedChoice() (wire.Choice, bool) {
	cs := m.choices()
	if m.ccursor < 0 || m.ccursor >= len(cs) {
		return wire.Choice{}, false
	}
	return cs[m.ccursor], true
}
