package server

import (
	"github.com/scoutdev/scout/backend/wire"
)

// initialize negotiates capabilities. It runs on the protocol loop, counts as
// an admitted request when it succeeds, and may be retried after a failure.
func (s *Server) initialize(f wire.Frame) {
	var p wire.InitializeParams
	if e := wire.DecodeParams(f.Params, &p); e != nil {
		s.writeError(&f.ID, e)
		return
	}
	if int(*p.ProtocolVersion) != wire.ProtocolVersion {
		s.writeError(&f.ID, &wire.Error{Code: wire.CodeUnsupportedProtocolVersion, Supported: []int{wire.ProtocolVersion}})
		return
	}
	offered := map[string]bool{}
	for _, c := range s.Capabilities() {
		offered[c] = true
	}
	var missing []string
	for _, c := range p.RequiredCapabilities {
		if !offered[c] {
			missing = append(missing, c)
		}
	}
	if len(missing) > 0 {
		s.writeError(&f.ID, &wire.Error{Code: wire.CodeUnsupportedCapability, Message: "Some required capabilities are not offered.", Capabilities: missing})
		return
	}
	s.mu.Lock()
	if s.admitted >= wire.DefaultLimits.RequestsPerChild {
		s.mu.Unlock()
		s.writeError(&f.ID, wire.NewError(wire.CodeRequestLimit))
		return
	}
	s.initialized = true
	s.admitted++
	for _, c := range p.RequiredCapabilities {
		s.negotiated[c] = true
	}
	s.mu.Unlock()
	s.writeResult(f.ID, s.initializeResult(p.RequiredCapabilities))
}

func (s *Server) initializeResult(negotiated []string) *wire.InitializeResult {
	res := &wire.InitializeResult{
		ProtocolVersion: wire.ProtocolVersion,
		Server:          s.opts.Info,
		Capabilities:    s.Capabilities(),
		Negotiated:      append([]string{}, negotiated...),
		Limits:          wire.DefaultLimits,
		Workspace:       s.opts.Workspace(),
	}
	for _, c := range negotiated {
		if m, ok := s.methods[c]; ok && m.Extension != nil {
			m.Extension(&res.Extensions)
		}
	}
	return res
}

// status answers from the protocol loop: it reads only in-memory state, so it
// is never blocked by a worker.
func (s *Server) status(f wire.Frame) {
	if e := wire.DecodeParams(f.Params, &wire.EmptyParams{}); e != nil {
		s.writeError(&f.ID, e)
		return
	}
	res := &wire.StatusResult{Active: []wire.ActiveRequest{}}
	s.mu.Lock()
	res.State = s.state
	res.RequestsAdmitted = s.admitted
	for _, c := range s.activeLocked() {
		res.Active = append(res.Active, wire.ActiveRequest{RequestID: c.ID, Method: c.Method})
	}
	s.mu.Unlock()
	res.Generation = s.opts.Workspace().Generation
	res.Attachment = s.opts.Attachment()
	s.writeResult(f.ID, res)
}

// shutdown cancels every active request (each answered operation_cancelled
// first), waits up to ShutdownGrace for workers, answers, and stops reading.
func (s *Server) shutdown(f wire.Frame) error {
	if e := wire.DecodeParams(f.Params, &wire.EmptyParams{}); e != nil {
		s.writeError(&f.ID, e)
		return nil
	}
	s.stopAll("The backend is shutting down.")
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.writeResultLocked(f.ID, &wire.ShutdownResult{State: wire.StateStopped})
	// The result is the last message: a worker still running after the
	// grace (a policy change announcing its generation) writes nothing more.
	if s.writeErr == nil {
		s.writeErr = errShutdown
	}
	return errShutdown
}

// cancelRequest acknowledges operation.cancel and then answers the cancelled
// request operation_cancelled, both under the output lock, so the
// acknowledgement always precedes the terminal response and a result that was
// already written makes the cancel operation_missing instead.
func (s *Server) cancelRequest(f wire.Frame) {
	var p wire.CancelParams
	if e := wire.DecodeParams(f.Params, &p); e != nil {
		s.writeError(&f.ID, e)
		return
	}
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.mu.Lock()
	target := s.active[*p.RequestID]
	s.mu.Unlock()
	if target == nil || target.done {
		s.writeErrorLocked(&f.ID, wire.NewError(wire.CodeOperationMissing))
		return
	}
	s.writeResultLocked(f.ID, &wire.CancelResult{State: "cancelling", RequestID: target.ID})
	s.terminateLocked(target, wire.Errorf(wire.CodeOperationCancelled, "The operation was cancelled by operation.cancel."))
}
