package files

import (
	"cmp"
	"io/fs"
	"slices"
	"strings"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
)

// This file is the directory reading that Scan (project.files) and Index
// (project.index) share: one directory at a time, in the walk's order,
// opened relative to its parent's descriptor, its names read (in one go or
// a budget at a time), then filtered by the policy and sorted.

const (
	// maxHeldDirs bounds the directory descriptors held for children not
	// yet opened (well under the usual 1,024 soft limit).
	maxHeldDirs = 256
	// checkEvery is how many names are read between checks for the end
	// of the walk (cancellation, a deadline).
	checkEvery = 1024
)

// node is a directory queued for reading.
type node struct {
	parent *node
	path   string // workspace-relative; "" for the root
	depth  int    // the root is 0
	sel    int32  // Scan: the directory's entry in the selection; -1 for the root

	frame   *policy.Frame // the policy inside it, once read
	dir     *fsguard.Dir  // held for its children, or nil
	pending int           // queued child directories not yet opened
}

func (n *node) name() string { return n.path[len(n.path)-nameLen(n.path):] }

func nameLen(path string) int { return len(path) - strings.LastIndexByte(path, '/') - 1 }

type child struct {
	path string
	dir  bool
}

// listing is one directory being read: its descriptor and the names kept
// so far (regular files and directories with safe names; the rest can
// never be visible), all in one buffer.
type listing struct {
	n      *node
	d      *fsguard.Dir // nil when it could not be opened
	prefix string       // n.path + "/", or "" for the root
	buf    []byte
	ends   []int
	dirs   []bool
	count  int  // names read, rejected ones included
	eof    bool // every name has been read
	failed bool // it could not be opened or read: no children
}

// reader opens and reads the directories of one walk. It is not safe for
// concurrent use.
type reader struct {
	root *fsguard.Root
	pol  *policy.Policy
	// stopped is asked every checkEvery names and before each directory.
	stopped func() bool
	held    []*node // nodes that held a descriptor (some may have released it)
	nheld   int
	spare   *listing // a finished listing's buffers, for the next one
	kids    []child  // the room of the children finish returned last
	sorted  []child  // the room finish sorts kids into
	keys    []sortKey
}

// sortKey orders a directory's children by name: the name's first eight
// bytes, big-endian (zero-padded: a name has no NUL byte, so equal keys
// mean both names are at least eight bytes long or the same), then the
// whole names. Comparing integers first makes the sort of a big
// directory cheaper; it was a fifth of a walk's CPU (docs/performance.md).
type sortKey struct {
	head uint64
	i    int32
}

// nameHead is sortKey's head of name.
func nameHead(name string) uint64 {
	var h uint64
	for i := range 8 {
		h <<= 8
		if i < len(name) {
			h |= uint64(name[i])
		}
	}
	return h
}

// sortChildren returns kids sorted by name (each path's bytes after off,
// off being the directory's prefix), in r's room.
func (r *reader) sortChildren(kids []child, off int) []child {
	if len(kids) < 2 {
		return kids
	}
	keys := r.keys[:0]
	for i, c := range kids {
		keys = append(keys, sortKey{nameHead(c.path[off:]), int32(i)})
	}
	r.keys = keys
	slices.SortFunc(keys, func(a, b sortKey) int {
		if a.head != b.head {
			return cmp.Compare(a.head, b.head)
		}
		return strings.Compare(kids[a.i].path[off:], kids[b.i].path[off:])
	})
	out := slices.Grow(r.sorted[:0], len(kids))
	for _, k := range keys {
		out = append(out, kids[k.i])
	}
	r.sorted = out
	return out
}

// open starts reading n. A directory that cannot be opened is a finished,
// failed listing (listed without children).
func (r *reader) open(n *node) *listing {
	l := r.spare
	r.spare = nil
	if l == nil {
		l = &listing{}
	}
	*l = listing{n: n, buf: l.buf[:0], ends: l.ends[:0], dirs: l.dirs[:0]}
	if n.parent != nil {
		l.prefix = n.path + "/"
	}
	d, err := r.openDir(n)
	if err != nil {
		l.eof, l.failed = true, true
		return l
	}
	l.d = d
	return l
}

// openDir opens n relative to its parent's held descriptor; a parent that
// holds none is opened again from the root when more of its children are
// still to be opened, else n itself is opened from the root (component by
// component through fsguard either way).
func (r *reader) openDir(n *node) (*fsguard.Dir, error) {
	p := n.parent
	if p == nil {
		return r.root.OpenDir(".")
	}
	defer func() {
		if p.pending--; p.pending == 0 {
			r.release(p)
		}
	}()
	if p.dir == nil && p.pending > 1 && r.nheld < maxHeldDirs {
		if pd, err := r.root.OpenDir(dotIfRoot(p.path)); err == nil {
			r.hold(p, pd)
		}
	}
	if p.dir != nil {
		return p.dir.OpenDir(n.name())
	}
	return r.root.OpenDir(n.path)
}

func dotIfRoot(path string) string {
	if path == "" {
		return "."
	}
	return path
}

// read reads up to limit more names of l (all that remain when limit is
// negative). Reading stops early, leaving l unfinished, when r.stopped
// says so. A read error ends the listing as failed.
func (r *reader) read(l *listing, limit int) {
	if l.eof || limit == 0 {
		return
	}
	start := l.count
	more := false
	err := l.d.Scan(func(name []byte, typ fs.FileMode) bool {
		l.count++
		n := l.count - start
		if isDir := typ.IsDir(); (isDir || typ.IsRegular()) && fsguard.SafeNameBytes(name) {
			l.buf = append(append(l.buf, l.prefix...), name...)
			l.ends, l.dirs = append(l.ends, len(l.buf)), append(l.dirs, isDir)
		}
		if n == limit || (n%checkEvery == 0 && r.stopped()) {
			more = true
			return false
		}
		return true
	})
	switch {
	case err != nil:
		l.eof, l.failed = true, true
	case !more:
		l.eof = true
	}
}

// finish applies the policy to a listing read to its end: the directory's
// frame, then its visible children sorted by name. Their paths share one
// string: one allocation per directory, not per name. The descriptor stays
// open for settle.
func (r *reader) finish(l *listing) []child {
	if l.failed {
		return nil
	}
	all := string(l.buf)
	// The last directory's children are done with (a scan has copied
	// them, a walk emitted them) by the time the next is finished: their
	// room serves again, within a scan or a step.
	raw := slices.Grow(r.kids[:0], len(l.ends))[:len(l.ends)]
	r.kids = raw
	var has policy.IgnoreFiles
	start := 0
	for i, end := range l.ends {
		p := all[start:end]
		has |= policy.IgnoreFileKind(p[len(l.prefix):], l.dirs[i])
		raw[i] = child{path: p, dir: l.dirs[i]}
		start = end
	}
	n := l.n
	if n.parent == nil {
		n.frame = r.pol.RootFrame(l.d, has)
	} else {
		n.frame = r.pol.Enter(n.parent.frame, n.name(), l.d, has)
	}
	off := len(l.prefix)
	kept := raw[:0]
	for _, c := range raw {
		if r.pol.Check(n.frame, c.path[off:], typeOf(c.dir)) == policy.Visible {
			kept = append(kept, c)
		}
	}
	return r.sortChildren(kept, off)
}

// settle ends l once its children are known: its descriptor is held for
// the queued child directories, when there are any and not too many
// descriptors are held already, and closed otherwise. l's buffers are
// kept for the next listing.
func (r *reader) settle(l *listing, queued int) {
	l.n.pending = queued
	if l.d != nil {
		if queued > 0 && r.nheld < maxHeldDirs {
			r.hold(l.n, l.d)
		} else {
			l.d.Close()
		}
	}
	r.recycle(l)
}

// abandon closes an unfinished listing.
func (r *reader) abandon(l *listing) {
	if l.d != nil {
		l.d.Close()
	}
	r.recycle(l)
}

func (r *reader) recycle(l *listing) {
	*l = listing{buf: l.buf[:0], ends: l.ends[:0], dirs: l.dirs[:0]}
	r.spare = l
}

func (r *reader) hold(n *node, d *fsguard.Dir) {
	n.dir = d
	r.held = append(r.held, n)
	r.nheld++
}

// release closes n's held descriptor, if any.
func (r *reader) release(n *node) {
	if n.dir != nil {
		n.dir.Close()
		n.dir = nil
		r.nheld--
	}
}

// releaseAll closes every held descriptor (the end of a scan or of an
// index step) and lets go of the spare buffers (a walk's children not yet
// emitted keep theirs).
func (r *reader) releaseAll() {
	for _, n := range r.held {
		r.release(n)
	}
	r.held, r.spare, r.kids, r.sorted, r.keys = nil, nil, nil, nil, nil
}

func typeOf(dir bool) fs.FileMode {
	if dir {
		return fs.ModeDir
	}
	return 0
}
