package fsguard

import (
	"crypto/rand"
	"encoding/hex"
	"io"
	"io/fs"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/sys/unix"
)

// Root is a directory opened once; every access through it is relative to
// its descriptor. A Root is safe for concurrent use.
type Root struct {
	mu sync.RWMutex // guards fd against Close racing with use
	fd int
}

// OpenRoot opens dir. dir itself may be reached through symlinks (the caller
// trusts it); nothing below it may be.
func OpenRoot(dir string) (*Root, error) {
	fd, err := openat(unix.AT_FDCWD, dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, mapErr(err)
	}
	return &Root{fd: fd}, nil
}

// Close releases the root's descriptor. Dirs and files opened from it stay
// valid until they are closed themselves.
func (r *Root) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fd < 0 {
		return kindErr(ErrClosed)
	}
	fd := r.fd
	r.fd = -1
	return mapErr(unix.Close(fd))
}

// Stat describes the root directory itself.
func (r *Root) Stat() (Info, error) {
	d, err := r.OpenDir(".")
	if err != nil {
		return Info{}, err
	}
	defer d.Close()
	return d.Stat()
}

// OpenDir opens the directory rel ("." is the root itself). rel is
// slash-separated and relative; every component must be a safe name and a
// real directory (O_DIRECTORY|O_NOFOLLOW at every step).
func (r *Root) OpenDir(rel string) (*Dir, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.fd < 0 {
		return nil, kindErr(ErrClosed)
	}
	if rel == "." || rel == "" {
		return openDirAt(r.fd, ".")
	}
	parent, base, err := r.walkParent(rel)
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	return openDirAt(parent.fd, base)
}

// Lstat describes rel without following it; no component may be a symlink.
func (r *Root) Lstat(rel string) (fs.FileInfo, error) {
	if rel == "." || rel == "" {
		info, err := r.Stat()
		if err != nil {
			return nil, err
		}
		return &fileInfo{name: ".", info: info}, nil
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.fd < 0 {
		return nil, kindErr(ErrClosed)
	}
	parent, base, err := r.walkParent(rel)
	if err != nil {
		return nil, err
	}
	defer parent.Close()
	info, err := parent.Lstat(base)
	if err != nil {
		return nil, err
	}
	return &fileInfo{name: base, info: info}, nil
}

// OpenFile opens the regular file rel for reading (see Dir.OpenFile).
func (r *Root) OpenFile(rel string) (*os.File, Info, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.fd < 0 {
		return nil, Info{}, kindErr(ErrClosed)
	}
	parent, base, err := r.walkParent(rel)
	if err != nil {
		return nil, Info{}, err
	}
	defer parent.Close()
	return openFileAt(parent.fd, base)
}

// ReadFile reads the regular file rel whole. A file larger than max bytes
// is ErrTooLarge (also when it grows while being read).
func (r *Root) ReadFile(rel string, max int64) ([]byte, Info, error) {
	f, info, err := r.OpenFile(rel)
	if err != nil {
		return nil, Info{}, err
	}
	defer f.Close()
	if info.Size > max {
		return nil, Info{}, kindErr(ErrTooLarge)
	}
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, Info{}, mapErr(err)
	}
	if int64(len(data)) > max {
		return nil, Info{}, kindErr(ErrTooLarge)
	}
	return data, info, nil
}

// WriteFileAtomic replaces rel with data: a temporary file in the same
// directory is written, fsynced and renamed over rel, then the directory is
// fsynced. The temporary file is removed on failure. The parent must exist;
// no component is followed if it is a symlink (rel itself being a symlink
// is replaced, never written through). After a successful write, temporary
// files older than StaleTempAge in the same directory, left by a process
// that died between creating and renaming one, are removed.
func (r *Root) WriteFileAtomic(rel string, data []byte, perm fs.FileMode) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.fd < 0 {
		return kindErr(ErrClosed)
	}
	parent, base, err := r.walkParent(rel)
	if err != nil {
		return err
	}
	defer parent.Close()
	tmp, err := tempName()
	if err != nil {
		return err
	}
	if err := writeTemp(parent.fd, tmp, data, perm); err != nil {
		unix.Unlinkat(parent.fd, tmp, 0)
		return err
	}
	if err := unix.Renameat(parent.fd, tmp, parent.fd, base); err != nil {
		unix.Unlinkat(parent.fd, tmp, 0)
		return mapErr(err)
	}
	if err := unix.Fsync(parent.fd); err != nil {
		return mapErr(err)
	}
	sweepStaleTemps(parent, time.Now())
	return nil
}

// StaleTempAge is how old a temporary file of WriteFileAtomic must be for a
// later write into its directory to remove it. A write takes milliseconds,
// so a temporary file this old belongs to no write in progress (of this
// process or another sharing the directory): its writer died.
const StaleTempAge = 10 * time.Minute

// tempPrefix starts the name of every temporary file of WriteFileAtomic.
const tempPrefix = ".scout-tmp-"

// sweepStaleTemps removes the regular files of d named like temporary files
// and older than StaleTempAge. Failures are ignored: a leftover is harmless
// (never read as anything) and the next write tries again.
func sweepStaleTemps(d *Dir, now time.Time) {
	var names []string
	d.Scan(func(name []byte, typ fs.FileMode) bool {
		if typ.IsRegular() && isTempName(string(name)) {
			names = append(names, string(name))
		}
		return true
	})
	for _, name := range names {
		if info, err := d.Lstat(name); err == nil && info.Mode.IsRegular() && now.Sub(info.ModTime) > StaleTempAge {
			unix.Unlinkat(d.fd, name, 0)
		}
	}
}

// writeTemp creates name exclusively in dirfd and writes data durably.
func writeTemp(dirfd int, name string, data []byte, perm fs.FileMode) error {
	fd, err := openat(dirfd, name, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, uint32(perm.Perm()))
	if err != nil {
		return mapErr(err)
	}
	f := os.NewFile(uintptr(fd), "fsguard-file")
	if _, err := f.Write(data); err != nil {
		f.Close()
		return mapErr(err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return mapErr(err)
	}
	return mapErr(f.Close())
}

// isTempName reports whether name is exactly a name tempName makes: the
// prefix and 16 lower-case hex digits. Only those are swept: a file that
// merely starts with the prefix (the cache of a provider whose id does,
// ".scout-tmp-x.json") is someone's data.
func isTempName(name string) bool {
	hexPart, ok := strings.CutPrefix(name, tempPrefix)
	if !ok || len(hexPart) != 2*tempRandBytes {
		return false
	}
	for i := 0; i < len(hexPart); i++ {
		if c := hexPart[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// tempRandBytes is how many random bytes name a temporary file.
const tempRandBytes = 8

// tempName is a fresh hidden name for WriteFileAtomic's temporary file.
func tempName() (string, error) {
	var b [tempRandBytes]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", kindErr(ErrUnsafe)
	}
	return tempPrefix + hex.EncodeToString(b[:]), nil
}

// MkdirAll creates rel and any missing parents with perm (before umask).
// An existing component must be a real directory, never a symlink.
func (r *Root) MkdirAll(rel string, perm fs.FileMode) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.fd < 0 {
		return kindErr(ErrClosed)
	}
	if rel == "." || rel == "" {
		return nil
	}
	if !validRel(rel) {
		return kindErr(ErrUnsafe)
	}
	cur := &Dir{fd: r.fd}
	for comp := range strings.SplitSeq(rel, "/") {
		next, err := mkdirOpen(cur.fd, comp, perm)
		if cur.fd != r.fd {
			cur.Close()
		}
		if err != nil {
			return err
		}
		cur = next
	}
	return cur.Close()
}

// mkdirOpen opens the child directory name of dirfd, creating it if needed.
func mkdirOpen(dirfd int, name string, perm fs.FileMode) (*Dir, error) {
	d, err := openDirAt(dirfd, name)
	if err == nil || !isNotFound(err) {
		return d, err
	}
	if err := unix.Mkdirat(dirfd, name, uint32(perm.Perm())); err != nil && err != unix.EEXIST {
		return nil, mapErr(err)
	}
	return openDirAt(dirfd, name)
}

// Remove deletes the file (not directory) rel; a symlink at rel is removed
// itself, never followed.
func (r *Root) Remove(rel string) error {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.fd < 0 {
		return kindErr(ErrClosed)
	}
	parent, base, err := r.walkParent(rel)
	if err != nil {
		return err
	}
	defer parent.Close()
	return mapErr(unix.Unlinkat(parent.fd, base, 0))
}

// walkParent opens the directory holding rel's last component and returns
// it with that component. The caller holds r.mu and closes the Dir.
func (r *Root) walkParent(rel string) (*Dir, string, error) {
	if !validRel(rel) {
		return nil, "", kindErr(ErrUnsafe)
	}
	dirPart, base := ".", rel
	if i := strings.LastIndexByte(rel, '/'); i >= 0 {
		dirPart, base = rel[:i], rel[i+1:]
	}
	cur, err := openDirAt(r.fd, ".")
	if err != nil {
		return nil, "", err
	}
	if dirPart == "." {
		return cur, base, nil
	}
	for comp := range strings.SplitSeq(dirPart, "/") {
		next, err := openDirAt(cur.fd, comp)
		cur.Close()
		if err != nil {
			return nil, "", err
		}
		cur = next
	}
	return cur, base, nil
}

// validRel reports whether rel is a relative slash-separated path whose
// every component is a safe name.
func validRel(rel string) bool {
	if rel == "" {
		return false
	}
	for comp := range strings.SplitSeq(rel, "/") {
		if !SafeName(comp) {
			return false
		}
	}
	return true
}

func isNotFound(err error) bool {
	ge, ok := err.(*guardError)
	return ok && ge.kind == ErrNotFound
}
