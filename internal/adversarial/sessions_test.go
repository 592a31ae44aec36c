package adversarial

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/leakscan"
	"github.com/scoutdev/scout/internal/scouttest"
)

var sessionCaps = []string{wire.MethodSessionList, wire.MethodSessionDiscover, wire.MethodSessionOpen, wire.MethodSessionNew, wire.MethodCancel}

// store is a backend home with a session store for workspace ws, and the
// histories' contents as canaries.
type store struct {
	home, dir, ws, tok string
}

// newStore writes n histories of this workspace (titles and texts hold the
// token, which may appear only in titles: the row's title is the user's
// text), a subagent history, an archive and a lock.
func newStore(t *testing.T, n int) store {
	t.Helper()
	home, dir := sessionstest.Home(t)
	s := store{home: home, dir: dir, ws: t.TempDir(), tok: token(t)}
	hs := sessionstest.Many(n, "h", s.ws, sessionstest.History{UserText: "plain user text"})
	hs = append(hs, sessionstest.History{ID: "h-sub", Name: "h-0000.subagent-1.jsonl", Cwds: []string{s.ws}, UserText: "sub " + s.tok})
	sessionstest.MustWrite(t, dir, hs...)
	must(t, os.MkdirAll(filepath.Join(dir, "archive"), 0o755))
	sessionstest.MustWrite(t, filepath.Join(dir, "archive"), sessionstest.History{ID: "old", Cwds: []string{s.ws}, UserText: "archived " + s.tok})
	must(t, os.WriteFile(filepath.Join(dir, "h-0001.lock"), lockBytes(time.Now()), 0o644))
	return s
}

func lockBytes(at time.Time) []byte {
	return fmt.Appendf(nil, `{"pid":4242,"renewed_at":%q}`, at.UTC().Format(time.RFC3339Nano))
}

func (s store) start(t *testing.T) *scouttest.Proc {
	t.Helper()
	p := start(t, scouttest.Options{Dir: s.ws, Env: []string{"SCOUT_HOME=" + s.home}},
		leakscan.Canaries{Paths: []string{s.home}, Contents: []string{s.tok}})
	p.Initialize(sessionCaps...)
	return p
}

func (s store) path(name string) string { return filepath.Join(s.dir, name) }

// discoverPage sends one session.discover (nil cursor: a fresh scan).
func discoverPage(p *scouttest.Proc, cursor *string) scouttest.Msg {
	return p.Call(wire.MethodSessionDiscover, map[string]any{"cursor": cursor})
}

var sessionID = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// checkRows checks rows a page carries: safe ids, never twice in one scan,
// this workspace's, sanitized titles, the protocol's times.
func checkRows(t *testing.T, rows []wire.SessionRow, seen map[string]bool) {
	t.Helper()
	for _, r := range rows {
		if !sessionID.MatchString(r.ID) || seen[r.ID] {
			t.Errorf("row id %q (seen before: %v)", r.ID, seen[r.ID])
		}
		seen[r.ID] = true
		if r.Cwd != wire.CwdVerified || r.Records < 1 || len(r.CreatedAt) != len("2026-01-02T03:04:05.000Z") {
			t.Errorf("row %+v", r)
		}
		for _, c := range r.Title {
			if c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f) || c == 0x202e {
				t.Errorf("title %q keeps %U", r.Title, c)
			}
		}
	}
}

// followScan runs one scan from a fresh start. It returns the rows, the
// last message (complete or the error), and when the first response came
// and the last request was sent.
func followScan(t *testing.T, p *scouttest.Proc) (rows []wire.SessionRow, last scouttest.Msg, first, lastSent time.Time) {
	t.Helper()
	seen := map[string]bool{}
	var cursor *string
	for i := 0; ; i++ {
		lastSent = time.Now()
		m := discoverPage(p, cursor)
		if i == 0 {
			first = m.At
		}
		if m.Error != nil {
			return rows, m, first, lastSent
		}
		var res wire.DiscoverResult
		m.Decode(t, &res)
		checkRows(t, res.Sessions, seen)
		rows = append(rows, res.Sessions...)
		if res.Complete {
			if res.Cursor != nil || res.Progress != wire.ProgressComplete || res.Recovery != wire.RecoveryNone {
				t.Errorf("complete page %s", m.Raw)
			}
			return rows, m, first, lastSent
		}
		if res.Cursor == nil || res.Recovery != wire.RecoveryContinueCursor {
			t.Fatalf("incomplete page without a cursor: %s", m.Raw)
		}
		cursor = res.Cursor
	}
}

// TestDiscoverStoreChangesMidScan changes the store in one way after the
// first page of a three-page scan. A change of the inventory must end the
// scan in stale_revision, never complete:true, and its cursor stays
// stale; what is no change (a lock renewed in place, a subagent history
// or an archive growing) must let it complete with every row.
func TestDiscoverStoreChangesMidScan(t *testing.T) {
	t.Parallel()
	const n = 250
	cases := []struct {
		name   string
		change func(t *testing.T, s store, p *scouttest.Proc, emitted string)
		stale  bool
	}{
		{"append to an emitted history", func(t *testing.T, s store, _ *scouttest.Proc, id string) {
			appendRecord(t, s.path(id+".jsonl"), s.ws)
		}, true},
		{"new history", func(t *testing.T, s store, _ *scouttest.Proc, _ string) {
			sessionstest.MustWrite(t, s.dir, sessionstest.History{ID: "late", Cwds: []string{s.ws}})
		}, true},
		{"emitted history deleted", func(t *testing.T, s store, _ *scouttest.Proc, id string) { must(t, os.Remove(s.path(id+".jsonl"))) }, true},
		{"history renamed", func(t *testing.T, s store, _ *scouttest.Proc, id string) {
			must(t, os.Rename(s.path(id+".jsonl"), s.path("renamed.jsonl")))
		}, true},
		{"history replaced by a symlink", func(t *testing.T, s store, _ *scouttest.Proc, id string) {
			must(t, os.Rename(s.path(id+".jsonl"), filepath.Join(s.home, "moved.jsonl")))
			must(t, os.Symlink(filepath.Join(s.home, "moved.jsonl"), s.path(id+".jsonl")))
		}, true},
		{"emitted history's permissions", func(t *testing.T, s store, _ *scouttest.Proc, id string) {
			must(t, os.Chmod(s.path(id+".jsonl"), 0o600))
		}, true},
		{"emitted history touched", func(t *testing.T, s store, _ *scouttest.Proc, id string) {
			at := time.Now().Add(time.Hour)
			must(t, os.Chtimes(s.path(id+".jsonl"), at, at))
		}, true},
		{"lock appears", func(t *testing.T, s store, _ *scouttest.Proc, id string) {
			must(t, os.WriteFile(s.path(id+".lock"), lockBytes(time.Now()), 0o644))
		}, true},
		{"lock disappears", func(t *testing.T, s store, _ *scouttest.Proc, _ string) { must(t, os.Remove(s.path("h-0001.lock"))) }, true},
		{"store replaced by a copy", func(t *testing.T, s store, _ *scouttest.Proc, _ string) {
			must(t, os.Rename(s.dir, s.dir+".old"))
			must(t, os.CopyFS(s.dir, os.DirFS(s.dir+".old")))
		}, true},
		{"session.new attaches", func(t *testing.T, _ store, p *scouttest.Proc, _ string) {
			if m := p.Call(wire.MethodSessionNew, nil); m.Error != nil {
				t.Fatalf("session.new: %s", m.Code())
			}
		}, true},
		{"lock renewed in place", func(t *testing.T, s store, _ *scouttest.Proc, _ string) {
			f, err := os.OpenFile(s.path("h-0001.lock"), os.O_WRONLY|os.O_TRUNC, 0)
			must(t, err)
			f.Write(lockBytes(time.Now().Add(time.Second)))
			must(t, f.Close())
		}, false},
		{"subagent history grows", func(t *testing.T, s store, _ *scouttest.Proc, _ string) {
			appendRecord(t, s.path("h-0000.subagent-1.jsonl"), s.ws)
		}, false},
		{"archive grows", func(t *testing.T, s store, _ *scouttest.Proc, _ string) {
			sessionstest.MustWrite(t, filepath.Join(s.dir, "archive"), sessionstest.History{ID: "older", Cwds: []string{s.ws}})
		}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t, n)
			p := s.start(t)
			m := discoverPage(p, nil)
			var pg wire.DiscoverResult
			m.Decode(t, &pg)
			if pg.Complete || len(pg.Sessions) == 0 {
				t.Fatalf("first page %s", m.Raw)
			}
			seen := map[string]bool{}
			checkRows(t, pg.Sessions, seen)
			tc.change(t, s, p, pg.Sessions[0].ID)
			got, last := continueScan(t, p, pg.Cursor, seen)
			switch {
			case tc.stale && last.Code() != wire.CodeStaleRevision:
				t.Fatalf("after the change the scan ended with %s", last.Raw)
			case tc.stale:
				if again := discoverPage(p, last.cursor); again.Code() != wire.CodeStaleRevision {
					t.Errorf("the stale scan's cursor answered %s", again.Raw)
				}
			case last.Error != nil:
				t.Fatalf("no change, but the scan ended with %s", last.Raw)
			case len(got)+len(pg.Sessions) != n:
				t.Errorf("complete with %d rows, want %d", len(got)+len(pg.Sessions), n)
			}
		})
	}
}

// scanEnd is how a continued scan ended, with the cursor it was sent.
type scanEnd struct {
	scouttest.Msg
	cursor *string
}

// continueScan follows cursor to the end of its scan.
func continueScan(t *testing.T, p *scouttest.Proc, cursor *string, seen map[string]bool) ([]wire.SessionRow, scanEnd) {
	t.Helper()
	var rows []wire.SessionRow
	for {
		m := discoverPage(p, cursor)
		if m.Error != nil {
			return rows, scanEnd{m, cursor}
		}
		var res wire.DiscoverResult
		m.Decode(t, &res)
		checkRows(t, res.Sessions, seen)
		rows = append(rows, res.Sessions...)
		if res.Complete {
			return rows, scanEnd{m, cursor}
		}
		cursor = res.Cursor
	}
}

func appendRecord(t *testing.T, path, cwd string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	fmt.Fprintf(f, `{"v":1,"type":"assistant","ts":"2026-03-01T00:00:00Z","cwd":%q,"text":"later"}`+"\n", cwd)
	must(t, f.Close())
}

// storeMutator changes the store continuously. Changes of the inventory
// (histories created, deleted, renamed, replaced by symlinks, locks
// appearing and disappearing: each changes the directory) are timed;
// renewals, subagent appends and histories rewritten in place, which
// leave the directory as it was, are not.
type storeMutator struct {
	s       store
	mu      sync.Mutex
	changes []time.Time
	n       int
}

func (m *storeMutator) step(i int) {
	m.n++
	name := fmt.Sprintf("x-%d", m.n%16)
	p := m.s.path(name + ".jsonl")
	var err error
	switch i % 7 {
	case 0:
		_, existed := os.Lstat(p)
		_, err = sessionstest.Write(m.s.dir, sessionstest.History{ID: name, Cwds: []string{m.s.ws}, UserText: "x"})
		if existed == nil {
			// An existing name is rewritten in place (or through its
			// symlink, into h-0002): the directory does not change, and
			// only a second pass after the first one read that history
			// sees it, so a scan that had not reached it yet is right
			// to complete (TestDiscoverStoreChangesMidScan covers a
			// history rewritten after it was read).
			return
		}
	case 1:
		err = os.Remove(p)
	case 2:
		err = os.Rename(p, m.s.path(fmt.Sprintf("x-%d.jsonl", (m.n+5)%16)))
	case 3:
		os.Remove(p)
		err = os.Symlink(m.s.path("h-0002.jsonl"), p)
	case 4:
		lock := m.s.path(name + ".lock")
		_, existed := os.Lstat(lock)
		if err = os.WriteFile(lock, lockBytes(time.Now()), 0o644); existed == nil {
			return // an existing lock rewritten is a renewal, no change
		}
	case 5:
		f, e := os.OpenFile(m.s.path("h-0001.lock"), os.O_WRONLY|os.O_TRUNC, 0)
		if e == nil {
			f.Write(lockBytes(time.Now()))
			f.Close()
		}
		return // a renewal is no change
	case 6:
		f, e := os.OpenFile(m.s.path("h-0000.subagent-1.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
		if e == nil {
			f.WriteString(`{"type":"tool","ts":"2026-03-01T00:00:00Z"}` + "\n")
			f.Close()
		}
		return
	}
	if err == nil {
		m.mu.Lock()
		m.changes = append(m.changes, time.Now())
		m.mu.Unlock()
	}
}

// changedBetween reports whether an inventory change finished within
// (from, to).
func (m *storeMutator) changedBetween(from, to time.Time) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.ContainsFunc(m.changes, func(at time.Time) bool { return at.After(from) && at.Before(to) })
}

// TestDiscoverUnderConstantChange runs scans and session.list while the
// store changes all the time, in bursts with quiet gaps. Every answer is
// rows or stale_revision; a scan that completes had no inventory change
// between its first answer and its last request (with a margin for the
// file system's coarse change times); and scans do complete in the gaps.
func TestDiscoverUnderConstantChange(t *testing.T) {
	t.Parallel()
	s := newStore(t, 220)
	p := s.start(t)
	m := &storeMutator{s: s}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if (i/40)%2 == 1 {
				time.Sleep(10 * time.Millisecond) // a quiet gap
				continue
			}
			m.step(i)
			time.Sleep(time.Millisecond)
		}
	}()
	outcomes := map[string]int{}
	for range rounds(30, 10) {
		_, last, first, lastSent := followScan(t, p)
		switch last.Code() {
		case "":
			outcomes["complete"]++
			if m.changedBetween(first.Add(coarseClock), lastSent) {
				t.Errorf("a scan completed although the inventory changed during it")
			}
		case wire.CodeStaleRevision:
			outcomes["stale_revision"]++
		default:
			t.Errorf("discovery answered %s", last.Raw)
		}
		switch l := p.Call(wire.MethodSessionList, nil); l.Code() {
		case "", wire.CodeStaleRevision:
			outcomes["list "+string(l.Code())]++
		default:
			t.Errorf("session.list answered %s", l.Raw)
		}
	}
	close(stop)
	<-done
	t.Logf("outcomes %v after %d store changes", outcomes, len(m.changes))
	if _, last, _, _ := followScan(t, p); last.Error != nil {
		t.Errorf("a scan of the quiet store answered %s", last.Raw)
	}
}

// coarseClock is the granularity of file change times (the kernel's tick)
// with room to spare: a change this close to a scan's start may carry the
// same change time as the scan's baseline.
const coarseClock = 20 * time.Millisecond

// rounds is n, or raced under the race detector.
func rounds(n, raced int) int {
	if raceBuild {
		return raced
	}
	return n
}
