package sessions

import (
	"errors"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// Claude Code's live markers: while it runs, Claude Code keeps
// $CLAUDE_CONFIG_DIR/sessions/<pid>.json, {"pid":N,"sessionId":S,"cwd":S,
// "startedAt":N} (sessionstest/claude.go gives the source). A session is
// busy when a marker names it and names the pid of a process that is
// alive. The markers are read at most once a second (markersTTL), at most
// maxMarkers of them, each at most maxLockBytes: the hint costs a scan a
// few small reads, never memory that grows with the store.
const (
	markersTTL = time.Second
	maxMarkers = 1024
)

// claudeMarkers caches the sessions the markers say are busy.
type claudeMarkers struct {
	dir  string
	at   time.Time
	live map[string]bool
}

// busy reports whether a live marker names session id.
func (c *claudeMarkers) busy(id string, now time.Time) bool {
	if c.live == nil || now.Sub(c.at) >= markersTTL || now.Before(c.at) {
		c.live, c.at = readMarkers(c.dir), now
	}
	return c.live[id]
}

// readMarkers reads the markers of dir/sessions/ through the guarded
// helpers (no symlink followed, only regular files read).
func readMarkers(dir string) map[string]bool {
	live := map[string]bool{}
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		return live
	}
	defer root.Close()
	d, err := root.OpenDir("sessions")
	if err != nil {
		return live
	}
	defer d.Close()
	entries, _ := d.ReadEntries(maxMarkers)
	for _, e := range entries {
		if id, ok := readMarker(d, e); ok {
			live[id] = true
		}
	}
	return live
}

// claudeMarker is the part of a marker the hint reads.
type claudeMarker struct {
	PID       int64  `json:"pid"`
	SessionID string `json:"sessionId"`
}

// readMarker returns the session a live marker names.
func readMarker(d *fsguard.Dir, e fsguard.Entry) (string, bool) {
	digits, ok := strings.CutSuffix(e.Name, ".json")
	pid, err := strconv.ParseInt(digits, 10, 32)
	if !ok || err != nil || pid <= 1 || !e.Type.IsRegular() {
		return "", false
	}
	f, _, err := d.OpenFile(e.Name)
	if err != nil {
		return "", false
	}
	defer f.Close()
	buf := make([]byte, maxLockBytes)
	n, _ := f.Read(buf)
	var m claudeMarker
	if wire.Unmarshal(buf[:n], &m) != nil || m.PID != pid || !wire.ValidSessionID(m.SessionID) {
		return "", false
	}
	return m.SessionID, alive(int(pid))
}

// alive reports whether process pid exists (signal 0 only checks; a
// process of another user answers EPERM and is alive too).
func alive(pid int) bool {
	err := unix.Kill(pid, 0)
	return err == nil || errors.Is(err, unix.EPERM)
}
