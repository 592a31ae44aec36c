package backend

import (
	"context"
	"sync"
	"time"

	"github.com/scoutdev/scout/backend/cursor"
	"github.com/scoutdev/scout/backend/files"
	"github.com/scoutdev/scout/backend/server"
	"github.com/scoutdev/scout/backend/wire"
)

// Debug hooks for project.index, with server.DebugEnv set to "1" (tests
// only): debugIndexStepEnv replaces the 250 ms step deadline by that many
// milliseconds, so a test can meet the deadline bound; debugIndexStallEnv
// makes every step that continues a cursor sleep that many milliseconds
// first, ignoring cancellation like a worker stuck in a system call, so a
// test can act while a step of a walk is in flight.
const (
	debugIndexStepEnv  = "SCOUT_DEBUG_INDEX_STEP_MS"
	debugIndexStallEnv = "SCOUT_DEBUG_INDEX_STALL_MS"
)

// indexCursorVersion tags project.index cursors ("x1.<walk>.<seq>.<mac>").
const indexCursorVersion = "x1"

// indexState is project.index's part of the files feature: the child's
// one walk and the codec of its cursors. A walk is owned by the step that
// runs it (at most one: a step holds the scan slot); between steps it is
// idle and holds only what files.Index keeps.
type indexState struct {
	codec *cursor.Codec
	step  time.Duration // the step deadline
	stall time.Duration // the debug stall of continuing steps

	mu    sync.Mutex
	walks uint64     // walks started
	cur   *indexWalk // the child's current walk, or nil
}

// indexWalk is one walk and the single-use state of its cursors.
type indexWalk struct {
	id       uint64
	gen      int64  // the policy generation it walks under
	live     uint64 // the sequence of the one cursor that may continue it; 0: none
	dead     bool   // abandoned, poisoned or complete: its cursors are stale
	stepping bool   // a step runs it: whoever abandons it leaves closing to the step
	x        *files.Index
}

func newIndexState(getenv func(string) string) *indexState {
	s := &indexState{codec: cursor.New(indexCursorVersion), step: time.Duration(wire.DefaultIndexExtension.StepMS) * time.Millisecond}
	if d := debugDuration(getenv, debugIndexStepEnv); d > 0 {
		s.step = d
	}
	s.stall = debugDuration(getenv, debugIndexStallEnv)
	return s
}

func (f *filesFeature) registerIndex(srv *server.Server) {
	srv.Register(&server.Method{
		Name: wire.MethodProjectIndex, Kind: server.KindAux, LongRunning: true,
		Extension: func(e *wire.Extensions) { ext := wire.DefaultIndexExtension; e.ProjectIndex = &ext },
		NewParams: func() any { return new(wire.CursorParams) },
		Admit:     f.admitIndex,
		Handle:    f.projectIndex,
	})
}

// admitIndex takes the process's one scan slot for the step (busy when a
// project.files scan or another step holds it), before the cursor is
// looked at, so a request answered busy leaves its cursor usable. The
// server gives the slot back when the step's worker returns, before the
// page is written: the slot is free between steps.
func (f *filesFeature) admitIndex(c *server.Call) (func(), error) {
	if err := f.takeScan(c); err != nil {
		return nil, err
	}
	return f.releaseScan, nil
}

// projectIndex runs one step of the walk the cursor continues, or of a
// fresh one.
func (f *filesFeature) projectIndex(ctx context.Context, c *server.Call) (any, error) {
	defer f.untrack(c) // tracked since admission (admitIndex)
	cur := c.Params.(*wire.CursorParams).Cursor
	var w *indexWalk
	var seq uint64
	var gen int64
	var err error
	if cur == nil {
		w, gen, err = f.startWalk(ctx, c)
	} else {
		w, seq, err = f.index.resume(*cur)
	}
	if err != nil {
		f.index.abandonCurrent() // any error abandons the walk, a bad cursor's too
		return nil, err
	}
	if w == nil { // nothing is visible: the walk is over before it began
		return f.commitPage(c, nil, 0, &wire.ProjectIndexResult{Generation: gen, Entries: []wire.FileEntry{}, Complete: true, Progress: wire.ProgressComplete})
	}
	f.track(c, w.gen)
	if cur != nil {
		time.Sleep(f.index.stall) // the debug stall, if any
	}
	res, err := f.step(ctx, c, w)
	f.index.endStep(w)
	if err != nil {
		f.index.abandon(w)
		return nil, err
	}
	return f.commitPage(c, w, seq, res)
}

// startWalk waits for a settled policy and starts a walk under it,
// abandoning the child's earlier walk. It returns a nil walk for a
// workspace that cannot be opened: nothing is visible.
func (f *filesFeature) startWalk(ctx context.Context, c *server.Call) (*indexWalk, int64, error) {
	pol, err := f.ws.mgr.Wait(ctx)
	if err != nil {
		return nil, 0, err
	}
	gen := pol.Generation()
	f.track(c, gen)
	if gen != f.ws.mgr.Generation() {
		return nil, 0, wire.Errorf(wire.CodeOperationCancelled, "The workspace policy changed.")
	}
	if f.ws.root == nil {
		f.index.abandonCurrent()
		return nil, gen, nil
	}
	return f.index.start(gen, files.NewIndex(f.ws.root, pol, files.DefaultIndexLimits)), gen, nil
}

// step runs one bounded step of w's walk.
func (f *filesFeature) step(ctx context.Context, c *server.Call, w *indexWalk) (*wire.ProjectIndexResult, error) {
	pageBytes, err := files.IndexPageBytes(c.ID, w.gen)
	if err != nil {
		return nil, err
	}
	entries, word, err := w.x.Step(ctx, files.Bounds{Deadline: time.Now().Add(f.index.step), PageBytes: pageBytes})
	if err != nil {
		return nil, err
	}
	if entries == nil {
		entries = []wire.FileEntry{}
	}
	return &wire.ProjectIndexResult{Generation: w.gen, Entries: entries, Progress: word, Complete: word == wire.ProgressComplete}, nil
}

// commitPage issues the page's cursor and arranges, under the output
// lock, that the page is written only while its generation is current and
// that its cursor becomes the walk's live one only when it is written.
func (f *filesFeature) commitPage(c *server.Call, w *indexWalk, seq uint64, res *wire.ProjectIndexResult) (any, error) {
	if !res.Complete {
		next := f.index.codec.Encode(w.id, seq+1)
		res.Cursor = &next
	} else if w != nil {
		f.index.abandon(w)
	}
	gen := res.Generation
	c.OnCommit(func() error {
		if f.ws.mgr.Generation() != gen {
			if w != nil {
				f.index.abandon(w)
			}
			return wire.Errorf(wire.CodeOperationCancelled, "The workspace policy changed during the step.")
		}
		if !res.Complete {
			f.index.issue(w, seq+1)
		}
		return nil
	})
	return res, nil
}

// start makes a new walk the current one, abandoning the earlier.
func (s *indexState) start(gen int64, x *files.Index) *indexWalk {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.abandonLocked(s.cur)
	s.walks++
	w := &indexWalk{id: s.walks, gen: gen, stepping: true, x: x}
	s.cur = w
	return w
}

// resume takes the walk a cursor continues, consuming the cursor, and
// returns the cursor's sequence. A cursor this child never issued is
// invalid_cursor; one of a walk that is not current or no longer alive is
// stale_revision; a genuine cursor used a second time poisons the walk.
func (s *indexState) resume(c string) (*indexWalk, uint64, error) {
	id, seq, ok := s.codec.Decode(c)
	if !ok {
		return nil, 0, wire.NewError(wire.CodeInvalidCursor)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.cur
	if w == nil || w.id != id || w.dead {
		return nil, 0, wire.NewError(wire.CodeStaleRevision)
	}
	if seq != w.live {
		s.abandonLocked(w) // a cursor used twice poisons the walk for good
		return nil, 0, wire.NewError(wire.CodeStaleRevision)
	}
	w.live, w.stepping = 0, true
	return w, seq, nil
}

// issue makes seq the sequence w accepts next, unless w died meanwhile.
func (s *indexState) issue(w *indexWalk, seq uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !w.dead {
		w.live = seq
	}
}

// endStep ends w's step; a walk abandoned during it is closed now.
func (s *indexState) endStep(w *indexWalk) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w.stepping = false
	if w.dead {
		w.x.Close()
	}
}

func (s *indexState) abandon(w *indexWalk) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.abandonLocked(w)
}

// abandonCurrent abandons the child's current walk, if any: a policy
// change, or an error answer of project.index.
func (s *indexState) abandonCurrent() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.abandonLocked(s.cur)
}

func (s *indexState) abandonLocked(w *indexWalk) {
	if w == nil || w.dead {
		return
	}
	w.dead = true
	if !w.stepping {
		w.x.Close()
	}
}
