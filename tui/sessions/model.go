// Package sessions is the Sessions page of the picker: the agent's saved
// sessions for this directory, found with session.discover page by page,
// filtered by a fuzzy match on their titles, and opened exactly with
// session.open (Enter), which ends the picker with the session's id.
//
// Discovery starts the first time the page is shown (it reads every
// history, which a picker opened for files should not pay for) and follows
// cursors, empty pages included, until a page says complete. Until then
// the rows are provisional: drawn dimmed, counted "so far", with a spinner
// and the reason the backend paused in words, and Enter does not open
// them. On stale_revision the rows are discarded and discovery starts over
// once by itself, saying why; any other error discards them and says what
// happened and what to do. Every reply carries the number of the scan or
// open that asked for it, so replies of abandoned work are dropped.
package sessions

import (
	"strings"
	"time"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/internal/display"
	"github.com/scoutdev/scout/tui/internal/page"
)

// Options configure the Sessions page.
type Options struct {
	Backend bridge.Backend
	// Now is the clock relative times are shown against (time.Now when
	// nil; tests fix it).
	Now func() time.Time
}

// Model is the Sessions page.
type Model struct {
	page.Base
	backend bridge.Backend
	keys    KeyMap
	styles  Styles
	paints  paints
	gutter  display.Paint
	input   textinput.Model
	now     func() time.Time

	canScan bool // session.discover was negotiated
	canOpen bool // session.open was negotiated

	disc     discovery
	rows     []wire.SessionRow // in arrival order
	order    []int             // rows' indices, newest first
	notices  wire.SessionNotices
	complete bool
	tagWidth int // the widest agent tag of the rows, with its space

	filter filterState
	cursor int
	offset int

	open openState
	// note is a sentence about what just happened (a discovery started
	// over, an open refused), shown above the footer until replaced.
	note    string
	noteBad bool
	// unserved is why the backend serves nothing (a broken config.toml),
	// from its diagnostic: what an unavailable store is then to be
	// explained by.
	unserved string
}

// New returns the Sessions page.
func New(opts Options) *Model {
	in := page.QueryInput("filter by title", "")
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	m := &Model{
		Base:    page.New(opts.Backend),
		backend: opts.Backend,
		keys:    DefaultKeyMap(),
		input:   in,
		now:     now,
	}
	m.negotiated()
	m.restyle()
	return m
}

func (m *Model) negotiated() {
	m.canScan = bridge.Negotiated(m.backend, wire.MethodSessionDiscover)
	m.canOpen = bridge.Negotiated(m.backend, wire.MethodSessionOpen)
}

func (m *Model) restyle() {
	m.styles = DefaultStyles(m.IsDark(), m.NoColor())
	m.paints = m.styles.paints()
	m.gutter = display.PaintOf(m.styles.Gutter)
	m.input.SetStyles(m.styles.Input)
}

// Title implements tui.Page.
func (m *Model) Title() string { return "Sessions" }

// Keys implements tui.Page.
// Ctrl-R is left out while the backend is down: R restarts it, and the
// sessions are then read again.
func (m *Model) Keys() help.KeyMap {
	k := m.keys
	k.Rescan.SetEnabled(!m.Down())
	return k
}

// Init implements tui.Page: nothing until the page is shown.
func (m *Model) Init() tea.Cmd { return nil }

// Query returns the filter's text.
func (m *Model) Query() string { return m.input.Value() }

// Complete reports whether discovery completed: the rows are a finished
// list.
func (m *Model) Complete() bool { return m.complete }

// Rows returns the ids of the rows shown, in order (see Settled).
func (m *Model) Rows() []string {
	ids := make([]string, len(m.filter.shown))
	for i, s := range m.filter.shown {
		ids[i] = m.rows[s.row].ID
	}
	return ids
}

// Focused returns the focused row's id ("" for none).
func (m *Model) Focused() string {
	if r, ok := m.focused(); ok {
		return r.ID
	}
	return ""
}

// Update implements tui.Page.
func (m *Model) Update(msg tea.Msg) (tui.Page, tea.Cmd) {
	switch msg := m.Observe(msg).(type) {
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		return m, m.edit(msg)
	case tea.WindowSizeMsg:
		m.input.SetWidth(page.QueryWidth(m.Width(), m.input.Prompt, countWidth))
		m.scrollTo()
	case page.RestyleMsg:
		m.restyle()
	case spinner.TickMsg:
		return m, m.Turn(msg, m.disc.running || m.open.running)
	case page.FirstShownMsg:
		return m, m.startDiscovery()
	case page.FirstShownDownMsg: // RestartedMsg starts discovery
		m.disc.err = "The backend is not running, so the sessions cannot be read. Press R to restart it; they are then read."
	case pageMsg:
		return m, m.handlePage(msg)
	case rankMsg:
		return m, m.handleRank(msg)
	case retryMsg:
		return m, m.handleRetry(msg)
	case openMsg:
		return m, m.handleOpen(msg)
	case bridge.RestartedMsg:
		m.unserved = ""
		return m, m.restarted()
	case bridge.DownMsg:
		m.wentDown()
	case bridge.DiagnosticMsg:
		if msg.Unserved {
			m.unserved = strings.TrimSuffix(msg.Text, wire.UnservedNote)
			if bridge.Code(m.disc.reported) == wire.CodeDiscoveryUnavailable {
				m.disc.err = discoveryError(m.disc.reported, m.unserved) // it came before the reason
			}
		}
	}
	return m, nil
}

// restarted starts over on a new child: its cursors are not the old
// child's, and a restart for request_limit must rescan.
func (m *Model) restarted() tea.Cmd {
	m.negotiated()
	m.open.abandon()
	if !m.Shown() {
		return nil
	}
	m.disc.autoRestarts = 0
	return m.startDiscovery()
}

// wentDown abandons the discovery in flight; its rows can never be
// completed, so they go.
func (m *Model) wentDown() {
	m.open.abandon()
	if m.disc.running || m.complete || len(m.rows) > 0 {
		m.disc.abandon()
		m.discard()
		m.disc.err = "The backend stopped, so discovery stopped. Press R to restart it; the sessions are then read again."
	}
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Open):
		return m.openFocused()
	case key.Matches(msg, k.Rescan):
		return m.rescan()
	case key.Matches(msg, k.Up):
		m.move(-1)
	case key.Matches(msg, k.Down):
		m.move(1)
	case key.Matches(msg, k.PageUp):
		m.move(-m.listHeight())
	case key.Matches(msg, k.PageDown):
		m.move(m.listHeight())
	default:
		return m.edit(msg)
	}
	return nil
}

// edit hands msg to the filter and filters again when its text changed.
func (m *Model) edit(msg tea.Msg) tea.Cmd {
	before := m.input.Value()
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	if m.input.Value() != before {
		return tea.Batch(cmd, m.refilter())
	}
	return cmd
}

// rescan is Ctrl-R: discovery from the start.
func (m *Model) rescan() tea.Cmd {
	if m.Down() {
		return tui.ReportError(tui.ErrDown)
	}
	m.note = ""
	m.disc.autoRestarts = 0
	return m.startDiscovery()
}

func (m *Model) move(d int) {
	n := len(m.filter.shown)
	if n == 0 {
		return
	}
	m.cursor = min(max(m.cursor+d, 0), n-1)
	m.scrollTo()
}

// scrollTo keeps the cursor on screen.
func (m *Model) scrollTo() {
	h := m.listHeight()
	switch {
	case m.cursor < m.offset:
		m.offset = m.cursor
	case m.cursor >= m.offset+h:
		m.offset = m.cursor - h + 1
	}
	m.offset = max(min(m.offset, len(m.filter.shown)-h), 0)
}

func (m *Model) focused() (wire.SessionRow, bool) {
	if m.cursor < 0 || m.cursor >= len(m.filter.shown) || m.filter.shown[m.cursor].row >= len(m.rows) {
		return wire.SessionRow{}, false
	}
	return m.rows[m.filter.shown[m.cursor].row], true
}
