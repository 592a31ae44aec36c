package rpcclient

import (
	"bytes"
	"context"

	"github.com/scoutdev/scout/backend/wire"
)

// Asking ahead (Options.IndexAhead). A project.index walk is a chain: the
// next page can be asked for only with the cursor of the page before. Left
// to the caller, that request waits until the reader has checked and decoded
// the whole page (about as long as the backend took to walk it), and the
// backend sits idle meanwhile. So when a page's line is in, the reader takes
// its cursor with a quick look (peekNext, before the line is checked) and
// sends the request for the next page at once; the caller's ProjectIndex
// with that cursor then waits for the request already made. The look
// decides nothing: the line is still checked and decoded in full, and the
// caller asks with the decoded cursor; were it another (never, on valid
// JSON), the request made ahead would be dropped and the caller's own
// sent.

// ahead is the request sent for the page after a cursor, before anyone
// asked for it. At most one is out at a time: the backend never runs
// more than one page ahead of the caller.
type ahead struct {
	cursor string // the cursor it continues
	id     string
	p      *pending // its into is its own ProjectIndexResult
}

// callIndex calls project.index for the page after cursor (nil: a fresh
// walk), asking ahead for the page after it when cn.indexAhead.
func (cn *conn) callIndex(ctx context.Context, cursor *string, res *wire.ProjectIndexResult) error {
	if !cn.indexAhead {
		return cn.call(ctx, wire.MethodProjectIndex, wire.CursorParams{Cursor: cursor}, res)
	}
	a := cn.takeAhead(cursor)
	if a == nil {
		p := newPending(res)
		p.ahead = true
		id, err := cn.begin(wire.MethodProjectIndex, wire.CursorParams{Cursor: cursor}, p)
		if err != nil {
			return err
		}
		return cn.await(ctx, wire.MethodProjectIndex, id, p, res)
	}
	if err := cn.await(ctx, wire.MethodProjectIndex, a.id, a.p, a.p.into); err != nil {
		return err
	}
	*res = *a.p.into.(*wire.ProjectIndexResult)
	if res.Cursor != nil {
		// Its answer came before it was taken, when the reader could not
		// ask further (one ahead at most): ask now.
		cn.sendAhead(*res.Cursor)
	}
	return nil
}

// takeAhead returns the request made ahead for cursor, if any; a request
// made ahead for another cursor is abandoned (its late answer dropped).
func (cn *conn) takeAhead(cursor *string) *ahead {
	cn.mu.Lock()
	defer cn.mu.Unlock()
	a := cn.ahead
	cn.ahead = nil
	if a == nil {
		return nil
	}
	if cursor != nil && *cursor == a.cursor {
		return a
	}
	if !a.p.taken {
		a.p.abandoned = true
	}
	return nil
}

// askAhead asks for the page after line's, when line answers a
// project.index call that asks ahead and carries a cursor.
func (cn *conn) askAhead(line []byte) {
	id, cursor, ok := peekNext(line)
	if !ok {
		return
	}
	cn.mu.Lock()
	p := cn.pending[id]
	ok = p != nil && p.ahead && !p.abandoned
	cn.mu.Unlock()
	if ok {
		cn.sendAhead(cursor)
	}
}

// sendAhead sends the request for the page after cursor, unless one made
// ahead is out already.
func (cn *conn) sendAhead(cursor string) {
	cn.mu.Lock()
	if cn.ahead != nil || cn.err != nil {
		cn.mu.Unlock()
		return
	}
	a := &ahead{cursor: cursor, id: cn.nextID(), p: &pending{ch: make(chan response, 1), into: new(wire.ProjectIndexResult), ahead: true}}
	cn.pending[a.id], cn.ahead = a.p, a
	cn.mu.Unlock()
	if cn.sendNow(a.id, wire.MethodProjectIndex, wire.CursorParams{Cursor: &cursor}) != nil {
		cn.takeAhead(nil)
		cn.forget(a.id)
	}
}

// peekNext finds, in a line that has not been checked yet, the id of a
// response and its result's cursor: the members "id" and "result" of the
// top-level object, and the member "cursor" of the result object, both
// strings without escapes, with no "error" member. ok is false for
// anything else. It reads every byte at most once and never panics; on
// valid JSON it finds exactly what a decoder would (FuzzPeekNext).
func peekNext(line []byte) (id, cursor string, ok bool) {
	s := peek{b: line}
	var gotID, gotCursor bool
	ok = s.object(func(key []byte) bool {
		switch string(key) {
		case "id":
			v, plain := s.string()
			id, gotID = string(v), plain
			return plain
		case "result":
			return s.object(func(key []byte) bool {
				if string(key) != "cursor" {
					return s.skip()
				}
				v, plain := s.string()
				cursor, gotCursor = string(v), plain
				return plain
			})
		case "error":
			return false
		}
		return s.skip()
	})
	return id, cursor, ok && gotID && gotCursor && s.end()
}

// peek reads JSON that has not been checked, only to find members; any
// surprise makes it give up (false).
type peek struct {
	b []byte
	i int
}

func (s *peek) ws() {
	for s.i < len(s.b) && (s.b[s.i] == ' ' || s.b[s.i] == '\t' || s.b[s.i] == '\n' || s.b[s.i] == '\r') {
		s.i++
	}
}

// eat consumes c, after white space.
func (s *peek) eat(c byte) bool {
	s.ws()
	if s.i < len(s.b) && s.b[s.i] == c {
		s.i++
		return true
	}
	return false
}

func (s *peek) end() bool {
	s.ws()
	return s.i == len(s.b)
}

// object reads an object, calling member with each name (after its
// colon) to read the value.
func (s *peek) object(member func(key []byte) bool) bool {
	if !s.eat('{') {
		return false
	}
	if s.eat('}') {
		return true
	}
	for {
		s.ws()
		key, plain := s.string()
		if !plain || !s.eat(':') {
			return false
		}
		s.ws()
		if !member(key) {
			return false
		}
		if s.eat('}') {
			return true
		}
		if !s.eat(',') {
			return false
		}
	}
}

// string reads a string and returns its contents; plain is false when it
// is not a string or holds an escape.
func (s *peek) string() (v []byte, plain bool) {
	start := s.i
	if !s.skipString() {
		return nil, false
	}
	v = s.b[start+1 : s.i-1]
	return v, bytes.IndexByte(v, '\\') < 0
}

// skipString skips the string at s.i.
func (s *peek) skipString() bool {
	if s.i >= len(s.b) || s.b[s.i] != '"' {
		return false
	}
	s.i++
	for {
		k := bytes.IndexByte(s.b[s.i:], '"')
		if k < 0 {
			return false
		}
		j := s.i + k
		s.i = j + 1
		n := 0 // backslashes just before the quote
		for j-n-1 >= 0 && s.b[j-n-1] == '\\' {
			n++
		}
		if n%2 == 0 {
			return true
		}
	}
}

// skip skips one value: strings by their quotes, arrays and objects by
// their brackets, anything else up to the delimiter after the value (a
// comma or the enclosing bracket, left for the caller).
func (s *peek) skip() bool {
	depth := 0
	for s.i < len(s.b) {
		switch c := s.b[s.i]; {
		case c == '"':
			if !s.skipString() {
				return false
			}
		case c == '{' || c == '[':
			depth++
			s.i++
		case c == '}' || c == ']':
			if depth == 0 {
				return true
			}
			depth--
			s.i++
		case c == ',' && depth == 0:
			return true
		default:
			s.i++
		}
	}
	return depth == 0
}
