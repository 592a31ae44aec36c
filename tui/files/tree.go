package files

import (
	"path"
	"strings"

	"github.com/scoutdev/scout/backend/wire"
)

// treeRow is one visible row of the tree.
type treeRow struct {
	path  string
	name  string
	depth int
	dir   bool
	open  bool
}

// folderTree is the empty-query view: the snapshot's entries as a tree of
// folders that open and close. Which folders are open survives a rescan of
// the same generation for the paths that are still there.
type folderTree struct {
	entries []wire.FileEntry // component-sorted: parents before children
	open    map[string]bool
	rows    []treeRow
}

func newFolderTree(entries []wire.FileEntry, open map[string]bool) *folderTree {
	if open == nil {
		open = map[string]bool{}
	}
	t := &folderTree{entries: entries, open: open}
	t.flatten()
	return t
}

// flatten lists the visible rows: entries whose every ancestor is open.
func (t *folderTree) flatten() {
	t.rows = t.rows[:0]
	visible := map[string]bool{"": true}
	for _, e := range t.entries {
		parent := path.Dir(e.Path)
		if parent == "." {
			parent = ""
		}
		if !visible[parent] || (parent != "" && !t.open[parent]) {
			continue
		}
		dir := e.Kind == wire.KindDirectory
		if dir {
			visible[e.Path] = true
		}
		t.rows = append(t.rows, treeRow{path: e.Path, name: path.Base(e.Path), depth: strings.Count(e.Path, "/"), dir: dir, open: dir && t.open[e.Path]})
	}
}

// setOpen opens or closes folder p and reports whether anything changed.
func (t *folderTree) setOpen(p string, open bool) bool {
	if t.open[p] == open {
		return false
	}
	if open {
		t.open[p] = true
	} else {
		delete(t.open, p)
	}
	t.flatten()
	return true
}

// index returns the row of p, or -1.
func (t *folderTree) index(p string) int {
	for i, r := range t.rows {
		if r.path == p {
			return i
		}
	}
	return -1
}
