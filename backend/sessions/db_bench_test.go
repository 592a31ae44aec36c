package sessions_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// writeMany writes n sessions made by mk into the database at path with
// insert, in transactions of 500, through one sqlite3 process.
func writeMany(tb testing.TB, path, schema string, n int, mk func(i int) sessionstest.DBSession, insert func(sessionstest.DBSession) string) {
	tb.Helper()
	w := sessionstest.MustOpenWriter(tb, path, schema)
	batch := make([]sessionstest.DBSession, 0, 500)
	for start := 0; start < n; start += 500 {
		batch = batch[:0]
		for i := start; i < min(start+500, n); i++ {
			batch = append(batch, mk(i))
		}
		if err := w.Exec(sessionstest.Transaction(batch, insert)); err != nil {
			tb.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		tb.Fatal(err)
	}
}

// TestDatabaseDiscoveryCost discovers, through the real binary, opencode's
// database with 10,000 sessions of this workspace (and 2,000 of another
// directory), then crush's database of 500 MB (2,000 sessions of five
// messages of about 50 KiB), three times each, and logs the wall and CPU
// time and the backend's peak RSS. It writes its databases only with
// SCOUT_TEST_BIG_STORE=1; run it without -race.
func TestDatabaseDiscoveryCost(t *testing.T) {
	if os.Getenv(BigStoreEnv) != "1" {
		t.Skip("set " + BigStoreEnv + "=1 to write and discover 10,000 opencode sessions and a 500 MB crush database")
	}
	ws := canonicalTemp(t)
	home, _ := sessionstest.Home(t)
	chat := []string{"user", "assistant", "user", "assistant"}
	opencodeDB := filepath.Join(t.TempDir(), "opencode.db")
	writeMany(t, opencodeDB, sessionstest.OpenCodeSchema, 12000, func(i int) sessionstest.DBSession {
		dir := ws
		if i%6 == 5 {
			dir = "/srv/elsewhere"
		}
		return sessionstest.DBSession{ID: fmt.Sprintf("ses_%06d", i), Dir: dir, Title: fmt.Sprintf("opencode session %d", i), Roles: chat, PartBytes: 512,
			Created: sessionstest.Epoch.Add(time.Duration(i) * time.Minute)}
	}, sessionstest.OpenCodeInsertSQL)
	crushDB := filepath.Join(ws, ".crush", "crush.db")
	writeMany(t, crushDB, sessionstest.CrushSchema, 2000, func(i int) sessionstest.DBSession {
		return sessionstest.DBSession{ID: sessionstest.ID(fmt.Sprintf("crush-%d", i)), Title: fmt.Sprintf("crush session %d", i),
			Roles: []string{"user", "assistant", "user", "assistant", "user"}, PartBytes: 50 << 10}
	}, sessionstest.CrushInsertSQL)
	for _, db := range []string{opencodeDB, crushDB} {
		fi, err := os.Stat(db)
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d bytes", filepath.Base(db), fi.Size())
	}
	for _, tc := range []struct {
		name string
		env  []string
		rows int
	}{
		{"opencode 10,000 sessions", []string{"OPENCODE_DB=" + opencodeDB, "CRUSH_GLOBAL_DATA=" + t.TempDir()}, 10000},
		{"crush 500 MB", []string{"OPENCODE_DB=" + filepath.Join(t.TempDir(), "none.db"), "CRUSH_GLOBAL_DATA=" + t.TempDir()}, 2000},
	} {
		if tc.name == "crush 500 MB" {
			os.Rename(opencodeDB, opencodeDB+".aside")
		} else {
			os.Rename(crushDB, crushDB+".aside")
		}
		p := scouttest.Start(t, scouttest.Options{Dir: ws, Env: append([]string{"SCOUT_HOME=" + home}, tc.env...)})
		p.Initialize(wire.MethodSessionDiscover)
		var wall, cpu []time.Duration
		rows := 0
		for range 3 {
			pages, w, c := timedFollow(t, p)
			wall, cpu = append(wall, w), append(cpu, c)
			rows = len(ids(pages))
		}
		t.Logf("%s: %d rows, wall %v (median %v), cpu %v (median %v), VmHWM %d KiB", tc.name, rows, wall, median(wall), cpu, median(cpu), p.VmHWM())
		if rows != tc.rows {
			t.Errorf("%s: %d rows, want %d", tc.name, rows, tc.rows)
		}
		os.Rename(opencodeDB+".aside", opencodeDB)
		os.Rename(crushDB+".aside", crushDB)
	}
}
