package policy

import (
	"path/filepath"
	"strings"
)

// protNode is a trie of workspace-relative protected paths, walked one
// component at a time alongside a scan, so checking an entry is one map
// lookup and never builds a path string.
type protNode struct {
	children map[string]*protNode
	// here marks the path ending at this node as protected.
	here bool
}

func (n *protNode) child(name string) *protNode {
	if n == nil {
		return nil
	}
	return n.children[name]
}

func (n *protNode) add(comps []string) {
	for _, c := range comps {
		if n.children == nil {
			n.children = map[string]*protNode{}
		}
		next := n.children[c]
		if next == nil {
			next = &protNode{}
			n.children[c] = next
		}
		n = next
	}
	n.here = true
}

// relativeTo returns the components of abs relative to the workspace root
// (both cleaned absolute paths), ok false when abs is not inside it. An abs
// equal to the root returns no components and ok true.
func relativeTo(root, abs string) ([]string, bool) {
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") || filepath.IsAbs(rel) {
		return nil, false
	}
	if rel == "." {
		return nil, true
	}
	return strings.Split(filepath.ToSlash(rel), "/"), true
}

// canonical resolves symlinks in p as far as it exists: the longest existing
// prefix is resolved and the rest appended, so a credential file that does
// not exist yet is still placed where it would be created.
func canonical(p string) string {
	p = filepath.Clean(p)
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	parent := filepath.Dir(p)
	if parent == p {
		return p
	}
	return filepath.Join(canonical(parent), filepath.Base(p))
}
