package files

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
)

// ErrHidden is returned for every path that is not visible: missing,
// unsafe, protected, skipped, unreadable, or a file with more than one hard
// link. Callers must show all of these the same way.
var ErrHidden = policy.ErrHidden

// ErrNotDir: a visible path named a file where a folder was wanted.
var ErrNotDir = errors.New("files: not a directory")

// ErrIsDir: a visible path named a folder where a file was wanted.
var ErrIsDir = errors.New("files: is a directory")

// Item is one entry of a folder as project.list and the MCP tools serve
// it: visible, a regular file with one link or a directory, readable.
type Item struct {
	Name    string
	Dir     bool
	Size    int64 // bytes; 0 for a directory
	ModTime time.Time
}

// Key is a position in a folder's listing order: directories first, then
// files, each by name in code point order (byte order of UTF-8).
type Key struct {
	Dir  bool
	Name string
}

// Key returns the item's position.
func (it Item) Key() Key { return Key{Dir: it.Dir, Name: it.Name} }

// Compare orders keys: -1, 0 or +1.
func (k Key) Compare(o Key) int {
	switch {
	case k.Dir && !o.Dir:
		return -1
	case !k.Dir && o.Dir:
		return 1
	}
	return strings.Compare(k.Name, o.Name)
}

// Folder is an open, visible directory of the workspace, with the policy
// frame that decides its entries. It is not safe for concurrent use.
type Folder struct {
	root  *fsguard.Root
	pol   *policy.Policy
	path  string // workspace-relative; "" for the root
	dir   *fsguard.Dir
	frame *policy.Frame
	// examined counts the names read by the last scan.
	examined int
}

// OpenFolder resolves rel ("" or "." is the root) under pol, re-checking
// every component through fsguard, and opens it. A path that is not a
// visible directory is ErrHidden, or ErrNotDir when it is a file that
// OpenFile would serve. The root of a policy that hides everything is an
// empty folder.
func OpenFolder(root *fsguard.Root, pol *policy.Policy, rel string) (*Folder, error) {
	if rel == "" || rel == "." {
		return openRoot(root, pol)
	}
	res, err := pol.Resolve(root, rel)
	if err != nil {
		return nil, ErrHidden
	}
	defer res.Close()
	if !res.Info.IsDir() {
		if !servableFile(res) {
			return nil, ErrHidden // not "not a directory": that would tell it exists
		}
		return nil, ErrNotDir
	}
	if !res.Dir.Readable(res.Name, true) {
		return nil, ErrHidden
	}
	d, err := res.Dir.OpenDir(res.Name)
	if err != nil {
		return nil, ErrHidden
	}
	if st, err := d.Stat(); err != nil || !st.SameFile(res.Info) {
		d.Close()
		return nil, ErrHidden // replaced between the check and the open
	}
	frame := pol.Enter(res.Frame, res.Name, d, policy.ProbeIgnoreFiles)
	return &Folder{root: root, pol: pol, path: rel, dir: d, frame: frame}, nil
}

// servableFile reports whether the file res resolved is one OpenFile
// would serve: exactly one link, and readable.
func servableFile(res *policy.Resolved) bool {
	return res.Info.Nlink == 1 && res.Dir.Readable(res.Name, false)
}

func openRoot(root *fsguard.Root, pol *policy.Policy) (*Folder, error) {
	if root == nil {
		return &Folder{pol: pol}, nil
	}
	res, err := pol.Resolve(root, ".")
	if err != nil {
		return &Folder{root: root, pol: pol}, nil // nothing visible: an empty root
	}
	return &Folder{root: root, pol: pol, dir: res.Dir, frame: res.Frame}, nil
}

// Path is the folder's workspace-relative path ("" for the root).
func (f *Folder) Path() string { return f.path }

// ChildPath is the workspace-relative path of the entry name in f.
func (f *Folder) ChildPath(name string) string {
	if f.path == "" {
		return name
	}
	return f.path + "/" + name
}

// Close releases the folder's descriptor.
func (f *Folder) Close() {
	if f.dir != nil {
		f.dir.Close()
		f.dir = nil
	}
}

// Page returns the first limit servable items strictly after after (nil:
// from the start) in listing order, and whether more servable items
// follow. Entries that fail the policy, are not regular files or
// directories, have more than one hard link, or cannot be read are left
// out. Memory is bounded by limit whatever the folder's size: the folder
// is scanned again (rarely) when too many candidates are left out.
// It returns ctx's error when ctx ends first.
func (f *Folder) Page(ctx context.Context, after *Key, limit int) ([]Item, bool, error) {
	return f.page(ctx, after, limit, -1)
}

// page is Page with an examine budget: budget >= 0 stops at more than
// budget names and reports errOverBudget; -1 is no budget.
func (f *Folder) page(ctx context.Context, after *Key, limit, budget int) ([]Item, bool, error) {
	if f.dir == nil || limit <= 0 {
		return nil, false, nil
	}
	want := limit + 1 // one more tells whether more remain
	items := make([]Item, 0, min(want, 256))
	n := want
	for {
		cands, more, err := f.candidates(ctx, after, n, budget)
		if err != nil {
			return nil, false, err
		}
		for _, k := range cands {
			if it, ok := f.serve(k); ok {
				items = append(items, it)
				if len(items) == want {
					return items[:limit], true, nil
				}
			}
		}
		if !more {
			return items, false, nil
		}
		after = &cands[len(cands)-1]
		n = max(2*n, want-len(items))
	}
}

// errOverBudget: the folder has more names than the examine budget.
var errOverBudget = errors.New("files: folder over the examine budget")

// candidates scans the whole folder and returns, sorted, the n first keys
// after after whose names the policy shows, and whether there are more.
func (f *Folder) candidates(ctx context.Context, after *Key, n, budget int) ([]Key, bool, error) {
	if err := f.dir.Rewind(); err != nil {
		return nil, false, err
	}
	var keys []Key
	more := false
	f.examined = 0
	err := f.dir.Scan(func(name []byte, typ fs.FileMode) bool {
		f.examined++
		if budget >= 0 && f.examined > budget {
			return false
		}
		if f.examined%checkEvery == 0 && ctx.Err() != nil {
			return false
		}
		isDir := typ.IsDir()
		if (!isDir && !typ.IsRegular()) || !fsguard.SafeNameBytes(name) || !keyAfter(isDir, name, after) {
			return true
		}
		s := string(name)
		if f.pol.Check(f.frame, s, typ) != policy.Visible {
			return true
		}
		keys = append(keys, Key{Dir: isDir, Name: s})
		if len(keys) >= 2*n+256 {
			keys, more = smallest(keys, n), true
		}
		return true
	})
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		return nil, false, err
	}
	if budget >= 0 && f.examined > budget {
		return nil, false, errOverBudget
	}
	if len(keys) > n {
		more = true
	}
	return smallest(keys, n), more, nil
}

// smallest sorts keys and keeps the first n.
func smallest(keys []Key, n int) []Key {
	slices.SortFunc(keys, Key.Compare)
	if len(keys) > n {
		clear(keys[n:])
		keys = keys[:n]
	}
	return keys
}

// keyAfter reports whether (isDir, name) comes after after, without
// allocating.
func keyAfter(isDir bool, name []byte, after *Key) bool {
	switch {
	case after == nil:
		return true
	case isDir != after.Dir:
		return after.Dir // files come after directories
	}
	return string(name) > after.Name // compiled without a copy
}

// serve checks one candidate with lstat: still the same type, a single
// link for a file, and readable.
func (f *Folder) serve(k Key) (Item, bool) {
	info, err := f.dir.Lstat(k.Name)
	if err != nil || info.IsDir() != k.Dir || (!k.Dir && !info.IsRegular()) {
		return Item{}, false
	}
	if !k.Dir && info.Nlink != 1 {
		return Item{}, false
	}
	if !f.dir.Readable(k.Name, k.Dir) {
		return Item{}, false
	}
	it := Item{Name: k.Name, Dir: k.Dir, ModTime: info.ModTime}
	if !k.Dir {
		it.Size = info.Size
	}
	return it, true
}
