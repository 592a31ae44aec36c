package sessions

import (
	"errors"
	"os"
	"time"

	"golang.org/x/sys/unix"

	"github.com/scoutdev/scout/backend/fsguard"
)

// fstatFile describes an open file the way fsguard describes entries, so the
// two compare field by field.
func fstatFile(f *os.File) (fsguard.Info, error) {
	rc, err := f.SyscallConn()
	if err != nil {
		return fsguard.Info{}, err
	}
	var st unix.Stat_t
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = unix.Fstat(int(fd), &st) }); err != nil {
		return fsguard.Info{}, err
	}
	if serr != nil {
		return fsguard.Info{}, errors.New("sessions: fstat failed")
	}
	return fsguard.Info{
		Dev: uint64(st.Dev), Ino: uint64(st.Ino), Size: st.Size, Nlink: uint64(st.Nlink),
		Mode:       modeOf(st.Mode),
		ModTime:    time.Unix(st.Mtim.Unix()),
		ChangeTime: time.Unix(st.Ctim.Unix()),
	}, nil
}

// modeOf keeps the type and permission bits that matter for a signature.
func modeOf(m uint32) os.FileMode {
	mode := os.FileMode(m & 0o7777)
	if m&unix.S_IFMT == unix.S_IFREG {
		return mode
	}
	return mode | os.ModeIrregular
}

// sameSignature compares what a history's signature covers: identity,
// permissions, length, modification and change time. The type is compared
// as regular or not (fstat is only ever taken of regular files here).
func sameSignature(a, b fsguard.Info) bool {
	return a.Dev == b.Dev && a.Ino == b.Ino && a.Size == b.Size &&
		a.Mode.Perm() == b.Mode.Perm() && a.Mode.IsRegular() == b.Mode.IsRegular() &&
		a.ModTime.Equal(b.ModTime) && a.ChangeTime.Equal(b.ChangeTime)
}
