package files

import (
	"context"
	"errors"
	"path"
	"strings"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge"
)

// The preview and lazily opened folders never send a path: the page walks
// from the root one component at a time with project.list, caching each
// folder's listing for the current generation, and reads a file by the id
// its folder's listing gave (docs/protocol.md §5).

// listPageEntries is the page size asked of project.list: the protocol's
// maximum, so most folders take one call.
const listPageEntries = 1000

// maxFolderPages bounds one folder's listing (10,000 entries, the size of
// a whole snapshot); what lies beyond is not previewed.
const maxFolderPages = 10

// idLifetime is how long a cached listing's ids are trusted: the
// protocol's 15-minute id lifetime less a margin for the calls in flight.
const idLifetime = 14 * time.Minute

// folder is one folder's listing, immutable once made (Cmds read cached
// folders while Update adds new ones).
type folder struct {
	entries []wire.ListEntry // the backend's order: folders first, then files
	byName  map[string]int
	at      time.Time // when its ids were minted
}

func newFolder(entries []wire.ListEntry, at time.Time) *folder {
	f := &folder{entries: entries, byName: make(map[string]int, len(entries)), at: at}
	for i, e := range entries {
		f.byName[e.Name] = i
	}
	return f
}

// errStale says a listing belonged to another generation: a policy change
// is under way and an invalidation follows.
var errStale = errors.New("the workspace changed while it was being read")

// errGone says a path is no longer in the workspace as the backend sees it.
var errGone = errors.New("no longer available")

// walker resolves paths to ids for one generation.
type walker struct {
	b       bridge.Backend
	gen     int64
	known   map[string]*folder // cached folders (read-only here)
	fetched map[string]*folder // folders listed by this walk
}

// folder returns the listing of dir (whose own ref is ref), cached or
// fetched.
func (w *walker) folder(ctx context.Context, dir, ref string) (*folder, error) {
	if f := w.fetched[dir]; f != nil {
		return f, nil
	}
	if f := w.known[dir]; f != nil && time.Since(f.at) < idLifetime {
		return f, nil
	}
	at := time.Now()
	var all []wire.ListEntry
	for range maxFolderPages {
		res, err := w.b.ProjectList(ctx, ref, listPageEntries)
		if err != nil {
			return nil, err
		}
		if res.Generation != w.gen {
			return nil, errStale
		}
		all = append(all, res.Entries...)
		if res.NextRef == "" {
			break
		}
		ref = res.NextRef
	}
	f := newFolder(all, at)
	w.fetched[dir] = f
	return f, nil
}

// resolve walks to p ("" is the root) and returns its listing entry (for
// the root: a folder entry with the root ref).
func (w *walker) resolve(ctx context.Context, p string) (wire.ListEntry, error) {
	e := wire.ListEntry{ID: wire.RootRef, Type: wire.TypeDir}
	dir := ""
	for name := range strings.SplitSeq(p, "/") {
		if name == "" {
			continue
		}
		if e.Type != wire.TypeDir {
			return e, errGone
		}
		f, err := w.folder(ctx, dir, e.ID)
		if err != nil {
			return e, err
		}
		i, ok := f.byName[name]
		if !ok {
			return e, errGone
		}
		e, dir = f.entries[i], path.Join(dir, name)
	}
	return e, nil
}

// retryable reports whether a walk that used cached ids should be redone
// from fresh listings: the backend forgot an id (expired, evicted).
func retryable(err error) bool {
	return bridge.Code(err) == wire.CodeNotFound || errors.Is(err, errGone)
}
