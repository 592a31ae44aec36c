package wire

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// The project.files report is the protocol's one large message: up to
// 10,000 entries in a 1 MiB line. Encoding it by reflection, and then
// validating it again inside the response envelope, cost the backend
// several times the scan itself; decoding it by reflection, with one
// allocation per path, was most of the client's share. So the report has
// its own codec here, next to its type: AppendJSON writes exactly the
// bytes Marshal writes (wire tests hold it to that), and
// UnmarshalJSONFrom reads it with the same strictness for the members it
// knows, ignoring others, keeping every path in one allocation.

// AppendJSON appends r's JSON encoding to b: exactly Marshal's output,
// without reflection. It fails, as Marshal does, on strings that are not
// valid UTF-8.
func (r *ProjectFilesResult) AppendJSON(b []byte) ([]byte, error) {
	// Room for the whole report up front (exact unless a string needs
	// escapes): one allocation instead of doubling through a megabyte.
	need := len(`{"command_id":"","generation":-9223372036854775808,"entries":[],"truncated":false,"ts":""}`) + len(r.CommandID) + len(r.TS)
	b = slices.Grow(b, need+entriesSize(r.Entries))
	var err error
	b = append(b, `{"command_id":`...)
	if b, err = appendString(b, r.CommandID); err != nil {
		return nil, err
	}
	b = append(b, `,"generation":`...)
	b = strconv.AppendInt(b, r.Generation, 10)
	b = append(b, `,"entries":`...)
	if b, err = appendEntries(b, r.Entries); err != nil {
		return nil, err
	}
	b = append(b, `,"truncated":`...)
	b = strconv.AppendBool(b, r.Truncated)
	b = append(b, `,"ts":`...)
	if b, err = appendString(b, r.TS); err != nil {
		return nil, err
	}
	return append(b, '}'), nil
}

// entriesSize is the encoded size of entries when no string needs escapes.
func entriesSize(entries []FileEntry) int {
	need := len(`[]`)
	for i := range entries {
		need += len(`{"path":"","kind":""},`) + len(entries[i].Path) + len(entries[i].Kind)
	}
	return need
}

// appendEntries appends entries as a JSON array, as Marshal writes it.
func appendEntries(b []byte, entries []FileEntry) ([]byte, error) {
	var err error
	b = append(b, '[')
	for i := range entries {
		e := &entries[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"path":`...)
		if b, err = appendString(b, e.Path); err != nil {
			return nil, err
		}
		b = append(b, `,"kind":`...)
		if b, err = appendString(b, e.Kind); err != nil {
			return nil, err
		}
		b = append(b, '}')
	}
	return append(b, ']'), nil
}

// MarshalJSONTo is AppendJSON for the json package.
func (r *ProjectFilesResult) MarshalJSONTo(enc *jsontext.Encoder) error {
	b, err := r.AppendJSON(nil)
	if err != nil {
		return err
	}
	return enc.WriteValue(b)
}

// appendString appends s as a JSON string: quoted as it is when no byte
// needs escaping (the usual path), else as the json package quotes it.
func appendString(b []byte, s string) ([]byte, error) {
	if plainString(s) {
		b = append(b, '"')
		b = append(b, s...)
		return append(b, '"'), nil
	}
	out, err := jsontext.AppendQuote(b, s)
	if err != nil {
		return nil, &jsontext.SyntacticError{Err: err}
	}
	return out, nil
}

// plainString reports whether s has no byte that JSON quoting could
// change: none below 0x20, no quote, no backslash, nothing outside ASCII.
// It tests eight bytes at a time.
func plainString(s string) bool {
	const lsbs, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8]
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		q, bs := x^lsbs*'"', x^lsbs*'\\'
		// any byte below 0x20, equal to '"' or '\\', or with its high bit set
		if ((x-lsbs*0x20)&^x|(q-lsbs)&^q|(bs-lsbs)&^bs|x)&highs != 0 {
			return false
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

// ValidDecoder is implemented by types with a decoder for JSON that is
// known to be valid: a value the json package has already read, and so
// checked (syntax, UTF-8, duplicate names), such as a response's result.
type ValidDecoder interface {
	DecodeValid(data []byte) error
}

// UnmarshalJSONFrom reads one value from dec (which checks it) and
// decodes it with DecodeValid.
func (r *ProjectFilesResult) UnmarshalJSONFrom(dec *jsontext.Decoder) error {
	v, err := dec.ReadValue()
	if err != nil {
		return err
	}
	return r.DecodeValid(v)
}

// DecodeValid decodes a report from data, which must be valid JSON, as
// Unmarshal would by reflection: the same members with the same types,
// unknown members skipped, null making a member zero. Every path and the
// command id share one allocation. On input that is not valid JSON it
// returns an error or a partial result, never panics.
func (r *ProjectFilesResult) DecodeValid(data []byte) error {
	d := filesDecoder{listDecoder: listDecoder{scan: scan{b: data}}, command: [2]int{-1, -1}}
	d.ws()
	if d.null() {
		*r = ProjectFilesResult{}
		return d.end()
	}
	if err := d.object(func(key []byte) error { return d.member(r, key) }); err != nil {
		return err
	}
	all := frozen(d.buf)
	if d.command[0] >= 0 {
		r.CommandID = all[d.command[0]:d.command[1]]
	}
	d.finish(&r.Entries, all)
	return d.end()
}

// frozen returns buf as a string, without copying it when buf is about
// full: the decoder's buffer is written only while it decodes, and every
// string it hands out is a slice of this one, so a megabyte page is not
// copied once more. A buffer much larger than its bytes is copied, so that
// what a snapshot keeps is its paths' size.
func frozen(buf []byte) string {
	if cap(buf)-len(buf) > len(buf)/16+64 {
		return string(buf)
	}
	return unsafe.String(unsafe.SliceData(buf), len(buf))
}

// listDecoder decodes a list of entries, collecting their paths in one
// buffer and noting where each lies in it.
type listDecoder struct {
	scan
	buf     []byte
	paths   [][2]int
	entries []FileEntry
	gotList bool // entries was present (possibly null)
}

// filesDecoder decodes a project.files report; the command id shares the
// paths' buffer.
type filesDecoder struct {
	listDecoder
	command [2]int // the command id's span; -1 when absent
}

func (d *filesDecoder) member(r *ProjectFilesResult, key []byte) error {
	null := d.null()
	var err error
	switch string(key) {
	case "command_id":
		d.command = [2]int{0, 0}
		if !null {
			d.command, err = d.stringInto(&d.buf)
		}
	case "generation":
		r.Generation = 0
		if !null {
			r.Generation, err = d.int()
		}
	case "entries":
		err = d.list(null)
	case "truncated":
		r.Truncated = false
		if !null {
			r.Truncated, err = d.bool()
		}
	case "ts":
		r.TS = ""
		if !null {
			r.TS, err = d.string()
		}
	default:
		if !null {
			err = d.skip()
		}
	}
	return err
}

// list decodes the entries member (null when null is set).
func (d *listDecoder) list(null bool) error {
	d.entries, d.paths, d.gotList = nil, nil, true
	if null {
		return nil
	}
	// Room for the entries the rest holds (each encoder's entry starts
	// so; a count off by a few costs a growth or a trim in finish), the
	// paths' bytes and their spans.
	rest := len(d.b) - d.i
	n := bytes.Count(d.b[d.i:], []byte(`{"path":`)) + 1
	d.entries, d.paths = make([]FileEntry, 0, n), make([][2]int, 0, n)
	d.buf = slices.Grow(d.buf, max(rest-n*len(`{"path":"","kind":"file"},`), 0)+64)
	return d.array(d.entry)
}

// entry decodes one element of entries.
func (d *listDecoder) entry() error {
	if d.plainEntry() {
		return nil
	}
	var e FileEntry
	span := [2]int{0, 0}
	if !d.null() {
		err := d.object(func(key []byte) error {
			null := d.null()
			var err error
			switch string(key) {
			case "path":
				span = [2]int{0, 0}
				if !null {
					span, err = d.stringInto(&d.buf)
				}
			case "kind":
				e.Kind = ""
				if !null {
					e.Kind, err = d.kind()
				}
			default:
				if !null {
					err = d.skip()
				}
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	d.entries = append(d.entries, e)
	d.paths = append(d.paths, span)
	return nil
}

// plainEntry decodes an entry written exactly as AppendJSON writes one
// without escapes, {"path":"P","kind":"file"} or "directory", if that is
// what is next: the backend's every entry, at a fraction of the general
// path's cost.
func (d *listDecoder) plainEntry() bool {
	const head = `{"path":"`
	b := d.b[d.i:]
	if !bytes.HasPrefix(b, []byte(head)) {
		return false
	}
	rest := b[len(head):]
	k := bytes.IndexByte(rest, '"')
	if k < 0 || bytes.IndexByte(rest[:k], '\\') >= 0 {
		return false
	}
	var kind string
	var tail []byte
	switch {
	case bytes.HasPrefix(rest[k:], fileTail):
		kind, tail = KindFile, fileTail
	case bytes.HasPrefix(rest[k:], dirTail):
		kind, tail = KindDirectory, dirTail
	default:
		return false
	}
	a := len(d.buf)
	d.buf = append(d.buf, rest[:k]...)
	d.entries = append(d.entries, FileEntry{Kind: kind})
	d.paths = append(d.paths, [2]int{a, len(d.buf)})
	d.i += len(head) + k + len(tail)
	d.ws()
	return true
}

var (
	fileTail = []byte(`","kind":"file"}`)
	dirTail  = []byte(`","kind":"directory"}`)
)

// kind reads an entry's kind, sharing the constants' strings.
func (d *listDecoder) kind() (string, error) {
	raw, esc, err := d.rawString()
	switch {
	case err != nil:
		return "", err
	case esc:
		return unquote(raw)
	case string(raw) == `"file"`:
		return KindFile, nil
	case string(raw) == `"directory"`:
		return KindDirectory, nil
	}
	return string(raw[1 : len(raw)-1]), nil
}

// finish sets *entries from what was collected, every path a slice of
// all (the buffer's one string), when the member was present.
func (d *listDecoder) finish(entries *[]FileEntry, all string) {
	if !d.gotList {
		return
	}
	if n := len(d.entries); cap(d.entries) > n+n/8 {
		d.entries = append(make([]FileEntry, 0, n), d.entries...) // a snapshot keeps it
	}
	for i, sp := range d.paths {
		d.entries[i].Path = all[sp[0]:sp[1]]
	}
	*entries = d.entries
}

// scan reads valid JSON. Its errors are for values of the wrong type and
// for input that turns out not to be valid after all.
// Not shared with sessions' or catalog's JSON readers: it trusts JSON the json package already validated.
type scan struct {
	b []byte
	i int
}

var errNotJSON = errors.New("wire: not valid JSON")

func (s *scan) ws() {
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scan) peek() byte {
	if s.i < len(s.b) {
		return s.b[s.i]
	}
	return 0
}

// expect consumes c and the white space after it.
func (s *scan) expect(c byte) error {
	if s.peek() != c {
		return errNotJSON
	}
	s.i++
	s.ws()
	return nil
}

func (s *scan) end() error {
	s.ws()
	if s.i != len(s.b) {
		return errNotJSON
	}
	return nil
}

// null consumes a null, if that is next.
func (s *scan) null() bool {
	if bytes.HasPrefix(s.b[s.i:], []byte("null")) {
		s.i += 4
		s.ws()
		return true
	}
	return false
}

// object reads an object, calling member for each member with its name
// unquoted and the scan at its value.
func (s *scan) object(member func(key []byte) error) error {
	if s.peek() != '{' {
		return s.typeError()
	}
	s.i++
	s.ws()
	if s.peek() == '}' {
		s.i++
		s.ws()
		return nil
	}
	for {
		raw, esc, err := s.rawString()
		if err != nil {
			return err
		}
		key := raw[1 : len(raw)-1]
		if esc {
			if key, err = jsontext.AppendUnquote(nil, raw); err != nil {
				return err
			}
		}
		if err := s.expect(':'); err != nil {
			return err
		}
		if err := member(key); err != nil {
			return err
		}
		if s.peek() == '}' {
			s.i++
			s.ws()
			return nil
		}
		if err := s.expect(','); err != nil {
			return err
		}
	}
}

// array reads an array, calling elem with the scan at each element.
func (s *scan) array(elem func() error) error {
	if s.peek() != '[' {
		return s.typeError()
	}
	s.i++
	s.ws()
	if s.peek() == ']' {
		s.i++
		s.ws()
		return nil
	}
	for {
		if err := elem(); err != nil {
			return err
		}
		if s.peek() == ']' {
			s.i++
			s.ws()
			return nil
		}
		if err := s.expect(','); err != nil {
			return err
		}
	}
}

// rawString reads a string and returns it quoted, as it is in the input,
// and whether it has escapes.
func (s *scan) rawString() ([]byte, bool, error) {
	if s.peek() != '"' {
		return nil, false, s.typeError()
	}
	a := s.i
	k := bytes.IndexByte(s.b[a+1:], '"')
	if k < 0 {
		return nil, false, errNotJSON
	}
	j := a + 1 + k
	if bytes.IndexByte(s.b[a+1:j], '\\') < 0 {
		s.i = j + 1
		s.ws()
		return s.b[a : j+1], false, nil
	}
	return s.escapedString(a)
}

// escapedString is rawString for a string with escapes, from a.
func (s *scan) escapedString(a int) ([]byte, bool, error) {
	for j := a + 1; j < len(s.b); j++ {
		switch s.b[j] {
		case '\\':
			j++
		case '"':
			s.i = j + 1
			s.ws()
			return s.b[a : j+1], true, nil
		}
	}
	return nil, false, errNotJSON
}

// stringInto appends the next string unquoted to buf and returns its span.
func (s *scan) stringInto(buf *[]byte) ([2]int, error) {
	raw, esc, err := s.rawString()
	if err != nil {
		return [2]int{}, err
	}
	a := len(*buf)
	if esc {
		*buf, err = jsontext.AppendUnquote(*buf, raw)
	} else {
		*buf = append(*buf, raw[1:len(raw)-1]...)
	}
	return [2]int{a, len(*buf)}, err
}

func (s *scan) string() (string, error) {
	raw, esc, err := s.rawString()
	if err != nil {
		return "", err
	}
	if esc {
		return unquote(raw)
	}
	return string(raw[1 : len(raw)-1]), nil
}

func unquote(raw []byte) (string, error) {
	b, err := jsontext.AppendUnquote(nil, raw)
	return string(b), err
}

// literal reads a number or literal and returns its text.
func (s *scan) literal() []byte {
	a := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			lit := s.b[a:s.i]
			s.ws()
			return lit
		}
		s.i++
	}
	return s.b[a:]
}

func (s *scan) int() (int64, error) {
	if c := s.peek(); c != '-' && (c < '0' || c > '9') {
		return 0, s.typeError()
	}
	lit := s.literal()
	n, err := strconv.ParseInt(string(lit), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("wire: %s is not a 64-bit integer", lit)
	}
	return n, nil
}

func (s *scan) bool() (bool, error) {
	switch lit := s.literal(); string(lit) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, errors.New("wire: not a boolean")
}

// skip reads any value.
func (s *scan) skip() error {
	switch s.peek() {
	case '"':
		_, _, err := s.rawString()
		return err
	case '{':
		return s.object(func([]byte) error { return s.skip() })
	case '[':
		return s.array(s.skip)
	case 0:
		return errNotJSON
	}
	if len(s.literal()) == 0 {
		return errNotJSON
	}
	return nil
}

// typeError skips the value that is of the wrong type.
func (s *scan) typeError() error {
	c := s.peek()
	if err := s.skip(); err != nil {
		return err
	}
	return fmt.Errorf("wire: unexpected JSON %q in a project.files or project.index result", c)
}
