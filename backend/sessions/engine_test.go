package sessions_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions"
	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
)

// discoverAll follows cursors to the end and returns every page.
func discoverAll(t *testing.T, svc *sessions.Service) ([]*wire.DiscoverResult, error) {
	t.Helper()
	var pages []*wire.DiscoverResult
	var cursor *string
	for i := 0; i < 10000; i++ {
		res, commit, err := svc.Discover(context.Background(), cursor)
		if err != nil {
			return pages, err
		}
		if commit != nil {
			commit()
		}
		pages = append(pages, res)
		if res.Complete {
			return pages, nil
		}
		cursor = res.Cursor
	}
	t.Fatal("discovery did not end")
	return nil, nil
}

func rowsOf(pages []*wire.DiscoverResult) []wire.SessionRow {
	var rows []wire.SessionRow
	for _, p := range pages {
		rows = append(rows, p.Sessions...)
	}
	return rows
}

func newService(t *testing.T) (*sessions.Service, string, string) {
	t.Helper()
	home, store := sessionstest.Home(t)
	ws := t.TempDir()
	return sessions.New(sessions.Config{Home: home, Workspace: ws}), store, ws
}

func TestDiscoverSmallStore(t *testing.T) {
	svc, store, ws := newService(t)
	sessionstest.MustWrite(t, store,
		sessionstest.History{ID: "chat", Cwds: []string{ws}, UserText: "Fix the \x1b[31mparser\u202e please", Records: 5},
		sessionstest.History{ID: "legacy", Title: "Old one"},
		sessionstest.History{ID: "foreign", Cwds: []string{"/elsewhere"}},
		sessionstest.History{ID: "bad", Cwds: []string{ws}, Malformed: true},
		sessionstest.History{Name: "chat.subagent-1.jsonl", Cwds: []string{ws}},
		sessionstest.History{ID: "busy", Cwds: []string{ws}, LockRenewed: time.Now()},
	)
	os.Symlink(filepath.Join(store, "chat.jsonl"), filepath.Join(store, "link.jsonl"))
	os.Mkdir(filepath.Join(store, "archive"), 0o755)
	pages, err := discoverAll(t, svc)
	if err != nil {
		t.Fatal(err)
	}
	rows := rowsOf(pages)
	byID := map[string]wire.SessionRow{}
	for _, r := range rows {
		byID[r.ID] = r
	}
	if len(rows) != 3 {
		t.Fatalf("rows %+v", rows)
	}
	last := pages[len(pages)-1]
	if last.Notices.SessionsOmittedInvalid != 2 || last.Notices.SessionsOtherDirectories != 1 {
		t.Errorf("notices %+v", last.Notices)
	}
	if r := byID["chat"]; r.Title != "Fix the [31mparser please" || r.Cwd != wire.CwdVerified || r.Records != 5 || r.CreatedAt != "2026-01-02T03:04:05.000Z" || r.UpdatedAt != "2026-01-02T03:04:09.000Z" {
		t.Errorf("chat %+v", r)
	}
	if r := byID["legacy"]; r.Title != "Old one" || r.Cwd != wire.CwdUnverified || r.Busy {
		t.Errorf("legacy %+v", r)
	}
	if r := byID["busy"]; !r.Busy {
		t.Errorf("busy %+v", r)
	}
	list, err := svc.List(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Sessions) != 3 || list.Notices != last.Notices {
		t.Errorf("list %+v", list)
	}
	t.Logf("pages %d, progress %s", len(pages), last.Progress)
}

// TestDiscoverDeadline: with the step deadline already passed, every
// request still handles one name or record (so discovery progresses on a
// slow file system), pauses with "deadline", and the scan still ends with
// every row once.
func TestDiscoverDeadline(t *testing.T) {
	saved := sessions.StepDuration
	sessions.StepDuration = 0
	defer func() { sessions.StepDuration = saved }()
	svc, store, ws := newService(t)
	sessionstest.MustWrite(t, store, sessionstest.Many(5, "d", ws, sessionstest.History{Records: 4})...)
	pages, err := discoverAll(t, svc)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rowsOf(pages)); n != 5 {
		t.Errorf("%d rows", n)
	}
	for _, pg := range pages[:len(pages)-1] {
		if pg.Progress != wire.ProgressDeadline || len(pg.Sessions) > 1 {
			t.Fatalf("page %+v", pg)
		}
	}
	if len(pages) < 5*5 {
		t.Errorf("only %d pages for 5 names and 20 records", len(pages))
	}
}

// TestRecordBound: a record of exactly MaxRecordBytes is read; one byte more
// is discovery_record_bytes.
func TestRecordBound(t *testing.T) {
	svc, store, ws := newService(t)
	sessionstest.MustWrite(t, store, sessionstest.History{ID: "max", Cwds: []string{ws}, OversizedBytes: sessions.MaxRecordBytes})
	if _, err := discoverAll(t, svc); err != nil {
		t.Fatalf("a record of exactly 8 MiB: %v", err)
	}
	sessionstest.MustWrite(t, store, sessionstest.History{ID: "over", Cwds: []string{ws}, OversizedBytes: sessions.MaxRecordBytes + 1})
	_, err := discoverAll(t, svc)
	if we, ok := err.(*wire.Error); !ok || we.Code != wire.CodeDiscoveryRecordBytes {
		t.Fatalf("a record of 8 MiB + 1: %v", err)
	}
}
