package sessions

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"io/fs"
	"strings"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// StoreDir is the session store inside the backend home.
const StoreDir = "sessions"

// errUnavailable: the store is unsafe (a symlink, not a directory) or
// unreadable.
var errUnavailable = errors.New("sessions: store unsafe or unreadable")

// store is the session store opened for one request or one scan. A home
// or sessions/ directory that does not exist is an empty store (missing),
// not an error: a fresh installation has no sessions yet.
type store struct {
	home    string
	root    *fsguard.Root // nil when the home does not exist
	dir     *fsguard.Dir  // nil when missing
	info    fsguard.Info  // the store directory when opened
	missing bool
}

// openStore opens home/sessions through the guarded helpers.
func openStore(home string) (*store, error) {
	if home == "" {
		return nil, errUnavailable
	}
	st := &store{home: home}
	root, err := fsguard.OpenRoot(home)
	if errors.Is(err, fsguard.ErrNotFound) {
		st.missing = true
		return st, nil
	}
	if err != nil {
		return nil, errUnavailable
	}
	st.root = root
	dir, err := root.OpenDir(StoreDir)
	if errors.Is(err, fsguard.ErrNotFound) {
		st.missing = true
		return st, nil
	}
	if err != nil {
		root.Close()
		return nil, errUnavailable
	}
	st.dir = dir
	if st.info, err = dir.Stat(); err != nil {
		st.close()
		return nil, errUnavailable
	}
	return st, nil
}

func (st *store) close() {
	if st.dir != nil {
		st.dir.Close()
		st.dir = nil
	}
	if st.root != nil {
		st.root.Close()
		st.root = nil
	}
}

// unchanged reports whether the store is still what it was when opened:
// still missing, or the same directory (device and inode, reached without a
// symlink) with the same permissions and change time. Any name created,
// removed or renamed in it changes its change time.
func (st *store) unchanged() bool {
	if st.missing {
		probe, err := openStore(st.home)
		if err != nil {
			return false
		}
		defer probe.close()
		return probe.missing
	}
	now, err := st.dir.Stat()
	if err != nil || !now.SameFile(st.info) || now.Mode != st.info.Mode || !now.ChangeTime.Equal(st.info.ChangeTime) {
		return false
	}
	fi, err := st.root.Lstat(StoreDir)
	if err != nil || !fi.IsDir() {
		return false
	}
	info, ok := fi.Sys().(*fsguard.Info)
	return ok && info.SameFile(st.info)
}

// Entry classes of the store.
type entryClass int

const (
	classOther   entryClass = iota // never a session: archive/, subagents, temp files
	classHistory                   // <id>.jsonl
	classLock                      // <id>.lock
)

// classify names an entry's class and its session id. Subagent histories
// (<id>.subagent-N.jsonl) fail the id grammar, which has no dot.
func classify(name string) (entryClass, string) {
	if id, ok := strings.CutSuffix(name, ".jsonl"); ok && wire.ValidSessionID(id) {
		return classHistory, id
	}
	if id, ok := strings.CutSuffix(name, ".lock"); ok && wire.ValidSessionID(id) {
		return classLock, id
	}
	return classOther, ""
}

// nextEntry reads one name from d in OS order; ok is false at the end.
func nextEntry(d *fsguard.Dir) (name string, typ fs.FileMode, ok bool, err error) {
	err = d.Scan(func(n []byte, t fs.FileMode) bool {
		name, typ, ok = string(n), t, true
		return false
	})
	return name, typ, ok, err
}

// signature is an order-independent digest of the store's inventory: the sum
// (mod 2^64, two lanes) of a SHA-256 of each relevant entry, plus the count.
// Histories (any type) contribute name, identity, type and permissions,
// length, modification and change time; lock files contribute their name
// only, so renewing a lock is not a change but one appearing or
// disappearing is. Names that are never sessions are left out (an agent
// appending to a subagent history does not invalidate discovery; a name
// created or removed still changes the store directory's change time).
type signature struct {
	count uint64
	a, b  uint64
}

func (s *signature) addHistory(name string, info fsguard.Info) {
	var buf [8 * 6]byte
	binary.LittleEndian.PutUint64(buf[0:], info.Dev)
	binary.LittleEndian.PutUint64(buf[8:], info.Ino)
	binary.LittleEndian.PutUint64(buf[16:], uint64(info.Mode.Perm())|uint64(info.Mode.Type()))
	binary.LittleEndian.PutUint64(buf[24:], uint64(info.Size))
	binary.LittleEndian.PutUint64(buf[32:], uint64(info.ModTime.UnixNano()))
	binary.LittleEndian.PutUint64(buf[40:], uint64(info.ChangeTime.UnixNano()))
	s.add('h', name, buf[:])
}

func (s *signature) addLock(name string) { s.add('l', name, nil) }

func (s *signature) add(kind byte, name string, fields []byte) {
	h := sha256.New()
	h.Write([]byte{kind})
	h.Write([]byte(name))
	h.Write([]byte{0})
	h.Write(fields)
	var sum [sha256.Size]byte
	h.Sum(sum[:0])
	s.count++
	s.a += binary.LittleEndian.Uint64(sum[0:])
	s.b += binary.LittleEndian.Uint64(sum[8:])
}
