package sessions

import (
	"bytes"
	"errors"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/rfc3339"
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
// or a record of a known type with a member of the wrong type, a "v" other
// than 1, or a "ts" that is not RFC 3339. A record of an unknown or missing
// type is skipped whatever else it holds (docs/design.md: unknown types are
// skipped), so only its JSON is checked.
var ErrMalformed = errors.New("sessions: malformed history record")

// Record types of docs/design.md's history format. Other types are skipped.
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
	dec   jsontext.Decoder
	buf   bytes.Buffer
	names []string // member names of the current record, for duplicates
	cwd   []byte
	tmp   []byte
	ts    time.Time // the current record's "ts"
	hasTS bool
	bad   bool // a member a record of a known type may not have
}

// ParseRecord parses one history line (without its newline). It is the
// entry point the fuzz target drives; the engine reuses a recordParser.
func ParseRecord(line []byte) (Record, error) {
	var p recordParser
	return p.parse(line)
}

func (p *recordParser) parse(line []byte) (Record, error) {
	var rec Record
	p.names = p.names[:0]
	p.hasTS, p.bad = false, false
	i := skipSpace(line, 0)
	if i == len(line) || line[i] != '{' {
		return rec, ErrMalformed
	}
	i = skipSpace(line, i+1)
	if i < len(line) && line[i] == '}' {
		return p.end(line, i+1, rec)
	}
	for {
		next, err := p.member(line, i, &rec)
		if err != nil {
			return rec, err
		}
		i = skipSpace(line, next)
		if i == len(line) {
			return rec, ErrMalformed
		}
		switch line[i] {
		case ',':
			i = skipSpace(line, i+1)
		case '}':
			return p.end(line, i+1, rec)
		default:
			return rec, ErrMalformed
		}
	}
}

// end accepts the record when only whitespace follows the object. A
// record of an unknown or missing type is skipped: nothing but its JSON
// was checked, and nothing of it is reported but its type. A record of a
// known type must have well-typed members and an RFC 3339 "ts".
func (p *recordParser) end(line []byte, i int, rec Record) (Record, error) {
	if skipSpace(line, i) != len(line) {
		return rec, ErrMalformed // trailing data
	}
	if !knownType(rec.Type) {
		return Record{Type: rec.Type}, nil
	}
	rec.Known = true
	if p.bad {
		return rec, ErrMalformed
	}
	rec.TS, rec.HasTS = p.ts, p.hasTS
	return rec, nil
}

// member reads one "name": value pair starting at line[i] into rec and
// returns the index after the value.
func (p *recordParser) member(line []byte, i int, rec *Record) (int, error) {
	if i >= len(line) || line[i] != '"' {
		return 0, ErrMalformed
	}
	nameEnd, escaped, ok := scanString(line, i)
	if !ok {
		return 0, ErrMalformed
	}
	key := p.literal(line[i:nameEnd], escaped)
	if p.duplicate(key) {
		return 0, ErrMalformed
	}
	i = skipSpace(line, nameEnd)
	if i == len(line) || line[i] != ':' {
		return 0, ErrMalformed
	}
	i = skipSpace(line, i+1)
	if i == len(line) {
		return 0, ErrMalformed
	}
	if line[i] != '"' {
		end, ok := otherValue(&p.dec, &p.buf, line, i)
		if !ok {
			return 0, ErrMalformed
		}
		p.other(key, line[i:end])
		return end, nil
	}
	end, escaped, ok := scanString(line, i)
	if !ok {
		return 0, ErrMalformed
	}
	p.stringMember(key, line[i:end], escaped, rec)
	return end, nil
}

// duplicate records key and reports whether the object already had it.
func (p *recordParser) duplicate(key []byte) bool {
	for _, n := range p.names {
		if n == string(key) {
			return true
		}
	}
	p.names = append(p.names, string(key))
	return false
}

// other checks a member whose value is not a string: only "v" may be
// (it must be 1); "ts", "cwd", "text" and "title" must be strings. A
// "type" that is not a string names no known type: the record is skipped.
func (p *recordParser) other(key []byte, val []byte) {
	switch string(key) {
	case "v":
		p.bad = p.bad || string(val) != "1"
	case "ts", "cwd", "text", "title":
		p.bad = true
	}
}

// writableYear reports whether t, in UTC, has a year RFC 3339 can write
// (0000..9999): rows carry their times in UTC, and "0000-01-01T00:30:00+01:00"
// is in year -1 there, "9999-12-31T23:30:00-01:00" in year 10000.
func writableYear(t time.Time) bool {
	y := t.UTC().Year()
	return y >= 0 && y <= 9999
}

// stringMember stores a string member of interest.
func (p *recordParser) stringMember(key, lit []byte, escaped bool, rec *Record) {
	switch string(key) {
	case "v":
		p.bad = true
	case "type":
		rec.Type = string(p.literal(lit, escaped))
	case "ts":
		p.keepTS(p.literal(lit, escaped))
	case "cwd":
		p.keepCwd(p.literal(lit, escaped), rec)
	case "text":
		rec.Text = lit
	case "title":
		rec.Title = lit
	}
}

// keepTS parses a "ts"; whether a bad one matters waits for the record's
// type.
func (p *recordParser) keepTS(s []byte) {
	t, err := rfc3339.Parse(string(s))
	p.ts, p.hasTS = t, true
	p.bad = p.bad || err != nil || !writableYear(t)
}

// literal decodes a string literal scanString accepted; the result is
// valid until the next call.
func (p *recordParser) literal(lit []byte, escaped bool) []byte {
	if !escaped {
		return lit[1 : len(lit)-1]
	}
	p.tmp, _ = jsontext.AppendUnquote(p.tmp[:0], lit)
	return p.tmp
}

func (p *recordParser) keepCwd(s []byte, rec *Record) {
	if len(s) > maxCwdBytes {
		s = s[:maxCwdBytes+1]
	}
	p.cwd = append(p.cwd[:0], s...)
	rec.Cwd = p.cwd
}

func knownType(t string) bool {
	switch t {
	case TypeMeta, TypeUser, TypeAssistant, TypeTool, TypeTitle:
		return true
	}
	return false
}
