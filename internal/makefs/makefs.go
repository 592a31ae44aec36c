// Package makefs builds file system fixtures from a tiny description
// language, in the style of the os.Root tests, so tests can say what a
// hostile workspace looks like in one table:
//
//	"dir/"              a directory (parents are created as needed)
//	"dir/ mode 0000"    a directory with those permission bits (set last)
//	"file"              an empty regular file
//	"file << text"      a regular file holding text
//	"link => target"    a symbolic link to target (anything, even "/")
//	"fifo|"             a named pipe
//	"sock="             a Unix domain socket (bound, then left behind)
//
// Paths are slash-separated and relative to the fixture root; names may hold
// any byte except '/' and NUL, so hostile names are written as Go string
// literals ("bad\nname", "\xff"). Modes are applied after everything else
// is built, deepest first, so a locked directory can still be populated.
package makefs

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"
)

// Make builds the entries under dir, which must exist.
func Make(dir string, entries ...string) error {
	var modes []pendingMode
	for _, e := range entries {
		m, err := makeOne(dir, e)
		if err != nil {
			return fmt.Errorf("makefs %q: %w", e, err)
		}
		if m != nil {
			modes = append(modes, *m)
		}
	}
	sort.Slice(modes, func(i, j int) bool { return len(modes[i].path) > len(modes[j].path) })
	for _, m := range modes {
		if err := os.Chmod(m.path, m.mode); err != nil {
			return err
		}
	}
	return nil
}

// MustMake builds the entries in a fresh temporary directory and returns it.
// Locked directories are unlocked again at cleanup so the directory can be
// removed.
func MustMake(t testing.TB, entries ...string) string {
	t.Helper()
	dir := t.TempDir()
	t.Cleanup(func() { unlockAll(dir) })
	if err := Make(dir, entries...); err != nil {
		t.Fatal(err)
	}
	return dir
}

type pendingMode struct {
	path string
	mode os.FileMode
}

func makeOne(root, e string) (*pendingMode, error) {
	switch {
	case strings.Contains(e, " => "):
		name, target, _ := strings.Cut(e, " => ")
		return nil, withParent(root, name, func(p string) error { return os.Symlink(target, p) })
	case strings.Contains(e, " << "):
		name, text, _ := strings.Cut(e, " << ")
		return nil, withParent(root, name, func(p string) error { return os.WriteFile(p, []byte(text), 0o644) })
	case strings.Contains(e, "/ mode "):
		name, mode, _ := strings.Cut(e, "/ mode ")
		perm, err := strconv.ParseUint(mode, 8, 32)
		if err != nil {
			return nil, err
		}
		p := filepath.Join(root, name)
		return &pendingMode{path: p, mode: os.FileMode(perm)}, os.MkdirAll(p, 0o755)
	case strings.HasSuffix(e, "/"):
		return nil, os.MkdirAll(filepath.Join(root, e), 0o755)
	case strings.HasSuffix(e, "|"):
		return nil, withParent(root, strings.TrimSuffix(e, "|"), func(p string) error { return syscall.Mkfifo(p, 0o644) })
	case strings.HasSuffix(e, "="):
		return nil, withParent(root, strings.TrimSuffix(e, "="), makeSocket)
	default:
		return nil, withParent(root, e, func(p string) error { return os.WriteFile(p, nil, 0o644) })
	}
}

func withParent(root, name string, mk func(string) error) error {
	p := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return mk(p)
}

// makeSocket binds a Unix socket at p and closes the descriptor, leaving the
// socket file behind. Long paths are bound through /proc/self/fd so the
// 108-byte sun_path limit does not matter.
func makeSocket(p string) error {
	dir, err := os.Open(filepath.Dir(p))
	if err != nil {
		return err
	}
	defer dir.Close()
	addr := fmt.Sprintf("/proc/self/fd/%d/%s", dir.Fd(), filepath.Base(p))
	if len(p) < 100 {
		addr = p
	}
	fd, err := syscall.Socket(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return err
	}
	defer syscall.Close(fd)
	return syscall.Bind(fd, &syscall.SockaddrUnix{Name: addr})
}

// unlockAll gives every directory under dir owner permissions back.
func unlockAll(dir string) {
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if d != nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		if err != nil && d != nil && d.IsDir() {
			os.Chmod(p, 0o755)
			return nil
		}
		return nil
	})
}

// WideFolder makes a folder of n entries in a new temporary directory and
// returns it: entry-00000.go … in scrambled creation order, every tenth a
// directory, the rest empty files. The benchmarks of project.list page
// through it.
func WideFolder(t testing.TB, n int) string {
	t.Helper()
	dir := t.TempDir()
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("entry-%05d.go", (i*7919)%n))
		var err error
		if i%10 == 0 {
			err = os.Mkdir(p, 0o755)
		} else {
			err = os.WriteFile(p, nil, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Bulk makes many empty regular files and directories under dir, which
// must exist, fast enough for trees of a million entries: "a/b/" is a
// directory, anything else an empty file; parents are made as needed.
// Each entry is made with mknodat or mkdirat, and no file is opened: an
// entry whose parent was the previous entry's too is made relative to the
// parent's descriptor (kept open while consecutive paths share it, so the
// parent is not looked up again); any other relative to dir's, with its
// path, which saves opening and closing a parent used once (a tree of one
// file a folder is made in a third of the system calls).
func Bulk(dir string, paths []string) error {
	b := &bulk{made: map[string]bool{"": true}, cached: -1}
	root, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return err
	}
	b.root = root
	defer b.close()
	for _, p := range paths {
		path := strings.TrimSuffix(p, "/")
		parent, name := splitLast(path)
		if err := b.mkdirAll(parent); err != nil {
			return fmt.Errorf("makefs.Bulk %q: %w", p, err)
		}
		if strings.HasSuffix(p, "/") {
			err = b.mkdir(path)
		} else {
			fd, rel, err1 := b.at(parent, name, path)
			if err = err1; err == nil {
				err = unix.Mknodat(fd, rel, unix.S_IFREG|0o644, 0)
			}
		}
		if err != nil {
			return fmt.Errorf("makefs.Bulk %q: %w", p, err)
		}
	}
	return nil
}

type bulk struct {
	root       int
	made       map[string]bool // directories that exist
	lastParent string          // the parent of the previous file
	cachedPath string
	cached     int // descriptor of cachedPath, or -1
}

// at returns the descriptor and the path relative to it to make the entry
// name of the directory parent (path, from the root) with.
func (b *bulk) at(parent, name, path string) (int, string, error) {
	switch {
	case parent == "":
		return b.root, name, nil
	case b.cached >= 0 && b.cachedPath == parent:
		return b.cached, name, nil
	case parent != b.lastParent:
		b.lastParent = parent
		return b.root, path, nil
	}
	fd, err := unix.Openat(b.root, parent, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		return -1, "", err
	}
	if b.cached >= 0 {
		unix.Close(b.cached)
	}
	b.cachedPath, b.cached = parent, fd
	return fd, name, nil
}

// mkdirAll makes the directory path and its parents that do not exist yet.
func (b *bulk) mkdirAll(path string) error {
	if b.made[path] {
		return nil
	}
	parent, _ := splitLast(path)
	if err := b.mkdirAll(parent); err != nil {
		return err
	}
	return b.mkdir(path)
}

func (b *bulk) mkdir(path string) error {
	if b.made[path] {
		return nil
	}
	if err := unix.Mkdirat(b.root, path, 0o755); err != nil && err != unix.EEXIST {
		return err
	}
	b.made[path] = true
	return nil
}

func (b *bulk) close() {
	if b.cached >= 0 {
		unix.Close(b.cached)
	}
	unix.Close(b.root)
}

func splitLast(path string) (dir, name string) {
	i := strings.LastIndexByte(path, '/')
	if i < 0 {
		return "", path
	}
	return path[:i], path[i+1:]
}

// ScratchDir returns a new empty directory for a large fixture, removed
// when the test ends: on a RAM file system (/dev/shm, where making a
// hundred thousand files takes a second rather than the ten or more a
// disk may take) when there is one, else in t.TempDir(). It is readable
// and searchable by everyone, so an unprivileged backend (asuser) can
// walk it.
func ScratchDir(t testing.TB) string {
	t.Helper()
	var st unix.Statfs_t
	if unix.Statfs("/dev/shm", &st) == nil && st.Type == unix.TMPFS_MAGIC {
		if dir, err := os.MkdirTemp("/dev/shm", "scout-fixture-"); err == nil {
			t.Cleanup(func() {
				// Unlocked only when a locked directory stopped the
				// removal: the unlocking walk reads every directory
				// of the fixture, and under -race that costs as much
				// CPU as the removal of a large one.
				if os.RemoveAll(dir) != nil {
					unlockAll(dir)
					os.RemoveAll(dir)
				}
			})
			os.Chmod(dir, 0o755)
			return dir
		}
	}
	dir := t.TempDir()
	t.Cleanup(func() { unlockAll(dir) })
	return dir
}
