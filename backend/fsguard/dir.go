package fsguard

import (
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// Entry is one name read from a directory, with its type bits
// (fs.ModeDir, fs.ModeSymlink, fs.ModeNamedPipe, ...; 0 for a regular file).
type Entry struct {
	Name string
	Type fs.FileMode
}

// Dir is an open directory below a Root. Children are opened relative to its
// descriptor. A Dir is not safe for concurrent use.
type Dir struct {
	fd  int
	rd  *dirReader // lazily allocated buffer state for ReadEntries
	eof bool
}

const (
	dirFlags  = unix.O_RDONLY | unix.O_DIRECTORY | unix.O_NOFOLLOW | unix.O_CLOEXEC
	fileFlags = unix.O_RDONLY | unix.O_NOFOLLOW | unix.O_NONBLOCK | unix.O_NOCTTY | unix.O_CLOEXEC
)

// OpenDir opens the child directory name relative to d. A symlink is
// ErrUnsafe, anything else that is not a directory ErrNotDir.
func (d *Dir) OpenDir(name string) (*Dir, error) {
	if d.fd < 0 {
		return nil, kindErr(ErrClosed)
	}
	if !SafeName(name) {
		return nil, kindErr(ErrUnsafe)
	}
	return openDirAt(d.fd, name)
}

// openDirAt opens one component below the directory descriptor dirfd.
func openDirAt(dirfd int, name string) (*Dir, error) {
	fd, err := openat(dirfd, name, dirFlags, 0)
	if err != nil {
		return nil, classifyOpenErr(dirfd, name, err)
	}
	return &Dir{fd: fd}, nil
}

// classifyOpenErr refines a failed directory open: depending on the kernel,
// O_NOFOLLOW|O_DIRECTORY on a symlink is ELOOP or ENOTDIR, and the caller
// must learn that a symlink is unsafe, not merely "not a directory".
func classifyOpenErr(dirfd int, name string, err error) error {
	if err != unix.ENOTDIR {
		return mapErr(err)
	}
	var st unix.Stat_t
	if fstatat(dirfd, name, &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFLNK {
		return &guardError{kind: ErrUnsafe, errno: unix.ELOOP}
	}
	return mapErr(err)
}

// Stat describes d itself (fstat).
func (d *Dir) Stat() (Info, error) {
	if d.fd < 0 {
		return Info{}, kindErr(ErrClosed)
	}
	var st unix.Stat_t
	if err := fstat(d.fd, &st); err != nil {
		return Info{}, mapErr(err)
	}
	return infoFromStat(&st), nil
}

// Lstat describes the child name without following it (fstatat with
// AT_SYMLINK_NOFOLLOW).
func (d *Dir) Lstat(name string) (Info, error) {
	if d.fd < 0 {
		return Info{}, kindErr(ErrClosed)
	}
	if !SafeName(name) {
		return Info{}, kindErr(ErrUnsafe)
	}
	var st unix.Stat_t
	if err := fstatat(d.fd, name, &st); err != nil {
		return Info{}, mapErr(err)
	}
	return infoFromStat(&st), nil
}

// OpenFile opens the regular file name for reading. Symlinks, FIFOs,
// sockets and devices are ErrUnsafe and are never opened in a way that could
// block or have side effects (see the package comment). The returned file
// is in blocking mode and named "fsguard-file".
func (d *Dir) OpenFile(name string) (*os.File, Info, error) {
	if d.fd < 0 {
		return nil, Info{}, kindErr(ErrClosed)
	}
	if !SafeName(name) {
		return nil, Info{}, kindErr(ErrUnsafe)
	}
	return openFileAt(d.fd, name)
}

func openFileAt(dirfd int, name string) (*os.File, Info, error) {
	var st unix.Stat_t
	if err := fstatat(dirfd, name, &st); err != nil {
		return nil, Info{}, mapErr(err)
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, Info{}, unsafeOrNotRegular(uint32(st.Mode))
	}
	before := infoFromStat(&st)
	fd, err := openat(dirfd, name, fileFlags, 0)
	if err != nil {
		return nil, Info{}, mapErr(err)
	}
	if err := fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, Info{}, mapErr(err)
	}
	info := infoFromStat(&st)
	if !info.IsRegular() || !info.SameFile(before) {
		unix.Close(fd)
		return nil, Info{}, kindErr(ErrUnsafe)
	}
	if err := unix.SetNonblock(fd, false); err != nil {
		unix.Close(fd)
		return nil, Info{}, mapErr(err)
	}
	return os.NewFile(uintptr(fd), "fsguard-file"), info, nil
}

// unsafeOrNotRegular names why a non-regular entry cannot be opened as a
// file: a directory is ErrNotDir's opposite, everything else is unsafe.
func unsafeOrNotRegular(mode uint32) error {
	if mode&unix.S_IFMT == unix.S_IFDIR {
		return &guardError{kind: ErrUnsafe, errno: unix.EISDIR}
	}
	return kindErr(ErrUnsafe)
}

// ReadEntries reads up to n entries in the order the OS returns them ("."
// and ".." left out). With n > 0 it returns io.EOF once nothing is left;
// with n <= 0 it returns all remaining entries and a nil error at the end,
// like os.File.ReadDir. Types come from d_type; DT_UNKNOWN is resolved with
// fstatat(AT_SYMLINK_NOFOLLOW) relative to d.
func (d *Dir) ReadEntries(n int) ([]Entry, error) {
	if d.fd < 0 {
		return nil, kindErr(ErrClosed)
	}
	var out []Entry
	if n > 0 {
		out = make([]Entry, 0, min(n, 256))
	}
	err := d.Scan(func(name []byte, typ fs.FileMode) bool {
		out = append(out, Entry{Name: string(name), Type: typ})
		return n <= 0 || len(out) < n
	})
	if err != nil {
		return out, err
	}
	if n > 0 && len(out) == 0 {
		return nil, io.EOF
	}
	return out, nil
}

// Close releases the descriptor. Closing twice returns ErrClosed.
func (d *Dir) Close() error {
	if d.fd < 0 {
		return kindErr(ErrClosed)
	}
	fd := d.fd
	d.fd = -1
	d.releaseReader()
	return mapErr(unix.Close(fd))
}

// openat retries on EINTR, which slow file systems return.
func openat(dirfd int, name string, flags int, perm uint32) (int, error) {
	for {
		fd, err := unix.Openat(dirfd, name, flags, perm)
		if err != unix.EINTR {
			return fd, err
		}
	}
}

func fstatat(dirfd int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(dirfd, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
}

func fstat(fd int, st *unix.Stat_t) error {
	for {
		err := unix.Fstat(fd, st)
		if err != unix.EINTR {
			return err
		}
	}
}
