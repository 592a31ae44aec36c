package files

import (
	"context"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
)

// Limits are project.files's bounds (docs/protocol.md §5).
type Limits struct {
	MaxEntries  int // entries selected, files plus directories
	MaxDepth    int // a top-level entry has depth 1; deeper ones are listed, never expanded
	MaxExamined int // raw directory entries read, rejected ones included
}

// DefaultLimits are the protocol's bounds.
var DefaultLimits = Limits{
	MaxEntries:  wire.DefaultFilesExtension.MaxEntries,
	MaxDepth:    wire.DefaultFilesExtension.MaxDepth,
	MaxExamined: wire.DefaultFilesExtension.MaxExamined,
}

// Selected is one selected entry.
type Selected struct {
	Path string
	Dir  bool
	// first and count locate a directory's children in the selection.
	first, count int32
}

// Result is a scan's selection, in selection order.
type Result struct {
	Selected  []Selected
	Truncated bool
	// Examined is the number of raw names the selection accounted for.
	Examined int

	rootCount int32 // the root's children are Selected[:rootCount]
}

// Scan selects the visible workspace under root with pol within lim. It
// returns ctx's error if ctx ends first (no partial result).
func Scan(ctx context.Context, root *fsguard.Root, pol *policy.Policy, lim Limits) (*Result, error) {
	r := &reader{root: root, pol: pol, stopped: func() bool { return ctx.Err() != nil }}
	defer r.releaseAll()
	// The selection's room at once (at most the protocol's 10,000 entries,
	// 320 KB): grown by append, it was copied at every doubling, a tenth of
	// the scan's time.
	res := &Result{Selected: make([]Selected, 0, min(lim.MaxEntries, DefaultLimits.MaxEntries))}
	queue := []*node{{sel: -1}}
	examined := 0
	for i := 0; i < len(queue); i++ {
		n := queue[i]
		if len(res.Selected) >= lim.MaxEntries {
			res.Truncated = true
			break
		}
		budget := lim.MaxExamined - examined
		l := r.open(n)
		r.read(l, budget+1) // one name more than the budget tells that it does not fit
		if err := ctx.Err(); err != nil {
			r.abandon(l)
			return nil, err
		}
		if l.count > budget {
			r.abandon(l)
			examined = lim.MaxExamined
			res.Truncated = true
			break
		}
		examined += l.count
		queued := expand(res, n, r.finish(l), lim)
		r.settle(l, len(queued))
		queue = append(queue, queued...)
	}
	res.Examined = examined
	return res, nil
}

// expand selects n's children within the entry bound and returns its
// child directories to expand.
func expand(res *Result, n *node, children []child, lim Limits) []*node {
	first := int32(len(res.Selected))
	childDepth := n.depth + 1
	var queued []*node
	for _, c := range children {
		if len(res.Selected) >= lim.MaxEntries {
			res.Truncated = true
			break
		}
		res.Selected = append(res.Selected, Selected{Path: c.path, Dir: c.dir})
		if !c.dir {
			continue
		}
		if childDepth >= lim.MaxDepth {
			res.Truncated = true // listed, never expanded
			continue
		}
		queued = append(queued, &node{parent: n, path: c.path, depth: childDepth, sel: int32(len(res.Selected) - 1)})
	}
	if n.sel >= 0 {
		res.Selected[n.sel].first = first
		res.Selected[n.sel].count = int32(len(res.Selected)) - first
	} else {
		res.rootCount = int32(len(res.Selected))
	}
	return queued
}
