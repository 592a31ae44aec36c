package sessions

import (
	"io"
	"time"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/rfc3339"
	"github.com/scoutdev/scout/backend/wire"
)

// BusyWindow is how recently a lock must have been renewed for its session
// to be reported busy.
const BusyWindow = 30 * time.Second

// maxLockBytes bounds how much of a lock file is read; a real one is a few
// dozen bytes.
const maxLockBytes = 4096

// lockName is the lock file of history id.
func lockName(id string) string { return id + ".lock" }

// lockFile is the content of sessions/<id>.lock.
type lockFile struct {
	PID       int64  `json:"pid"`
	RenewedAt string `json:"renewed_at"`
}

// busy reports the conservative busy hint for id: its lock file is a
// regular file (never followed if a symlink) renewed within BusyWindow of
// now, in either direction (a small clock skew between writer and reader
// still counts). renewed_at is the renewal time; when the content cannot be
// read as a lock, the file's modification time stands in for it.
func busy(dir *fsguard.Dir, id string, now time.Time) bool {
	f, info, err := dir.OpenFile(lockName(id))
	if err != nil {
		return false
	}
	defer f.Close()
	renewed := info.ModTime
	if data, err := io.ReadAll(io.LimitReader(f, maxLockBytes)); err == nil {
		renewed = lockRenewed(data, info.ModTime)
	}
	age := now.Sub(renewed)
	return age <= BusyWindow && age >= -BusyWindow
}

// lockRenewed is the renewal time a lock file's content records, or
// modTime when the content is not a lock.
func lockRenewed(data []byte, modTime time.Time) time.Time {
	var lf lockFile
	if wire.Unmarshal(data, &lf) == nil {
		if t, err := rfc3339.Parse(lf.RenewedAt); err == nil {
			return t
		}
	}
	return modTime
}
