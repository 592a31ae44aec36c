package rpcclient

import (
	"errors"
	"fmt"
)

// ExitError reports that the backend child exited, and how. Pending calls of
// that child fail with it; Restart starts a new child.
type ExitError struct {
	// State is how the process ended ("exit status 2", "signal: killed").
	State string
	// Expected is true when the exit followed Close or Restart.
	Expected bool
}

func (e *ExitError) Error() string {
	if e.Expected {
		return "the scout backend was stopped"
	}
	return fmt.Sprintf("the scout backend exited unexpectedly (%s); restart it", e.State)
}

// ProtocolError reports that the child wrote something that is not a valid
// protocol message. The child is killed and its pending calls fail with it.
type ProtocolError struct {
	Reason string
}

func (e *ProtocolError) Error() string {
	return "the scout backend broke the protocol: " + e.Reason
}

// ErrClosed is returned by calls on a closed Client.
var ErrClosed = errors.New("the scout client is closed")

// ErrFrameTooLarge is returned when a request would exceed the frame bound.
var ErrFrameTooLarge = errors.New("the request is larger than the protocol's 65536-byte frame bound")
