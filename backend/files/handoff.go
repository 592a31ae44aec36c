package files

import (
	"strings"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
)

// A truncated project.files scan has read, in project.index's order, the
// first directories of the walk that follows it: the selection is the
// walk's first entries (both are breadth-first, each directory sorted),
// and where the scan stopped, its queue of directories never expanded and
// the children of its last directory that the entry bound left out, is
// where the walk goes on. Continue hands that over, so the walk that a
// client starts right after a truncated snapshot does not read the
// snapshot's directories a second time (docs/protocol.md §10.10).

// scanRest is where a scan cut by the entry bound alone stopped.
type scanRest struct {
	root  *fsguard.Root
	pol   *policy.Policy
	queue []*node // directories selected and never expanded, in order
	kids  []child // the children of from the entry bound left out, in order
	from  *node
}

// Continue returns the project.index walk (with limits lim) that goes on
// from this scan: its first entries are the scan's selection, in selection
// order, then those of the directories the scan did not expand, read as a
// fresh walk would read them. It is nil when no walk can continue the
// scan: the scan was not truncated, a bound other than its entry bound
// (depth, examine) cut it, or the walk's own bounds would have left out
// or not expanded something the scan selected. The sequence of entries is
// a fresh walk's over the tree as the scan saw it.
func (r *Result) Continue(lim IndexLimits) *Index {
	rest := r.rest
	if rest == nil {
		return nil
	}
	pre := make([]child, len(r.Selected))
	for i, e := range r.Selected {
		if len(e.Path) > lim.PathBytes || (e.Dir && strings.Count(e.Path, "/")+1 >= lim.MaxDepth) {
			return nil // left out, or listed and never expanded, by the walk
		}
		pre[i] = child{path: e.Path, dir: e.Dir}
	}
	x := NewIndex(rest.root, rest.pol, lim)
	x.queue = rest.queue
	x.kids, x.then, x.thenFrom = pre, rest.kids, rest.from
	if rest.from != nil {
		rest.from.pending += x.expandable(rest.from, rest.kids)
	}
	return x
}
