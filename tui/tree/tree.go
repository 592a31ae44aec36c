// Package tree is the file tree of a snapshot: built from the snapshot's
// entries, it keeps which directories are expanded and lists the visible
// rows for rendering. It is pure: no terminal, no I/O.
//
// Entries come in component-sorted order, every directory before its
// contents, which is how the backend lists a snapshot. The tree keeps that
// order instead of putting directories first: it is the order of `scout
// filter`, `git ls-files` and `find | sort`, so the tree, the ranked list
// and the shell agree on where a path is; a directory's contents are then
// one contiguous run of entries, so collapsing skips them in one step and
// every operation stays linear in the visible rows; and a rebuild costs one
// pass, with no sort.
//
// Expansion is kept by path. Rebuild, for a rescan within the same
// generation, keeps it for every directory that survives; Reset, for a new
// generation, starts collapsed. A Tree is not safe for concurrent use: it
// belongs to the model that renders it and is changed only in Update.
package tree

import (
	"errors"
	"fmt"
	"strings"
)

// Kind says whether an entry is a file or a directory.
type Kind uint8

// The kinds of entry.
const (
	File Kind = iota
	Dir
)

// Entry is one path of a snapshot: slash-separated, relative, without a
// trailing slash.
type Entry struct {
	Path string
	Kind Kind
}

// Row is one visible line of the tree.
type Row struct {
	Path     string // the entry's path
	Name     string // its last component
	Depth    int    // 0 for top-level entries
	Dir      bool
	Expanded bool // for a directory: its contents are visible
	Last     bool // the last entry of its directory (for drawing guides)
}

// Tree is a snapshot's file tree with its expansion state. A path is
// found by binary search over the entries, which are in component order:
// no map of every path, so a tree of a million entries costs the nodes
// alone.
type Tree struct {
	nodes    []node
	expanded map[string]bool // expanded directories, by path
	rows     []Row           // visible rows; nil when they must be listed again
}

// node is one entry with its place in the tree.
type node struct {
	Entry
	parent int32 // index of the parent directory, -1 at the top
	end    int32 // index after the node's last descendant
	depth  int32
}

// ErrOrder reports entries that are not in component-sorted order or whose
// directory is not listed before them.
var ErrOrder = errors.New("tree: entries out of order")

// New builds a tree from entries, everything collapsed.
func New(entries []Entry) (*Tree, error) {
	t := &Tree{expanded: map[string]bool{}}
	return t, t.Reset(entries)
}

// Reset rebuilds the tree from the entries of a new generation, everything
// collapsed. On error the tree is left unchanged.
func (t *Tree) Reset(entries []Entry) error {
	if err := t.Rebuild(entries); err != nil {
		return err
	}
	clear(t.expanded)
	t.rows = nil
	return nil
}

// Rebuild rebuilds the tree from a rescan within the same generation,
// keeping every surviving directory expanded that was. On error the tree is
// left unchanged.
func (t *Tree) Rebuild(entries []Entry) error {
	nodes, err := build(entries)
	if err != nil {
		return err
	}
	t.nodes, t.rows = nodes, nil
	for p := range t.expanded {
		if !t.isDir(p) {
			delete(t.expanded, p)
		}
	}
	return nil
}

// KeepExpansion expands every directory of t that is expanded in old: a
// tree built anew (off the event loop, from more entries) takes over the
// expansion of the tree it replaces.
func (t *Tree) KeepExpansion(old *Tree) {
	for p := range old.expanded {
		if t.isDir(p) {
			t.expanded[p] = true
		}
	}
	t.rows = nil
}

// build links entries into nodes: parents, subtree ends, depths.
func build(entries []Entry) ([]node, error) {
	nodes := make([]node, len(entries))
	var open []int32 // the directories enclosing the current entry
	for i, e := range entries {
		if i > 0 && compare(entries[i-1].Path, e.Path) >= 0 {
			return nil, fmt.Errorf("%w: %q after %q", ErrOrder, e.Path, entries[i-1].Path)
		}
		open = closeDirs(nodes, open, e.Path, int32(i))
		if err := checkParent(e.Path, nodes, open); err != nil {
			return nil, err
		}
		nodes[i] = node{Entry: e, parent: -1, end: int32(i + 1), depth: int32(len(open))}
		if len(open) > 0 {
			nodes[i].parent = open[len(open)-1]
		}
		if e.Kind == Dir {
			open = append(open, int32(i))
		}
	}
	for _, d := range open {
		nodes[d].end = int32(len(entries))
	}
	return nodes, nil
}

// closeDirs closes the open directories that path, entry i, is not in:
// their contents end at i.
func closeDirs(nodes []node, open []int32, path string, i int32) []int32 {
	for len(open) > 0 && !within(path, nodes[open[len(open)-1]].Path) {
		nodes[open[len(open)-1]].end = i
		open = open[:len(open)-1]
	}
	return open
}

// checkParent checks that path is not empty and that its directory is the
// innermost open one (or that it is at the top when none is open).
func checkParent(path string, nodes []node, open []int32) error {
	dir, _ := split(path)
	switch {
	case path == "" || strings.HasSuffix(path, "/"):
		return fmt.Errorf("tree: bad entry path %q", path)
	case len(open) == 0 && dir != "":
		return fmt.Errorf("%w: %q before its directory", ErrOrder, path)
	case len(open) > 0 && nodes[open[len(open)-1]].Path != dir:
		return fmt.Errorf("%w: %q before its directory", ErrOrder, path)
	}
	return nil
}

// within reports whether path is inside directory dir.
func within(path, dir string) bool {
	return len(path) > len(dir) && path[len(dir)] == '/' && strings.HasPrefix(path, dir)
}

// split returns a path's directory ("" at the top) and last component.
func split(path string) (dir, name string) {
	i := strings.LastIndexByte(path, '/')
	if i < 0 {
		return "", path
	}
	return path[:i], path[i+1:]
}

// compare orders paths by component, bytewise: as strings, but with the
// slash before every other byte, so a directory's contents follow it
// directly ("a/b" < "a-b").
func compare(a, b string) int {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i] != b[i] {
			return int(slashFirst(a[i])) - int(slashFirst(b[i]))
		}
	}
	return len(a) - len(b)
}

func slashFirst(c byte) int {
	if c == '/' {
		return -1
	}
	return int(c)
}
