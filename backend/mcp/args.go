package mcp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// Tool arguments are decoded here rather than by the SDK's schema
// validation, whose messages are a validator's ("validating
// /properties/startLine: minimum: 0/1 is less than 1.000000"): every
// argument error is a sentence that names the argument and the rule
// ("startLine must be at least 1"). The input schemas say the same rules
// to the client (schemaFor); these checks are the ones that count.

// argError is an argument the tool cannot take; its text is the sentence
// the client sees.
type argError string

func (e argError) Error() string { return string(e) }

// arguments are a call's arguments, by name, with the names the tool
// takes (in its schema's order, for messages).
type arguments struct {
	tool    string
	members map[string]json.RawMessage
}

// maxEchoedName bounds an unknown argument's name in the sentence that
// refuses it.
const maxEchoedName = 64

// decodeArguments reads raw (absent and null are no arguments) as an
// object whose members are all among names.
func decodeArguments(tool string, raw json.RawMessage, names []string) (*arguments, error) {
	a := &arguments{tool: tool, members: map[string]json.RawMessage{}}
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return a, nil
	}
	if raw[0] != '{' || json.Unmarshal(raw, &a.members) != nil {
		return nil, argError(fmt.Sprintf("the arguments of %s must be a JSON object, such as %s", tool, example(tool)))
	}
	var unknown []string
	for name := range a.members {
		if !slices.Contains(names, name) {
			unknown = append(unknown, name)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		name := unknown[0]
		if len(name) > maxEchoedName {
			name = name[:maxEchoedName] + "…"
		}
		return nil, argError(fmt.Sprintf("%s takes no argument %q; its arguments are %s", tool, name, list(names)))
	}
	return a, nil
}

// example is a valid call's arguments, for messages.
func example(tool string) string {
	if tool == ToolRead {
		return `{"path": "README.md"}`
	}
	return `{"dir": "src", "recursive": true}`
}

// list joins names as a sentence does: "a, b and c".
func list(names []string) string {
	if len(names) == 1 {
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// given returns the argument's JSON value; null counts as absent.
func (a *arguments) given(name string) (json.RawMessage, bool) {
	v, ok := a.members[name]
	v = bytes.TrimSpace(v)
	if !ok || string(v) == "null" {
		return nil, false
	}
	return v, true
}

// str reads an optional string argument ("" when absent).
func (a *arguments) str(name string) (string, error) {
	v, ok := a.given(name)
	if !ok {
		return "", nil
	}
	var s string
	if v[0] != '"' || json.Unmarshal(v, &s) != nil {
		return "", argError(fmt.Sprintf("%s must be a string", name))
	}
	return s, nil
}

// boolean reads an optional boolean argument (false when absent).
func (a *arguments) boolean(name string) (bool, error) {
	v, ok := a.given(name)
	switch {
	case !ok || string(v) == "false":
		return false, nil
	case string(v) == "true":
		return true, nil
	}
	return false, argError(fmt.Sprintf("%s must be true or false", name))
}

// integer reads an optional integer argument of at least lo (0 when
// absent). An integer is one by value, as JSON Schema's "integer" is (2.0
// and 2e0 are 2); one beyond the int64 range, however written, is
// math.MaxInt or math.MinInt.
func (a *arguments) integer(name string, lo int) (int, error) {
	v, ok := a.given(name)
	if !ok {
		return 0, nil
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if (v[0] != '-' && (v[0] < '0' || v[0] > '9')) || (err != nil && !isRange(err)) || f != math.Trunc(f) {
		return 0, argError(fmt.Sprintf("%s must be an integer, such as %d", name, max(lo, 20)))
	}
	n, err := strconv.Atoi(string(v))
	switch {
	case err == nil:
	case f >= 0x1p63:
		n = math.MaxInt
	case f < -0x1p63:
		n = math.MinInt
	default:
		n = int(f) // written with a fraction or an exponent
	}
	if n < lo {
		return 0, argError(fmt.Sprintf("%s must be at least %d", name, lo))
	}
	return n, nil
}

// isRange reports a number too large for a float64 (1e400): still an
// integer to JSON Schema.
func isRange(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}
