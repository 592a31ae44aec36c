package bridgetest

import (
	"context"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/scoutdev/scout/backend/wire"
)

// IndexFunc answers project.index call number n (1-based) in place of the
// default answer def (err: the default error); it may block on ctx. An
// answer of busy leaves the walk as it was, as the backend's does.
type IndexFunc func(ctx context.Context, n int, def wire.ProjectIndexResult, err error) (wire.ProjectIndexResult, error)

// indexState is the fake's one walk: its entries in breadth-first order,
// served IndexPage at a time, with single-use cursors as the backend's.
type indexState struct {
	walk   int    // walks started by this child
	offset int    // entries served of the current walk
	live   string // the one cursor that continues it; "" none
	fn     IndexFunc
}

// SetIndex replaces the project.index answers.
func (f *Fake) SetIndex(fn IndexFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.index.fn = fn
}

// ProjectIndex implements bridge.Backend: Options.Files in breadth-first
// order (as project.index walks), Options.IndexPage entries a page (all
// in one when 0). A reused, foreign or stale cursor answers
// stale_revision and ends the walk; one never issued, invalid_cursor.
func (f *Fake) ProjectIndex(ctx context.Context, cursor *string) (wire.ProjectIndexResult, error) {
	f.mu.Lock()
	n, gen, err := f.beginLocked(wire.MethodProjectIndex)
	before := f.index
	var def wire.ProjectIndexResult
	if err == nil {
		def, err = f.indexPageLocked(gen, cursor)
	}
	fn := f.index.fn
	f.mu.Unlock()
	if fn != nil {
		res, err := fn(ctx, n, def, err)
		if we := (*wire.Error)(nil); errors.As(err, &we) && we.Code == wire.CodeBusy {
			// Refused before admission: the cursor was not used up.
			f.mu.Lock()
			f.index = before
			f.mu.Unlock()
		}
		return res, err
	}
	if err == nil {
		err = ctx.Err()
	}
	return def, err
}

func (f *Fake) indexPageLocked(gen int64, cursor *string) (wire.ProjectIndexResult, error) {
	x := &f.index
	switch {
	case cursor == nil:
		x.walk++
		x.offset = 0
	case !strings.HasPrefix(*cursor, "x"):
		x.live = ""
		return wire.ProjectIndexResult{}, wire.NewError(wire.CodeInvalidCursor)
	case *cursor != x.live:
		x.live = ""
		return wire.ProjectIndexResult{}, wire.NewError(wire.CodeStaleRevision)
	}
	size := f.opts.IndexPage
	if size <= 0 {
		size = len(f.walkOrder)
	}
	end := min(x.offset+size, len(f.walkOrder))
	res := wire.ProjectIndexResult{Generation: gen, Entries: slices.Clone(f.walkOrder[x.offset:end]), Progress: wire.ProgressPageEntries}
	x.offset = end
	if end == len(f.walkOrder) {
		res.Complete, res.Progress, x.live = true, wire.ProgressComplete, ""
		return res, nil
	}
	next := fmt.Sprintf("x%d.%d.%d.%d", f.child, gen, x.walk, end)
	res.Cursor, x.live = &next, next
	return res, nil
}

// walkOrder lists entries as project.index does: breadth-first, each
// directory's entries by name, directories in the order they were listed.
func walkOrder(entries []wire.FileEntry) []wire.FileEntry {
	kids := map[string][]wire.FileEntry{}
	for _, e := range entries {
		dir := path.Dir(e.Path)
		if dir == "." {
			dir = ""
		}
		kids[dir] = append(kids[dir], e)
	}
	out := make([]wire.FileEntry, 0, len(entries))
	queue := []string{""}
	for i := 0; i < len(queue); i++ {
		list := kids[queue[i]]
		slices.SortFunc(list, func(a, b wire.FileEntry) int { return strings.Compare(path.Base(a.Path), path.Base(b.Path)) })
		for _, e := range list {
			out = append(out, e)
			if e.Kind == wire.KindDirectory {
				queue = append(queue, e.Path)
			}
		}
	}
	return out
}
