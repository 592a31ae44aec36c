package sessions

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
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
