package files

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/tree"
)

// scanTimeout bounds one project.files call on our side. The backend gives
// up at its own 2,500 ms deadline; this only catches a backend that stopped
// answering.
const scanTimeout = 30 * time.Second

// A scan answered busy is retried after scanRetryDelay, up to
// maxScanRetries times: the backend runs one scan at a time and keeps the
// slot until a cancelled scan's worker has exited (docs/protocol.md §5), which
// is what a rescan right after an invalidation meets.
const (
	scanRetryDelay = 100 * time.Millisecond
	maxScanRetries = 30
)

// scanState is the scan in flight.
type scanState struct {
	seq     int // the scan whose report is wanted
	running bool
	retries int
	cancel  context.CancelFunc
	err     string // why the last scan failed
}

// scanMsg is a project.files answer for scan seq of epoch, with the
// snapshot made of it (its ranker is built in the Cmd, off the event
// loop).
type scanMsg struct {
	seq, epoch int
	snap       *snapshot
	err        error
}

// scanRetryMsg retries a busy scan.
type scanRetryMsg struct{ seq, epoch int }

// startScan abandons any scan in flight and starts a new one.
func (m *Model) startScan() tea.Cmd {
	if m.scan.cancel != nil {
		m.scan.cancel()
	}
	m.scan = scanState{seq: m.scan.seq + 1}
	return tea.Batch(m.runScan(), m.Spin())
}

func (m *Model) runScan() tea.Cmd {
	ctx, cancel := context.WithTimeout(context.Background(), scanTimeout)
	m.scan.running, m.scan.cancel = true, cancel
	b, seq, epoch, dirs := m.backend, m.scan.seq, m.epoch, m.dirs
	return func() tea.Msg {
		defer cancel()
		res, err := b.ProjectFiles(ctx)
		if err != nil {
			return scanMsg{seq: seq, epoch: epoch, err: err}
		}
		return scanMsg{seq: seq, epoch: epoch, snap: newSnapshot(res, dirs)}
	}
}

func (m *Model) handleScan(msg scanMsg) tea.Cmd {
	if msg.seq != m.scan.seq || msg.epoch != m.epoch {
		return nil // a scan we no longer want
	}
	m.scan.running = false
	if msg.err != nil {
		return m.scanFailed(msg.err)
	}
	if msg.snap.gen < m.Gen() {
		// A report of an older generation, written before the policy
		// change we already know of: discard it and scan again.
		return m.startScan()
	}
	if m.Advance(msg.snap.gen) {
		// The policy changed and this report is the first news of it.
		m.dropListings()
	}
	m.scan.err = ""
	if err := m.adopt(msg.snap); err != nil {
		return tui.ReportError(err)
	}
	return tea.Batch(m.startRank(), m.settled(), m.moved(), m.followIndex(msg.snap))
}

func (m *Model) scanFailed(err error) tea.Cmd {
	if errors.Is(err, context.Canceled) {
		return nil
	}
	if bridge.Code(err) == wire.CodeBusy && m.scan.retries < maxScanRetries {
		m.scan.retries++
		m.scan.running = true
		seq, epoch := m.scan.seq, m.epoch
		return tea.Tick(scanRetryDelay, func(time.Time) tea.Msg { return scanRetryMsg{seq, epoch} })
	}
	m.scan.err = bridge.Describe(err)
	cmds := []tea.Cmd{tui.ReportError(err)}
	if m.acceptPending && m.snap == nil {
		m.acceptPending = false
		cmds = append(cmds, tui.Accept(nil))
	}
	return tea.Batch(cmds...)
}

// adopt makes s the snapshot shown. Open folders are kept when s is of
// the same generation as the snapshot it replaces; the focused tree row is
// kept by path.
func (m *Model) adopt(s *snapshot) error {
	focus, _ := m.focused()
	entries := s.tree
	if len(m.extra) > 0 {
		entries = treeEntries(m.withExtra(s.entries))
	}
	var err error
	if m.tree != nil && m.snap != nil && m.snap.gen == s.gen {
		err = m.tree.Rebuild(entries)
	} else {
		var t *tree.Tree
		if t, err = tree.New(entries); err == nil {
			m.tree = t
		}
	}
	if err != nil {
		return fmt.Errorf("the snapshot cannot be shown as a tree: %w", err)
	}
	m.snap = s
	if m.treeMode() {
		if i := m.tree.Find(focus); i >= 0 {
			m.cursor = i
		}
	}
	return nil
}

// withExtra returns entries plus those of lazily listed folders, in
// component order.
func (m *Model) withExtra(entries []wire.FileEntry) []wire.FileEntry {
	if len(m.extra) == 0 {
		return entries
	}
	seen := make(map[string]bool, len(entries))
	all := slices.Clone(entries)
	for _, e := range all {
		seen[e.Path] = true
	}
	for _, e := range m.extra {
		if !seen[e.Path] {
			all = append(all, e)
			seen[e.Path] = true
		}
	}
	slices.SortFunc(all, func(a, b wire.FileEntry) int { return compareComponents(a.Path, b.Path) })
	return all
}

// compareComponents orders paths as project.files does: by their lists of
// components, each compared by bytes.
func compareComponents(a, b string) int {
	for {
		ai, bi := strings.IndexByte(a, '/'), strings.IndexByte(b, '/')
		ac, bc := a, b
		if ai >= 0 {
			ac = a[:ai]
		}
		if bi >= 0 {
			bc = b[:bi]
		}
		if c := strings.Compare(ac, bc); c != 0 {
			return c
		}
		switch {
		case ai < 0 && bi < 0:
			return 0
		case ai < 0:
			return -1
		case bi < 0:
			return 1
		}
		a, b = a[ai+1:], b[bi+1:]
	}
}

// dropListings forgets every listing, id and preview of an older
// generation.
func (m *Model) dropListings() {
	m.preview.stop()
	m.epoch++
	m.folders, m.lazy, m.extra = map[string]*folder{}, map[string]bool{}, nil
	m.preview = preview{}
}
