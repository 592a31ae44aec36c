package sessions

import (
	"errors"
	"io/fs"

	"github.com/scoutdev/scout/backend/fsguard"
)

// errUnavailable: a store is unsafe (its base a symlink, not a directory)
// or unreadable.
var errUnavailable = errors.New("sessions: store unsafe or unreadable")

// maxDepth bounds how deep a layout may descend below its base directory
// (Codex's YYYY/MM/DD is the deepest: three levels).
const maxDepth = 4

// frame is one open directory of a store's tree: the base directory or a
// directory the layout descended into.
type frame struct {
	dir   *fsguard.Dir
	info  fsguard.Info // at open: what the per-step check compares
	path  string       // below the base, "/"-separated; "" for the base
	depth int          // 0 for the base
	// mine is set when the histories below are this workspace's to read
	// (a Claude Code project directory named for the workspace, a Gemini
	// project directory recording it); histories of other directories are
	// only counted. The base of a flat store is always mine.
	mine bool
	// root is what the source recorded for this directory: the project
	// root a Gemini project directory names.
	root string
}

// join is the path of name inside f, for the inventory signature.
func (f *frame) join(name string) string {
	if f.path == "" {
		return name
	}
	return f.path + "/" + name
}

// tree is one store opened for a scan, a request or a validation pass: the
// store's root (reached through symlinks once, as the user configured it)
// and a stack of open directories below its base, read in OS order. A
// store whose root or base does not exist is missing: an empty store, not
// an error.
type tree struct {
	rootPath, base string
	root           *fsguard.Root // nil when the root does not exist
	missing        bool
	stack          []*frame
}

// openTree opens base (one or more components, none of them a symlink)
// below rootPath. rootPath "" is an unknown location: errUnavailable.
func openTree(rootPath, base string) (*tree, error) {
	if rootPath == "" {
		return nil, errUnavailable
	}
	t := &tree{rootPath: rootPath, base: base}
	root, err := fsguard.OpenRoot(rootPath)
	if errors.Is(err, fsguard.ErrNotFound) {
		t.missing = true
		return t, nil
	}
	if err != nil {
		return nil, errUnavailable
	}
	t.root = root
	dir, err := root.OpenDir(base)
	if errors.Is(err, fsguard.ErrNotFound) {
		t.missing = true
		return t, nil
	}
	if err != nil {
		root.Close()
		return nil, errUnavailable
	}
	info, err := dir.Stat()
	if err != nil {
		dir.Close()
		root.Close()
		return nil, errUnavailable
	}
	t.stack = []*frame{{dir: dir, info: info, mine: true}}
	return t, nil
}

// reopen opens the same store again for a second pass, through the held
// root (which the new tree shares: close it with close, never closeRoot),
// and checks that its base is still the directory t started from.
func (t *tree) reopen() (*tree, error) {
	if t.missing {
		return &tree{rootPath: t.rootPath, base: t.base, missing: true}, nil
	}
	dir, err := t.root.OpenDir(t.base)
	if err != nil {
		return nil, errStale
	}
	info, err := dir.Stat()
	if err != nil || !info.SameFile(t.baseInfo()) {
		dir.Close()
		return nil, errStale
	}
	return &tree{rootPath: t.rootPath, base: t.base, root: t.root, stack: []*frame{{dir: dir, info: info, mine: true}}}, nil
}

// baseInfo is the base directory as it was opened.
func (t *tree) baseInfo() fsguard.Info { return t.stack[0].info }

// close releases every descriptor; the root only when t owns it.
func (t *tree) close() {
	for _, f := range t.stack {
		f.dir.Close()
	}
	t.stack = nil
}

// closeRoot releases the root as well.
func (t *tree) closeRoot() {
	t.close()
	if t.root != nil {
		t.root.Close()
		t.root = nil
	}
}

// next reads one name from the innermost open directory, closing
// directories as they end. ok is false once the whole tree is read.
func (t *tree) next() (f *frame, name string, typ fs.FileMode, ok bool, err error) {
	for len(t.stack) > 0 {
		f = t.stack[len(t.stack)-1]
		err = f.dir.Scan(func(n []byte, tp fs.FileMode) bool {
			name, typ, ok = string(n), tp, true
			return false
		})
		if err != nil || ok {
			return f, name, typ, ok, err
		}
		if len(t.stack) == 1 {
			return nil, "", 0, false, nil // the base stays open for the checks
		}
		f.dir.Close()
		t.stack = t.stack[:len(t.stack)-1]
	}
	return nil, "", 0, false, nil
}

// descend opens the directory name of f and makes it the innermost one.
// A directory that vanished meanwhile is skipped (its parent's change time
// says so); one that cannot be opened safely is errUnsafeEntry.
func (t *tree) descend(f *frame, name string, mine bool, root string) error {
	if f.depth+1 > maxDepth {
		return nil
	}
	d, err := f.dir.OpenDir(name)
	switch {
	case errors.Is(err, fsguard.ErrNotFound):
		return nil
	case err != nil:
		return errUnsafeEntry
	}
	info, err := d.Stat()
	if err != nil {
		d.Close()
		return errUnsafeEntry
	}
	t.stack = append(t.stack, &frame{dir: d, info: info, path: f.join(name), depth: f.depth + 1, mine: mine, root: root})
	return nil
}

// errUnsafeEntry: an entry of the layout's shape is a symlink, a special
// file or cannot be opened (sessions_omitted_invalid).
var errUnsafeEntry = errors.New("sessions: unsafe entry")

// unchanged reports whether the store is still what it was: still missing,
// or every open directory the same (device and inode, reached without a
// symlink) with the same permissions and change time, and the base still
// reached by its path. Any name created, removed or renamed in an open
// directory changes its change time; a history growing does not.
func (t *tree) unchanged() bool {
	if t.missing {
		probe, err := openTree(t.rootPath, t.base)
		if err != nil {
			return false
		}
		defer probe.closeRoot()
		return probe.missing
	}
	for _, f := range t.stack {
		now, err := f.dir.Stat()
		if err != nil || !now.SameFile(f.info) || now.Mode != f.info.Mode || !now.ChangeTime.Equal(f.info.ChangeTime) {
			return false
		}
	}
	fi, err := t.root.Lstat(t.base)
	if err != nil || !fi.IsDir() {
		return false
	}
	info, ok := fi.Sys().(*fsguard.Info)
	return ok && info.SameFile(t.stack[0].info)
}
