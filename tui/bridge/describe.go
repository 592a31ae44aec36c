package bridge

import (
	"context"
	"errors"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient"
)

// Describe says what went wrong in plain words, and what to do about it
// where there is something to do, for the status line.
func Describe(err error) string {
	if err == nil {
		return ""
	}
	var we *wire.Error
	var ee *rpcclient.ExitError
	var pe *rpcclient.ProtocolError
	switch {
	case errors.As(err, &we):
		return describeCode(we)
	case errors.As(err, &ee):
		if ee.Expected {
			return "the backend was stopped"
		}
		return "the backend stopped (" + ee.State + "); press R to restart it"
	case errors.As(err, &pe):
		return "the backend sent something unreadable and was stopped; press R to restart it"
	case errors.Is(err, context.DeadlineExceeded):
		return "the backend did not answer in time"
	case errors.Is(err, rpcclient.ErrClosed):
		return "the backend connection is closed"
	}
	return err.Error()
}

func describeCode(e *wire.Error) string {
	switch e.Code {
	case wire.CodeBusy:
		return "the backend is busy; try again in a moment (Ctrl-R rescans)"
	case wire.CodeScanTimeout:
		return "the project scan took too long and was abandoned; Ctrl-R tries again"
	case wire.CodeRequestLimit:
		return "the backend reached its request limit; restarting it"
	case wire.CodeNotFound:
		return "that file is no longer available"
	case wire.CodeOperationCancelled:
		return "the request was cancelled"
	case wire.CodeUnsupportedCapability:
		return "this backend does not offer that feature"
	}
	return e.Error()
}

// Code returns err's protocol error code, or "" when err is not a protocol
// error.
func Code(err error) wire.Code {
	var we *wire.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return ""
}
