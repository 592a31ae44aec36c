package wire

import "fmt"

// Code is the stable machine code of an error (error.data.code). Clients
// switch on it, never on the message.
type Code string

// The error codes of docs/protocol.md §2.
const (
	CodeParseError                 Code = "parse_error"
	CodeInvalidRequest             Code = "invalid_request"
	CodeMethodNotFound             Code = "method_not_found"
	CodeInvalidParams              Code = "invalid_params"
	CodeInternal                   Code = "internal"
	CodeNotInitialized             Code = "not_initialized"
	CodeAlreadyInitialized         Code = "already_initialized"
	CodeUnsupportedProtocolVersion Code = "unsupported_protocol_version"
	CodeUnsupportedCapability      Code = "unsupported_capability"
	CodeDuplicateRequestID         Code = "duplicate_request_id"
	CodeBusy                       Code = "busy"
	CodeRequestLimit               Code = "request_limit"
	CodeOperationCancelled         Code = "operation_cancelled"
	CodeOperationMissing           Code = "operation_missing"
	CodeScanTimeout                Code = "scan_timeout"
	CodeNotFound                   Code = "not_found"
	CodeDiscoveryRecordBytes       Code = "discovery_record_bytes"
	CodeDiscoveryPageBytes         Code = "discovery_page_bytes"
	CodeDiscoveryUnavailable       Code = "discovery_unavailable"
	CodeStaleRevision              Code = "stale_revision"
	CodeInvalidCursor              Code = "invalid_cursor"
	CodeDiscoveryLimit             Code = "discovery_limit"
	CodeCwdMismatch                Code = "cwd_mismatch"
	CodeSessionInvalid             Code = "session_invalid"
	CodeCatalogUnavailable         Code = "catalog_unavailable"
	CodeCatalogLimit               Code = "catalog_limit"
	CodeSelectionStale             Code = "selection_stale"
	CodeSelectionInvalid           Code = "selection_invalid"
	CodeTrustFailed                Code = "trust_failed"
)

// codeInfo is the JSON-RPC number of a code and the sentence used when an
// error carries no more specific message.
type codeInfo struct {
	number  int
	message string
}

var codes = map[Code]codeInfo{
	CodeParseError:                 {-32700, "The frame is not valid UTF-8 JSON: it has a syntax error, a duplicate member name or trailing data."},
	CodeInvalidRequest:             {-32600, "The frame is not a valid JSON-RPC 2.0 request."},
	CodeMethodNotFound:             {-32601, "The method does not exist."},
	CodeInvalidParams:              {-32602, "The params do not match the method's schema."},
	CodeInternal:                   {-32603, "The backend hit an internal error; it keeps serving."},
	CodeNotInitialized:             {-32002, "Send initialize first."},
	CodeAlreadyInitialized:         {-32003, "The backend is already initialized."},
	CodeUnsupportedProtocolVersion: {-32012, "The protocol version is not supported."},
	CodeUnsupportedCapability:      {-32004, "The capability is not offered or was not negotiated."},
	CodeDuplicateRequestID:         {-32005, "A request with this id is still active."},
	CodeBusy:                       {-32006, "The backend is busy with this kind of work; retry later."},
	CodeRequestLimit:               {-32007, "This backend has admitted its limit of requests; start a new one."},
	CodeOperationCancelled:         {-32008, "The operation was cancelled."},
	CodeOperationMissing:           {-32009, "No active cancellable request has that id."},
	CodeScanTimeout:                {-32010, "The project scan passed its deadline; no snapshot was taken."},
	CodeNotFound:                   {-32011, "Not found."},
	CodeDiscoveryRecordBytes:       {-32020, "A history record is larger than 8 MiB."},
	CodeDiscoveryPageBytes:         {-32021, "A single session row does not fit a page."},
	CodeDiscoveryUnavailable:       {-32022, "The session store is unsafe or unreadable."},
	CodeStaleRevision:              {-32023, "The data changed or the cursor was already used; restart from the beginning."},
	CodeInvalidCursor:              {-32024, "The cursor was not issued by this backend."},
	CodeDiscoveryLimit:             {-32027, "There are more than 256 histories; use session.discover."},
	CodeCwdMismatch:                {-32025, "The session belongs to another directory."},
	CodeSessionInvalid:             {-32026, "The session history is malformed, unsafe or unreadable."},
	CodeCatalogUnavailable:         {-32030, "A catalog cache is unsafe or unreadable."},
	CodeCatalogLimit:               {-32031, "A catalog cache is over its size bounds."},
	CodeSelectionStale:             {-32032, "The catalog changed since it was read; reload it and select again."},
	CodeSelectionInvalid:           {-32033, "That model cannot be selected."},
	CodeTrustFailed:                {-32040, "The workspace configuration could not be adopted."},
}

// Number is the JSON-RPC error code of c, or the internal error's number for
// a code this package does not know.
func (c Code) Number() int {
	if info, ok := codes[c]; ok {
		return info.number
	}
	return codes[CodeInternal].number
}

// Known reports whether c is one of the codes of docs/protocol.md §2.
func (c Code) Known() bool {
	_, ok := codes[c]
	return ok
}

// Codes returns every known code.
func Codes() []Code {
	out := make([]Code, 0, len(codes))
	for c := range codes {
		out = append(out, c)
	}
	return out
}

// Error is a protocol error: what a handler returns to make the backend answer
// with an error response, and what the client returns for one. Its message must
// never carry a path, file name, content, credential, URL or raw OS error.
type Error struct {
	Code    Code
	Message string
	// Supported lists the protocol versions the backend speaks
	// (unsupported_protocol_version only).
	Supported []int
	// Capabilities lists the requested capabilities that are not offered
	// (unsupported_capability only).
	Capabilities []string
}

// Errorf returns an Error with code and a formatted message. The caller is
// responsible for keeping paths, names and contents out of the arguments.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// NewError returns an Error with code and the code's standard sentence.
func NewError(code Code) *Error {
	return &Error{Code: code}
}

// Error returns the message, or the code's standard sentence.
func (e *Error) Error() string {
	if e.Message != "" {
		return e.Message
	}
	if info, ok := codes[e.Code]; ok {
		return info.message
	}
	return string(e.Code)
}

// Is makes errors.Is(err, wire.NewError(code)) match any Error with that code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Object is the JSON error member of a response for e, stamped with ts.
func (e *Error) Object(ts string) *ErrorObject {
	return &ErrorObject{
		Code:    e.Code.Number(),
		Message: e.Error(),
		Data: ErrorData{
			Code:         e.Code,
			Supported:    e.Supported,
			Capabilities: e.Capabilities,
			TS:           ts,
		},
	}
}

// ErrorObject is the "error" member of an error response.
type ErrorObject struct {
	Code    int       `json:"code"`
	Message string    `json:"message"`
	Data    ErrorData `json:"data"`
}

// ErrorData is error.data: the stable code, the time, and code-specific extras.
type ErrorData struct {
	Code         Code     `json:"code"`
	Supported    []int    `json:"supported,omitzero"`
	Capabilities []string `json:"capabilities,omitzero"`
	TS           string   `json:"ts"`
}

// AsError turns an error object received by a client back into an *Error.
func (o *ErrorObject) AsError() *Error {
	return &Error{Code: o.Data.Code, Message: o.Message, Supported: o.Data.Supported, Capabilities: o.Data.Capabilities}
}
