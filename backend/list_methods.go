package backend

import (
	"context"
	"strconv"
	"time"

	"github.com/scoutdev/scout/backend/files"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/refs"
	"github.com/scoutdev/scout/backend/server"
	"github.com/scoutdev/scout/backend/wire"
)

// Debug hooks for project.list (with server.DebugEnv set to "1"; tests
// only): a smaller page byte bound, so a black-box test can reach it with
// names the file system accepts (1,000 entries of the longest names fit
// in about 640 KiB), and a shorter id lifetime.
const (
	debugPageBytesEnv = "SCOUT_DEBUG_LIST_PAGE_BYTES"
	debugRefTTLEnv    = "SCOUT_DEBUG_REF_TTL_MS"
)

// refTarget is what a project.list id stands for: a workspace-relative
// path, and for a continuation the listing position to resume after.
type refTarget struct {
	path  string
	after files.Key
}

// listState is project.list's and project.read's part of the files
// feature: the id registry and the page byte bound.
type listState struct {
	refs      *refs.Registry[refTarget]
	pageBytes int
}

func newListState(getenv func(string) string) listState {
	ext := wire.DefaultListExtension
	opts := refs.Options{TTL: time.Duration(ext.RefTTLMS) * time.Millisecond, Max: ext.RefsMax}
	pageBytes := ext.PageBytes
	if getenv(server.DebugEnv) == "1" {
		if ms, err := strconv.Atoi(getenv(debugRefTTLEnv)); err == nil && ms > 0 {
			opts.TTL = time.Duration(ms) * time.Millisecond
		}
		if n, err := strconv.Atoi(getenv(debugPageBytesEnv)); err == nil && n > 0 {
			pageBytes = n
		}
	}
	return listState{refs: refs.New[refTarget](opts), pageBytes: pageBytes}
}

// errNotFound is the one answer for every id that cannot be served:
// unknown, expired, evicted, revoked, of the wrong kind, or naming an
// entry that is no longer visible. Nothing tells these apart.
func errNotFound() error { return wire.NewError(wire.CodeNotFound) }

func (f *filesFeature) registerList(srv *server.Server) {
	srv.Register(&server.Method{
		Name: wire.MethodProjectList, Kind: server.KindAux,
		Extension: func(e *wire.Extensions) { ext := wire.DefaultListExtension; e.ProjectList = &ext },
		NewParams: func() any { return &wire.ListParams{} },
		Admit:     f.admitTracked,
		Handle:    f.projectList,
	})
	srv.Register(&server.Method{
		Name: wire.MethodProjectRead, Kind: server.KindAux,
		NewParams: func() any { return &wire.ReadParams{} },
		Admit:     f.admitTracked,
		Handle:    f.projectRead,
	})
}

// settled waits for a settled policy and tracks c under its generation so
// that a policy change cancels it (c is tracked from its admission on; see
// admitTracked). The caller defers untrack(c) before calling it.
func (f *filesFeature) settled(ctx context.Context, c *server.Call) (*policy.Policy, refs.Scope, error) {
	pol, err := f.ws.mgr.Wait(ctx)
	if err != nil {
		return nil, refs.Scope{}, err
	}
	f.track(c, pol.Generation())
	return pol, refs.Scope{Workspace: f.ws.canonical, Generation: pol.Generation()}, nil
}

// commitUnder makes c's result stand only if the generation is still gen
// when it is written.
func (f *filesFeature) commitUnder(c *server.Call, gen int64) {
	c.OnCommit(func() error {
		if f.ws.mgr.Generation() != gen {
			return wire.Errorf(wire.CodeOperationCancelled, "The workspace policy changed.")
		}
		return nil
	})
}

// projectList serves one page of one folder.
func (f *filesFeature) projectList(ctx context.Context, c *server.Call) (any, error) {
	p := c.Params.(*wire.ListParams)
	defer f.untrack(c)
	pol, scope, err := f.settled(ctx, c)
	if err != nil {
		return nil, err
	}
	target, after, ok := f.listTarget(scope, *p.Ref)
	if !ok {
		return nil, errNotFound()
	}
	folder, err := files.OpenFolder(f.ws.root, pol, target)
	if err != nil {
		return nil, errNotFound()
	}
	defer folder.Close()
	limit := wire.DefaultListExtension.PageEntriesDefault
	if p.Limit != nil {
		limit = *p.Limit
	}
	items, more, err := folder.Page(ctx, after, limit)
	switch {
	case ctx.Err() != nil:
		return nil, wire.NewError(wire.CodeOperationCancelled)
	case err != nil && *p.Ref != wire.RootRef:
		return nil, errNotFound()
	case err != nil:
		items, more = nil, false // a root that cannot be read is empty
	}
	res, err := f.page(c.ID, scope, folder, items, more)
	if err != nil {
		return nil, err
	}
	f.commitUnder(c, scope.Generation)
	return res, nil
}

// listTarget resolves project.list's ref to a folder path and the
// position to start after (nil: the beginning).
func (f *filesFeature) listTarget(scope refs.Scope, ref string) (string, *files.Key, bool) {
	if ref == wire.RootRef {
		return "", nil, true
	}
	if t, ok := f.list.refs.Resolve(scope, refs.Folder, ref); ok {
		return t.path, nil, true
	}
	if t, ok := f.list.refs.Resolve(scope, refs.Continuation, ref); ok {
		return t.path, &t.after, true
	}
	return "", nil, false
}

// page fits items into the page byte bound and mints their ids, plus a
// continuation when more remain.
func (f *filesFeature) page(reqID string, scope refs.Scope, folder *files.Folder, items []files.Item, more bool) (*wire.ListResult, error) {
	entries := make([]wire.ListEntry, len(items))
	for i, it := range items {
		entries[i] = files.ListEntry(it)
	}
	keep, err := files.FitList(reqID, scope.Generation, entries, more, f.list.pageBytes)
	if err != nil {
		return nil, err
	}
	more = more || keep < len(entries)
	res := &wire.ListResult{Generation: scope.Generation, Entries: entries[:keep]}
	for i, it := range items[:keep] {
		kind := refs.File
		if it.Dir {
			kind = refs.Folder
		}
		res.Entries[i].ID = f.list.refs.Mint(scope, kind, refTarget{path: folder.ChildPath(it.Name)})
	}
	if more && keep > 0 {
		last := items[keep-1].Key()
		res.NextRef = f.list.refs.Mint(scope, refs.Continuation, refTarget{path: folder.Path(), after: last})
	}
	return res, nil
}

// projectRead serves the head of one file by its id.
func (f *filesFeature) projectRead(ctx context.Context, c *server.Call) (any, error) {
	p := c.Params.(*wire.ReadParams)
	defer f.untrack(c)
	pol, scope, err := f.settled(ctx, c)
	if err != nil {
		return nil, err
	}
	t, ok := f.list.refs.Resolve(scope, refs.File, *p.Ref)
	if !ok {
		return nil, errNotFound()
	}
	file, info, err := files.OpenFile(f.ws.root, pol, t.path)
	if err != nil {
		return nil, errNotFound()
	}
	defer file.Close()
	max := wire.DefaultReadBytes
	if p.MaxBytes != nil {
		max = *p.MaxBytes
	}
	head, err := files.ReadHead(file, info, max)
	if err != nil {
		return nil, errNotFound()
	}
	f.commitUnder(c, scope.Generation)
	return &wire.ReadResult{Generation: scope.Generation, Size: head.Size, Binary: head.Binary, Truncated: head.Truncated, Content: head.Text}, nil
}
