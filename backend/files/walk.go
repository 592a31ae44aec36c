package files

import (
	"context"
	"errors"

	"github.com/scoutdev/scout/backend/policy"
)

// WalkEntry is one entry found by Walk.
type WalkEntry struct {
	Path string // workspace-relative
	Dir  bool
	Size int64 // 0 for a directory
}

// WalkResult is what Walk selected, in selection order (breadth-first,
// each folder in listing order).
type WalkResult struct {
	Entries   []WalkEntry
	Truncated bool
}

// pendingDir is a directory selected by Walk and not yet expanded.
type pendingDir struct {
	path   string
	name   string
	parent *policy.Frame // the frame it was found visible in
	depth  int           // of the directory itself; the start folder is 0
}

// Walk lists the folder f with project.files's bounds (lim): entries are
// selected breadth-first, every folder read in full and in listing order
// before any of its entries is selected; a folder with more names than
// the examine budget still left contributes nothing and ends the walk;
// directories at lim.MaxDepth below f are listed, never expanded. Without
// recursive only f itself is read, and its subdirectories are not counted
// as unexpanded. Truncated says that a bound (or the end of ctx, the
// deadline) left something out. Only servable entries are selected (see
// Folder.Page); a subfolder that vanished or cannot be read since it was
// listed has no entries.
func Walk(ctx context.Context, f *Folder, lim Limits, recursive bool) WalkResult {
	var res WalkResult
	queue := []pendingDir{{path: f.path}}
	examined := 0
	for i := 0; i < len(queue); i++ {
		if ctx.Err() != nil || len(res.Entries) >= lim.MaxEntries {
			res.Truncated = true
			break
		}
		dir := f
		if i > 0 {
			var err error
			if dir, err = f.open(queue[i]); err != nil {
				continue // vanished or hidden since it was listed
			}
		}
		items, more, err := dir.page(ctx, nil, lim.MaxEntries-len(res.Entries), lim.MaxExamined-examined)
		examined += dir.examined
		if i > 0 {
			dir.Close()
		}
		if ctx.Err() != nil {
			res.Truncated = true // the deadline: what was selected stands
			break
		}
		if errors.Is(err, errOverBudget) {
			res.Truncated = true // the budget is spent: stop expanding
			break
		}
		if err != nil {
			continue // a folder that cannot be read has no entries
		}
		res.Truncated = res.Truncated || more
		depth := queue[i].depth + 1
		for _, it := range items {
			p := join(queue[i].path, it.Name)
			res.Entries = append(res.Entries, WalkEntry{Path: p, Dir: it.Dir, Size: it.Size})
			switch {
			case !it.Dir || !recursive:
			case depth >= lim.MaxDepth:
				res.Truncated = true // listed, never expanded
			default:
				queue = append(queue, pendingDir{path: p, name: it.Name, parent: dir.frame, depth: depth})
			}
		}
	}
	return res
}

// open opens a directory Walk found visible in the folder of frame
// p.parent: from the root, one component at a time (fsguard refuses a
// component that became a symlink), with its own ignore rules loaded.
func (f *Folder) open(p pendingDir) (*Folder, error) {
	d, err := f.root.OpenDir(p.path)
	if err != nil {
		return nil, err
	}
	frame := f.pol.Enter(p.parent, p.name, d, policy.ProbeIgnoreFiles)
	return &Folder{root: f.root, pol: f.pol, path: p.path, dir: d, frame: frame}, nil
}

func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}
