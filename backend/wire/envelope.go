package wire

import (
	"bytes"
	"errors"
	"strings"
	"time"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Version is the JSON-RPC version string every message carries.
const Version = "2.0"

// ProtocolVersion is the only protocol version this package speaks.
const ProtocolVersion = 1

// MaxFrameBytes bounds a client frame, newline included (docs/protocol.md §1).
const MaxFrameBytes = 65536

// TimeLayout is the layout of every "ts": UTC, RFC 3339 with milliseconds.
const TimeLayout = "2006-01-02T15:04:05.000Z07:00"

// Timestamp formats t the way every "ts" member is written.
func Timestamp(t time.Time) string {
	return t.UTC().Format(TimeLayout)
}

// ValidID reports whether id matches the request id grammar
// ^[A-Za-z0-9._:-]{1,64}$.
func ValidID(id string) bool {
	return alnumRun(id, 1, 64, "._:-")
}

// alnumRun reports whether s is min..max bytes of ASCII letters, digits
// and the bytes of extra: the regular expressions ^[A-Za-z0-9...]{min,max}$
// of the grammar, checked by a loop (compiling them cost every process
// start about a millisecond).
func alnumRun(s string, min, max int, extra string) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(extra, c) >= 0) {
			return false
		}
	}
	return true
}

// Stamp carries the "ts" member of every result and notification. Types embed
// it; the writer calls SetTS just before encoding.
type Stamp struct {
	TS string `json:"ts"`
}

// SetTS sets the time the message is written.
func (s *Stamp) SetTS(ts string) { s.TS = ts }

// Stamper is implemented by every type that embeds Stamp.
type Stamper interface{ SetTS(ts string) }

// Request is a request as a client writes it.
type Request struct {
	JSONRPC string         `json:"jsonrpc"`
	ID      string         `json:"id"`
	Method  string         `json:"method"`
	Params  jsontext.Value `json:"params,omitzero"`
}

// Notification is a notification as the backend writes it.
type Notification struct {
	JSONRPC string         `json:"jsonrpc"`
	Method  string         `json:"method"`
	Params  jsontext.Value `json:"params"`
}

// Response is a response as the backend writes it: exactly one of Result and
// Error is set. ID is nil when the request's id could not be read.
type Response struct {
	JSONRPC string         `json:"jsonrpc"`
	ID      *string        `json:"id"`
	Result  jsontext.Value `json:"result,omitzero"`
	Error   *ErrorObject   `json:"error,omitzero"`
}

// Frame is one client frame after envelope checks: a request whose id is
// valid. Params is the raw params member (nil when absent).
type Frame struct {
	ID     string
	Method string
	Params jsontext.Value
}

// ErrNotification is returned by ParseFrame for a frame without an id: the
// backend answers nothing, whether it is well formed or not.
var ErrNotification = errors.New("notification")

// FrameError is a frame that failed the envelope checks. ID is the request's
// id when it could be read and is valid, else nil.
type FrameError struct {
	ID  *string
	Err *Error
}

func (e *FrameError) Error() string { return e.Err.Error() }

var envelopeMembers = map[string]bool{"jsonrpc": true, "id": true, "method": true, "params": true}

// ParseFrame applies the checks of docs/protocol.md §1 to one line (without its
// newline): strict JSON (parse_error), a single object (invalid_request for a
// batch or any other value), the id grammar, "jsonrpc":"2.0", a string method
// and no members besides jsonrpc, id, method and params. It returns
// ErrNotification for an object without an id member, and a *FrameError for
// everything it rejects.
func ParseFrame(line []byte) (Frame, error) {
	if !jsontext.Value(line).IsValid() {
		return Frame{}, &FrameError{Err: Errorf(CodeParseError, "The frame is not valid JSON: syntax error, invalid UTF-8, duplicate member name or trailing data.")}
	}
	trimmed := bytes.TrimLeft(line, " \t\r\n")
	switch {
	case len(trimmed) > 0 && trimmed[0] == '[':
		return Frame{}, &FrameError{Err: Errorf(CodeInvalidRequest, "Batches are not supported: send one request object per line.")}
	case len(trimmed) == 0 || trimmed[0] != '{':
		return Frame{}, &FrameError{Err: Errorf(CodeInvalidRequest, "A request must be a JSON object.")}
	}
	var members map[string]jsontext.Value
	if err := json.Unmarshal(line, &members); err != nil {
		return Frame{}, &FrameError{Err: Errorf(CodeParseError, "The frame is not valid JSON.")}
	}
	rawID, hasID := members["id"]
	if !hasID {
		return Frame{}, ErrNotification
	}
	var id string
	if rawID.Kind() != '"' || json.Unmarshal(rawID, &id) != nil || !ValidID(id) {
		return Frame{}, &FrameError{Err: Errorf(CodeInvalidRequest, "The id must be a string of 1 to 64 characters from A-Z a-z 0-9 . _ : -.")}
	}
	return checkEnvelope(id, members)
}

func checkEnvelope(id string, members map[string]jsontext.Value) (Frame, error) {
	fail := func(msg string) (Frame, error) {
		return Frame{}, &FrameError{ID: &id, Err: Errorf(CodeInvalidRequest, "%s", msg)}
	}
	for name := range members {
		if !envelopeMembers[name] {
			return fail("A request has only the members jsonrpc, id, method and params.")
		}
	}
	var version string
	if raw := members["jsonrpc"]; raw.Kind() != '"' || json.Unmarshal(raw, &version) != nil || version != Version {
		return fail(`The jsonrpc member must be "2.0".`)
	}
	var method string
	if raw := members["method"]; raw.Kind() != '"' || json.Unmarshal(raw, &method) != nil || method == "" {
		return fail("The method member must be a non-empty string.")
	}
	return Frame{ID: id, Method: method, Params: members["params"]}, nil
}

// DecodeParams decodes a request's params into v (a pointer to a params
// struct) with the method's closed schema: unknown members, wrong types and a
// params member that is not an object are invalid_params. Absent params decode
// as {}. Types with required members implement Validator.
func DecodeParams(raw jsontext.Value, v any) *Error {
	if len(raw) == 0 {
		raw = jsontext.Value("{}")
	}
	if raw.Kind() != '{' {
		return Errorf(CodeInvalidParams, "params must be an object.")
	}
	if nestedNull(raw) {
		return Errorf(CodeInvalidParams, "params may hold null only as the whole value of a member.")
	}
	if err := json.Unmarshal(raw, v, json.RejectUnknownMembers(true)); err != nil {
		return Errorf(CodeInvalidParams, "%s", describeDecodeError(err))
	}
	if val, ok := v.(Validator); ok {
		if err := val.Validate(); err != nil {
			return Errorf(CodeInvalidParams, "%s", err.Error())
		}
	}
	return nil
}

// Validator is implemented by params types with rules beyond member types:
// required members and ranges. Its error message names the member and the rule
// (never any content).
type Validator interface{ Validate() error }

// nestedNull reports whether the params object raw holds a null below its
// members' values (an array element, a member of a nested object). A member
// whose whole value is null reads as absent, which each params type checks
// (required members, the nullable cursor and effort); a null deeper down
// would otherwise decode as an empty string or zero and pass as a value.
func nestedNull(raw jsontext.Value) bool {
	dec := jsontext.NewDecoder(bytes.NewReader(raw))
	for {
		tok, err := dec.ReadToken()
		if err != nil {
			return false // raw was checked; this is its end
		}
		if tok.Kind() == 'n' && dec.StackDepth() > 1 {
			return true
		}
	}
}

// describeDecodeError says which member failed, by its dotted name
// (params.client.name), when every name on the way is made only of safe
// characters; the message never echoes values, and never a slash, so that
// nothing in it reads as a path. An unknown member is named by the object
// holding it only: its own name is the client's (a file name or a key, for
// all the backend knows), and error texts carry neither.
func describeDecodeError(err error) string {
	se, ok := errors.AsType[*json.SemanticError](err)
	if !ok {
		return "params do not match the method's schema."
	}
	ptr := string(se.JSONPointer)
	if errors.Is(se.Err, json.ErrUnknownName) {
		if i := strings.LastIndexByte(ptr, '/'); i > 0 {
			if name, safe := memberName(ptr[:i]); safe {
				return name + " has an unknown member."
			}
		}
		return "params has an unknown member."
	}
	if name, safe := memberName(ptr); safe {
		return name + " has the wrong type or value."
	}
	return "params do not match the method's schema."
}

// memberName turns the JSON pointer of a member inside params ("/client/name")
// into its dotted name ("params.client.name"). It reports false when the
// pointer is longer than 64 bytes or a name on the way holds anything but
// ASCII letters, digits, "_" and "-".
func memberName(ptr string) (string, bool) {
	if len(ptr) > 64 || !strings.HasPrefix(ptr, "/") {
		return "", false
	}
	segments := strings.Split(ptr[1:], "/")
	for _, seg := range segments {
		if !alnumRun(seg, 1, 64, "_-") {
			return "", false
		}
	}
	return "params." + strings.Join(segments, "."), true
}

// EmptyParams is the params of methods that take none: {} or absent.
type EmptyParams struct{}

// Marshal encodes v as one line of JSON.
func Marshal(v any) ([]byte, error) {
	return json.Marshal(v)
}

// Unmarshal decodes data into v leniently (unknown members are ignored), as a
// client does with results so that the backend may add members.
func Unmarshal(data []byte, v any) error {
	return json.Unmarshal(data, v)
}

// UnmarshalStrict decodes data into v rejecting unknown members.
func UnmarshalStrict(data []byte, v any) error {
	return json.Unmarshal(data, v, json.RejectUnknownMembers(true))
}
