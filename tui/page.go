package tui

import (
	"errors"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/tui/internal/page"
)

// Page is one tab of the picker. The root model owns the tab bar, the status
// line, help and the backend's lifecycle; a page owns everything between.
//
// A page receives every message that is not input (its own replies among
// them, so backend answers reach it while another tab is shown; it drops
// what is not its own), key presses and pastes only while it is the active
// tab,
// and a tea.WindowSizeMsg with the size of its own area. It also receives
// the bridge's InvalidatedMsg, DownMsg and RestartedMsg, and ShownMsg when
// it becomes the active tab; the page base the picker's pages embed
// (tui/internal/page) keeps what these and the size and colour messages
// say. It reports to the root with AcceptMsg, ErrMsg and RestartMsg.
type Page interface {
	// Title is the tab's label.
	Title() string
	// Init starts the page's work (first scan, first listing).
	Init() tea.Cmd
	// Update handles one message.
	Update(msg tea.Msg) (Page, tea.Cmd)
	// View renders the page into the size of its last WindowSizeMsg.
	View() string
	// Status is the page's part of the status line: counts, progress.
	Status() string
	// Keys are the page's bindings, for help.
	Keys() help.KeyMap
}

// ShownMsg tells a page that it became the active tab: at start for the
// tab shown first, then on every switch to it. A page whose work is costly
// and only of use when it is seen (session discovery reads every history)
// starts that work on its first ShownMsg rather than in Init. It is the
// page base's type (tui/internal/page), whose Observe turns the first
// into a FirstShownMsg.
type ShownMsg = page.ShownMsg

// KeyCapturer is implemented by a page that, at times, takes a key the
// root would otherwise handle: the Providers page takes Esc while a
// refresh runs, to cancel it instead of quitting. Help, when shown, still
// comes first.
type KeyCapturer interface {
	CapturesKey(msg tea.KeyPressMsg) bool
}

// Cursorer is implemented by a page that places the terminal's cursor
// (in its query line), in page coordinates.
type Cursorer interface {
	Cursor() (x, y int, ok bool)
}

// AcceptMsg ends the picker with Items chosen (none: nothing chosen, exit
// status 1).
type AcceptMsg struct {
	Items []string
}

// Accept returns a Cmd that ends the picker with items.
func Accept(items []string) tea.Cmd {
	return func() tea.Msg { return AcceptMsg{Items: items} }
}

// ErrMsg reports an error for the status line. Every error a page meets is
// reported, none is dropped.
type ErrMsg struct {
	Err error
}

// ErrDown is what a page reports when a key asks a backend that is not
// running. While the status line says why the child went down, that
// reason stays: it already says that R restarts it.
var ErrDown = errors.New("the backend is not running; press R to restart it")

// ReportError returns a Cmd that reports err.
func ReportError(err error) tea.Cmd {
	return func() tea.Msg { return ErrMsg{Err: err} }
}

// ResolvedMsg says that err, reported earlier, no longer holds (the work
// that failed was done again and succeeded): the status line stops
// showing it, if it is still the last error.
type ResolvedMsg struct {
	Err error
}

// Resolved returns a Cmd that says err no longer holds.
func Resolved(err error) tea.Cmd {
	return func() tea.Msg { return ResolvedMsg{Err: err} }
}

// RestartMsg asks the root to restart the backend child (the Providers
// page's R, or a page that met request_limit).
type RestartMsg struct{}

// RestartBackend returns a Cmd that asks for a restart.
func RestartBackend() tea.Cmd {
	return func() tea.Msg { return RestartMsg{} }
}

// Placeholder is a page that only shows a sentence (tests put it beside
// the page they drive).
type Placeholder struct {
	title, text   string
	width, height int
}

// NewPlaceholder returns a page titled title that shows text.
func NewPlaceholder(title, text string) *Placeholder {
	return &Placeholder{title: title, text: text}
}

// Title implements Page.
func (p *Placeholder) Title() string { return p.title }

// Init implements Page.
func (p *Placeholder) Init() tea.Cmd { return nil }

// Update implements Page.
func (p *Placeholder) Update(msg tea.Msg) (Page, tea.Cmd) {
	if ws, ok := msg.(tea.WindowSizeMsg); ok {
		p.width, p.height = ws.Width, ws.Height
	}
	return p, nil
}

// View implements Page.
func (p *Placeholder) View() string { return "\n  " + p.text }

// Status implements Page.
func (p *Placeholder) Status() string { return "" }

// Keys implements Page.
func (p *Placeholder) Keys() help.KeyMap { return noKeys{} }

type noKeys struct{}

func (noKeys) ShortHelp() []key.Binding  { return nil }
func (noKeys) FullHelp() [][]key.Binding { return nil }
