// Package server is the protocol layer of `scout backend` (docs/protocol.md §1–§3):
// it reads newline-delimited JSON-RPC frames from the client, checks them
// (framing bound, strict JSON, id grammar, initialization, capability, params,
// request limit, admission), runs admitted requests on workers, and writes
// every response and notification, stamped with "ts", one line each.
//
// Split by concern, as in x/tools' jsonrpc2: frame.go reads one bounded line,
// backend/wire defines the messages, dispatch.go checks and admits a frame,
// lifecycle.go answers the methods that run on the protocol loop itself
// (initialize, status, shutdown, operation.cancel), output.go serializes
// writes. Features (files, sessions, catalog) register Methods; they never
// write to the client except through a Call.
//
// The protocol loop never waits for a worker: status answers while every
// worker is stuck, and a cancelled or timed-out request is answered at once
// while its worker finishes on its own. A worker's admission slot is held
// until the worker really returns.
package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// ShutdownGrace bounds how long shutdown and end of input wait for workers.
// docs/protocol.md §3 allows 2,000 ms for the wait and requires the process to
// have exited within 2,000 ms of end of input; waiting 1,500 ms leaves the
// rest for writing the last responses and exiting.
const ShutdownGrace = 1500 * time.Millisecond

// Options configure a Server.
type Options struct {
	// Info names the backend in initialize.
	Info wire.ServerInfo
	// Workspace reports the policy generation and trust state.
	Workspace func() wire.Workspace
	// Attachment reports the attached session, or nil.
	Attachment func() *wire.Attachment
	// Log receives diagnostics (stderr in the real backend); never frames.
	Log io.Writer
	// Now is the clock for "ts" (time.Now when nil).
	Now func() time.Time
}

// Server is one backend's protocol endpoint. Create it with New, Register the
// feature methods, then Serve.
type Server struct {
	opts    Options
	methods map[string]*Method
	ctx     context.Context
	stop    context.CancelFunc

	outMu    sync.Mutex // serializes writes and terminal responses
	out      io.Writer
	lineBuf  []byte // a result line's room, reused; guarded by outMu
	writeErr error  // the first write error, or errShutdown after the shutdown result: no more writes

	mu          sync.Mutex // guards the fields below; never held while writing
	initialized bool
	negotiated  map[string]bool
	active      map[string]*Call
	kindBusy    map[Kind]int
	admitted    int
	seq         uint64
	state       string

	workers sync.WaitGroup
}

// New returns a Server with the lifecycle methods built in.
func New(opts Options) *Server {
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.Log == nil {
		opts.Log = io.Discard
	}
	if opts.Workspace == nil {
		opts.Workspace = func() wire.Workspace { return wire.Workspace{Generation: 1, Trust: wire.TrustNoLocalConfig} }
	}
	if opts.Attachment == nil {
		opts.Attachment = func() *wire.Attachment { return nil }
	}
	ctx, stop := context.WithCancel(context.Background())
	return &Server{
		opts: opts, methods: map[string]*Method{}, ctx: ctx, stop: stop,
		negotiated: map[string]bool{}, active: map[string]*Call{},
		kindBusy: map[Kind]int{}, state: wire.StateReady,
	}
}

// Register adds a feature method. It panics on a duplicate name, which is a
// programming error.
func (s *Server) Register(m *Method) {
	if _, dup := s.methods[m.Name]; dup || isLifecycle(m.Name) {
		panic("server: method registered twice: " + m.Name)
	}
	s.methods[m.Name] = m
}

// Capabilities lists the offered capabilities in docs/protocol.md's order.
func (s *Server) Capabilities() []string {
	var out []string
	for _, c := range wire.AllCapabilities {
		if c == wire.MethodCancel {
			out = append(out, c)
			continue
		}
		if m, ok := s.methods[c]; ok && !m.Unlisted {
			out = append(out, c)
		}
	}
	return out
}

// Serve reads frames from r and writes to w until shutdown or end of input.
// It returns nil on a clean stop (the process then exits 0).
func (s *Server) Serve(r io.Reader, w io.Writer) error {
	s.out = w
	frames := newFrameReader(r)
	for {
		line, oversized, err := frames.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fmt.Fprintf(s.opts.Log, "scout backend: reading input: %v\n", err)
			}
			s.stopAll("The backend's input ended.")
			return nil
		}
		if oversized {
			s.writeError(nil, wire.Errorf(wire.CodeInvalidRequest, "The frame is over the 65536-byte bound (newline included) and was discarded."))
			continue
		}
		if s.handleFrame(line) == errShutdown {
			return nil
		}
	}
}

var errShutdown = errors.New("shutdown")

// stopAll cancels every active request (each is answered
// operation_cancelled), then waits up to ShutdownGrace for workers.
func (s *Server) stopAll(reason string) {
	deadline := time.Now().Add(ShutdownGrace)
	s.mu.Lock()
	s.state = wire.StateStopping
	calls := s.activeLocked()
	s.mu.Unlock()
	// Answer first, then stop: a worker that saw the backend's context end
	// first could otherwise answer with an error of its own.
	for _, c := range calls {
		c.Terminate(wire.Errorf(wire.CodeOperationCancelled, "%s", reason))
	}
	s.stop()
	waitTimeout(&s.workers, time.Until(deadline))
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// activeLocked returns the active calls in admission order.
func (s *Server) activeLocked() []*Call {
	calls := make([]*Call, 0, len(s.active))
	for _, c := range s.active {
		calls = append(calls, c)
	}
	sort.Slice(calls, func(i, j int) bool { return calls[i].seq < calls[j].seq })
	return calls
}

// Calls returns the active calls that match keep, in admission order. Features
// use it to cancel their own requests (a policy change cancels scans).
func (s *Server) Calls(keep func(*Call) bool) []*Call {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*Call
	for _, c := range s.activeLocked() {
		if keep(c) {
			out = append(out, c)
		}
	}
	return out
}

// Context is cancelled when the backend stops.
func (s *Server) Context() context.Context { return s.ctx }

// Notify writes a notification that belongs to no request. atomically, when
// set, runs under the output lock just before the write, so that a state
// change (a new generation) and its announcement are one step for every
// request committing under the same lock.
func (s *Server) Notify(method string, params wire.Stamper, atomically func()) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if atomically != nil {
		atomically()
	}
	s.writeNotificationLocked(method, params)
}
