package backend

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/backend/files"
	"github.com/scoutdev/scout/backend/server"
	"github.com/scoutdev/scout/backend/wire"
)

// scanDeadline is project.files's cooperative deadline.
var scanDeadline = time.Duration(wire.DefaultFilesExtension.DeadlineMS) * time.Millisecond

// filesFeature serves project.files and workspace.trust and announces
// policy changes with project_files.invalidated.
type filesFeature struct {
	ws  *workspaceState
	srv *server.Server

	// stall makes the first scan goroutine sleep first, ignoring
	// cancellation, like a worker stuck in a system call (tests only, see
	// debugStallEnv).
	stall atomic.Int64

	// list is project.list's and project.read's state (list_methods.go).
	list listState
	// index is project.index's state (index_methods.go).
	index *indexState

	mu       sync.Mutex
	scanning bool                   // the one physical scan slot (docs/protocol.md §5)
	gens     map[*server.Call]int64 // generation each policy-bound request runs under
}

// debugStallEnv, with server.DebugEnv set to "1", makes the process's first
// scan stall for that many milliseconds before reading anything, so tests
// can observe busy, cancellation, scan_timeout and status while a scan
// worker is stuck.
const debugStallEnv = "SCOUT_DEBUG_SCAN_STALL_MS"

func newFilesFeature(ws *workspaceState, getenv func(string) string) *filesFeature {
	f := &filesFeature{ws: ws, gens: map[*server.Call]int64{}, list: newListState(getenv), index: newIndexState(getenv)}
	if getenv(server.DebugEnv) == "1" {
		if ms, err := strconv.Atoi(getenv(debugStallEnv)); err == nil && ms > 0 {
			f.stall.Store(int64(ms) * int64(time.Millisecond))
		}
	}
	return f
}

func (f *filesFeature) register(srv *server.Server) {
	f.srv = srv
	srv.Register(&server.Method{
		Name: wire.MethodProjectFiles, Kind: server.KindAux, LongRunning: true,
		Extension: func(e *wire.Extensions) { ext := wire.DefaultFilesExtension; e.ProjectFiles = &ext },
		Admit:     f.admitScan,
		Handle:    f.projectFiles,
	})
	srv.Register(&server.Method{
		Name: wire.MethodWorkspaceTrust, Kind: server.KindSelection, LongRunning: true,
		Handle: f.workspaceTrust,
	})
	f.registerIndex(srv)
	f.registerList(srv)
}

// admitScan takes the process's one scan slot, or answers busy. The slot
// is given back by whoever ends up owning it: the scan goroutine when it
// exits (possibly long after its request was answered), or the handler if
// no scan was started.
func (f *filesFeature) admitScan(c *server.Call) (func(), error) {
	return nil, f.takeScan(c)
}

// takeScan takes the scan slot for c and records the generation c is
// admitted under, or answers busy.
func (f *filesFeature) takeScan(c *server.Call) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.scanning {
		return wire.NewError(wire.CodeBusy)
	}
	f.scanning = true
	f.gens[c] = f.ws.mgr.Generation()
	return nil
}

// admitTracked records the generation c is admitted under. A request
// admitted before a policy change belongs to the old generation even if its
// handler has not started yet, so the change must cancel it; one admitted
// after the change began waits for its settlement instead. The handler
// untracks c when it returns.
func (f *filesFeature) admitTracked(c *server.Call) (func(), error) {
	f.mu.Lock()
	f.gens[c] = f.ws.mgr.Generation()
	f.mu.Unlock()
	return nil, nil
}

func (f *filesFeature) releaseScan() {
	f.mu.Lock()
	f.scanning = false
	f.mu.Unlock()
}

// track records the generation c runs under, so a policy change cancels
// it; untrack forgets it.
func (f *filesFeature) track(c *server.Call, gen int64) {
	f.mu.Lock()
	f.gens[c] = gen
	f.mu.Unlock()
}

func (f *filesFeature) untrack(c *server.Call) {
	f.mu.Lock()
	delete(f.gens, c)
	f.mu.Unlock()
}

// projectFiles waits for a settled policy, scans on a goroutine that owns
// the scan slot, and answers scan_timeout at the deadline even if that
// goroutine is stuck in a system call.
func (f *filesFeature) projectFiles(ctx context.Context, c *server.Call) (any, error) {
	started := false
	defer func() {
		if !started {
			f.releaseScan()
		}
	}()
	defer f.untrack(c) // tracked since admission (admitScan)
	pol, err := f.ws.mgr.Wait(ctx)
	if err != nil {
		return nil, err
	}
	f.track(c, pol.Generation())
	if f.ws.root == nil || pol.Generation() != f.ws.mgr.Generation() {
		return f.finishReport(c, pol.Generation(), &files.Result{})
	}
	scanCtx, cancel := context.WithTimeout(ctx, scanDeadline)
	defer cancel()
	type outcome struct {
		res *files.Result
		err error
	}
	done := make(chan outcome, 1)
	started = true
	go func() {
		var out outcome
		defer func() {
			if p := recover(); p != nil {
				out = outcome{err: fmt.Errorf("scan panicked: %v", p)}
			}
			// Free the slot before the result can be answered, so a client
			// that rescans as soon as it reads the report is not refused.
			f.releaseScan()
			done <- out
		}()
		time.Sleep(time.Duration(f.stall.Swap(0)))
		out.res, out.err = files.Scan(scanCtx, f.ws.root, pol, files.DefaultLimits)
	}()
	var out outcome
	select {
	case out = <-done:
	case <-scanCtx.Done():
	}
	switch {
	case ctx.Err() != nil:
		return nil, wire.NewError(wire.CodeOperationCancelled)
	case scanCtx.Err() != nil:
		return nil, wire.NewError(wire.CodeScanTimeout)
	case out.err != nil:
		return nil, out.err // logged by the server, answered internal
	}
	return f.finishReport(c, pol.Generation(), out.res)
}

// finishReport builds the report and arranges the re-check under the
// output lock: the generation must still be the one scanned under.
func (f *filesFeature) finishReport(c *server.Call, gen int64, res *files.Result) (any, error) {
	rep, err := files.Report(c.ID, gen, res, wire.DefaultFilesExtension.ReportBytes)
	if err != nil {
		return nil, err
	}
	c.OnCommit(func() error {
		if f.ws.mgr.Generation() != gen {
			return wire.Errorf(wire.CodeOperationCancelled, "The workspace policy changed during the scan.")
		}
		return nil
	})
	return rep, nil
}

// workspaceTrust applies .scout/config.toml with the sequence of docs/protocol.md
// §5: announce the next generation and cancel work of the old one, reserve
// the candidate protections, adopt, settle.
func (f *filesFeature) workspaceTrust(ctx context.Context, c *server.Call) (any, error) {
	ws := f.ws
	if ws.root == nil {
		return nil, wire.Errorf(wire.CodeTrustFailed, "The workspace cannot be opened.")
	}
	local := config.ReadLocal(ws.root)
	if !local.Exists {
		return &wire.TrustResult{Generation: ws.mgr.Generation(), Trust: wire.TrustNoLocalConfig}, nil
	}
	gen, ok := f.begin(c)
	if !ok {
		// Cancelled before the transition began: its response is
		// written, and nothing changed.
		return nil, wire.NewError(wire.CodeOperationCancelled)
	}
	if local.Err == nil {
		ws.mgr.Reserve(config.Candidates(local.Data, ws.canonical, ws.userHome))
	}
	proj, err := f.adopt(ctx, local)
	if err != nil {
		ws.mgr.Settle(nil)
		if ctx.Err() != nil {
			return nil, wire.NewError(wire.CodeOperationCancelled)
		}
		ws.logf("workspace.trust: %v", err)
		return nil, wire.Errorf(wire.CodeTrustFailed, "The workspace configuration could not be adopted; see the backend's diagnostics.")
	}
	rules := ws.rules(proj)
	ws.mgr.Settle(&rules)
	ws.setTrust(wire.TrustTrusted)
	res := &wire.TrustResult{Generation: gen, Trust: wire.TrustTrusted}
	if len(proj.Providers) > 0 {
		res.ConfigurationReload = wire.ConfigurationReloadRestart
	}
	return res, nil
}

// begin advances the generation, revokes every project.list id, abandons
// the project.index walk and announces it in one step under the output
// lock, then cancels the requests of older generations (a project.index
// step among them). It does none of it, and reports false, when the trust
// request c was answered already (a cancel that came first).
func (f *filesFeature) begin(c *server.Call) (int64, bool) {
	params := &wire.InvalidatedParams{}
	advance := func() {
		params.Generation = f.ws.mgr.Begin()
		f.list.refs.RevokeBefore(params.Generation)
		f.index.abandonCurrent() // its cursors were issued before the notification
	}
	if c == nil {
		f.srv.Notify(wire.NotifyProjectInvalidated, params, advance) // a test's transition
	} else if !c.NotifyWhileActive(wire.NotifyProjectInvalidated, params, advance) {
		return 0, false
	}
	f.mu.Lock()
	var stale []*server.Call
	for c, g := range f.gens {
		if g < params.Generation {
			stale = append(stale, c)
		}
	}
	f.mu.Unlock()
	for _, c := range stale {
		c.Terminate(wire.Errorf(wire.CodeOperationCancelled, "The workspace policy changed."))
	}
	return params.Generation, true
}

// adopt validates the project configuration and remembers the trust
// decision; nothing is adopted when it fails or ctx ends.
func (f *filesFeature) adopt(ctx context.Context, local config.LocalConfig) (*config.Project, error) {
	if local.Err != nil {
		return nil, local.Err
	}
	proj, err := f.ws.adoptable(local.Data)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := f.ws.remember(local.Sum); err != nil {
		return nil, errors.New("cannot record the trust decision in trusted.json")
	}
	return proj, nil
}
