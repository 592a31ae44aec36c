package files

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/internal/display"
	"github.com/scoutdev/scout/tui/rank"
	"github.com/scoutdev/scout/tui/tree"
)

// A truncated snapshot is only the first frame: the page then follows
// project.index to the end of the tree in the background, one page per
// Cmd. Each page's Cmd asks for the next page as soon as it has its
// cursor (so the backend walks on meanwhile), merges the page into the
// snapshot (deduplicated against it, under the ceiling) and adds its
// files to the snapshot's ranker (rank.Ranker.Add), off the event loop,
// so Update only counts and asks for a new ranking: typing never waits
// for a page. The ranking of
// the query shown is redone over the larger set at most every
// rerankEvery, never cancelled by a page (only by typing), and keeps the
// focused path. The tree grows too: once the tree is shown and treeEvery
// has passed, a Cmd merges what came since the last build (the ranker's
// new files and the folders kept aside) into the tree's entries and builds
// the new tree, which takes over the expansion of the old one. Nothing
// else keeps the merged entries: a million files cost the ranker and,
// while it is shown, the tree.

const (
	// indexStepTimeout bounds one project.index call on our side (the
	// backend's step is 250 ms); it only catches a backend that stopped
	// answering.
	indexStepTimeout = 30 * time.Second
	// rerankEvery spaces the rankings that pages cause: often enough that
	// matches appear as the index grows, seldom enough that a ranking of a
	// million paths is not redone for every page.
	rerankEvery = 150 * time.Millisecond
	// treeEvery spaces the rebuilds of the tree while the index grows; a
	// rebuild that took longer spaces the next one by twice its time.
	treeEvery = 400 * time.Millisecond
	// maxIndexRetries bounds the retries of a step answered busy (a rescan
	// holds the backend's one scan slot for a moment).
	maxIndexRetries = 50
)

// indexing is the walk that extends the snapshot, and the growth it
// brings to the ranking and the tree.
type indexing struct {
	seq      int // the walk wanted; a new one starts over
	running  bool
	waiting  bool            // the walk starts once the query's first ranking is shown
	ctx      context.Context // the walk's calls; cancel ends them
	cancel   context.CancelFunc
	cursor   *string
	merge    *merger // owned by the page Cmd in flight
	complete bool    // the walk reached the end of the tree
	stopped  bool    // the ceiling stopped it
	err      string  // why it failed
	retries  int

	dirs     []tree.Entry    // merged folders the tree does not hold yet
	gone     map[string]bool // paths the tree holds and the walk found gone
	filesIn  int             // the ranker's first filesIn files are in the tree
	building bool            // a tree is being built
	next     time.Time       // no rebuild before this
	tick     bool            // a treeTickMsg is on its way
	dirty    bool            // pages arrived since the ranking shown began
	rankAt   time.Time       // when the last ranking was started
	rerank   bool            // a rerankMsg is on its way
}

// indexMsg is one page of walk seq of epoch, already merged: fresh are
// its entries the snapshot lacked, files how many of them were added to
// the ranker.
type indexMsg struct {
	seq, epoch int
	page       wire.ProjectIndexResult
	fresh      []wire.FileEntry
	files      int
	stopped    bool
	next       <-chan fetched // the next page, already asked for
	err        error
	// With the last page of a walk that did not list some of the
	// snapshot's paths (gone since): those paths, a ranker without them,
	// and the indexes in the old ranker of the paths it left out.
	gone    map[string]bool
	ranker  *rank.Ranker
	dropped []int
}

type indexRetryMsg struct{ seq, epoch int }

// treeMsg is a tree built from more entries.
type treeMsg struct {
	seq, epoch int
	tree       *tree.Tree
	took       time.Duration
	err        error
}

type treeTickMsg struct{ seq, epoch int }

type rerankMsg struct{ seq, epoch int }

// following reports whether the page follows (or followed to the end) the
// index of the snapshot shown: its folders fill in as the walk reaches
// them, so they are not listed lazily.
func (m *Model) following() bool {
	return m.idx.merge != nil
}

// indexingNow reports whether pages are still coming.
func (m *Model) indexingNow() bool {
	return m.following() && !m.idx.complete && !m.idx.stopped && m.idx.err == ""
}

// stopIndex abandons the walk: its late pages are dropped.
func (m *Model) stopIndex() {
	if m.idx.cancel != nil {
		m.idx.cancel()
	}
	m.idx = indexing{seq: m.idx.seq + 1}
}

// followIndex starts walking the index after a truncated snapshot s was
// adopted, when the backend offers project.index and the ceiling leaves
// room.
func (m *Model) followIndex(s *snapshot) tea.Cmd {
	m.stopIndex()
	if !s.truncated || !bridge.Negotiated(m.backend, wire.MethodProjectIndex) {
		return nil
	}
	m.idx.merge, m.idx.filesIn = newMerger(s.entries, m.maxIndexed), s.files
	if m.idx.merge.stopped {
		m.idx.stopped = true
		return nil
	}
	limitMemory() // the index will be most of the heap (memlimit.go)
	m.idx.ctx, m.idx.cancel = context.WithCancel(context.Background())
	if m.input.Value() != "" && m.rank.res == nil {
		m.idx.waiting = true // the query's first ranking goes first
		return m.Spin()
	}
	return tea.Batch(m.indexStep(m.fetch(nil)), m.Spin())
}

// firstRanked starts the walk that waited for the first ranking of the
// query (the first ranked frame is the snapshot's: the walk would compete
// with it for the processors).
func (m *Model) firstRanked() tea.Cmd {
	if !m.idx.waiting {
		return nil
	}
	m.idx.waiting = false
	return m.indexStep(m.fetch(nil))
}

// fetch asks for the page after cursor.
func (m *Model) fetch(cursor *string) <-chan fetched {
	return fetchPage(m.idx.ctx, m.backend, cursor, indexStepTimeout)
}

// indexStep waits for the page on ch, asks for the next one, merges the
// page and adds its files to the ranker before it returns.
func (m *Model) indexStep(ch <-chan fetched) tea.Cmd {
	m.idx.running = true
	b, ctx, seq, epoch, mg, snap := m.backend, m.idx.ctx, m.idx.seq, m.epoch, m.idx.merge, m.snap
	candidates := m.candidates
	return func() tea.Msg {
		got := <-ch
		page, err := got.page, got.err
		if err == nil && page.Generation != snap.gen {
			err = errStale // an invalidation is on its way
		}
		if err != nil {
			return indexMsg{seq: seq, epoch: epoch, err: err}
		}
		var next <-chan fetched
		if !page.Complete {
			next = fetchPage(ctx, b, page.Cursor, indexStepTimeout)
		}
		fresh := mg.merge(page.Entries)
		files := candidates(fresh)
		snap.ranker.Add(files)
		msg := indexMsg{seq: seq, epoch: epoch, page: page, fresh: fresh, files: len(files), stopped: mg.stopped, next: next}
		if page.Complete && !mg.stopped {
			// The index supersedes the snapshot (docs/protocol.md §5):
			// what it did not list is gone.
			if msg.gone = mg.unlisted(); msg.gone != nil {
				msg.ranker, msg.dropped = without(snap.ranker, msg.gone)
			}
		}
		return msg
	}
}

// supersede takes out of the page what the snapshot listed and the
// complete walk did not: a new snapshot holds the ranker without those
// paths (rankings of the old one are discarded as stale), the tree drops
// them at its next build, and a mark on one is taken back.
func (m *Model) supersede(msg indexMsg) {
	s := *m.snap
	s.ranker, s.files = msg.ranker, msg.ranker.Len()
	m.snap = &s
	m.idx.filesIn -= sort.SearchInts(msg.dropped, m.idx.filesIn) // those already in the tree
	m.idx.gone = msg.gone
	if len(m.marks) > 0 {
		m.marks = slices.DeleteFunc(m.marks, func(p string) bool { return msg.gone[p] })
		for p := range msg.gone {
			delete(m.marked, p)
		}
	}
}

// keepFolders appends the folders among fresh to dirs, for the tree, each
// path copied: a decoded page's paths share one buffer, which the ranker
// does not keep (it copies what it holds), and a folder's path alone
// would keep the whole page's.
func keepFolders(dirs []tree.Entry, fresh []wire.FileEntry) []tree.Entry {
	for _, e := range fresh {
		if e.Kind == wire.KindDirectory {
			dirs = append(dirs, tree.Entry{Path: strings.Clone(e.Path), Kind: tree.Dir})
		}
	}
	return dirs
}

// candidates are what the page ranks among entries: the files, or the
// folders in Dirs mode.
func (m *Model) candidates(entries []wire.FileEntry) []string {
	if m.dirs {
		return Folders(entries)
	}
	return Candidates(entries)
}

func (m *Model) handleIndex(msg indexMsg) tea.Cmd {
	if msg.seq != m.idx.seq || msg.epoch != m.epoch || m.snap == nil {
		return nil // a walk we no longer want
	}
	m.idx.running = false
	if msg.err != nil {
		return m.indexFailed(msg.err)
	}
	m.idx.retries = 0
	m.snap.files += msg.files
	m.idx.dirs = keepFolders(m.idx.dirs, msg.fresh)
	rerank := m.scheduleRerank
	if msg.ranker != nil {
		m.supersede(msg)
		rerank = m.startRank // at once: a ranking in flight ranks the old snapshot
	}
	cmds := []tea.Cmd{m.growTree(), rerank()}
	switch {
	case msg.stopped:
		m.idx.stopped = true
		m.idx.cancel() // the page asked for past the ceiling
	case msg.page.Complete:
		m.idx.complete = true
		m.idx.cancel()
	default:
		m.idx.cursor = msg.page.Cursor
		cmds = append(cmds, m.indexStep(msg.next))
	}
	return tea.Batch(cmds...)
}

// indexFailed retries a busy step (its cursor was not used up) and gives
// up on anything else, saying why; an invalidation starts everything over.
func (m *Model) indexFailed(err error) tea.Cmd {
	switch {
	case errors.Is(err, context.Canceled):
		return nil
	case bridge.Code(err) == wire.CodeBusy && m.idx.retries < maxIndexRetries:
		m.idx.retries++
		m.idx.running = true
		seq, epoch := m.idx.seq, m.epoch
		return tea.Tick(scanRetryDelay, func(time.Time) tea.Msg { return indexRetryMsg{seq, epoch} })
	case errors.Is(err, errStale) || bridge.Code(err) == wire.CodeStaleRevision:
		m.idx.err = "the workspace changed while it was indexed"
		return nil
	}
	m.idx.err = bridge.Describe(err)
	return tui.ReportError(err)
}

func (m *Model) handleIndexRetry(msg indexRetryMsg) tea.Cmd {
	if msg.seq != m.idx.seq || msg.epoch != m.epoch || !m.following() {
		return nil
	}
	return m.indexStep(m.fetch(m.idx.cursor))
}

// scheduleRerank ranks the query again over the larger set: at once when
// the last ranking began rerankEvery ago and none is in flight, else once
// the one in flight is in or the time has come.
func (m *Model) scheduleRerank() tea.Cmd {
	if m.input.Value() == "" || m.rank.res == nil {
		return nil // the tree is shown; the query's first ranking sees the new paths anyway
	}
	m.idx.dirty = true
	if m.rank.inflight || m.idx.rerank {
		return nil
	}
	if wait := time.Until(m.idx.rankAt.Add(rerankEvery)); wait > 0 {
		m.idx.rerank = true
		seq, epoch := m.idx.seq, m.epoch
		return tea.Tick(wait, func(time.Time) tea.Msg { return rerankMsg{seq, epoch} })
	}
	return m.rankAgain()
}

func (m *Model) handleRerank(msg rerankMsg) tea.Cmd {
	if msg.seq != m.idx.seq || msg.epoch != m.epoch {
		return nil
	}
	m.idx.rerank = false
	if !m.idx.dirty || m.rank.inflight || m.input.Value() == "" {
		return nil
	}
	return m.rankAgain()
}

// rankAgain ranks the current query over everything merged so far.
func (m *Model) rankAgain() tea.Cmd {
	m.idx.dirty = false
	m.idx.rankAt = time.Now()
	return m.startRank()
}

// ranked is told that the ranking shown is in: pages that came meanwhile
// ask for another.
func (m *Model) ranked() tea.Cmd {
	if m.idx.waiting {
		return m.firstRanked()
	}
	if !m.idx.dirty {
		return nil
	}
	return m.scheduleRerank()
}

// growTree builds the tree anew from the entries merged so far, off the
// event loop, when the tree is shown and treeEvery (or twice the last
// build) has passed since the last build.
func (m *Model) growTree() tea.Cmd {
	if m.snap == nil || m.tree == nil || m.idx.building || !m.treeMode() {
		return nil
	}
	files := m.snap.ranker.Len()
	if files == m.idx.filesIn && len(m.idx.dirs) == 0 && m.idx.gone == nil {
		return nil
	}
	if wait := time.Until(m.idx.next); wait > 0 && m.indexingNow() {
		if m.idx.tick {
			return nil
		}
		m.idx.tick = true
		seq, epoch := m.idx.seq, m.epoch
		return tea.Tick(wait, func(time.Time) tea.Msg { return treeTickMsg{seq, epoch} })
	}
	base, ranker, from, dirs, gone := m.tree.View(), m.snap.ranker, m.idx.filesIn, m.idx.dirs, m.idx.gone
	if m.dirs {
		from = files // the ranker's paths are the folders kept aside
	}
	m.idx.filesIn, m.idx.dirs, m.idx.gone, m.idx.building = files, nil, nil, true
	seq, epoch := m.idx.seq, m.epoch
	return func() tea.Msg {
		start := time.Now()
		add := dirs
		for i := from; i < files; i++ {
			add = append(add, tree.Entry{Path: ranker.Path(i), Kind: tree.File})
		}
		entries := mergeSorted(base, add)
		if gone != nil {
			entries = slices.DeleteFunc(entries, func(e tree.Entry) bool { return gone[e.Path] })
		}
		t, err := tree.New(entries)
		return treeMsg{seq: seq, epoch: epoch, tree: t, took: time.Since(start), err: err}
	}
}

func (m *Model) handleTreeTick(msg treeTickMsg) tea.Cmd {
	if msg.seq != m.idx.seq || msg.epoch != m.epoch {
		return nil
	}
	m.idx.tick = false
	return m.growTree()
}

func (m *Model) handleTree(msg treeMsg) tea.Cmd {
	if msg.seq != m.idx.seq || msg.epoch != m.epoch || m.tree == nil {
		return nil
	}
	m.idx.building = false
	if msg.err != nil {
		return tui.ReportError(msg.err)
	}
	m.idx.next = time.Now().Add(max(treeEvery, 2*msg.took))
	focus, _ := m.focused()
	msg.tree.KeepExpansion(m.tree)
	m.tree = msg.tree
	if m.treeMode() {
		if i := m.tree.Find(focus); i >= 0 {
			m.offset += i - m.cursor // the focused row stays where it was on screen
			m.cursor = i
		}
	}
	return tea.Batch(m.moved(), m.growTree())
}

// mergeSorted returns the entries of base (component order) and add (any
// order; sorted here) in component order, each path once.
func mergeSorted(base tree.View, add []tree.Entry) []tree.Entry {
	slices.SortFunc(add, func(a, b tree.Entry) int { return compareComponents(a.Path, b.Path) })
	out := make([]tree.Entry, 0, base.Len()+len(add))
	i, j := 0, 0
	for i < base.Len() || j < len(add) {
		if j == len(add) || (i < base.Len() && compareComponents(base.At(i).Path, add[j].Path) < 0) {
			out = append(out, base.At(i))
			i++
			continue
		}
		if i < base.Len() && base.At(i).Path == add[j].Path {
			i++ // the same path: keep one
		}
		out = append(out, add[j])
		j++
	}
	return out
}

// keepFocus keeps path focused, on the same line of the screen, after the
// ranking of the same query changed under it; when it left the window
// the cursor keeps its row.
func (m *Model) keepFocus(path string) {
	if path == "" {
		return
	}
	for i := range m.rank.res.res.Matches {
		if m.rank.res.path(i) == path {
			m.offset += i - m.cursor
			m.cursor = i
			return
		}
	}
}

// indexNotice says what the index is doing for a truncated snapshot:
// indexing (the count grows beside the query), stopped at the ceiling,
// failed, or nothing once the whole tree is in.
func (m *Model) indexNotice() string {
	var long, short string
	switch {
	case m.idx.complete:
		return ""
	case m.idx.stopped:
		long, short = "⚠ "+CeilingNote(m.maxIndexed), "⚠ stopped at the --max-indexed ceiling"
	case m.idx.err != "":
		long, short = "⚠ not every file is listed: indexing failed ("+m.idx.err+")", "⚠ indexing failed"
	default:
		long, short = "indexing the rest of the tree…", "indexing…"
	}
	if display.Width(long) > m.Width() {
		return short
	}
	return long
}
