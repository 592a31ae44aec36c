package sessions_test

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// dbEnv is a workspace with crush's database in its .crush/ and
// opencode's database elsewhere, and scout's own store.
type dbEnv struct {
	ws, home, crushDB, opencodeDB string
	want                          map[sessionstest.Key]sessionstest.Want
	notices                       wire.SessionNotices
}

func (e dbEnv) env() []string {
	return []string{"SCOUT_HOME=" + e.home, "OPENCODE_DB=" + e.opencodeDB, "CRUSH_GLOBAL_DATA=" + filepath.Join(e.home, "no-crush-data")}
}

func (e dbEnv) start(t *testing.T) *scouttest.Proc {
	t.Helper()
	p := scouttest.Start(t, scouttest.Options{Dir: e.ws, Env: e.env()})
	p.Initialize(sessionCaps...)
	return p
}

// newDBEnv writes both databases at rest: top-level sessions of this
// directory, a child's, an archived one, one without a user message, and
// (opencode's) sessions of other directories.
func newDBEnv(t *testing.T) dbEnv {
	t.Helper()
	ws := canonicalTemp(t)
	home, _ := sessionstest.Home(t)
	e := dbEnv{ws: ws, home: home, crushDB: filepath.Join(ws, ".crush", "crush.db"),
		opencodeDB: filepath.Join(t.TempDir(), "opencode", "opencode.db"), want: map[sessionstest.Key]sessionstest.Want{}}
	chat := []string{"user", "assistant", "user", "assistant"}
	mustDo(t, sessionstest.WriteCrush(e.crushDB,
		sessionstest.DBSession{ID: "c1a2b3c4-0001-4000-8000-000000000001", Title: "Crush: wire the\nsidebar", Roles: chat},
		sessionstest.DBSession{ID: "c1a2b3c4-0002-4000-8000-000000000002", Title: "Crush: a child task", Parent: "c1a2b3c4-0001-4000-8000-000000000001", Roles: chat},
		sessionstest.DBSession{ID: "c1a2b3c4-0003-4000-8000-000000000003", Title: "Crush: nothing said yet", Roles: []string{"assistant"}},
		sessionstest.DBSession{ID: "c1a2b3c4-0004-4000-8000-000000000004", Title: "Crush: second", Roles: chat, Created: sessionstest.Epoch.Add(time.Hour)},
	))
	e.want[sessionstest.Key{Agent: wire.AgentCrush, ID: "c1a2b3c4-0001-4000-8000-000000000001"}] = sessionstest.Want{Title: "Crush: wire the sidebar"}
	e.want[sessionstest.Key{Agent: wire.AgentCrush, ID: "c1a2b3c4-0004-4000-8000-000000000004"}] = sessionstest.Want{Title: "Crush: second"}
	mustDo(t, sessionstest.WriteOpenCode(e.opencodeDB,
		sessionstest.DBSession{ID: "ses_here1", Dir: ws, Title: "opencode: fix the build", Roles: chat},
		sessionstest.DBSession{ID: "ses_here2", Dir: ws, Title: "opencode: archived", Archived: true, Roles: chat},
		sessionstest.DBSession{ID: "ses_here3", Dir: ws, Title: "opencode: subtask", Parent: "ses_here1", Roles: chat},
		sessionstest.DBSession{ID: "ses_here4", Dir: ws, Title: "opencode: empty", Roles: nil},
		sessionstest.DBSession{ID: "ses_other", Dir: "/srv/other", Title: "opencode: elsewhere", Roles: chat},
		sessionstest.DBSession{ID: "ses_sub", Dir: ws + "/sub", Title: "opencode: in a subdirectory", Roles: chat},
	))
	e.want[sessionstest.Key{Agent: wire.AgentOpenCode, ID: "ses_here1"}] = sessionstest.Want{Title: "opencode: fix the build"}
	e.notices.SessionsOtherDirectories = 2 // ses_other, ses_sub
	return e
}

// fileSums describes every file below dirs: name, size and SHA-256, the
// -shm index included (scout's reader marks nothing there, where a SQLite
// reader would write its read mark).
func fileSums(t *testing.T, dirs ...string) string {
	t.Helper()
	var out []string
	for _, d := range dirs {
		filepath.Walk(d, func(p string, fi os.FileInfo, err error) error {
			if err != nil || fi.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(data)
			out = append(out, fmt.Sprintf("%s %v %d %s", p, fi.Mode(), fi.Size(), hex.EncodeToString(sum[:])))
			return nil
		})
	}
	slices.Sort(out)
	return strings.Join(out, "\n")
}

func (e dbEnv) dirs() []string {
	return []string{filepath.Dir(e.crushDB), filepath.Dir(e.opencodeDB)}
}

// listRowsAndNotices runs session.list.
func listOf(t *testing.T, p *scouttest.Proc) wire.SessionListResult {
	t.Helper()
	var list wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &list)
	return list
}

// TestDatabasesAtRest: crush's and opencode's databases at rest give
// their top-level sessions of this directory as rows (titles cleaned),
// never a child's, an archived one or one without a user message, count
// opencode's sessions of other directories, are read the same by
// session.discover, and are left exactly as they were: no byte changed,
// no -wal or -shm created.
func TestDatabasesAtRest(t *testing.T) {
	t.Parallel()
	e := newDBEnv(t)
	before := fileSums(t, e.dirs()...)
	if strings.Contains(before, "-wal") || strings.Contains(before, "-shm") {
		t.Fatalf("the fixture is not at rest:\n%s", before)
	}
	p := e.start(t)
	list := listOf(t, p)
	checkRows(t, e.want, list.Sessions)
	if list.Notices != e.notices {
		t.Errorf("notices %+v, want %+v", list.Notices, e.notices)
	}
	checkDiscovered(t, e.want, e.notices, mustFollow(t, p))
	if after := fileSums(t, e.dirs()...); after != before {
		t.Errorf("the databases changed:\n%s\nwas\n%s", after, before)
	}
}

// TestDatabaseLockedByAWriter: with opencode and crush running (each a
// connection in the middle of a write transaction, its -wal and -shm
// there), the committed sessions are still read, without waiting for the
// writers and without writing anything: the databases and their -wal are
// byte for byte as the writers left them.
func TestDatabaseLockedByAWriter(t *testing.T) {
	t.Parallel()
	e := newDBEnv(t)
	lock := func(path, schema string, insert func(sessionstest.DBSession) string, s sessionstest.DBSession) {
		t.Helper()
		w := sessionstest.MustOpenWriter(t, path, schema) // rolled back as it closes
		mustDo(t, w.Exec("BEGIN;\n"+insert(s)))
	}
	uncommitted := sessionstest.DBSession{ID: "ses_uncommitted", Dir: e.ws, Title: "not committed", Roles: []string{"user"}}
	lock(e.opencodeDB, sessionstest.OpenCodeSchema, sessionstest.OpenCodeInsertSQL, uncommitted)
	lock(e.crushDB, sessionstest.CrushSchema, sessionstest.CrushInsertSQL, uncommitted)
	before := fileSums(t, e.dirs()...)
	if !strings.Contains(before, "opencode.db-wal") || !strings.Contains(before, "crush.db-wal") {
		t.Fatalf("a writer has no -wal:\n%s", before)
	}
	p := e.start(t)
	checkRows(t, e.want, listOf(t, p).Sessions)
	checkDiscovered(t, e.want, e.notices, mustFollow(t, p))
	if after := fileSums(t, e.dirs()...); after != before {
		t.Errorf("the databases changed:\n%s\nwas\n%s", after, before)
	}
}

// TestBrokenDatabases: a crush database that is not a database and an
// opencode database of a schema scout does not know each count once in
// sessions_omitted_invalid (the second said on stderr, without a path),
// and the scan goes on with the other stores.
func TestBrokenDatabases(t *testing.T) {
	t.Parallel()
	e := newDBEnv(t)
	if err := os.WriteFile(e.crushDB, []byte("this is not a SQLite database, only a file named like one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Remove(e.opencodeDB)
	w, err := sessionstest.OpenWriter(e.opencodeDB, "CREATE TABLE session (id TEXT PRIMARY KEY, name TEXT);")
	if err != nil {
		t.Fatal(err)
	}
	mustDo(t, w.Close())
	sessionstest.MustWrite(t, filepath.Join(e.home, "sessions"), sessionstest.History{ID: "still-here", Cwds: []string{e.ws}})
	before := fileSums(t, e.dirs()...)
	p := e.start(t)
	list := listOf(t, p)
	if len(list.Sessions) != 1 || list.Sessions[0].ID != "still-here" || list.Notices.SessionsOmittedInvalid != 2 {
		t.Fatalf("list %+v", list)
	}
	pages := mustFollow(t, p)
	if n := pages[len(pages)-1].Notices; n.SessionsOmittedInvalid != 2 || len(ids(pages)) != 1 {
		t.Fatalf("discover %v, notices %+v", ids(pages), n)
	}
	stderr := p.Stderr()
	if !strings.Contains(stderr, "opencode's session database has a schema scout does not know") || strings.Contains(stderr, e.opencodeDB) || strings.Contains(stderr, e.ws) {
		t.Errorf("stderr %q", stderr)
	}
	if after := fileSums(t, e.dirs()...); after != before {
		t.Errorf("the files changed:\n%s\nwas\n%s", after, before)
	}
}

// TestDatabasesOpen: session.open of a crush or opencode session answers
// its row; a session of another directory is cwd_mismatch, a child's, an
// archived one, one without a user message and an unknown id not_found,
// and the attachment stays; the databases are left as they were.
func TestDatabasesOpen(t *testing.T) {
	t.Parallel()
	e := newDBEnv(t)
	before := fileSums(t, e.dirs()...)
	p := e.start(t)
	listed := map[sessionstest.Key]wire.SessionRow{}
	for _, r := range listOf(t, p).Sessions {
		listed[sessionstest.Key{Agent: r.Agent, ID: r.ID}] = r
	}
	var last wire.Attachment
	for k := range e.want {
		var open wire.SessionOpenResult
		p.MustCall(wire.MethodSessionOpen, map[string]any{"id": k.ID, "agent": k.Agent}, &open)
		if open.Session != listed[k] {
			t.Errorf("open %v: %+v, listed %+v", k, open.Session, listed[k])
		}
		last = open.Attachment
	}
	for _, tc := range []struct {
		agent, id string
		code      wire.Code
	}{
		{wire.AgentOpenCode, "ses_other", wire.CodeCwdMismatch},
		{wire.AgentOpenCode, "ses_sub", wire.CodeCwdMismatch},
		{wire.AgentOpenCode, "ses_here2", wire.CodeNotFound},
		{wire.AgentOpenCode, "ses_here3", wire.CodeNotFound},
		{wire.AgentOpenCode, "ses_here4", wire.CodeNotFound},
		{wire.AgentOpenCode, "ses_none", wire.CodeNotFound},
		{wire.AgentCrush, "c1a2b3c4-0002-4000-8000-000000000002", wire.CodeNotFound},
		{wire.AgentCrush, "c1a2b3c4-0003-4000-8000-000000000003", wire.CodeNotFound},
	} {
		wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": tc.id, "agent": tc.agent}), tc.code)
		if a := attachment(t, p); a == nil || *a != last {
			t.Fatalf("after a failed open of %s/%s the attachment is %+v", tc.agent, tc.id, a)
		}
	}
	if after := fileSums(t, e.dirs()...); after != before {
		t.Errorf("the databases changed:\n%s\nwas\n%s", after, before)
	}
}

// TestDatabasesChangingDuringAScan: once every store has been read and the
// second pass is under way, a session of this directory appearing in
// opencode's database makes the scan stale_revision; a message appended
// to a session, which only updates it, and a session of another
// directory appearing do not: they change no row the scan read. Each
// case twice: opencode not running while the scan read its database (at
// rest; the change is checkpointed into the main file when opencode
// exits), and opencode running all along (live: the change is a commit
// in its -wal, seen as a new last commit).
func TestDatabasesChangingDuringAScan(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name  string
		s     sessionstest.DBSession
		stale bool
	}{
		{"new here", sessionstest.DBSession{ID: "ses_new", Title: "new", Roles: []string{"user"}}, true},
		{"new elsewhere", sessionstest.DBSession{ID: "ses_new", Title: "new", Roles: []string{"user"}, Dir: "/srv/elsewhere"}, false},
		{"message appended", sessionstest.DBSession{}, false},
	} {
		for _, live := range []bool{false, true} {
			name := tc.name + "/at rest"
			if live {
				name = tc.name + "/live"
			}
			t.Run(name, func(t *testing.T) { changeDuringAScan(t, tc.s, live, tc.stale) })
		}
	}
}

// changeDuringAScan adds session s to opencode's database (or, s empty, a
// message to a session) once a scan's second pass is under way, with
// opencode running during the whole scan when live, and follows the scan
// to stale_revision when stale, else to its end. crush's database, which
// nothing changes, is left as it was.
func changeDuringAScan(t *testing.T, s sessionstest.DBSession, live, stale bool) {
	t.Parallel()
	e := newDBEnv(t)
	for i := range 300 {
		os.WriteFile(filepath.Join(e.home, "sessions", fmt.Sprintf("pad-%03d.lock", i)), nil, 0o644)
	}
	var w *sessionstest.Writer
	openWriter := func() {
		// opencode starts: its connection has read the database (its
		// journal mode), so the -wal and -shm exist.
		w = sessionstest.MustOpenWriter(t, e.opencodeDB, sessionstest.OpenCodeSchema)
	}
	if live {
		openWriter() // its -wal and -shm exist before the scan starts
		defer w.Close()
		if sums := fileSums(t, filepath.Dir(e.opencodeDB)); !strings.Contains(sums, "-wal") || !strings.Contains(sums, "-shm") {
			t.Fatalf("opencode is not running:\n%s", sums)
		}
	}
	crush := fileSums(t, filepath.Dir(e.crushDB))
	p := e.start(t)
	res := firstPage(t, p)
	for res.Progress != wire.ProgressInventoryValidation {
		if res.Complete {
			t.Fatal("the scan completed before its second pass paused")
		}
		res = next(t, p, res.Cursor)
	}
	if !live {
		openWriter()
	}
	if s.ID != "" {
		if s.Dir == "" {
			s.Dir = e.ws
		}
		mustDo(t, w.Exec(sessionstest.Transaction([]sessionstest.DBSession{s}, sessionstest.OpenCodeInsertSQL)))
	} else {
		mustDo(t, w.Exec("INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_late', 'ses_here1', 1, 1, '{\"role\":\"assistant\"}'); UPDATE session SET time_updated = time_updated + 1 WHERE id = 'ses_here1';"))
	}
	if !live {
		mustDo(t, w.Close()) // opencode exits: the commit is checkpointed into the main file
	}
	finishAfterChange(t, p, res.Cursor, stale)
	if after := fileSums(t, filepath.Dir(e.crushDB)); after != crush {
		t.Errorf("crush's database changed:\n%s\nwas\n%s", after, crush)
	}
}

func mustDo(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestDatabasesCheckpointedWhileRead: opencode and crush run all along,
// committing messages to their sessions (one a millisecond) and
// checkpointing their -wal into the main file after every second commit
// (PASSIVE mostly, at times FULL or TRUNCATE, the last starting a new
// -wal) while session.list and whole discoveries read
// both databases. A step whose snapshot a checkpoint moved under is read
// again, so every answer has exactly the sessions of the databases and
// none is counted unreadable.
func TestDatabasesCheckpointedWhileRead(t *testing.T) {
	t.Parallel()
	e := newDBEnv(t)
	opencode := sessionstest.MustOpenWriter(t, e.opencodeDB, sessionstest.OpenCodeSchema)
	crush := sessionstest.MustOpenWriter(t, e.crushDB, sessionstest.CrushSchema)
	stop, done := make(chan struct{}), make(chan error, 1)
	// The writer stops before the writers are closed (cleanups run last
	// registered first), also when the test fails: Close reads what the
	// sqlite3 shell printed, which a Query in flight reads too.
	halt := sync.OnceValue(func() error { close(stop); return <-done })
	t.Cleanup(func() { halt() })
	go func() {
		// Mostly what SQLite's autocheckpoint does (PASSIVE), at times
		// a FULL one and a TRUNCATE, which an agent runs as it closes.
		modes := []string{"PASSIVE", "PASSIVE", "FULL", "PASSIVE", "TRUNCATE"}
		for i := 0; ; i++ {
			select {
			case <-stop:
				done <- nil
				return
			default:
			}
			pad := strings.Repeat("lorem ipsum ", 40*(i%7+1)) // some messages span pages
			err := opencode.Exec(fmt.Sprintf("INSERT INTO message (id, session_id, time_created, time_updated, data) VALUES ('msg_x%d', 'ses_here1', 1, 1, '{\"role\":\"assistant\",\"text\":\"%s\"}');", i, pad))
			if err == nil {
				err = crush.Exec(fmt.Sprintf("INSERT INTO messages (id, session_id, role, parts, model, provider, created_at, updated_at) VALUES ('m-x%d', 'c1a2b3c4-0001-4000-8000-000000000001', 'assistant', '%s', 'gpt-5', 'openai', 1, 1);", i, pad))
			}
			if err == nil && i%2 == 1 {
				mode := modes[(i/2)%len(modes)]
				if _, err = opencode.Query("PRAGMA wal_checkpoint(" + mode + ");"); err == nil {
					_, err = crush.Query("PRAGMA wal_checkpoint(" + mode + ");")
				}
			}
			if err != nil {
				done <- err
				return
			}
			// The writer's pace, a commit a millisecond to each database:
			// far above an agent's, slow enough that a step can finish
			// between two truncations.
			time.Sleep(time.Millisecond)
		}
	}()
	p := e.start(t)
	for i := range 40 {
		list := listOf(t, p)
		checkRows(t, e.want, list.Sessions)
		if list.Notices != e.notices {
			t.Fatalf("list %d: notices %+v, want %+v\n%s", i, list.Notices, e.notices, p.Stderr())
		}
		if i%8 == 0 {
			checkDiscovered(t, e.want, e.notices, mustFollow(t, p))
		}
	}
	if err := halt(); err != nil {
		t.Fatal(err)
	}
}

// TestOpenCodeDatabaseNamedRelatively: a relative OPENCODE_DB names a
// database below $XDG_DATA_HOME/opencode, as opencode reads it; ":memory:"
// is a database opencode never saves, so none is read, not even the one
// at the default place.
func TestOpenCodeDatabaseNamedRelatively(t *testing.T) {
	t.Parallel()
	e := newDBEnv(t)
	data := t.TempDir()
	db, err := os.ReadFile(e.opencodeDB)
	mustDo(t, err)
	mustDo(t, os.MkdirAll(filepath.Join(data, "opencode"), 0o755))
	mustDo(t, os.WriteFile(filepath.Join(data, "opencode", "custom.db"), db, 0o644))
	mustDo(t, os.WriteFile(filepath.Join(data, "opencode", "opencode.db"), db, 0o644))
	crushOnly := map[sessionstest.Key]sessionstest.Want{}
	for k, w := range e.want {
		if k.Agent == wire.AgentCrush {
			crushOnly[k] = w
		}
	}
	for _, tc := range []struct {
		value   string
		want    map[sessionstest.Key]sessionstest.Want
		notices wire.SessionNotices
	}{
		{"custom.db", e.want, e.notices},
		{":memory:", crushOnly, wire.SessionNotices{}},
	} {
		p := scouttest.Start(t, scouttest.Options{Dir: e.ws, Env: []string{"SCOUT_HOME=" + e.home, "XDG_DATA_HOME=" + data,
			"OPENCODE_DB=" + tc.value, "CRUSH_GLOBAL_DATA=" + filepath.Join(e.home, "no-crush-data")}})
		p.Initialize(sessionCaps...)
		list := listOf(t, p)
		checkRows(t, tc.want, list.Sessions)
		if list.Notices != tc.notices {
			t.Errorf("OPENCODE_DB=%s: notices %+v, want %+v", tc.value, list.Notices, tc.notices)
		}
	}
}

// TestCrushProjectsJSON: crush's projects.json (in $CRUSH_GLOBAL_DATA)
// adds the data directories it records for the workspace root. The one
// crush itself records, the workspace's own .crush (absolute or
// relative), is read once: its sessions are not listed twice. Another
// data directory of the workspace is read too; one recorded for another
// path is not.
func TestCrushProjectsJSON(t *testing.T) {
	t.Parallel()
	e := newDBEnv(t)
	global := t.TempDir()
	elsewhere, other := t.TempDir(), t.TempDir()
	mustDo(t, sessionstest.WriteCrush(filepath.Join(elsewhere, "crush.db"),
		sessionstest.DBSession{ID: "c1a2b3c4-0009-4000-8000-000000000009", Title: "Crush: from the data directory", Roles: []string{"user", "assistant"}}))
	mustDo(t, sessionstest.WriteCrush(filepath.Join(other, "crush.db"),
		sessionstest.DBSession{ID: "c1a2b3c4-0010-4000-8000-000000000010", Title: "Crush: another project", Roles: []string{"user", "assistant"}}))
	want := maps.Clone(e.want)
	want[sessionstest.Key{Agent: wire.AgentCrush, ID: "c1a2b3c4-0009-4000-8000-000000000009"}] = sessionstest.Want{Title: "Crush: from the data directory"}
	projects := fmt.Sprintf(`{"projects":[{"path":%q,"data_dir":%q},{"path":%q,"data_dir":".crush"},{"path":%q,"data_dir":%q},{"path":"/srv/other","data_dir":%q}]}`,
		e.ws, filepath.Join(e.ws, ".crush"), e.ws, e.ws, elsewhere, other)
	mustDo(t, os.WriteFile(filepath.Join(global, "projects.json"), []byte(projects), 0o644))
	p := scouttest.Start(t, scouttest.Options{Dir: e.ws, Env: []string{"SCOUT_HOME=" + e.home, "OPENCODE_DB=" + e.opencodeDB, "CRUSH_GLOBAL_DATA=" + global}})
	p.Initialize(sessionCaps...)
	list := listOf(t, p)
	checkRows(t, want, list.Sessions)
	checkDiscovered(t, want, e.notices, mustFollow(t, p))
}
