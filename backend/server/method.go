package server

import (
	"context"

	"github.com/scoutdev/scout/backend/wire"
)

// Kind is a method's admission class (docs/protocol.md §3 "Request accounting"):
// each kind has its own limit so one kind of work never starves another.
type Kind int

// The admission kinds.
const (
	// KindLifecycle methods run on the protocol loop and are never admitted
	// as work (initialize, status, shutdown, operation.cancel).
	KindLifecycle Kind = iota
	// KindAux is project.files, project.list and project.read: at most
	// limits.outstanding at once.
	KindAux
	// KindDiscover is session.discover: one scan in flight.
	KindDiscover
	// KindSelection is session.open, session.new, model.select,
	// model.refresh and workspace.trust: one at a time.
	KindSelection
	// KindCatalog is session.list, model.catalog and model.catalog.status:
	// at most four at once.
	KindCatalog
)

// kindLimits is the number of workers of each kind that may be alive at once.
// A slot is held from admission until the worker returns, which may be after
// its request was answered (cancelled or timed out).
var kindLimits = map[Kind]int{
	KindAux:       wire.DefaultLimits.Outstanding,
	KindDiscover:  1,
	KindSelection: 1,
	KindCatalog:   4,
}

// Method describes one protocol method a feature implements.
type Method struct {
	// Name is the method name, which is also its capability.
	Name string
	// Kind is the admission class.
	Kind Kind
	// LongRunning methods write rpc.command.started right after admission.
	LongRunning bool
	// Unlisted methods need no capability and are not offered in
	// initialize (the test-only debug methods).
	Unlisted bool
	// Extension, when set, fills the method's entry of initialize.extensions
	// once the capability is negotiated.
	Extension func(*wire.Extensions)
	// NewParams returns a pointer to a fresh params value, decoded with the
	// method's closed schema. Nil means the method takes no params.
	NewParams func() any
	// Admit, when set, runs after the request limit and the kind's slot
	// were checked and may refuse the request (typically with busy). Its
	// release func runs once, when the worker is done: under the output
	// lock right before the result is written (so the slot is free when
	// the client reads the answer), or after the handler returns when the
	// request was answered before (cancelled). The same rules hold for it.
	//
	// Admit runs on the protocol loop while the server's mutex is held, so
	// that refusing, taking the slots and registering c as active are one
	// step: a refused request leaves no trace, and whatever Admit records
	// (the generation c belongs to) is in place before a policy change,
	// status or shutdown can see c. Therefore Admit must:
	//   - return at once: no I/O, no waiting on a channel, a condition or
	//     another request; the protocol loop, status and cancellation all
	//     wait for it;
	//   - not call back into the server: no method of Server or Call
	//     (Notify, Terminate, OnCommit, Answered, Calls...), which take the
	//     server's mutex or the output lock (taken before the mutex
	//     elsewhere) and would deadlock;
	//   - take only locks of its own feature that are never held while
	//     calling into the server (the lock order is output lock, server
	//     mutex, feature lock).
	// c's Params are decoded and c.Context() is live; nothing has been
	// written for c yet.
	Admit func(c *Call) (release func(), err error)
	// Handle does the work off the protocol loop. Its result (or error)
	// becomes the terminal response unless the request was already answered.
	// ctx is cancelled when the request is cancelled, terminated or the
	// backend shuts down.
	Handle func(ctx context.Context, c *Call) (any, error)
}

// Call is one admitted request as a handler sees it.
type Call struct {
	// ID is the request id (also the command id).
	ID string
	// Method is the method name.
	Method string
	// Params is what NewParams returned, decoded.
	Params any

	s      *Server
	m      *Method
	seq    uint64
	ctx    context.Context
	cancel context.CancelFunc
	done   bool         // terminal response written; guarded by s.outMu
	commit func() error // guarded by s.outMu
}

// Context is the request's context.
func (c *Call) Context() context.Context { return c.ctx }

// OnCommit registers fn to run under the output lock right before a
// successful result is written: if fn returns an error, that error is written
// instead. It is where a handler re-checks that its result is still current
// (the generation did not change) or makes its effect visible atomically with
// the response (the new attachment), so that a concurrent cancel either wins
// completely or loses completely.
func (c *Call) OnCommit(fn func() error) {
	c.s.outMu.Lock()
	c.commit = fn
	c.s.outMu.Unlock()
}

// Terminate writes err as the request's terminal response now, unless one was
// already written, and cancels its context. Safe from any goroutine. It
// returns whether this call wrote the terminal response.
func (c *Call) Terminate(err error) bool {
	c.s.outMu.Lock()
	defer c.s.outMu.Unlock()
	return c.s.terminateLocked(c, err)
}

// Answered reports whether the terminal response was already written.
func (c *Call) Answered() bool {
	c.s.outMu.Lock()
	defer c.s.outMu.Unlock()
	return c.done
}

// NotifyWhileActive is Server.Notify for a change this request makes: under
// the output lock it runs atomically and writes the notification only
// while the request's terminal response is not written yet, and reports
// whether it did. A request answered already (cancelled, say) changes
// nothing after its response.
func (c *Call) NotifyWhileActive(method string, params wire.Stamper, atomically func()) bool {
	c.s.outMu.Lock()
	defer c.s.outMu.Unlock()
	if c.done {
		return false
	}
	atomically()
	c.s.writeNotificationLocked(method, params)
	return true
}

// Notify writes a notification about this request, unless its terminal
// response was already written (no notification follows a response).
func (c *Call) Notify(method string, params wire.Stamper) {
	c.s.outMu.Lock()
	defer c.s.outMu.Unlock()
	if !c.done {
		c.s.writeNotificationLocked(method, params)
	}
}
