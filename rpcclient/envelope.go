package rpcclient

import (
	"bytes"
	"errors"
	"io"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/wire"
)

// inbound is any message from the child. Its raw members are slices of the
// line it was read from (readEnvelope), valid only until the next line is
// read: whatever outlives the line is copied or decoded before that.
type inbound struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      jsontext.Value    `json:"id"`
	Method  string            `json:"method"`
	Result  jsontext.Value    `json:"result"`
	Error   *wire.ErrorObject `json:"error"`
	Params  jsontext.Value    `json:"params"`
}

var errEnvelope = errors.New("rpcclient: not a JSON object")

// readEnvelope reads one line as wire.Unmarshal reads it into an inbound
// (the whole line checked strictly: syntax, UTF-8, escapes, unique names
// in every object; unknown members skipped; names matched exactly), but
// leaves the raw members where they are in line instead of copying them:
// a project.index page is a megabyte, and its copy cost as much as its
// check.
func readEnvelope(line []byte) (inbound, error) {
	var m inbound
	dec := jsontext.NewDecoder(bytes.NewBuffer(line)) // parses line in place
	tok, err := dec.ReadToken()
	if err != nil {
		return m, err
	}
	if tok.Kind() == 'n' { // null: an inbound with nothing set, as Unmarshal leaves it
		return m, atEnd(dec)
	}
	if tok.Kind() != '{' {
		return m, errEnvelope
	}
	for dec.PeekKind() != '}' {
		tok, err := dec.ReadToken()
		if err != nil {
			return m, err
		}
		name := tok.String() // before the next read voids tok
		v, err := dec.ReadValue()
		if err != nil {
			return m, err
		}
		end := int(dec.InputOffset())
		if err := m.set(name, jsontext.Value(line[end-len(v):end])); err != nil {
			return m, err
		}
	}
	if _, err := dec.ReadToken(); err != nil {
		return m, err
	}
	return m, atEnd(dec)
}

// set sets the member name of m to v, a checked value.
func (m *inbound) set(name string, v jsontext.Value) error {
	switch name {
	case "jsonrpc":
		return wire.Unmarshal(v, &m.JSONRPC)
	case "id":
		m.ID = v
	case "method":
		return wire.Unmarshal(v, &m.Method)
	case "result":
		m.Result = v
	case "error":
		return wire.Unmarshal(v, &m.Error)
	case "params":
		m.Params = v
	}
	return nil
}

// atEnd checks that nothing but white space follows the value.
func atEnd(dec *jsontext.Decoder) error {
	if _, err := dec.ReadToken(); err != io.EOF {
		if err == nil {
			err = errEnvelope
		}
		return err
	}
	return nil
}
