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
	var ex *explained
	if errors.As(err, &ex) {
		return ex.text
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
	case wire.CodeStaleRevision:
		return "the data changed while it was read; read it again"
	case wire.CodeDiscoveryUnavailable:
		return "the session store is unsafe or unreadable"
	case wire.CodeDiscoveryRecordBytes:
		return "a session history has a record over 8 MiB"
	case wire.CodeDiscoveryPageBytes:
		return "a session's row is too large to be sent"
	case wire.CodeInvalidCursor:
		return "the backend did not recognise the scan; read the sessions again"
	case wire.CodeCwdMismatch:
		return "that session belongs to another directory"
	case wire.CodeSessionInvalid:
		return "that session's history is malformed, unsafe or unreadable"
	case wire.CodeCatalogUnavailable:
		return "a catalog cache in scout's home is unsafe or unreadable"
	case wire.CodeCatalogLimit:
		return "a catalog cache is over its size bound"
	case wire.CodeSelectionStale:
		return "the catalog changed since it was read; reload it and select again"
	case wire.CodeSelectionInvalid:
		return "that model cannot be selected"
	case wire.CodeTrustFailed:
		return "the project configuration could not be adopted"
	}
	return e.Error()
}

// Explain returns err with text as what Describe says of it: for a page
// that knows better words for err in its context ("that session no longer
// exists" rather than a file's not_found). Code and errors.As still see
// err.
func Explain(err error, text string) error { return &explained{err: err, text: text} }

type explained struct {
	err  error
	text string
}

func (e *explained) Error() string { return e.text }
func (e *explained) Unwrap() error { return e.err }

// Code returns err's protocol error code, or "" when err is not a protocol
// error.
func Code(err error) wire.Code {
	var we *wire.Error
	if errors.As(err, &we) {
		return we.Code
	}
	return ""
}
