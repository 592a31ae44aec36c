package server

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"

	"github.com/scoutdev/scout/backend/wire"
)

func isLifecycle(method string) bool {
	switch method {
	case wire.MethodInitialize, wire.MethodStatus, wire.MethodShutdown, wire.MethodCancel:
		return true
	}
	return false
}

// handleFrame checks one frame in the order of docs/protocol.md §3 (parsing, id,
// duplicate id, method, initialization, capability, params, request limit,
// admission) and answers it or starts its worker.
func (s *Server) handleFrame(line []byte) error {
	if len(bytes.Trim(line, " \t\r")) == 0 {
		return nil // a line of JSON whitespace only is not a frame
	}
	f, err := wire.ParseFrame(line)
	if errors.Is(err, wire.ErrNotification) {
		return nil
	}
	var fe *wire.FrameError
	if errors.As(err, &fe) {
		s.writeError(fe.ID, fe.Err)
		return nil
	}
	if e := s.precheck(f); e != nil {
		s.writeError(&f.ID, e)
		return nil
	}
	switch f.Method {
	case wire.MethodInitialize:
		s.initialize(f)
	case wire.MethodStatus:
		s.status(f)
	case wire.MethodShutdown:
		return s.shutdown(f)
	case wire.MethodCancel:
		s.cancelRequest(f)
	default:
		s.admit(f, s.methods[f.Method])
	}
	return nil
}

// precheck applies the checks every method shares: duplicate id, known method,
// initialization and capability.
func (s *Server) precheck(f wire.Frame) *wire.Error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.active[f.ID]; dup {
		return wire.NewError(wire.CodeDuplicateRequestID)
	}
	m, known := s.methods[f.Method]
	if !known && !isLifecycle(f.Method) {
		return wire.NewError(wire.CodeMethodNotFound)
	}
	switch f.Method {
	case wire.MethodStatus, wire.MethodShutdown:
		return nil
	case wire.MethodInitialize:
		if s.initialized {
			return wire.NewError(wire.CodeAlreadyInitialized)
		}
		return nil
	}
	if !s.initialized {
		return wire.NewError(wire.CodeNotInitialized)
	}
	if f.Method == wire.MethodCancel || !m.Unlisted {
		if !s.negotiated[f.Method] {
			return wire.Errorf(wire.CodeUnsupportedCapability, "The capability %s was not negotiated in initialize.", f.Method)
		}
	}
	return nil
}

// admit decodes params, applies the request limit and the kind's admission,
// writes rpc.command.started for long-running methods, and starts the worker.
func (s *Server) admit(f wire.Frame, m *Method) {
	params := any(&wire.EmptyParams{})
	if m.NewParams != nil {
		params = m.NewParams()
	}
	if e := wire.DecodeParams(f.Params, params); e != nil {
		s.writeError(&f.ID, e)
		return
	}
	ctx, cancel := context.WithCancel(s.ctx)
	c := &Call{ID: f.ID, Method: f.Method, Params: params, s: s, m: m, ctx: ctx, cancel: cancel}
	release, e := s.reserve(c)
	if e != nil {
		cancel()
		s.writeError(&f.ID, e)
		return
	}
	s.workers.Add(1)
	if m.LongRunning {
		// c is active from reserve on, so a policy change on another
		// goroutine may already have answered it: Notify then writes
		// nothing, because no notification follows a response.
		c.Notify(wire.NotifyCommandStarted, &wire.CommandStartedParams{CommandID: c.ID, Method: c.Method})
	}
	go s.run(c, release)
}

// reserve takes the request limit, the kind slot and the feature's own
// admission, in that order, and registers c as active, all under s.mu (what
// that asks of an Admit is written at Method.Admit). The returned release
// gives the slots back when the worker returns.
func (s *Server) reserve(c *Call) (func(), *wire.Error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.admitted >= wire.DefaultLimits.RequestsPerChild {
		return nil, wire.NewError(wire.CodeRequestLimit)
	}
	kind := c.m.Kind
	if limit, ok := kindLimits[kind]; ok && s.kindBusy[kind] >= limit {
		return nil, wire.NewError(wire.CodeBusy)
	}
	var featureRelease func()
	if c.m.Admit != nil {
		rel, err := c.m.Admit(c)
		if err != nil {
			return nil, s.protocolError(c, err)
		}
		featureRelease = rel
	}
	s.kindBusy[kind]++
	s.admitted++
	s.seq++
	c.seq = s.seq
	s.active[c.ID] = c
	return func() {
		if featureRelease != nil {
			featureRelease()
		}
		s.mu.Lock()
		s.kindBusy[kind]--
		s.mu.Unlock()
	}, nil
}

// run is a worker: it calls the handler, recovers a panic as internal, writes
// the terminal response unless one was written, and releases the slots.
func (s *Server) run(c *Call, release func()) {
	defer s.workers.Done()
	var once sync.Once
	releaseSlot := release
	release = func() { once.Do(releaseSlot) }
	defer release()
	defer c.cancel()
	result, err := func() (result any, err error) {
		defer func() {
			if p := recover(); p != nil {
				fmt.Fprintf(s.opts.Log, "scout backend: panic in %s: %v\n%s", c.Method, p, debug.Stack())
				result, err = nil, wire.NewError(wire.CodeInternal)
			}
		}()
		return c.m.Handle(c.ctx, c)
	}()
	s.finish(c, result, err, release)
}
