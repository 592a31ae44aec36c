package sessions_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// firstPage starts a scan and returns its first page, failing on an error.
func firstPage(t *testing.T, p *scouttest.Proc) wire.DiscoverResult {
	t.Helper()
	var res wire.DiscoverResult
	p.MustCall(wire.MethodSessionDiscover, map[string]any{"cursor": nil}, &res)
	return res
}

func next(t *testing.T, p *scouttest.Proc, cursor *string) wire.DiscoverResult {
	t.Helper()
	var res wire.DiscoverResult
	p.MustCall(wire.MethodSessionDiscover, map[string]any{"cursor": *cursor}, &res)
	return res
}

func wantCode(t *testing.T, m scouttest.Msg, code wire.Code) {
	t.Helper()
	if m.Code() != code {
		t.Fatalf("got %s, want %s", m.Raw, code)
	}
	if msg := m.Error.Message; strings.Contains(msg, "/") || strings.Contains(msg, ".jsonl") {
		t.Errorf("error message names a path: %q", msg)
	}
}

// TestDiscoverMutationAfterEmission: a history changed after its row was
// emitted makes the final validation answer stale_revision, and the cursor
// that got that answer stays stale.
func TestDiscoverMutationAfterEmission(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sessionstest.MustWrite(t, e.store, sessionstest.Many(150, "s", e.ws, sessionstest.History{})...)
	p := e.start(t)
	pg := firstPage(t, p)
	if len(pg.Sessions) != 100 || pg.Complete {
		t.Fatalf("first page %+v", pg)
	}
	f, err := os.OpenFile(filepath.Join(e.store, pg.Sessions[0].ID+".jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"v":1,"type":"user","ts":"2026-03-01T00:00:00Z","text":"later"}` + "\n")
	f.Close()
	cursor := pg.Cursor
	var m scouttest.Msg
	for {
		m = discover(p, cursor)
		if m.Error != nil {
			break
		}
		var res wire.DiscoverResult
		m.Decode(t, &res)
		if res.Complete {
			t.Fatalf("a changed inventory completed: %s", m.Raw)
		}
		cursor = res.Cursor
	}
	wantCode(t, m, wire.CodeStaleRevision)
	wantCode(t, discover(p, cursor), wire.CodeStaleRevision)
	wantCode(t, discover(p, cursor), wire.CodeStaleRevision)
	if pages := mustFollow(t, p); len(ids(pages)) != 150 {
		t.Errorf("a fresh scan found %d rows", len(ids(pages)))
	}
}

// TestDiscoverCursorRules: a cursor used twice poisons its scan (that
// request and every later one on the scan answer stale_revision), a cursor
// of an abandoned scan is stale, and cursors this child never issued
// (forged, or issued by another child) are invalid_cursor.
func TestDiscoverCursorRules(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sessionstest.MustWrite(t, e.store, sessionstest.Many(250, "s", e.ws, sessionstest.History{})...)
	p := e.start(t)
	c1 := firstPage(t, p).Cursor
	if c1 == nil || len(*c1) > wire.MaxCursorBytes {
		t.Fatalf("cursor %v", c1)
	}
	c2 := next(t, p, c1).Cursor
	wantCode(t, discover(p, c1), wire.CodeStaleRevision)
	wantCode(t, discover(p, c2), wire.CodeStaleRevision)

	old := firstPage(t, p).Cursor
	fresh := firstPage(t, p).Cursor // abandons the scan old belongs to
	pg := next(t, p, fresh)
	if len(pg.Sessions) != 100 {
		t.Errorf("the fresh scan's second page has %d rows", len(pg.Sessions))
	}
	wantCode(t, discover(p, old), wire.CodeStaleRevision)
	wantCode(t, discover(p, pg.Cursor), wire.CodeStaleRevision) // any error abandons the scan

	q := e.start(t)
	foreign := firstPage(t, q).Cursor
	live := firstPage(t, p).Cursor
	wantCode(t, discover(p, foreign), wire.CodeInvalidCursor)
	wantCode(t, discover(p, live), wire.CodeStaleRevision) // any error abandons the scan
	forged := "d1.1.1.AAAAAAAAAAAAAAAAAAAAAA"
	wantCode(t, discover(p, &forged), wire.CodeInvalidCursor)
	tampered := (*foreign)[:len(*foreign)-1] + "A"
	if tampered == *foreign {
		tampered = (*foreign)[:len(*foreign)-1] + "B"
	}
	wantCode(t, discover(q, &tampered), wire.CodeInvalidCursor)
}

// TestDiscoverOversizedRecord: a record over 8 MiB fails discovery and
// session.list with discovery_record_bytes and an exact open with
// session_invalid; a record of exactly 8 MiB is fine.
func TestDiscoverOversizedRecord(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sessionstest.MustWrite(t, e.store,
		sessionstest.History{ID: "big", Cwds: []string{e.ws}, OversizedBytes: 8 << 20},
		sessionstest.History{ID: "huge", Cwds: []string{e.ws}, OversizedBytes: 9 << 20},
	)
	p := e.start(t)
	_, m := follow(t, p)
	wantCode(t, m, wire.CodeDiscoveryRecordBytes)
	wantCode(t, p.Call(wire.MethodSessionList, nil), wire.CodeDiscoveryRecordBytes)
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "huge"}), wire.CodeSessionInvalid)
	var open wire.SessionOpenResult
	p.MustCall(wire.MethodSessionOpen, map[string]any{"id": "big"}, &open)
	if open.Session.Records != 4 {
		t.Errorf("big: %+v", open.Session)
	}
	os.Remove(filepath.Join(e.store, "huge.jsonl"))
	if pages := mustFollow(t, p); len(ids(pages)) != 1 {
		t.Errorf("rows %v", ids(pages))
	}
}

// TestDiscoverUnsafeEntries: a symlinked history (even to a valid one), a
// FIFO and a directory named like a history are never read and are counted
// in sessions_omitted_invalid; archives, subagent histories and lock files
// are never rows and never counted.
func TestDiscoverUnsafeEntries(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sessionstest.MustWrite(t, e.store,
		sessionstest.History{ID: "chat", Cwds: []string{e.ws}, LockRenewed: sessionstest.Epoch},
		sessionstest.History{Name: "chat.subagent-1.jsonl", Cwds: []string{e.ws}},
		sessionstest.History{ID: "malformed", Cwds: []string{e.ws}, Malformed: true},
	)
	os.MkdirAll(filepath.Join(e.store, "archive"), 0o755)
	sessionstest.MustWrite(t, filepath.Join(e.store, "archive"), sessionstest.History{ID: "old", Cwds: []string{e.ws}})
	os.Symlink("chat.jsonl", filepath.Join(e.store, "link.jsonl"))
	if err := syscall.Mkfifo(filepath.Join(e.store, "pipe.jsonl"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Mkdir(filepath.Join(e.store, "dir.jsonl"), 0o755)
	p := e.start(t)
	pages := mustFollow(t, p)
	if got := ids(pages); len(got) != 1 || got[0] != "chat" {
		t.Fatalf("rows %v", got)
	}
	last := pages[len(pages)-1]
	if last.Notices.SessionsOmittedInvalid != 4 || last.Notices.SessionsOtherDirectories != 0 {
		t.Errorf("notices %+v, want 4 invalid (link, pipe, dir, malformed)", last.Notices)
	}
	if pages[0].Sessions[0].Busy {
		t.Error("a lock renewed long ago marks the session busy")
	}
	var list wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &list)
	if len(list.Sessions) != 1 || list.Notices != last.Notices {
		t.Errorf("list %+v", list)
	}
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "link"}), wire.CodeSessionInvalid)
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "pipe"}), wire.CodeSessionInvalid)
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "malformed"}), wire.CodeSessionInvalid)
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "old"}), wire.CodeNotFound)
}

// TestStoreUnavailable: a symlinked or non-directory sessions/ is
// discovery_unavailable; a home without sessions/ is an empty store.
func TestStoreUnavailable(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		setup func(home string)
	}{
		{"symlink", func(home string) {
			real := filepath.Join(home, "real")
			os.Mkdir(real, 0o755)
			os.Symlink(real, filepath.Join(home, "sessions"))
		}},
		{"file", func(home string) { os.WriteFile(filepath.Join(home, "sessions"), nil, 0o644) }},
		{"fifo", func(home string) { syscall.Mkfifo(filepath.Join(home, "sessions"), 0o644) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			tc.setup(home)
			e := env{home: home, ws: t.TempDir()}
			p := e.start(t)
			wantCode(t, discover(p, nil), wire.CodeDiscoveryUnavailable)
			wantCode(t, p.Call(wire.MethodSessionList, nil), wire.CodeDiscoveryUnavailable)
			wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "x"}), wire.CodeSessionInvalid)
		})
	}
	t.Run("missing", func(t *testing.T) {
		t.Parallel()
		e := env{home: filepath.Join(t.TempDir(), "nothing-here"), ws: t.TempDir()}
		p := e.start(t)
		pg := firstPage(t, p)
		if !pg.Complete || len(pg.Sessions) != 0 || pg.Cursor != nil {
			t.Errorf("missing store: %+v", pg)
		}
		var list wire.SessionListResult
		p.MustCall(wire.MethodSessionList, nil, &list)
		if list.Sessions == nil || len(list.Sessions) != 0 {
			t.Errorf("list %+v", list)
		}
		wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "x"}), wire.CodeNotFound)
	})
}

// TestSessionNewAndOpen: session.new attaches an unsaved handle that no
// listing shows and makes a running scan stale; session.open of a mixed-cwd
// history answers cwd_mismatch and status still shows the previous
// attachment.
func TestSessionNewAndOpen(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sessionstest.MustWrite(t, e.store, sessionstest.Many(150, "s", e.ws, sessionstest.History{})...)
	sessionstest.MustWrite(t, e.store,
		sessionstest.History{ID: "chat", Cwds: []string{e.ws}, UserText: "hello"},
		sessionstest.History{ID: "mixed", Cwds: []string{e.ws, "/somewhere/else"}, Records: 4},
		sessionstest.History{ID: "legacy"},
	)
	p := e.start(t)
	running := firstPage(t, p).Cursor
	var nr wire.SessionNewResult
	p.MustCall(wire.MethodSessionNew, nil, &nr)
	if nr.Attachment.Saved || !wire.ValidSessionID(nr.Attachment.SessionID) {
		t.Fatalf("session.new %+v", nr)
	}
	wantCode(t, discover(p, running), wire.CodeStaleRevision)
	pages := mustFollow(t, p)
	for _, id := range ids(pages) {
		if id == nr.Attachment.SessionID {
			t.Fatal("an unsaved handle was listed")
		}
	}
	if n := len(ids(pages)); n != 152 {
		t.Errorf("%d rows, want 152", n)
	}
	entries, _ := os.ReadDir(e.store)
	if len(entries) != 153 {
		t.Errorf("the store has %d entries: session.new wrote something", len(entries))
	}
	status := func() *wire.Attachment {
		var st wire.StatusResult
		p.MustCall(wire.MethodStatus, nil, &st)
		return st.Attachment
	}
	if a := status(); a == nil || *a != nr.Attachment {
		t.Errorf("status attachment %+v", a)
	}
	var open wire.SessionOpenResult
	p.MustCall(wire.MethodSessionOpen, map[string]any{"id": "chat"}, &open)
	if open.Session.ID != "chat" || open.Session.Title != "hello" || open.Attachment != (wire.Attachment{SessionID: "chat", Agent: wire.AgentScout, Saved: true}) {
		t.Errorf("open %+v", open)
	}
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "mixed"}), wire.CodeCwdMismatch)
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "nope"}), wire.CodeNotFound)
	if a := status(); a == nil || *a != open.Attachment {
		t.Errorf("after failed opens, status attachment %+v, want chat", a)
	}
	p.MustCall(wire.MethodSessionOpen, map[string]any{"id": "legacy"}, &open)
	if open.Session.Cwd != wire.CwdUnverified {
		t.Errorf("legacy %+v", open.Session)
	}
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "../x"}), wire.CodeInvalidParams)
}

// TestDiscoverExtension: the session.discover extension is announced only
// when the capability is negotiated.
func TestDiscoverExtension(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	p := scouttest.Start(t, scouttest.Options{Dir: e.ws, Env: []string{"SCOUT_HOME=" + e.home}})
	if res := p.Initialize(wire.MethodSessionList); res.Extensions.SessionDiscover != nil {
		t.Errorf("extension without the capability: %+v", res.Extensions)
	}
	wantCode(t, discover(p, nil), wire.CodeUnsupportedCapability)
	q := scouttest.Start(t, scouttest.Options{Dir: e.ws, Env: []string{"SCOUT_HOME=" + e.home}})
	res := q.Initialize(wire.MethodSessionDiscover)
	if res.Extensions.SessionDiscover == nil || *res.Extensions.SessionDiscover != wire.DefaultDiscoverExtension {
		t.Errorf("extension %+v", res.Extensions.SessionDiscover)
	}
}

// TestAttachmentIdentity: session.new attaches unsaved-<24 hex digits>, a
// new one each time, that session.open never finds; attaching the same
// saved id again still makes a running scan stale (the attachment identity
// is a counter, not the id); a failed open changes nothing, so the scan
// goes on. docs/protocol.md §10.7.6.
func TestAttachmentIdentity(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sessionstest.MustWrite(t, e.store, sessionstest.Many(150, "s", e.ws, sessionstest.History{})...)
	p := e.start(t)
	unsaved := regexp.MustCompile(`^unsaved-[0-9a-f]{24}$`)
	var a, b wire.SessionNewResult
	p.MustCall(wire.MethodSessionNew, nil, &a)
	p.MustCall(wire.MethodSessionNew, nil, &b)
	if !unsaved.MatchString(a.Attachment.SessionID) || a.Attachment.SessionID == b.Attachment.SessionID {
		t.Errorf("session.new ids %q and %q", a.Attachment.SessionID, b.Attachment.SessionID)
	}
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": b.Attachment.SessionID}), wire.CodeNotFound)
	p.MustCall(wire.MethodSessionOpen, map[string]any{"id": "s-0000"}, nil)
	running := firstPage(t, p).Cursor
	p.MustCall(wire.MethodSessionOpen, map[string]any{"id": "s-0000"}, nil)
	wantCode(t, discover(p, running), wire.CodeStaleRevision)
	running = firstPage(t, p).Cursor
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "missing"}), wire.CodeNotFound)
	if m := discover(p, running); m.Error != nil {
		t.Errorf("after a failed open the scan answered %.100s", m.Raw)
	}
}

// TestHistoryChangingWhileRead: a history that keeps changing while
// session.list or session.open reads it (an agent appending a record every
// 200 µs)
// is read again up to 3 times, then session.list answers stale_revision
// and session.open session_invalid; once the writer stops, both serve it.
// docs/protocol.md §10.7.4 and §10.7.6.
func TestHistoryChangingWhileRead(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	path := filepath.Join(e.store, "live.jsonl")
	record := `{"v":1,"type":"user","ts":"2026-01-02T03:04:05Z","text":"` + strings.Repeat("x", 1000) + `"}` + "\n"
	writeFiles(t, e.store, map[string]string{"live.jsonl": strings.Repeat(record, 20000)}) // 20 MB: a read takes a while
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	stop, stopped := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(stopped)
		for {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Microsecond): // far slower than a read, which must end
				f.WriteString(`{"type":"tick"}` + "\n")
			}
		}
	}()
	p := e.start(t)
	wantCode(t, p.Call(wire.MethodSessionList, nil), wire.CodeStaleRevision)
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "live"}), wire.CodeSessionInvalid)
	close(stop)
	<-stopped
	var list wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &list)
	if len(list.Sessions) != 1 || list.Sessions[0].Records < 20000 {
		t.Errorf("after the writer stopped: %+v", list.Sessions)
	}
	p.MustCall(wire.MethodSessionOpen, map[string]any{"id": "live"}, nil)
}
