package sessions_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

var sessionCaps = []string{wire.MethodSessionList, wire.MethodSessionDiscover, wire.MethodSessionOpen, wire.MethodSessionNew, wire.MethodCancel}

// env is one black-box setup: a backend home with a session store and a
// workspace the real `scout backend` runs in.
type env struct {
	home, store, ws string
}

func newEnv(t *testing.T) env {
	t.Helper()
	home, store := sessionstest.Home(t)
	ws := t.TempDir()
	return env{home: home, store: store, ws: ws}
}

func (e env) start(t *testing.T) *scouttest.Proc {
	t.Helper()
	p := scouttest.Start(t, scouttest.Options{Dir: e.ws, Env: []string{"SCOUT_HOME=" + e.home}})
	p.Initialize(sessionCaps...)
	return p
}

// discover sends one session.discover and returns its response.
func discover(p *scouttest.Proc, cursor *string) scouttest.Msg {
	params := map[string]any{"cursor": nil}
	if cursor != nil {
		params["cursor"] = *cursor
	}
	return p.Call(wire.MethodSessionDiscover, params)
}

// follow runs a scan from a fresh start, following cursors; it stops at
// complete or at the first error, returned as the last message.
func follow(t *testing.T, p *scouttest.Proc) ([]wire.DiscoverResult, scouttest.Msg) {
	t.Helper()
	var pages []wire.DiscoverResult
	var cursor *string
	for range 100000 {
		m := discover(p, cursor)
		if m.Error != nil {
			return pages, m
		}
		var res wire.DiscoverResult
		m.Decode(t, &res)
		pages = append(pages, res)
		if res.Complete {
			return pages, m
		}
		if res.Cursor == nil || res.Recovery != wire.RecoveryContinueCursor {
			t.Fatalf("incomplete page without a cursor: %s", m.Raw)
		}
		cursor = res.Cursor
	}
	t.Fatal("discovery never completed")
	return nil, scouttest.Msg{}
}

func mustFollow(t *testing.T, p *scouttest.Proc) []wire.DiscoverResult {
	t.Helper()
	pages, last := follow(t, p)
	if last.Error != nil {
		t.Fatalf("discovery failed: %s", last.Raw)
	}
	return pages
}

func ids(pages []wire.DiscoverResult) []string {
	var out []string
	for _, pg := range pages {
		for _, r := range pg.Sessions {
			out = append(out, r.ID)
		}
	}
	slices.Sort(out)
	return out
}

func progressWords(pages []wire.DiscoverResult) []string {
	var out []string
	for _, pg := range pages {
		out = append(out, fmt.Sprintf("%s:%d", pg.Progress, len(pg.Sessions)))
	}
	return out
}

// TestDiscoverThisWorkspaceOnly: 300 unrelated histories, one foreign
// history of 10,001 records each with an explicit cwd, this workspace's
// chat and a legacy history. Discovery returns the two rows, the foreign
// history is excluded at its first record (no history_work pause) and
// counted as another directory's, never as invalid, the first page pauses
// on directory_work (256 names read), and empty validation pages end with
// complete:true.
func TestDiscoverThisWorkspaceOnly(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	other := t.TempDir()
	sessionstest.MustWrite(t, e.store, sessionstest.Many(300, "unrelated", other, sessionstest.History{})...)
	sessionstest.MustWrite(t, e.store,
		sessionstest.History{ID: "foreign", Cwds: []string{"/srv/another/project"}, Records: 10001},
		sessionstest.History{ID: "chat", Cwds: []string{e.ws}, UserText: "Explain the discovery protocol"},
		sessionstest.History{ID: "legacy", UserText: "From before cwd was recorded"},
	)
	p := e.start(t)
	p.Request("first", wire.MethodSessionDiscover, map[string]any{})
	if resp, before := p.Await("first"); resp.Error != nil || len(before) != 1 || before[0].Method != wire.NotifyCommandStarted {
		t.Fatalf("discover %s after %d messages", resp.Raw, len(before))
	}
	pages := mustFollow(t, p)
	if got := ids(pages); !slices.Equal(got, []string{"chat", "legacy"}) {
		t.Fatalf("rows %v, want chat and legacy", got)
	}
	last := pages[len(pages)-1]
	if last.Notices.SessionsOtherDirectories != 301 || last.Notices.SessionsOmittedInvalid != 0 {
		t.Errorf("notices %+v, want 301 other directories and no invalid", last.Notices)
	}
	if last.Cursor != nil || last.Recovery != wire.RecoveryNone || last.Progress != wire.ProgressComplete || len(last.Sessions) != 0 {
		t.Errorf("last page %+v", last)
	}
	words := progressWords(pages)
	if !strings.HasPrefix(words[0], wire.ProgressDirectoryWork) {
		t.Errorf("the first request read 256 names but paused with %v", words)
	}
	if !slices.Contains(words, wire.ProgressInventoryValidation+":0") {
		t.Errorf("no empty validation page: %v", words)
	}
	for _, w := range words {
		if strings.HasPrefix(w, wire.ProgressHistoryWork) {
			t.Errorf("the foreign history was read past its first record: %v", words)
		}
	}
	for _, pg := range pages {
		if pg.Consistency != wire.ConsistencyProvisional {
			t.Errorf("consistency %q", pg.Consistency)
		}
	}
	t.Logf("pages: %v", words)
}

// TestDiscoverSymlinkedAlias: 304 histories recorded through a symlinked
// alias of the workspace are all this workspace's: pages of 100, 100, 100
// and 4 rows, then an empty validated completion. session.list refuses the
// store (more than 256 histories) with discovery_limit.
func TestDiscoverSymlinkedAlias(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(e.ws, alias); err != nil {
		t.Fatal(err)
	}
	sessionstest.MustWrite(t, e.store, sessionstest.Many(304, "s", alias, sessionstest.History{})...)
	p := e.start(t)
	pages := mustFollow(t, p)
	var sizes []int
	for _, pg := range pages {
		sizes = append(sizes, len(pg.Sessions))
	}
	if !slices.Equal(sizes, []int{100, 100, 100, 4, 0}) {
		t.Fatalf("page sizes %v (%v), want 100 100 100 4 0", sizes, progressWords(pages))
	}
	for i, w := range []string{wire.ProgressPageEntries, wire.ProgressPageEntries, wire.ProgressPageEntries, wire.ProgressInventoryValidation, wire.ProgressComplete} {
		if pages[i].Progress != w {
			t.Errorf("page %d progress %q, want %q", i, pages[i].Progress, w)
		}
	}
	if n := len(ids(pages)); n != 304 {
		t.Errorf("%d distinct rows", n)
	}
	for _, pg := range pages {
		for _, r := range pg.Sessions {
			if r.Cwd != wire.CwdVerified {
				t.Fatalf("row %+v not verified", r)
			}
		}
	}
	m := p.Call(wire.MethodSessionList, nil)
	if m.Code() != wire.CodeDiscoveryLimit {
		t.Errorf("session.list: %s, want discovery_limit", m.Raw)
	}
}
