package sessions

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions/internal/sqlitefile"
	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
)

// TestNoDatabaseNoOpen: session.list and a whole discovery over stores
// where neither opencode's nor crush's database exists open no database
// file; once opencode's database exists, they do.
func TestNoDatabaseNoOpen(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, _ := sessionstest.Home(t)
	data := t.TempDir()
	stores := Stores{OpenCode: filepath.Join(data, "opencode", "opencode.db"), CrushData: filepath.Join(data, "crush"), Crush: true}
	svc := New(Config{Home: home, Workspace: ws, Stores: stores})
	ctx := context.Background()
	run := func() {
		t.Helper()
		if _, err := svc.List(ctx); err != nil {
			t.Fatal(err)
		}
		var cursor *string
		for {
			res, commit, err := svc.Discover(ctx, cursor)
			if err != nil {
				t.Fatal(err)
			}
			if commit != nil {
				commit()
			}
			if res.Complete {
				return
			}
			cursor = res.Cursor
		}
	}
	before := dbOpens.Load()
	run()
	if n := dbOpens.Load() - before; n != 0 {
		t.Fatalf("%d databases opened where none exists", n)
	}
	if err := sessionstest.WriteOpenCode(stores.OpenCode, sessionstest.DBSession{ID: "ses_1", Dir: ws, Title: "t", Roles: []string{"user"}}); err != nil {
		t.Fatal(err)
	}
	run()
	if dbOpens.Load() == before {
		t.Fatal("opencode's database was never opened")
	}
}

// TestDatabaseWithoutIndexesReadsAsIndexed: an opencode database whose
// session and message tables have no index (no primary key, no index on
// the messages' session) gives, in steps over its table read whole, the
// same rows and notices as the same sessions in a database with them,
// read through the indexes: 250 sessions inserted out of id order, so
// that each step's page is the smallest ids after the last, children,
// archived ones, ones without a user message and other directories'
// among them; session.open of each kind answers the same too.
func TestDatabaseWithoutIndexesReadsAsIndexed(t *testing.T) {
	t.Parallel()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var sessions []sessionstest.DBSession
	want := 0
	for _, i := range rand.New(rand.NewPCG(3, 4)).Perm(250) {
		s := sessionstest.DBSession{ID: fmt.Sprintf("ses_%03d", i), Dir: ws, Title: fmt.Sprintf("session %d", i), Roles: []string{"user", "assistant"},
			Created: sessionstest.Epoch.Add(time.Duration(i) * time.Minute)}
		switch {
		case i%7 == 0:
			s.Parent = "ses_000"
		case i%11 == 0:
			s.Archived = true
		case i%13 == 0:
			s.Roles = []string{"assistant"}
		case i%5 == 0:
			s.Dir = "/srv/elsewhere"
		default:
			want++
		}
		sessions = append(sessions, s)
	}
	unindexed := strings.ReplaceAll(sessionstest.OpenCodeSchema, "`id` text PRIMARY KEY", "`id` text")
	unindexed = strings.Replace(unindexed, "CREATE INDEX IF NOT EXISTS `message_session_idx` ON `message` (`session_id`);\n", "", 1)
	if unindexed == sessionstest.OpenCodeSchema {
		t.Fatal("the schema was not changed")
	}
	// session.open of these ids: a row, a child's, an archived one, one
	// without a user message, another directory's, none.
	opens := []string{"ses_001", "ses_007", "ses_011", "ses_013", "ses_005", "ses_999"}
	var opened []string
	discover := func(schema string) ([]wire.SessionRow, wire.SessionNotices) {
		t.Helper()
		path := filepath.Join(t.TempDir(), "opencode.db")
		w := sessionstest.MustOpenWriter(t, path, schema)
		if err := w.Exec(sessionstest.Transaction(sessions, sessionstest.OpenCodeInsertSQL)); err != nil {
			t.Fatal(err)
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		db, err := sqlitefile.Open(sqlitefileFiles(t, path))
		if err != nil {
			t.Fatal(err)
		}
		tb, err := db.Table("session")
		if err != nil {
			t.Fatal(err)
		}
		if msg, _ := db.Table("message"); (tb.Index("id") == nil) != (schema == unindexed) || (msg.Index("session_id") == nil) != (schema == unindexed) {
			t.Fatalf("indexes on session.id %v, message.session_id %v", tb.Index("id") != nil, msg.Index("session_id") != nil)
		}
		home, _ := sessionstest.Home(t)
		svc := New(Config{Home: home, Workspace: ws, Stores: Stores{OpenCode: path, CrushData: t.TempDir()}})
		for _, id := range opens {
			res, _, err := svc.Open(context.Background(), id, wire.AgentOpenCode)
			outcome := fmt.Sprint(err)
			if res != nil {
				outcome = res.Session.ID + " " + res.Session.Title
			}
			opened = append(opened, outcome)
		}
		var rows []wire.SessionRow
		var cursor *string
		for {
			res, commit, err := svc.Discover(context.Background(), cursor)
			if err != nil {
				t.Fatal(err)
			}
			if commit != nil {
				commit()
			}
			rows = append(rows, res.Sessions...)
			if res.Complete {
				slices.SortFunc(rows, func(a, b wire.SessionRow) int { return strings.Compare(a.ID, b.ID) })
				return rows, res.Notices
			}
			cursor = res.Cursor
		}
	}
	rows, notices := discover(sessionstest.OpenCodeSchema)
	if len(rows) != want {
		t.Fatalf("%d rows through the indexes, want %d", len(rows), want)
	}
	if opened[0] != "ses_001 session 1" {
		t.Fatalf("session.open through the indexes: %q", opened)
	}
	indexed := opened
	t.Logf("session.open: %q", indexed)
	opened = nil
	bare, bareNotices := discover(unindexed)
	if !slices.EqualFunc(rows, bare, func(a, b wire.SessionRow) bool { return a == b }) || notices != bareNotices {
		t.Fatalf("without indexes: %d rows, notices %+v; with them %d, %+v", len(bare), bareNotices, len(rows), notices)
	}
	if !slices.Equal(opened, indexed) {
		t.Fatalf("session.open without indexes %q, with them %q", opened, indexed)
	}
}

// sqlitefileFiles opens path's main file for sqlitefile.Open (at rest).
func sqlitefileFiles(t *testing.T, path string) sqlitefile.Files {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return sqlitefile.Files{Main: f, MainSize: fi.Size()}
}
