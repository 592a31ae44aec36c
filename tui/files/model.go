// Package files is the Files page of the picker: a query line over either
// the snapshot's folder tree (empty query) or the files ranked for the
// query (tui/rank), with matched characters highlighted, multi-selection,
// a preview pane fed by project.list and project.read, and rescans on
// demand and on project_files.invalidated.
//
// Typing never waits: the query line updates at once, ranking runs in a
// Cmd tagged with a revision (stale rankings are cancelled and dropped),
// and every backend reply carries the scan, focus revision or epoch it
// belongs to, so a late reply of an older request or generation is
// ignored.
package files

import (
	"context"
	"strings"

	"charm.land/bubbles/v2/help"
	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/spinner"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/internal/page"
	"github.com/scoutdev/scout/tui/tree"
)

// Options configure the Files page.
type Options struct {
	Backend bridge.Backend
	// Query is the query the page starts with.
	Query string
	// Multi lets Tab mark several files.
	Multi bool
	// Lines, when set, are the candidates instead of the project's files
	// (the picker over standard input): no scan, no tree; Backend is then
	// normally a bridge.Lazy, started for the first preview of a line
	// that names a file of the project.
	Lines *Lines
	// Dirs makes the project's folders the candidates instead of its
	// files (Alt-C), and the tree shows folders only.
	Dirs bool
	// MaxIndexed is the ceiling on the entries held when a truncated
	// snapshot is extended by project.index (--max-indexed): 0 means
	// DefaultMaxIndexed, a negative value the snapshot alone.
	MaxIndexed int
}

// Model is the Files page.
type Model struct {
	page.Base
	backend bridge.Backend
	keys    KeyMap
	styles  Styles
	paints  rowPaints
	input   textinput.Model
	multi   bool
	dirs    bool        // folders are the candidates
	stdin   *stdinState // the candidates are lines of input

	previewPref previewPref

	// epoch counts clears (invalidation, restart): replies of listings and
	// previews made in an earlier epoch are dropped.
	epoch   int
	canList bool // project.list and project.read were negotiated
	// unserved says why the backend serves nothing of the workspace (a
	// broken config.toml), so the empty list is not taken for a project.
	unserved string

	scan    scanState
	snap    *snapshot
	tree    *tree.Tree
	folders map[string]*folder // project.list cache for this epoch
	lazy    map[string]bool    // folders of a truncated snapshot listed lazily
	extra   []wire.FileEntry   // entries those listings added

	idx        indexing // the walk extending a truncated snapshot (indexing.go)
	maxIndexed int

	rank          rankState
	cursor        int
	offset        int
	marks         []string
	marked        map[string]bool
	acceptPending bool

	preview preview
}

// New returns the Files page.
func New(opts Options) *Model {
	in := page.QueryInput("type to search", opts.Query)
	m := &Model{
		Base:    page.New(opts.Backend),
		backend: opts.Backend,
		keys:    DefaultKeyMap(opts.Multi),
		input:   in,
		multi:   opts.Multi,
		dirs:    opts.Dirs,
		canList: bridge.Negotiated(opts.Backend, wire.MethodProjectList, wire.MethodProjectRead),
		folders: map[string]*folder{},
		lazy:    map[string]bool{},
		marked:  map[string]bool{},
		rank:    rankState{k: rankWindow},
	}
	if opts.Lines != nil {
		m.stdin = &stdinState{src: opts.Lines}
	}
	switch {
	case opts.MaxIndexed == 0:
		m.maxIndexed = DefaultMaxIndexed
	case opts.MaxIndexed > 0:
		m.maxIndexed = opts.MaxIndexed
	}
	m.restyle()
	return m
}

func (m *Model) restyle() {
	m.styles = DefaultStyles(m.IsDark(), m.NoColor())
	m.paints = m.styles.paints()
	m.input.SetStyles(m.styles.Input)
}

// Title implements tui.Page.
func (m *Model) Title() string {
	if m.stdin != nil {
		return "Lines"
	}
	return "Files"
}

// Keys implements tui.Page. The tree's keys are left out while a query
// is ranked (there →, ←, Home and End move in the query line) and while
// the backend serves nothing; Ctrl-R while it is down (R restarts it).
func (m *Model) Keys() help.KeyMap {
	k := m.keys
	tree := m.treeMode() && m.unserved == ""
	for _, b := range []*key.Binding{&k.Expand, &k.Collapse, &k.Top, &k.Bottom} {
		b.SetEnabled(tree)
	}
	for _, b := range []*key.Binding{&k.PreviewUp, &k.PreviewDown, &k.PreviewPageUp, &k.PreviewPageDown} {
		b.SetEnabled(m.previewShown())
	}
	k.Rescan.SetEnabled(m.stdin == nil && !m.Down()) // input is read once
	return k
}

// Init implements tui.Page: the first scan, or the first lines of input.
func (m *Model) Init() tea.Cmd {
	if m.stdin != nil {
		return tea.Batch(m.listenLines(), m.Spin())
	}
	return m.startScan()
}

// Query returns the query line's text.
func (m *Model) Query() string { return m.input.Value() }

// Update implements tui.Page.
func (m *Model) Update(msg tea.Msg) (tui.Page, tea.Cmd) {
	switch msg := m.Observe(msg).(type) {
	case tea.KeyPressMsg:
		return m, m.handleKey(msg)
	case tea.PasteMsg:
		return m, m.edit(msg)
	case tea.WindowSizeMsg:
		m.input.SetWidth(page.QueryWidth(m.Width(), m.input.Prompt, countWidth))
		return m, m.moved()
	case page.RestyleMsg:
		m.restyle()
		return m, m.colourPreview()
	case spinner.TickMsg:
		return m, m.Turn(msg, m.scan.running || m.reading() || m.indexingNow())
	case scanMsg:
		return m, m.handleScan(msg)
	case scanRetryMsg:
		if msg.seq == m.scan.seq && msg.epoch == m.epoch {
			return m, m.runScan()
		}
	case rankMsg:
		return m, m.handleRank(msg)
	case linesMsg:
		return m, m.handleLines(msg)
	case addedMsg:
		return m, m.handleAdded(msg)
	case indexMsg:
		return m, m.handleIndex(msg)
	case indexRetryMsg:
		return m, m.handleIndexRetry(msg)
	case rerankMsg:
		return m, m.handleRerank(msg)
	case treeMsg:
		return m, m.handleTree(msg)
	case treeTickMsg:
		return m, m.handleTreeTick(msg)
	case previewTickMsg:
		return m, m.handlePreviewTick(msg)
	case previewMsg:
		return m, m.handlePreview(msg)
	case colourMsg:
		m.handleColour(msg)
	case lazyMsg:
		return m, m.handleLazy(msg)
	case bridge.InvalidatedMsg: // of a newer generation
		return m, m.reset()
	case bridge.RestartedMsg:
		m.unserved = ""
		m.canList = bridge.Negotiated(m.backend, wire.MethodProjectList, wire.MethodProjectRead)
		return m, m.reset()
	case bridge.DownMsg:
		m.cancelWork()
	case bridge.DiagnosticMsg:
		if msg.Unserved {
			m.unserved = strings.TrimSuffix(msg.Text, wire.UnservedNote)
		}
	}
	return m, nil
}

// reset clears every snapshot, listing, id, mark and preview and rescans;
// the query stays.
func (m *Model) reset() tea.Cmd {
	if m.stdin != nil {
		// The lines stay: only what came from the backend goes.
		m.stdin.starting = false
		m.dropListings()
		return m.moved()
	}
	m.cancelWork()
	m.epoch++
	m.snap, m.tree = nil, nil
	m.folders, m.lazy, m.extra = map[string]*folder{}, map[string]bool{}, nil
	m.rank.res = nil
	m.rank.rev++
	m.marks, m.marked = nil, map[string]bool{}
	m.cursor, m.offset = 0, 0
	m.preview = preview{}
	return m.startScan()
}

// cancelWork abandons the scan, index walk, ranking and preview in
// flight.
func (m *Model) cancelWork() {
	for _, c := range []context.CancelFunc{m.scan.cancel, m.rank.cancel} {
		if c != nil {
			c()
		}
	}
	m.preview.stop()
	m.scan.running, m.rank.inflight = false, false
	m.stopIndex()
}

func (m *Model) handleKey(msg tea.KeyPressMsg) tea.Cmd {
	k := m.keys
	switch {
	case key.Matches(msg, k.Accept):
		return m.accept()
	case key.Matches(msg, k.Rescan):
		return m.rescan()
	case key.Matches(msg, k.Up):
		return m.move(-1)
	case key.Matches(msg, k.Down):
		return m.move(1)
	case key.Matches(msg, k.PageUp):
		return m.move(-m.listHeight())
	case key.Matches(msg, k.PageDown):
		return m.move(m.listHeight())
	case key.Matches(msg, k.Top) && m.treeMode():
		return m.move(-m.rowCount())
	case key.Matches(msg, k.Bottom) && m.treeMode():
		return m.move(m.rowCount())
	case key.Matches(msg, k.Mark):
		m.toggleMark()
		return m.move(1)
	case key.Matches(msg, k.MarkUp):
		m.toggleMark()
		return m.move(-1)
	case key.Matches(msg, k.PreviewUp, k.PreviewDown, k.PreviewPageUp, k.PreviewPageDown):
		m.scrollPreview(previewStep(k, msg, m.previewBody()))
		return nil
	case key.Matches(msg, k.Preview):
		// From now on as asked, whatever the width.
		if m.previewShown() {
			m.previewPref = previewOff
		} else {
			m.previewPref = previewOn
		}
		return m.moved()
	case m.treeMode() && key.Matches(msg, k.Expand):
		return m.expand()
	case m.treeMode() && key.Matches(msg, k.Collapse):
		return m.collapse()
	}
	return m.edit(msg)
}

// edit hands msg (a key, a paste) to the query line and starts over when
// the query changed.
func (m *Model) edit(msg tea.Msg) tea.Cmd {
	before := m.input.Value()
	var cmd tea.Cmd
	m.input, cmd = m.input.Update(msg)
	if m.input.Value() == before {
		return cmd
	}
	return tea.Batch(cmd, m.queryChanged())
}

// rescan is Ctrl-R: a fresh snapshot and fresh listings, keeping the
// rows shown until the snapshot arrives.
func (m *Model) rescan() tea.Cmd {
	if m.stdin != nil {
		return nil // input is read once
	}
	if m.Down() {
		return tui.ReportError(tui.ErrDown)
	}
	m.dropListings()
	return tea.Batch(m.startScan(), m.moved())
}

// accept is Enter: the marked files, else the focused row. While the
// snapshot or the ranking of the current query is still on its way, the
// answer waits for it, so a query typed fast and accepted at once picks
// what that query ranks first.
func (m *Model) accept() tea.Cmd {
	if m.multi && len(m.marks) > 0 {
		return tui.Accept(append([]string(nil), m.marks...))
	}
	if m.settling() {
		m.acceptPending = true
		return nil
	}
	if p, ok := m.focused(); ok {
		return tui.Accept([]string{p})
	}
	return tui.Accept(nil)
}

// settling reports whether the rows shown are about to change: no snapshot
// yet while a scan runs, or the query's ranking not in yet.
func (m *Model) settling() bool {
	if m.snap == nil {
		return m.scan.running || m.reading()
	}
	q := m.input.Value()
	ranks := q != "" || m.stdin != nil // input is ranked under every query
	return ranks && (m.rank.res == nil || m.rank.res.query != q || m.rank.res.snap != m.snap)
}

// settled resolves a pending accept once the rows are final.
func (m *Model) settled() tea.Cmd {
	if !m.acceptPending || m.settling() {
		return nil
	}
	m.acceptPending = false
	return m.accept()
}

func (m *Model) toggleMark() {
	p, ok := m.focused()
	if !ok {
		return
	}
	if m.marked[p] {
		delete(m.marked, p)
		for i, q := range m.marks {
			if q == p {
				m.marks = append(m.marks[:i], m.marks[i+1:]...)
				break
			}
		}
		return
	}
	m.marked[p] = true
	m.marks = append(m.marks, p)
}

// Marked returns the marked paths in the order they were marked.
func (m *Model) Marked() []string { return append([]string(nil), m.marks...) }
