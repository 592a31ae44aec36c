package sessions

import (
	"bytes"
	"errors"
	"io"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

// MaxRecordBytes bounds one history record (one line, its newline not
// counted): a longer one is discovery_record_bytes.
const MaxRecordBytes = 8 << 20

// maxCwdBytes bounds the cwd kept from a record. No canonical directory is
// longer than PATH_MAX, so a longer cwd can only mismatch; keeping just its
// prefix bounds the memory a scan holds between requests.
const maxCwdBytes = 4096

// ErrMalformed is a history line that is not a record: not one strict JSON
// object (invalid UTF-8, duplicate member names and trailing data included),
// a member of the wrong type, a "v" other than 1, or a "ts" that is not
// RFC 3339.
var ErrMalformed = errors.New("sessions: malformed history record")

// Record types of DESIGN.md's history format. Other types are skipped.
const (
	TypeMeta      = "meta"
	TypeUser      = "user"
	TypeAssistant = "assistant"
	TypeTool      = "tool"
	TypeTitle     = "title"
)

// Record is what a history line says, as far as discovery cares.
type Record struct {
	// Type is the record's type, "" when it has none.
	Type string
	// Known is false for types discovery skips (unknown or absent ones).
	Known bool
	// TS is the record's time; HasTS is false when it has no "ts".
	TS    time.Time
	HasTS bool
	// Cwd is the recorded working directory ("" when absent or empty), cut
	// to maxCwdBytes+1 bytes; CwdLong is set when it was longer.
	Cwd []byte
	// Text and Title are the raw JSON string literals (quotes included) of
	// "text" and "title", nil when absent. Decode them with unquote.
	Text, Title []byte
}

// recordParser parses history lines with one reusable strict decoder. Slices
// in the Record it returns stay valid until the next parse.
type recordParser struct {
	dec  jsontext.Decoder
	buf  bytes.Buffer
	line []byte
	cwd  []byte
	tmp  []byte
}

// ParseRecord parses one history line (without its newline). It is the
// entry point the fuzz target drives; the engine reuses a recordParser.
func ParseRecord(line []byte) (Record, error) {
	var p recordParser
	return p.parse(line)
}

func (p *recordParser) parse(line []byte) (Record, error) {
	var rec Record
	p.line = line
	p.buf = *bytes.NewBuffer(line) // the decoder reads a bytes.Buffer in place
	p.dec.Reset(&p.buf)
	tok, err := p.dec.ReadToken()
	if err != nil || tok.Kind() != '{' {
		return rec, ErrMalformed
	}
	for p.dec.PeekKind() != '}' {
		if err := p.member(&rec); err != nil {
			return rec, err
		}
	}
	if _, err := p.dec.ReadToken(); err != nil {
		return rec, ErrMalformed
	}
	if _, err := p.dec.ReadToken(); err != io.EOF {
		return rec, ErrMalformed // trailing data
	}
	rec.Known = knownType(rec.Type)
	return rec, nil
}

// member reads one name and value of the top-level object into rec.
func (p *recordParser) member(rec *Record) error {
	name, err := p.dec.ReadValue()
	if err != nil || name.Kind() != '"' {
		return ErrMalformed
	}
	key := p.unquote(name)
	val, err := p.dec.ReadValue()
	if err != nil {
		return ErrMalformed
	}
	switch string(key) {
	case "v":
		if string(val) != "1" {
			return ErrMalformed
		}
	case "type":
		return p.str(val, func(s []byte) { rec.Type = string(s) })
	case "ts":
		return p.timestamp(val, rec)
	case "cwd":
		return p.str(val, func(s []byte) { p.keepCwd(s, rec) })
	case "text":
		return isString(val, func() { rec.Text = p.inLine(val) })
	case "title":
		return isString(val, func() { rec.Title = p.inLine(val) })
	}
	return nil
}

func (p *recordParser) timestamp(val jsontext.Value, rec *Record) error {
	var perr error
	err := p.str(val, func(s []byte) {
		t, err := time.Parse(time.RFC3339Nano, string(s))
		rec.TS, rec.HasTS, perr = t, err == nil, err
	})
	if err != nil || perr != nil {
		return ErrMalformed
	}
	return nil
}

func (p *recordParser) keepCwd(s []byte, rec *Record) {
	if len(s) > maxCwdBytes {
		s = s[:maxCwdBytes+1]
	}
	p.cwd = append(p.cwd[:0], s...)
	rec.Cwd = p.cwd
}

// str calls fn with the unquoted string val, or fails when val is not a
// string. Null is refused too: every member has one type.
func (p *recordParser) str(val jsontext.Value, fn func([]byte)) error {
	if val.Kind() != '"' {
		return ErrMalformed
	}
	fn(p.unquote(val))
	return nil
}

// inLine returns the bytes of the value just read as a slice of the line
// itself, which stays valid after later reads (the decoder's own slice may
// not).
func (p *recordParser) inLine(val jsontext.Value) []byte {
	end := int(p.dec.InputOffset())
	return p.line[end-len(val) : end]
}

func isString(val jsontext.Value, fn func()) error {
	if val.Kind() != '"' {
		return ErrMalformed
	}
	fn()
	return nil
}

// unquote decodes a JSON string literal the decoder already validated. The
// result is valid until the next call.
func (p *recordParser) unquote(lit []byte) []byte {
	if bytes.IndexByte(lit, '\\') < 0 {
		return lit[1 : len(lit)-1]
	}
	p.tmp, _ = jsontext.AppendUnquote(p.tmp[:0], lit)
	return p.tmp
}

func knownType(t string) bool {
	switch t {
	case TypeMeta, TypeUser, TypeAssistant, TypeTool, TypeTitle:
		return true
	}
	return false
}
