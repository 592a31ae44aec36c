// Package bridgetest is a scripted, in-process bridge.Backend for the
// frontend's tests: a fixed file tree served by project.files,
// project.list and project.read with the protocol's shapes, generations
// that advance on Invalidate, session discovery over fixed rows with
// single-use cursors, catalogs with revisions, selection guards and
// refreshes (sessions.go, catalog.go), model.enable and
// model.catalog.models (models.go), the whole tree page by page through
// project.index (index.go), a child that can Crash and Restart,
// and hooks to hold or rewrite any answer.
package bridgetest

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"path"
	"slices"
	"strings"
	"sync"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient"
)

// Options describe a Fake's workspace.
type Options struct {
	// Files are the workspace's files (slash-separated relative paths);
	// their directories are implied.
	Files []string
	// Contents are files' contents for project.read ("" when absent).
	Contents map[string]string
	// Truncated marks every report as truncated.
	Truncated bool
	// Snapshot, when above 0, bounds project.files as the backend's
	// 10,000 entries do: a report holds the first Snapshot entries of the
	// walk order (in component order) and is truncated when that leaves
	// any out. project.index serves them all, IndexPage a page (all in
	// one when 0).
	Snapshot  int
	IndexPage int
	// Preview offers project.list and project.read.
	Preview bool
	// Trust is initialize's workspace.trust ("no_local_config" when empty).
	Trust string

	// Sessions are the rows session.discover finds, served in pages of
	// SessionPage rows (all in one page when 0).
	Sessions    []wire.SessionRow
	SessionPage int
	// Catalog is what the catalog caches say; CatalogPage bounds the
	// choices of a page (100 when 0).
	Catalog     Catalog
	CatalogPage int
	// Without are capabilities the fake does not offer.
	Without []string
}

// FilesFunc answers project.files call number n (1-based) in place of the
// default answer def; it may block on ctx.
type FilesFunc func(ctx context.Context, n int, def wire.ProjectFilesResult) (wire.ProjectFilesResult, error)

// Fake is a scripted backend. Its methods are safe for concurrent use.
type Fake struct {
	opts      Options
	entries   []wire.FileEntry
	walkOrder []wire.FileEntry // entries as project.index lists them
	snapshot  []wire.FileEntry // what project.files reports
	events    chan rpcclient.Event
	// restartHook runs at the start of every Restart (SetRestartHook).
	restartHook func()

	mu      sync.Mutex
	child   uint64
	gen     int64
	down    bool
	closed  bool
	files   FilesFunc
	calls   map[string]int
	listAll map[string][]string // folder path -> child paths, sorted dirs first

	sessions sessionState
	catalog  catalogState
	index    indexState
}

// New returns a Fake serving opts.
func New(opts Options) *Fake {
	f := &Fake{opts: opts, events: make(chan rpcclient.Event, 64), child: 1, gen: 1, calls: map[string]int{}}
	f.catalog.data = opts.Catalog.clone()
	f.entries = Entries(opts.Files)
	f.listAll = folders(f.entries)
	f.walkOrder = walkOrder(f.entries)
	f.snapshot = f.entries
	if opts.Snapshot > 0 && opts.Snapshot < len(f.entries) {
		f.snapshot = slices.Clone(f.walkOrder[:opts.Snapshot])
		slices.SortFunc(f.snapshot, func(a, b wire.FileEntry) int {
			return slices.Compare(strings.Split(a.Path, "/"), strings.Split(b.Path, "/"))
		})
	}
	return f
}

// Entries returns the snapshot entries of files: every file and every
// directory above one, sorted by path components, as project.files does.
func Entries(files []string) []wire.FileEntry {
	kinds := map[string]string{}
	for _, p := range files {
		kinds[p] = wire.KindFile
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			kinds[d] = wire.KindDirectory
		}
	}
	out := make([]wire.FileEntry, 0, len(kinds))
	for p, k := range kinds {
		out = append(out, wire.FileEntry{Path: p, Kind: k})
	}
	slices.SortFunc(out, func(a, b wire.FileEntry) int {
		return slices.Compare(strings.Split(a.Path, "/"), strings.Split(b.Path, "/"))
	})
	return out
}

func folders(entries []wire.FileEntry) map[string][]string {
	kids := map[string][]string{}
	isDir := map[string]bool{}
	for _, e := range entries {
		isDir[e.Path] = e.Kind == wire.KindDirectory
		dir := path.Dir(e.Path)
		if dir == "." {
			dir = ""
		}
		kids[dir] = append(kids[dir], e.Path)
	}
	for _, k := range kids {
		slices.SortStableFunc(k, func(a, b string) int {
			if isDir[a] != isDir[b] {
				if isDir[a] {
					return -1
				}
				return 1
			}
			return strings.Compare(path.Base(a), path.Base(b))
		})
	}
	return kids
}

func (f *Fake) isDir(p string) bool {
	i, ok := slices.BinarySearchFunc(f.entries, p, func(e wire.FileEntry, p string) int {
		return slices.Compare(strings.Split(e.Path, "/"), strings.Split(p, "/"))
	})
	return ok && f.entries[i].Kind == wire.KindDirectory
}

// SetFiles replaces the project.files answer.
func (f *Fake) SetFiles(fn FilesFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.files = fn
}

// Calls returns how many times method was called.
func (f *Fake) Calls(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[method]
}

// Generation returns the current generation.
func (f *Fake) Generation() int64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.gen
}

// Invalidate advances the generation and writes project_files.invalidated.
func (f *Fake) Invalidate() int64 {
	f.mu.Lock()
	f.gen++
	f.index.live = "" // the walk is abandoned with the notification
	gen, child := f.gen, f.child
	f.mu.Unlock()
	raw, _ := wire.Marshal(wire.InvalidatedParams{Generation: gen})
	f.events <- rpcclient.Event{Child: child, Method: wire.NotifyProjectInvalidated, Params: raw}
	return gen
}

// Crash makes the child die: calls fail with an ExitError until Restart.
func (f *Fake) Crash() {
	f.mu.Lock()
	f.down = true
	child := f.child
	f.mu.Unlock()
	f.events <- rpcclient.Event{Child: child, Exit: &rpcclient.ExitError{State: "signal: killed"}}
}

// Close ends the event stream.
func (f *Fake) Close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.closed {
		f.closed = true
		close(f.events)
	}
}

// Init implements bridge.Backend.
func (f *Fake) Init() wire.InitializeResult {
	f.mu.Lock()
	defer f.mu.Unlock()
	caps := []string{wire.MethodProjectFiles, wire.MethodProjectIndex}
	if f.opts.Preview {
		caps = append(caps, wire.MethodProjectList, wire.MethodProjectRead)
	}
	caps = append(caps, wire.MethodSessionDiscover, wire.MethodSessionOpen,
		wire.MethodModelCatalog, wire.MethodModelCatalogStatus, wire.MethodModelRefresh, wire.MethodModelSelect,
		wire.MethodModelEnable, wire.MethodModelCatalogModels, wire.MethodCancel)
	caps = slices.DeleteFunc(caps, func(c string) bool { return slices.Contains(f.opts.Without, c) })
	return wire.InitializeResult{
		ProtocolVersion: wire.ProtocolVersion,
		Server:          wire.ServerInfo{Name: "scout", Version: "fake"},
		Capabilities:    caps,
		Negotiated:      caps,
		Limits:          wire.DefaultLimits,
		Workspace:       wire.Workspace{Generation: f.gen, Trust: cmp.Or(f.opts.Trust, wire.TrustNoLocalConfig)},
	}
}

// Child implements bridge.Backend.
func (f *Fake) Child() uint64 {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.child
}

// Events implements bridge.Backend.
func (f *Fake) Events() <-chan rpcclient.Event { return f.events }

// SetRestartHook makes every Restart call fn first, while the picker
// waits for the new child: what a child says as it starts (a diagnostic)
// comes then. Set it before the restart it is for.
func (f *Fake) SetRestartHook(fn func()) { f.restartHook = fn }

// Restart implements bridge.Backend: a new child at generation 1, with no
// discovery scan and no catalog revision yet (cursors and guards of the
// old child are unknown to it).
func (f *Fake) Restart(ctx context.Context) error {
	if hook := f.restartHook; hook != nil {
		hook()
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls["restart"]++
	f.child++
	f.gen = 1
	f.down = false
	f.sessions.restart()
	f.catalog.restart()
	f.index = indexState{fn: f.index.fn}
	return nil
}

// begin counts a call and fails it when the child is down or the method
// was not negotiated.
func (f *Fake) begin(method string) (n int, gen int64, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.beginLocked(method)
}

func (f *Fake) beginLocked(method string) (n int, gen int64, err error) {
	f.calls[method]++
	if f.down {
		return 0, 0, &rpcclient.ExitError{State: "signal: killed"}
	}
	if slices.Contains(f.opts.Without, method) {
		return 0, 0, wire.NewError(wire.CodeUnsupportedCapability)
	}
	return f.calls[method], f.gen, nil
}

// ProjectFiles implements bridge.Backend.
func (f *Fake) ProjectFiles(ctx context.Context) (wire.ProjectFilesResult, error) {
	n, gen, err := f.begin(wire.MethodProjectFiles)
	if err != nil {
		return wire.ProjectFilesResult{}, err
	}
	def := wire.ProjectFilesResult{
		CommandID:  fmt.Sprintf("c%d", n),
		Generation: gen,
		Entries:    slices.Clone(f.snapshot),
		Truncated:  f.opts.Truncated || len(f.snapshot) < len(f.entries),
	}
	f.mu.Lock()
	fn := f.files
	f.mu.Unlock()
	if fn != nil {
		return fn(ctx, n, def)
	}
	return def, ctx.Err()
}

// id mints the fake's opaque id of a folder, file or continuation.
func id(kind, p string, gen int64) string {
	sum := sha256.Sum256(fmt.Appendf(nil, "%s\x00%s\x00%d", kind, p, gen))
	return base64.RawURLEncoding.EncodeToString(sum[:])
}

// resolve finds what ref names: a kind ("dir", "file", "next") and a path
// (for "next": the folder, plus the offset).
func (f *Fake) resolve(ref string, gen int64) (kind, p string, off int, ok bool) {
	if ref == wire.RootRef {
		return "dir", "", 0, true
	}
	for dir, kids := range f.listAll {
		if id("dir", dir, gen) == ref {
			return "dir", dir, 0, true
		}
		for i := range kids {
			if id("next", dir+"\x00"+fmt.Sprint(i), gen) == ref {
				return "next", dir, i, true
			}
		}
	}
	for _, e := range f.entries {
		if e.Kind == wire.KindFile && id("file", e.Path, gen) == ref {
			return "file", e.Path, 0, true
		}
	}
	return "", "", 0, false
}

func (f *Fake) preview(method string) (int64, error) {
	_, gen, err := f.begin(method)
	if err == nil && !f.opts.Preview {
		err = wire.NewError(wire.CodeUnsupportedCapability)
	}
	return gen, err
}

// ProjectList implements bridge.Backend.
func (f *Fake) ProjectList(ctx context.Context, ref string, limit int) (wire.ListResult, error) {
	gen, err := f.preview(wire.MethodProjectList)
	if err != nil {
		return wire.ListResult{}, err
	}
	kind, dir, off, ok := f.resolve(ref, gen)
	if !ok || kind == "file" {
		return wire.ListResult{}, wire.NewError(wire.CodeNotFound)
	}
	if limit <= 0 {
		limit = wire.DefaultListExtension.PageEntriesDefault
	}
	kids := f.listAll[dir][off:]
	res := wire.ListResult{Generation: gen, Entries: []wire.ListEntry{}}
	if len(kids) > limit {
		res.NextRef = id("next", dir+"\x00"+fmt.Sprint(off+limit), gen)
		kids = kids[:limit]
	}
	for _, p := range kids {
		e := wire.ListEntry{Name: path.Base(p), Type: wire.TypeFile, Mtime: "2026-01-01T00:00:00Z"}
		if f.isDir(p) {
			e.Type, e.ID = wire.TypeDir, id("dir", p, gen)
		} else {
			e.ID, e.Size = id("file", p, gen), int64(len(f.opts.Contents[p]))
		}
		res.Entries = append(res.Entries, e)
	}
	return res, ctx.Err()
}

// ProjectRead implements bridge.Backend.
func (f *Fake) ProjectRead(ctx context.Context, ref string, maxBytes int) (wire.ReadResult, error) {
	gen, err := f.preview(wire.MethodProjectRead)
	if err != nil {
		return wire.ReadResult{}, err
	}
	kind, p, _, ok := f.resolve(ref, gen)
	if !ok || kind != "file" {
		return wire.ReadResult{}, wire.NewError(wire.CodeNotFound)
	}
	if maxBytes <= 0 {
		maxBytes = wire.DefaultReadBytes
	}
	content := f.opts.Contents[p]
	res := wire.ReadResult{Generation: gen, Size: int64(len(content))}
	if strings.Contains(content, "\x00") {
		res.Binary = true
		return res, nil
	}
	if len(content) > maxBytes {
		content, res.Truncated = content[:maxBytes], true
	}
	res.Content = content
	return res, ctx.Err()
}
