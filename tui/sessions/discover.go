package sessions

import (
	"context"
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/internal/display"
)

// pageTimeout bounds one session.discover call on our side. The backend
// returns within its 2,000 ms step bound; this only catches a backend that
// stopped answering.
const pageTimeout = 30 * time.Second

// A page answered busy (the backend still runs the discovery of a scan we
// abandoned) is asked again after busyDelay, up to maxBusyRetries times.
const (
	busyDelay      = 100 * time.Millisecond
	maxBusyRetries = 30
)

// maxAutoRestarts is how many times a stale_revision restarts discovery by
// itself before the page stops and asks the user (Ctrl-R): a store that
// keeps changing (an agent writing) would otherwise be rescanned forever.
const maxAutoRestarts = 1

// discovery is the scan in flight.
type discovery struct {
	seq          int // the scan whose pages are wanted
	running      bool
	cancel       context.CancelFunc
	ctx          context.Context
	progress     string // the latest page's progress word
	pages        int
	busy         int   // busy answers met in a row
	autoRestarts int   // automatic restarts since the last complete or Ctrl-R
	reported     error // the failure last reported to the status line, until a scan completes
	err          string
}

func (d *discovery) abandon() {
	if d.cancel != nil {
		d.cancel()
	}
	d.running = false
}

// pageMsg is one session.discover answer for scan seq.
type pageMsg struct {
	seq    int
	cursor *string // the cursor that was sent
	res    wire.DiscoverResult
	err    error
}

// retryMsg asks a page again after busy.
type retryMsg struct {
	seq    int
	cursor *string
}

// startDiscovery abandons any scan, discards its rows and starts a fresh
// one.
func (m *Model) startDiscovery() tea.Cmd {
	m.disc.abandon()
	m.discard()
	ctx, cancel := context.WithCancel(context.Background())
	m.disc = discovery{seq: m.disc.seq + 1, running: true, ctx: ctx, cancel: cancel, autoRestarts: m.disc.autoRestarts, reported: m.disc.reported}
	if !m.canScan {
		m.disc.abandon()
		m.disc.err = "This backend does not offer session discovery, so no session can be listed."
		return nil
	}
	return tea.Batch(m.fetch(nil), m.Spin())
}

// discard forgets every row: they were provisional, or are about to be
// replaced by a new scan.
func (m *Model) discard() {
	m.rows, m.order, m.notices, m.complete = nil, nil, wire.SessionNotices{}, false
	m.tagWidth = 0
	m.filter.narrow = narrowing{}
	m.filter.openWaits = false
	m.disc.err = ""
	// The result over no rows is known without ranking.
	m.dropRanking()
	m.show(rankMsg{query: m.input.Value()})
}

// fetch asks for the page after cursor (nil: the first).
func (m *Model) fetch(cursor *string) tea.Cmd {
	b, seq, scan := m.backend, m.disc.seq, m.disc.ctx
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(scan, pageTimeout)
		defer cancel()
		res, err := b.SessionDiscover(ctx, cursor)
		return pageMsg{seq: seq, cursor: cursor, res: res, err: err}
	}
}

func (m *Model) handlePage(msg pageMsg) tea.Cmd {
	if msg.seq != m.disc.seq || !m.disc.running {
		return nil // a scan we abandoned
	}
	if msg.err != nil {
		return m.failed(msg)
	}
	m.disc.busy = 0
	m.disc.pages++
	m.disc.progress = msg.res.Progress
	m.notices = msg.res.Notices // cumulative for the scan
	filtered := m.add(msg.res.Sessions)
	if msg.res.Complete {
		m.disc.running, m.complete = false, true
		if m.note == noteStillReading {
			m.note = ""
		}
		m.disc.autoRestarts = 0
		m.disc.cancel()
		if r := m.disc.reported; r != nil {
			// A discovery that failed has now completed: the status line
			// stops saying it stopped.
			m.disc.reported = nil
			return tea.Batch(filtered, tui.Resolved(r))
		}
		return filtered
	}
	if msg.res.Cursor == nil {
		// Not complete and no cursor: the backend broke its contract.
		m.disc.abandon()
		m.discard()
		m.disc.err = "The backend ended discovery without completing it; press Ctrl-R to read the sessions again."
		return nil
	}
	return tea.Batch(filtered, m.fetch(msg.res.Cursor)) // empty pages included
}

// add appends a page's rows (kept in arrival order; shown newest first,
// session.list's order) and filters again.
func (m *Model) add(rows []wire.SessionRow) tea.Cmd {
	if len(rows) == 0 {
		return nil
	}
	for _, r := range rows {
		r.Title = display.Clean(r.Title)
		m.rows = append(m.rows, r)
		m.tagWidth = max(m.tagWidth, len(agentTag(rowAgent(r)))+1)
	}
	m.sortOrder()
	return m.refilter()
}

func (m *Model) handleRetry(msg retryMsg) tea.Cmd {
	if msg.seq != m.disc.seq || !m.disc.running {
		return nil
	}
	return m.fetch(msg.cursor)
}

// failed handles a discovery error: the rows go (they were provisional),
// and the page restarts, retries or says what happened.
func (m *Model) failed(msg pageMsg) tea.Cmd {
	err := msg.err
	if errors.Is(err, context.Canceled) {
		return nil
	}
	code := bridge.Code(err)
	if code == wire.CodeBusy && m.disc.busy < maxBusyRetries {
		// Answered at admission: the cursor was not used and stays live.
		m.disc.busy++
		seq, cursor := m.disc.seq, msg.cursor
		return tea.Tick(busyDelay, func(time.Time) tea.Msg { return retryMsg{seq: seq, cursor: cursor} })
	}
	m.disc.abandon()
	m.discard()
	switch {
	case code == wire.CodeStaleRevision && m.disc.autoRestarts < maxAutoRestarts:
		m.disc.autoRestarts++
		m.note, m.noteBad = "The sessions changed while they were being read, so the rows found so far were discarded and discovery started again.", false
		return m.startDiscovery()
	case code == wire.CodeRequestLimit:
		// The root restarts the child; RestartedMsg starts discovery.
		m.disc.err = "The backend reached its request limit; it is being restarted and the sessions are read again."
		return tui.ReportError(err)
	}
	m.disc.err = discoveryError(err, m.unserved)
	if m.note != "" && !m.noteBad {
		m.note = "" // the restart it told of has failed too: the error says what now
	}
	m.disc.reported = bridge.Explain(err, firstSentence(m.disc.err))
	return tui.ReportError(m.disc.reported)
}

// discoveryError says what went wrong with discovery and what to do;
// unserved is why the backend serves nothing, when it said so (then the
// stores are unavailable for that reason, not for their own).
func discoveryError(err error, unserved string) string {
	switch bridge.Code(err) {
	case wire.CodeStaleRevision:
		return "The sessions kept changing while they were read (an agent is writing?), so discovery stopped. Press Ctrl-R to try again."
	case wire.CodeDiscoveryUnavailable:
		if unserved != "" {
			return "No session can be listed: " + unserved + ". Fix it, then press R to restart the backend."
		}
		return "The session store in scout's home is unsafe or unreadable (a symlink, not a folder, or not readable), so no session can be listed. Fix its sessions folder, then press Ctrl-R."
	case wire.CodeDiscoveryRecordBytes:
		return "A session history holds a record over 8 MiB, so discovery stopped. Archive or remove that history, then press Ctrl-R."
	case wire.CodeDiscoveryPageBytes:
		return "A session's row is too large to be sent (a title over 32 KiB), so discovery stopped. Archive or remove that history, then press Ctrl-R."
	case wire.CodeInvalidCursor:
		return "The backend did not recognise the scan's cursor. Press Ctrl-R to read the sessions again."
	case wire.CodeOperationCancelled:
		return "The backend cancelled discovery. Press Ctrl-R to read the sessions again."
	case wire.CodeUnsupportedCapability:
		return "This backend does not offer session discovery, so no session can be listed."
	case wire.CodeBusy:
		return "The backend stayed busy with an earlier discovery. Press Ctrl-R to try again."
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return "The backend did not answer in time. Press Ctrl-R to try again."
	}
	return display.Capitalize(bridge.Describe(err)) + ". Press Ctrl-R to try again."
}

// progressText is a progress word in plain language: why the backend
// paused before giving more rows.
func progressText(word string) string {
	switch word {
	case "":
		return "looking for sessions…"
	case wire.ProgressDirectoryWork:
		return "listing the session store…"
	case wire.ProgressHistoryWork:
		return "reading histories…"
	case wire.ProgressRecordWork:
		return "reading a long record…"
	case wire.ProgressByteWork:
		return "reading large histories…"
	case wire.ProgressInventoryValidation:
		return "checking nothing changed…"
	case wire.ProgressDeadline:
		return "still reading (slow storage)…"
	case wire.ProgressPageEntries:
		return "receiving more sessions…"
	case wire.ProgressPageBytes:
		return "receiving more sessions (long titles)…"
	case wire.ProgressComplete:
		return "complete"
	}
	return "reading (" + word + ")…"
}

func firstSentence(s string) string {
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, ".")
	return display.Lower(s)
}
