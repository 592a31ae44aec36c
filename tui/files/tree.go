package files

import (
	"path"
	"strings"

	"github.com/scoutdev/scout/backend/wire"
)

// The empty-query view is the snapshot's folder tree. Its contract is
// tui/tree's (built on the rank branch, not landed yet): entries in
// component order, expansion kept by path across a Rebuild of the same
// generation, the visible rows listed for rendering. folderTree is a
// stand-in with that API, to be replaced by *tree.Tree when it lands.

// treeRow is one visible row of the tree.
type treeRow struct {
	Path     string
	Name     string
	Depth    int
	Dir      bool
	Expanded bool
}

// folderTree is the snapshot's tree with its expansion state.
type folderTree struct {
	entries  []wire.FileEntry // component order: parents before children
	expanded map[string]bool
	rows     []treeRow
}

func newFolderTree(entries []wire.FileEntry) *folderTree {
	t := &folderTree{expanded: map[string]bool{}}
	t.Rebuild(entries)
	return t
}

// Rebuild takes the entries of a rescan of the same generation, keeping
// every expanded folder that survives expanded.
func (t *folderTree) Rebuild(entries []wire.FileEntry) {
	t.entries = entries
	t.list()
}

// Rows returns the visible rows.
func (t *folderTree) Rows() []treeRow { return t.rows }

// list lists the visible rows: entries whose every ancestor is expanded.
func (t *folderTree) list() {
	t.rows = t.rows[:0]
	visible := map[string]bool{"": true}
	for _, e := range t.entries {
		parent := parentOf(e.Path)
		if !visible[parent] || (parent != "" && !t.expanded[parent]) {
			continue
		}
		dir := e.Kind == wire.KindDirectory
		if dir {
			visible[e.Path] = true
		}
		t.rows = append(t.rows, treeRow{Path: e.Path, Name: path.Base(e.Path), Depth: strings.Count(e.Path, "/"), Dir: dir, Expanded: dir && t.expanded[e.Path]})
	}
}

// Expand shows folder p's contents; false when nothing changed.
func (t *folderTree) Expand(p string) bool {
	if t.expanded[p] {
		return false
	}
	t.expanded[p] = true
	t.list()
	return true
}

// Collapse hides folder p's contents; false when nothing changed.
func (t *folderTree) Collapse(p string) bool {
	if !t.expanded[p] {
		return false
	}
	delete(t.expanded, p)
	t.list()
	return true
}

// Find returns the row of p, or of its nearest visible folder; -1 when
// there is none.
func (t *folderTree) Find(p string) int {
	for ; p != ""; p = parentOf(p) {
		for i, r := range t.rows {
			if r.Path == p {
				return i
			}
		}
	}
	return -1
}

func parentOf(p string) string {
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		return p[:i]
	}
	return ""
}
