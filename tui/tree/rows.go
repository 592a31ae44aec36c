package tree

import "sort"

// Len returns the number of entries.
func (t *Tree) Len() int { return len(t.nodes) }

// Rows returns the visible rows, top to bottom: the top-level entries and
// the contents of every expanded directory whose ancestors are expanded
// too. The slice belongs to the tree and is valid until its next change.
func (t *Tree) Rows() []Row {
	if t.rows == nil {
		t.rows = t.list()
	}
	return t.rows
}

// list walks the entries, skipping the contents of collapsed directories.
func (t *Tree) list() []Row {
	rows := make([]Row, 0, min(len(t.nodes), 64))
	for i := 0; i < len(t.nodes); {
		n := &t.nodes[i]
		_, name := split(n.Path)
		open := n.Kind == Dir && t.expanded[n.Path]
		rows = append(rows, Row{
			Path: n.Path, Name: name, Depth: int(n.depth),
			Dir: n.Kind == Dir, Expanded: open, Last: n.end == t.end(n.parent),
		})
		if n.Kind == Dir && !open {
			i = int(n.end)
		} else {
			i++
		}
	}
	return rows
}

// end returns the index after the last descendant of node i, or after the
// last entry for -1 (the top).
func (t *Tree) end(i int32) int32 {
	if i < 0 {
		return int32(len(t.nodes))
	}
	return t.nodes[i].end
}

// Find returns the row of path among the visible rows or, if it is hidden
// in a collapsed directory, the row of its nearest visible ancestor; -1 if
// the tree has no such path. A cursor kept by path finds its row again
// after a change or a rebuild this way.
func (t *Tree) Find(path string) int {
	for {
		if _, ok := t.lookup(path); ok {
			if r := t.rowOf(path); r >= 0 {
				return r
			}
		}
		dir, _ := split(path)
		if dir == "" || dir == path {
			return -1
		}
		path = dir
	}
}

// rowOf returns the row of path among the visible rows, or -1: a binary
// search, since rows keep the component order.
func (t *Tree) rowOf(path string) int {
	rows := t.Rows()
	r := sort.Search(len(rows), func(r int) bool { return compare(rows[r].Path, path) >= 0 })
	if r < len(rows) && rows[r].Path == path {
		return r
	}
	return -1
}

// Expanded reports whether directory path is expanded.
func (t *Tree) Expanded(path string) bool { return t.expanded[path] }

// Expand shows the contents of directory path and reports whether that
// changed anything (false for files, unknown paths and open directories).
func (t *Tree) Expand(path string) bool {
	if !t.isDir(path) || t.expanded[path] {
		return false
	}
	t.expanded[path] = true
	t.rows = nil
	return true
}

// Collapse hides the contents of directory path and reports whether that
// changed anything. Directories inside it keep their state for when it is
// expanded again.
func (t *Tree) Collapse(path string) bool {
	if !t.expanded[path] {
		return false
	}
	delete(t.expanded, path)
	t.rows = nil
	return true
}

// Toggle expands directory path if it is collapsed, else collapses it,
// and reports whether that changed anything.
func (t *Tree) Toggle(path string) bool {
	if t.expanded[path] {
		return t.Collapse(path)
	}
	return t.Expand(path)
}

// Reveal expands every directory above path, so that its row is visible,
// and reports whether that changed anything.
func (t *Tree) Reveal(path string) bool {
	changed := false
	for dir, ok := t.Parent(path); ok; dir, ok = t.Parent(dir) {
		changed = t.Expand(dir) || changed
	}
	return changed
}

// Parent returns the directory that holds path; false for top-level entries
// and unknown paths.
func (t *Tree) Parent(path string) (string, bool) {
	i, ok := t.lookup(path)
	if !ok || t.nodes[i].parent < 0 {
		return "", false
	}
	return t.nodes[t.nodes[i].parent].Path, true
}

func (t *Tree) isDir(path string) bool {
	i, ok := t.lookup(path)
	return ok && t.nodes[i].Kind == Dir
}

// lookup finds path's node by binary search (nodes are in component
// order).
func (t *Tree) lookup(path string) (int, bool) {
	i := sort.Search(len(t.nodes), func(i int) bool { return compare(t.nodes[i].Path, path) >= 0 })
	return i, i < len(t.nodes) && t.nodes[i].Path == path
}

// View is the entries a tree was built from, in component order, for
// reading on another goroutine: a tree never changes the entries it was
// built from (Rebuild makes new ones), so a View stays valid and
// unchanged whatever happens to the tree.
type View struct{ nodes []node }

// View returns the tree's entries as they are now.
func (t *Tree) View() View { return View{t.nodes} }

// Len returns the number of entries.
func (v View) Len() int { return len(v.nodes) }

// At returns entry i.
func (v View) At(i int) Entry { return v.nodes[i].Entry }
