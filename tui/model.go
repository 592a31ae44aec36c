// Package tui is scout's Bubble Tea frontend: the root model with its tabs
// (one Page per tab, each in its own package: tui/files, tui/sessions and
// tui/providers), the status line (backend state,
// generation, the page's counts, the last error in plain words), help, and
// the backend child's lifecycle (a dead child is reported and R restarts
// it).
//
// Nothing in Update blocks: backend calls are tea.Cmds (package bridge),
// notifications arrive through one self-re-arming Cmd, and every reply
// carries the request or generation it belongs to so stale ones are
// dropped.
package tui

import (
	"errors"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/internal/display"
	"github.com/scoutdev/scout/tui/internal/page"
)

// State is the backend child's state as the status line shows it.
type State string

// Backend states.
const (
	StateReady      State = "ready"
	StateDown       State = "down"
	StateRestarting State = "restarting"
	// StateUnserved is a running child that serves nothing of the
	// workspace (a broken config.toml): R restarts it once that is fixed.
	StateUnserved State = "not serving"
)

// Outcome is how the picker ended.
type Outcome struct {
	// Cancelled is true after Esc or Ctrl-C (exit status 130).
	Cancelled bool
	// Items are the chosen items; none with Cancelled false means nothing
	// was chosen (exit status 1).
	Items []string
}

// Options configure the root model.
type Options struct {
	Backend bridge.Backend
	Pages   []Page
	// Active is the index of the tab shown first.
	Active int
	// Banner, when set, is a line shown under the tabs (`scout demo` says
	// what it is and what to try there). Terminals shorter than
	// bannerMinHeight keep that row for the page.
	Banner string
	// Diagnostics, when set, receives the backend child's stderr: its
	// diagnostics (a broken config.toml, say) are shown on the status line
	// until the child is restarted.
	Diagnostics *bridge.Diagnostics
}

// Model is the root model. Its page base keeps the terminal's size and
// colours and the workspace's generation; the child's state (ready, down,
// restarting) is its own.
type Model struct {
	page.Base
	backend bridge.Backend
	pages   []Page
	active  int
	banner  string
	keys    KeyMap
	styles  Styles
	help    help.Model

	showHelp bool
	helpOff  int // first line of help shown when it scrolls

	child   uint64
	state   State
	trust   string // the workspace's trust state, from initialize
	lastErr string
	diags   *bridge.Diagnostics
	note    string // the child's last diagnostic
	// unserved is the diagnostic of a child starting up that serves
	// nothing, held until the restart is done: it comes before the child
	// answers initialize, and the pages drop the old child's state on
	// RestartedMsg.
	unserved *bridge.DiagnosticMsg
	outcome  Outcome
	// quitting is set with the Quit that ends the picker: the last frame
	// is empty, so an inline picker leaves nothing behind.
	quitting bool
}

// New returns the root model.
func New(opts Options) Model {
	m := Model{
		Base:    page.New(opts.Backend),
		backend: opts.Backend,
		pages:   opts.Pages,
		active:  min(max(opts.Active, 0), len(opts.Pages)-1),
		banner:  opts.Banner,
		diags:   opts.Diagnostics,
		keys:    DefaultKeyMap(),
		help:    help.New(),
		child:   opts.Backend.Child(),
		state:   StateReady,
		trust:   opts.Backend.Init().Workspace.Trust,
		outcome: Outcome{Cancelled: true},
	}
	if len(m.pages) < 2 { // one tab: nothing to go to
		for _, b := range []*key.Binding{&m.keys.GoTo, &m.keys.Next, &m.keys.Prev} {
			b.SetEnabled(false)
		}
	}
	m.restyle()
	return m
}

// Outcome is how the picker ended (Cancelled until something was accepted).
func (m Model) Outcome() Outcome { return m.outcome }

// Active returns the page shown.
func (m Model) Active() Page { return m.pages[m.active] }

// Init asks the terminal for its background colour, starts listening to the
// backend and starts every page.
func (m Model) Init() tea.Cmd {
	cmds := []tea.Cmd{tea.RequestBackgroundColor, bridge.Listen(m.backend)}
	if m.diags != nil {
		cmds = append(cmds, bridge.ListenDiagnostics(m.diags))
	}
	for _, p := range m.pages {
		cmds = append(cmds, p.Init())
	}
	cmds = append(cmds, func() tea.Msg { return showMsg{} })
	return tea.Batch(cmds...)
}

// showMsg makes the root tell the active page that it is shown.
type showMsg struct{}

// show tells the active page that it is shown (tui.ShownMsg).
func (m Model) show() (Model, tea.Cmd) {
	var cmd tea.Cmd
	m.pages[m.active], cmd = m.pages[m.active].Update(ShownMsg{})
	return m, cmd
}

func (m *Model) restyle() {
	m.styles = DefaultStyles(m.IsDark(), m.NoColor())
	m.help.Styles = m.styles.Help
	m.keys.Restart.SetEnabled(m.state != StateReady)
}

// Update handles one message. The pages get the messages as they came:
// each page's base observes them itself. When the message changes the
// rows the status line takes (an error wrapped onto more of them), the
// pages are told their new size.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	h := m.pageHeight()
	next, cmd := m.update(msg)
	nm, ok := next.(Model)
	if _, resize := msg.(tea.WindowSizeMsg); !ok || resize || nm.Width() == 0 || nm.pageHeight() == h {
		return next, cmd
	}
	nm, size := nm.broadcast(tea.WindowSizeMsg{Width: nm.Width(), Height: nm.pageHeight()})
	return nm, tea.Batch(cmd, size)
}

func (m Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch ev := m.Observe(msg).(type) {
	case tea.KeyPressMsg:
		return m.handleKey(ev)
	case tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg:
		// Input, like keys: for the active page only. Help closes, so
		// what the paste changes is in view.
		m.showHelp = false
		var cmd tea.Cmd
		m.pages[m.active], cmd = m.pages[m.active].Update(msg)
		return m, cmd
	case tea.ModeReportMsg:
		// The renderer counts cells by grapheme clusters from this report
		// on (Bubble Tea's own test of it); the pages measure as it does.
		if ev.Mode == ansi.ModeUnicodeCore && (ev.Value == ansi.ModeReset || ev.Value == ansi.ModeSet || ev.Value == ansi.ModePermanentlySet) {
			display.SetMethod(ansi.GraphemeWidth)
		}
		return m, nil
	case tea.WindowSizeMsg:
		m.help.SetWidth(ev.Width)
		return m.broadcast(tea.WindowSizeMsg{Width: ev.Width, Height: m.pageHeight()})
	case page.RestyleMsg:
		m.restyle()
	case bridge.EventMsg:
		return m.handleEvent(ev)
	case bridge.RestartedMsg:
		return m.handleRestarted(ev)
	case bridge.DiagnosticMsg:
		return m.handleDiagnostic(ev)
	case AcceptMsg:
		m.outcome, m.quitting = Outcome{Items: ev.Items}, true
		return m, tea.Quit
	case ErrMsg:
		return m.handleErr(ev)
	case ResolvedMsg:
		if m.lastErr == bridge.Describe(ev.Err) {
			m.lastErr = ""
		}
		return m, nil
	case RestartMsg:
		if m.state == StateRestarting {
			return m, nil
		}
		return m.restart()
	case showMsg:
		return m.show()
	}
	return m.broadcast(msg)
}

// broadcast hands msg to every page.
func (m Model) broadcast(msg tea.Msg) (Model, tea.Cmd) {
	cmds := make([]tea.Cmd, 0, len(m.pages))
	for i, p := range m.pages {
		var cmd tea.Cmd
		m.pages[i], cmd = p.Update(msg)
		cmds = append(cmds, cmd)
	}
	return m, tea.Batch(cmds...)
}

func (m Model) handleKey(msg tea.KeyPressMsg) (tea.Model, tea.Cmd) {
	if c, ok := m.pages[m.active].(KeyCapturer); ok && !m.showHelp && c.CapturesKey(msg) {
		var cmd tea.Cmd
		m.pages[m.active], cmd = m.pages[m.active].Update(msg)
		return m, cmd
	}
	switch {
	case key.Matches(msg, m.keys.Quit):
		if m.showHelp && msg.String() == "esc" {
			m.showHelp = false
			return m, nil
		}
		m.outcome, m.quitting = Outcome{Cancelled: true}, true
		return m, tea.Quit
	case key.Matches(msg, m.keys.Help):
		m.showHelp, m.helpOff = !m.showHelp, 0
		return m, nil
	case key.Matches(msg, m.keys.Suspend):
		return m, func() tea.Msg { return suspendMsg{} } // Run's program suspends
	case key.Matches(msg, m.keys.Restart):
		if m.state == StateRestarting {
			return m, nil
		}
		return m.restart()
	case key.Matches(msg, m.keys.GoTo):
		n := int(msg.Code - '1')
		if n < 0 || n >= len(m.pages) || n == m.active {
			return m, nil
		}
		m.active = n
		return m.show()
	case key.Matches(msg, m.keys.Next):
		m.active = (m.active + 1) % len(m.pages)
		return m.show()
	case key.Matches(msg, m.keys.Prev):
		m.active = (m.active + len(m.pages) - 1) % len(m.pages)
		return m.show()
	}
	if m.showHelp {
		return m.handleHelpKey(msg), nil
	}
	var cmd tea.Cmd
	m.pages[m.active], cmd = m.pages[m.active].Update(msg)
	return m, cmd
}

func (m Model) restart() (Model, tea.Cmd) {
	m.state = StateRestarting
	m.lastErr, m.note, m.unserved = "", "", nil // the new child says its own
	m.restyle()
	return m, bridge.Restart(m.backend)
}

func (m Model) handleEvent(msg bridge.EventMsg) (tea.Model, tea.Cmd) {
	if msg.Closed {
		return m, nil
	}
	listen := bridge.Listen(m.backend)
	if msg.Child != m.child {
		return m, listen // an event of a child already replaced
	}
	var news tea.Msg
	switch {
	case msg.Exit != nil:
		m.state = StateDown
		m.lastErr = bridge.Describe(msg.Exit)
		m.restyle()
		news = bridge.DownMsg{Err: msg.Exit}
	case msg.Invalidated != nil:
		news = bridge.InvalidatedMsg{Generation: msg.Invalidated.Generation}
	default:
		return m, listen
	}
	if m.Observe(news) == nil {
		return m, listen // a generation already known
	}
	m, cmd := m.broadcast(news)
	return m, tea.Batch(listen, cmd)
}

func (m Model) handleRestarted(msg bridge.RestartedMsg) (tea.Model, tea.Cmd) {
	if msg.Err != nil {
		m.state = StateDown
		m.lastErr = "the backend could not be restarted: " + bridge.Describe(msg.Err)
		m.restyle()
		return m, nil
	}
	m.state, m.child = StateReady, msg.Child // Observe took its generation
	m.trust = msg.Init.Workspace.Trust
	m.lastErr = ""
	m.restyle()
	m, cmd := m.broadcast(msg)
	if d := m.unserved; d != nil { // it said so while it started
		m.unserved = nil
		m.state = StateUnserved
		m.restyle()
		var dcmd tea.Cmd
		m, dcmd = m.broadcast(*d)
		cmd = tea.Batch(cmd, dcmd)
	}
	return m, cmd
}

func (m Model) handleErr(msg ErrMsg) (tea.Model, tea.Cmd) {
	if errors.Is(msg.Err, ErrDown) && m.state == StateDown && m.lastErr != "" {
		return m, nil // the reason the child went down is kept
	}
	m.lastErr = bridge.Describe(msg.Err)
	if bridge.Code(msg.Err) == wire.CodeRequestLimit && m.state == StateReady {
		// docs/protocol.md §8: a child that has admitted its limit is replaced.
		return m.restart()
	}
	return m, nil
}

// chrome is the rows the root draws around the page: the tab bar and the
// status line, plus a line of short help and the banner on terminals tall
// enough for them.
func (m Model) chrome() int {
	n := 1 + len(m.statusLines())
	if m.showsShortHelp() {
		n++
	}
	if m.showsBanner() {
		n++
	}
	return n
}

func (m Model) showsShortHelp() bool { return m.Height() >= shortHelpMinHeight }

func (m Model) showsBanner() bool { return m.banner != "" && m.Height() >= bannerMinHeight }

// bannerMinHeight is the height from which the banner is shown.
const bannerMinHeight = 12

// shortHelpMinHeight is the height from which a line of short help is
// shown under the status line; shorter terminals keep every row for the
// list and show help on ? only.
const shortHelpMinHeight = 16

func (m Model) pageHeight() int { return max(m.Height()-m.chrome(), 1) }

// View draws the tab bar, the active page (or help), the status line and,
// when there is room, a line of short help.
func (m Model) View() tea.View {
	if m.quitting {
		v := tea.NewView("")
		v.AltScreen = true
		return v
	}
	var b strings.Builder
	b.WriteString(m.tabBar())
	b.WriteByte('\n')
	top := 1 // the page's first row
	if m.showsBanner() {
		b.WriteString(display.Truncate(m.styles.Banner.Render(m.banner), m.Width(), "…"))
		b.WriteByte('\n')
		top++
	}
	body := m.pages[m.active].View()
	if m.showHelp {
		body = m.helpView(m.Width(), m.pageHeight())
	}
	b.WriteString(fit(body, m.Width(), m.pageHeight()))
	b.WriteByte('\n')
	b.WriteString(strings.Join(m.statusLines(), "\n"))
	if m.showsShortHelp() {
		b.WriteByte('\n')
		b.WriteString(display.Truncate(m.help.ShortHelpView(m.helpKeys().ShortHelp()), m.Width(), "…"))
	}
	v := tea.NewView(b.String())
	if c, ok := m.pages[m.active].(Cursorer); ok && !m.showHelp {
		if x, y, ok := c.Cursor(); ok {
			v.Cursor = tea.NewCursor(x, y+top) // below the tab bar (and banner)
		}
	}
	v.AltScreen = true
	v.WindowTitle = "scout"
	return v
}

func (m Model) helpKeys() helpKeys { return helpKeys{root: m.keys, page: m.pages[m.active].Keys()} }

func (m Model) tabBar() string {
	parts := make([]string, len(m.pages))
	for i, p := range m.pages {
		st := m.styles.Tab
		if i == m.active {
			st = m.styles.ActiveTab
		}
		parts[i] = st.Render(p.Title())
	}
	return display.Truncate(strings.Join(parts, m.styles.TabGap.Render("│")), m.Width(), "…")
}

// fit cuts or pads s to exactly h lines of at most w cells, so a page can
// never push the status line off the screen.
func fit(s string, w, h int) string {
	lines := strings.Split(s, "\n")
	if len(lines) > h {
		lines = lines[:h]
	}
	for i, l := range lines {
		lines[i] = display.Truncate(l, w, "")
	}
	for len(lines) < h {
		lines = append(lines, "")
	}
	return strings.Join(lines, "\n")
}
