package adversarial

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/leakscan"
	"github.com/scoutdev/scout/internal/scouttest"
)

// memoryDir is a fresh directory on tmpfs (/dev/shm), which keeps any
// 64-bit file time, or a temporary directory where there is none.
func memoryDir(t *testing.T) string {
	t.Helper()
	var st unix.Statfs_t
	if unix.Statfs("/dev/shm", &st) == nil && st.Type == unix.TMPFS_MAGIC {
		dir, err := os.MkdirTemp("/dev/shm", "scout-adversarial-")
		must(t, err)
		t.Cleanup(func() { os.RemoveAll(dir) })
		return dir
	}
	return t.TempDir()
}

// TestTimesOutsideRFC3339 gives the backend times RFC 3339 cannot write:
// files stamped in years -249 and 11476 (tmpfs keeps them), and a history
// whose record's offset puts it in year -1 in UTC. project.list writes
// clamped RFC 3339 mtimes; the history is malformed (counted, not a row
// with an unwritable time).
func TestTimesOutsideRFC3339(t *testing.T) {
	t.Parallel()
	ws := memoryDir(t)
	for name, sec := range map[string]int64{"future.txt": 3e11, "past.txt": -7e10, "now.txt": time.Now().Unix()} {
		p := filepath.Join(ws, name)
		must(t, os.WriteFile(p, []byte(visibleContent), 0o644))
		must(t, unix.UtimesNano(p, []unix.Timespec{{Sec: sec}, {Sec: sec}}))
	}
	home := t.TempDir()
	store := filepath.Join(home, "sessions")
	must(t, os.MkdirAll(store, 0o700))
	must(t, os.WriteFile(filepath.Join(store, "old.jsonl"), []byte(`{"v":1,"type":"user","ts":"0000-01-01T00:30:00+01:00","text":"x"}`+"\n"), 0o600))
	must(t, os.WriteFile(filepath.Join(store, "ok.jsonl"), []byte(`{"v":1,"type":"user","ts":"9999-12-31T23:30:00+01:00","text":"x"}`+"\n"), 0o600))
	p := start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home}}, leakscan.Canaries{Paths: []string{home}})
	p.Initialize(wire.MethodProjectList, wire.MethodSessionList)
	var l wire.ListResult
	p.MustCall(wire.MethodProjectList, map[string]any{"ref": "root"}, &l)
	for _, e := range l.Entries {
		if _, err := time.Parse(time.RFC3339, e.Mtime); err != nil {
			t.Errorf("%s: mtime %q is not RFC 3339", e.Name, e.Mtime)
		}
	}
	var s wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &s)
	if len(s.Sessions) != 1 || s.Sessions[0].ID != "ok" || s.Notices.SessionsOmittedInvalid != 1 {
		t.Errorf("session.list: %+v", s)
	}
	for _, r := range s.Sessions {
		for _, ts := range []string{r.CreatedAt, r.UpdatedAt} {
			if _, err := time.Parse(time.RFC3339, ts); err != nil {
				t.Errorf("row time %q is not RFC 3339", ts)
			}
		}
	}
}
