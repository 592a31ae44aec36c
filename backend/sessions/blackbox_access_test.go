package sessions_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/asuser"
	"github.com/scoutdev/scout/internal/scouttest"
)

// startUnprivileged runs the backend as an unprivileged user (the tests run
// as root, which reads a mode-0000 file anyway).
func startUnprivileged(t *testing.T, e env) *scouttest.Proc {
	t.Helper()
	asuser.Share(e.home)
	asuser.Share(e.ws)
	// A home the unprivileged backend may enter, without any agent's store
	// (the test process's own home is private to it).
	home := t.TempDir()
	asuser.Share(home)
	p := scouttest.Start(t, scouttest.Options{Dir: e.ws, Env: []string{"SCOUT_HOME=" + e.home, "HOME=" + home}, Unprivileged: true})
	p.Initialize(sessionCaps...)
	return p
}

// TestUnreadable: a history the backend may not read is counted in
// sessions_omitted_invalid (and an exact open of it is session_invalid); a
// store directory it may not read is discovery_unavailable.
func TestUnreadable(t *testing.T) {
	t.Parallel()
	t.Run("history", func(t *testing.T) {
		t.Parallel()
		e := newEnv(t)
		sessionstest.MustWrite(t, e.store,
			sessionstest.History{ID: "chat", Cwds: []string{e.ws}},
			sessionstest.History{ID: "secret", Cwds: []string{e.ws}},
		)
		if err := os.Chmod(filepath.Join(e.store, "secret.jsonl"), 0); err != nil {
			t.Fatal(err)
		}
		p := startUnprivileged(t, e)
		pages := mustFollow(t, p)
		if got := ids(pages); len(got) != 1 || got[0] != "chat" {
			t.Fatalf("rows %v", got)
		}
		if n := pages[len(pages)-1].Notices; n.SessionsOmittedInvalid != 1 {
			t.Errorf("notices %+v", n)
		}
		wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": "secret"}), wire.CodeSessionInvalid)
		var list wire.SessionListResult
		p.MustCall(wire.MethodSessionList, nil, &list)
		if len(list.Sessions) != 1 || list.Notices.SessionsOmittedInvalid != 1 {
			t.Errorf("list %+v", list)
		}
	})
	for _, mode := range []os.FileMode{0, 0o311} {
		t.Run("store_"+mode.String(), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			sessionstest.MustWrite(t, e.store, sessionstest.History{ID: "chat", Cwds: []string{e.ws}})
			if err := os.Chmod(e.store, mode); err != nil {
				t.Fatal(err)
			}
			p := startUnprivileged(t, e)
			wantCode(t, discover(p, nil), wire.CodeDiscoveryUnavailable)
			wantCode(t, p.Call(wire.MethodSessionList, nil), wire.CodeDiscoveryUnavailable)
		})
	}
}

// TestBusyHint: a lock renewed within 30 s marks its session busy; an old
// lock, a symlinked lock or no lock does not.
func TestBusyHint(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	sessionstest.MustWrite(t, e.store,
		sessionstest.History{ID: "active", Cwds: []string{e.ws}, LockRenewed: time.Now()},
		sessionstest.History{ID: "stale", Cwds: []string{e.ws}, LockRenewed: time.Now().Add(-time.Hour)},
		sessionstest.History{ID: "linked", Cwds: []string{e.ws}},
		sessionstest.History{ID: "idle", Cwds: []string{e.ws}},
	)
	os.Symlink("active.lock", filepath.Join(e.store, "linked.lock"))
	p := e.start(t)
	var list wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &list)
	for _, r := range list.Sessions {
		if r.Busy != (r.ID == "active") {
			t.Errorf("%s busy=%v", r.ID, r.Busy)
		}
	}
	if len(list.Sessions) != 4 {
		t.Errorf("rows %+v", list.Sessions)
	}
}

// TestDiscoverBusyAndCancel: a second session.discover while one is in
// flight answers busy; a cancelled discovery abandons its scan, so its
// cursor is stale afterwards, and a fresh scan works.
func TestDiscoverBusyAndCancel(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	writeLines(t, filepath.Join(e.store, "long.jsonl"), e.ws, 24, 1<<20)
	sessionstest.MustWrite(t, e.store, sessionstest.Many(150, "s", e.ws, sessionstest.History{})...)
	p := e.start(t)
	start := `{"jsonrpc":"2.0","id":"one","method":"session.discover","params":{"cursor":null}}`
	second := `{"jsonrpc":"2.0","id":"two","method":"session.discover","params":{}}`
	p.Write([]byte(start + "\n" + second + "\n"))
	two, _ := p.Await("two")
	if two.Code() != wire.CodeBusy {
		t.Errorf("second discovery in flight: %s", two.Raw)
	}
	one, _ := p.Await("one")
	var res wire.DiscoverResult
	one.Decode(t, &res)
	if res.Cursor == nil {
		t.Fatalf("first page %s", one.Raw)
	}
	p.Write([]byte(`{"jsonrpc":"2.0","id":"three","method":"session.discover","params":{"cursor":"` + *res.Cursor + `"}}` + "\n" +
		`{"jsonrpc":"2.0","id":"stop","method":"operation.cancel","params":{"request_id":"three"}}` + "\n"))
	stop, _ := p.Await("stop")
	three, _ := p.Await("three")
	switch {
	case stop.Error == nil && three.Code() == wire.CodeOperationCancelled:
		// The cancelled worker may still hold the discovery slot for a
		// moment (busy); once it is free the cursor is stale.
		m := discover(p, res.Cursor)
		for i := 0; m.Code() == wire.CodeBusy && i < 1000; i++ {
			time.Sleep(10 * time.Millisecond)
			m = discover(p, res.Cursor)
		}
		wantCode(t, m, wire.CodeStaleRevision)
	case stop.Code() == wire.CodeOperationMissing && three.Error == nil:
		t.Log("the page was written before the cancel arrived")
	default:
		t.Fatalf("cancel %s, discover %s", stop.Raw, three.Raw)
	}
	if pages := mustFollow(t, p); len(ids(pages)) != 151 {
		t.Errorf("rows %d", len(ids(pages)))
	}
	if strings.Contains(p.Stderr(), e.store) {
		t.Errorf("stderr names the store: %s", p.Stderr())
	}
}
