package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/wire"
)

// Every write holds outMu for the whole message, so messages never interleave
// and each line is written in one piece.

func (s *Server) now() string { return wire.Timestamp(s.opts.Now()) }

func (s *Server) writeLineLocked(msg any) {
	b, err := wire.Marshal(msg)
	if err != nil {
		fmt.Fprintf(s.opts.Log, "scout backend: encoding a message: %v\n", err)
		return
	}
	s.writeBytesLocked(append(b, '\n'))
}

// writeBytesLocked writes one encoded line.
func (s *Server) writeBytesLocked(line []byte) {
	if s.writeErr != nil {
		return
	}
	if _, err := s.out.Write(line); err != nil {
		s.writeErr = err
		fmt.Fprintf(s.opts.Log, "scout backend: output closed: %v\n", err)
		s.stop()
	}
}

func (s *Server) writeResultLocked(id string, result any) {
	if st, ok := result.(wire.Stamper); ok {
		st.SetTS(s.now())
	}
	line, err := appendResponse(s.lineBuf[:0], id, result)
	if err != nil {
		fmt.Fprintf(s.opts.Log, "scout backend: encoding a result: %v\n", err)
		s.writeErrorLocked(&id, wire.NewError(wire.CodeInternal))
		return
	}
	line = append(line, '\n')
	s.writeBytesLocked(line)
	if cap(line) <= maxKeptLine {
		s.lineBuf = line // written: its room serves the next result
	}
}

// maxKeptLine bounds the room kept for the next result line: a page of
// project.index or a project.files report (1 MiB), so a walk's hundred
// pages do not each allocate (and clear) a megabyte.
const maxKeptLine = 2 << 20

// appender is a result with its own encoder (the project.files report).
type appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// appendResponse appends the response carrying result for request id:
// the bytes wire.Marshal writes for a wire.Response (TestAppendResponse),
// built around the encoded result instead of checking it again inside the
// envelope, which for a 1 MiB report cost as much as encoding it.
func appendResponse(b []byte, id string, result any) ([]byte, error) {
	b = append(b, `{"jsonrpc":"`+wire.Version+`","id":`...)
	b, err := jsontext.AppendQuote(b, id)
	if err != nil {
		return nil, err
	}
	b = append(b, `,"result":`...)
	if a, ok := result.(appender); ok {
		b, err = a.AppendJSON(b)
	} else {
		var raw []byte
		raw, err = wire.Marshal(result)
		b = append(b, raw...)
	}
	if err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

func (s *Server) writeErrorLocked(id *string, e *wire.Error) {
	s.writeLineLocked(wire.Response{JSONRPC: wire.Version, ID: id, Error: e.Object(s.now())})
}

func (s *Server) writeError(id *string, e *wire.Error) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.writeErrorLocked(id, e)
}

func (s *Server) writeResult(id string, result any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	s.writeResultLocked(id, result)
}

func (s *Server) writeNotificationLocked(method string, params wire.Stamper) {
	params.SetTS(s.now())
	raw, err := wire.Marshal(params)
	if err != nil {
		fmt.Fprintf(s.opts.Log, "scout backend: encoding a notification: %v\n", err)
		return
	}
	s.writeLineLocked(wire.Notification{JSONRPC: wire.Version, Method: method, Params: raw})
}

// finish writes a worker's outcome as the terminal response unless the
// request was already answered. The worker is returning, so its admission
// slot is released before the response is written: a client that sends the
// next request of the same kind as soon as it reads this response (a
// discovery following its cursor) must not be answered busy.
func (s *Server) finish(c *Call, result any, err error, release func()) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	if c.done {
		return
	}
	release()
	if err == nil && c.commit != nil {
		err = c.commit()
	}
	if err != nil {
		s.terminateLocked(c, err)
		return
	}
	s.markDoneLocked(c)
	s.writeResultLocked(c.ID, result)
}

// terminateLocked answers c with err (as a protocol error) if it is still
// unanswered, and cancels its context.
func (s *Server) terminateLocked(c *Call, err error) bool {
	if c.done {
		return false
	}
	s.markDoneLocked(c)
	c.cancel()
	s.writeErrorLocked(&c.ID, s.protocolError(c, err))
	return true
}

func (s *Server) markDoneLocked(c *Call) {
	c.done = true
	s.mu.Lock()
	if s.active[c.ID] == c {
		delete(s.active, c.ID)
	}
	s.mu.Unlock()
}

// protocolError maps a handler's error to what the client sees: protocol
// errors as they are, context cancellation as operation_cancelled, and
// anything else as internal (logged, never shown: it may carry a path).
func (s *Server) protocolError(c *Call, err error) *wire.Error {
	var we *wire.Error
	switch {
	case errors.As(err, &we):
		return we
	case errors.Is(err, context.Canceled):
		return wire.NewError(wire.CodeOperationCancelled)
	default:
		fmt.Fprintf(s.opts.Log, "scout backend: %s failed: %v\n", c.Method, err)
		return wire.NewError(wire.CodeInternal)
	}
}
