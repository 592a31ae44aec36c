package files

import (
	"context"
	"errors"
	"path"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
)

// treeMode reports whether the tree is shown: an empty query, or a query
// whose first ranking is not in yet.
func (m *Model) treeMode() bool {
	return m.stdin == nil && (m.input.Value() == "" || m.rank.res == nil)
}

// rowCount is the number of rows in the list shown.
func (m *Model) rowCount() int {
	switch {
	case !m.treeMode() && m.rank.res == nil:
		return 0 // input: not ranked yet
	case !m.treeMode():
		return len(m.rank.res.res.Matches)
	case m.tree != nil:
		return len(m.tree.Rows())
	}
	return 0
}

// focused returns the path of the focused row.
func (m *Model) focused() (string, bool) {
	if m.cursor < 0 || m.cursor >= m.rowCount() {
		return "", false
	}
	if m.treeMode() {
		return m.tree.Rows()[m.cursor].Path, true
	}
	return m.rank.res.path(m.cursor), true
}

// Focused returns the path of the focused row ("" when the list is empty).
func (m *Model) Focused() string {
	p, _ := m.focused()
	return p
}

// Settled reports whether nothing is in flight: no scan, the ranking of
// the current query shown, the preview (if shown) loaded and coloured.
func (m *Model) Settled() bool {
	return !m.scan.running && !m.settling() && !m.preview.loading && !m.preview.colour.pending
}

// Rows returns the paths of every row of the list shown, top to bottom
// (for the ranked list: the ranking window, best first).
func (m *Model) Rows() []string {
	out := make([]string, m.rowCount())
	for i := range out {
		if m.treeMode() {
			out[i] = m.tree.Rows()[i].Path
		} else {
			out[i] = m.rank.res.path(i)
		}
	}
	return out
}

func (m *Model) move(d int) tea.Cmd {
	m.cursor += d
	return m.moved()
}

// moved keeps the cursor on a row and in view, widens the ranking window
// near its end, and schedules the focused row's preview.
func (m *Model) moved() tea.Cmd {
	n, h := m.rowCount(), m.listHeight()
	m.cursor = max(min(m.cursor, n-1), 0)
	if m.cursor < m.offset {
		m.offset = m.cursor
	}
	if m.cursor >= m.offset+h {
		m.offset = m.cursor - h + 1
	}
	m.offset = max(min(m.offset, n-h), 0)
	return tea.Batch(m.grow(), m.schedulePreview())
}

// expand opens the focused folder (listing it lazily when a truncated
// snapshot left it unexpanded), or steps into an open one.
func (m *Model) expand() tea.Cmd {
	if m.tree == nil || m.cursor >= len(m.tree.Rows()) {
		return nil
	}
	r := m.tree.Rows()[m.cursor]
	if !r.Dir {
		return nil
	}
	if r.Expanded {
		return m.move(1)
	}
	m.tree.Expand(r.Path)
	cmd := m.moved()
	if m.hasChildren(m.cursor) || !m.snap.truncated || !m.canList || m.Down() || m.lazy[r.Path] || m.following() {
		return cmd
	}
	return tea.Batch(cmd, m.lazyList(r.Path))
}

// collapse closes the focused folder, or focuses the parent folder.
func (m *Model) collapse() tea.Cmd {
	if m.tree == nil || m.cursor >= len(m.tree.Rows()) {
		return nil
	}
	r := m.tree.Rows()[m.cursor]
	if r.Dir && r.Expanded {
		m.tree.Collapse(r.Path)
		return m.moved()
	}
	if parent, ok := m.tree.Parent(r.Path); ok {
		m.cursor = m.tree.Find(parent)
	}
	return m.moved()
}

func (m *Model) hasChildren(i int) bool {
	rows := m.tree.Rows()
	return i+1 < len(rows) && strings.HasPrefix(rows[i+1].Path, rows[i].Path+"/")
}

// previewShown reports whether the preview pane is on screen.
func (m *Model) previewShown() bool {
	switch m.previewPref {
	case previewOn:
		return true
	case previewOff:
		return false
	}
	if m.stdin != nil && !m.stdin.paths {
		return false // lines that name no file: nothing to preview
	}
	return m.Width() >= previewMinWidth
}

// schedulePreview arranges for the focused row to be previewed once the
// focus has rested for previewDelay.
func (m *Model) schedulePreview() tea.Cmd {
	p, ok := m.focused()
	if !m.previewShown() || p == m.preview.path {
		return nil
	}
	m.preview.stop()
	m.preview = preview{path: p, target: p, rev: m.preview.rev + 1, title: p}
	switch {
	case !ok:
		return nil
	case m.stdin != nil && m.backend.Child() == 0:
		return m.previewInput(p)
	case m.stdin != nil:
		if m.preview.target, ok = projectPath(p); !ok {
			m.preview.note = noPreviewNote
			return nil
		}
		m.preview.title = m.preview.target
	}
	switch {
	case !m.canList:
		m.preview.note = "preview unavailable: this backend does not offer project.list and project.read"
		return nil
	case m.Down():
		m.preview.note = "preview unavailable: the backend is not running"
		return nil
	}
	m.preview.loading = true
	rev := m.preview.rev
	return tea.Tick(previewDelay, func(time.Time) tea.Msg { return previewTickMsg{rev} })
}

// walker returns a walker over the current generation seeded with the
// cached listings of p's folders (a copy: the Cmd must not share the map
// Update writes).
func (m *Model) walker(p string) *walker {
	known := map[string]*folder{}
	for dir := p; ; dir = path.Dir(dir) {
		if dir == "." {
			dir = ""
		}
		if f := m.folders[dir]; f != nil {
			known[dir] = f
		}
		if dir == "" {
			break
		}
	}
	return &walker{b: m.backend, gen: m.Gen(), known: known, fetched: map[string]*folder{}}
}

func (m *Model) handlePreviewTick(msg previewTickMsg) tea.Cmd {
	if msg.rev != m.preview.rev || !m.preview.loading {
		return nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	m.preview.cancel = cancel
	return previewCmd(ctx, m.walker(m.preview.target), m.epoch, msg.rev, m.preview.target)
}

func (m *Model) handlePreview(msg previewMsg) tea.Cmd {
	if msg.epoch != m.epoch {
		return nil // listings of an older generation
	}
	m.remember(msg.fetched)
	if msg.rev != m.preview.rev || errors.Is(msg.err, context.Canceled) {
		return nil
	}
	m.preview.fill(msg)
	return m.colourPreview()
}

// remember caches listings fetched for the current epoch.
func (m *Model) remember(fetched map[string]*folder) {
	for dir, f := range fetched {
		m.folders[dir] = f
	}
}

// lazyMsg is the listing of a folder a truncated snapshot left unexpanded.
type lazyMsg struct {
	epoch   int
	dir     string
	fetched map[string]*folder
	err     error
}

func (m *Model) lazyList(dir string) tea.Cmd {
	w, epoch := m.walker(dir), m.epoch
	m.lazy[dir] = true
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(context.Background(), scanTimeout)
		defer cancel()
		e, err := w.resolve(ctx, dir)
		if err == nil {
			_, err = w.folder(ctx, dir, e.ID)
		}
		return lazyMsg{epoch: epoch, dir: dir, fetched: w.fetched, err: err}
	}
}

func (m *Model) handleLazy(msg lazyMsg) tea.Cmd {
	if msg.epoch != m.epoch {
		return nil
	}
	m.remember(msg.fetched)
	if msg.err != nil {
		delete(m.lazy, msg.dir)
		return tui.ReportError(msg.err)
	}
	for _, e := range m.folders[msg.dir].entries {
		kind := wire.KindFile
		if e.Type == wire.TypeDir {
			kind = wire.KindDirectory
		}
		if m.dirs && kind != wire.KindDirectory {
			continue
		}
		m.extra = append(m.extra, wire.FileEntry{Path: path.Join(msg.dir, e.Name), Kind: kind})
	}
	if err := m.adopt(m.snap); err != nil {
		return tui.ReportError(err)
	}
	return m.moved()
}
