package sessions

import (
	"bytes"

	"github.com/go-json-experiment/json/jsontext"
)

// This file is the scanner the other agents' records are read with. Their
// lines are one JSON object each, usually with a few small members and one
// large nested one (a reply, a tool's output, a file's content), of which
// discovery wants a handful of top-level strings and, at most, one string
// a level or two down. So values are skipped, not decoded: strings with
// scanString (scan_json.go, eight or 64 bytes at a time), everything else
// with the small state machine of skipValue, which checks the grammar as
// strictly as jsontext does (UTF-8, escapes, numbers, literals, nesting
// up to jsontext's 10,000 levels) except for one thing: duplicate member
// names are not looked for below the top level, where nothing is read.
// The parsers of each agent reject a duplicate of a member they read.
// FuzzSkipValue holds skipValue to jsontext's acceptance.
// Not shared with record.go's parser of scout's own records, which decodes
// a closed schema member by member: here most of every line is skipped
// unread; the string scan under both is the same.

// maxJSONDepth is jsontext's default nesting limit.
const maxJSONDepth = 10000

// jsonScanner holds the scratch space of one parser: the container stack
// of skipValue and the buffer escaped strings are decoded into.
type jsonScanner struct {
	stack []byte
	tmp   []byte
}

// skipValue returns the index just past the JSON value that starts at
// b[i] (no whitespace before it), or false if there is none. The value is
// a member of an object, which counts toward the nesting limit.
func (s *jsonScanner) skipValue(b []byte, i int) (int, bool) {
	stack := s.stack[:0]
	defer func() { s.stack = stack[:0] }()
	for {
		i = skipSpace(b, i)
		if i >= len(b) {
			return 0, false
		}
		var ok bool
		switch c := b[i]; c {
		case '"':
			i, _, ok = scanString(b, i)
		case '{', '[':
			close := byte('}')
			if c == '[' {
				close = ']'
			}
			if len(stack) >= maxJSONDepth-1 { // the object the value is in counts
				return 0, false
			}
			if j := skipSpace(b, i+1); j < len(b) && b[j] == close {
				i, ok = j+1, true
				break
			}
			stack = append(stack, c)
			if c == '[' {
				i++
				continue
			}
			if i, ok = memberName(b, i+1); !ok {
				return 0, false
			}
			continue
		case 't':
			i, ok = literal(b, i, "true")
		case 'f':
			i, ok = literal(b, i, "false")
		case 'n':
			i, ok = literal(b, i, "null")
		default:
			i, ok = number(b, i)
		}
		if !ok {
			return 0, false
		}
		// After a value: close containers until one continues.
		for {
			if len(stack) == 0 {
				return i, true
			}
			i = skipSpace(b, i)
			if i >= len(b) {
				return 0, false
			}
			top := stack[len(stack)-1]
			if b[i] == ',' {
				if top == '{' {
					if i, ok = memberName(b, i+1); !ok {
						return 0, false
					}
				} else {
					i++
				}
				break
			}
			if top == '{' && b[i] == '}' || top == '[' && b[i] == ']' {
				stack = stack[:len(stack)-1]
				i++
				continue
			}
			return 0, false
		}
	}
}

// memberName reads `"name" :` starting at b[i] (whitespace first) and
// returns the index after the colon.
func memberName(b []byte, i int) (int, bool) {
	i = skipSpace(b, i)
	if i >= len(b) || b[i] != '"' {
		return 0, false
	}
	end, _, ok := scanString(b, i)
	if !ok {
		return 0, false
	}
	i = skipSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return 0, false
	}
	return i + 1, true
}

func literal(b []byte, i int, lit string) (int, bool) {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return 0, false
	}
	return i + len(lit), true
}

// number reads a JSON number: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func number(b []byte, i int) (int, bool) {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && b[i] >= '1' && b[i] <= '9':
		i = digits(b, i)
	default:
		return 0, false
	}
	if i < len(b) && b[i] == '.' {
		j := digits(b, i+1)
		if j == i+1 {
			return 0, false
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digits(b, i)
		if j == i {
			return 0, false
		}
		i = j
	}
	return i, true
}

func digits(b []byte, i int) int {
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	return i
}

// members calls fn with each member of the object b (the whole of b, JSON
// whitespace around it allowed): its name, decoded (valid during the call
// only), and its value as it is written. fn returns false to reject the
// object. members reports whether b is one valid object that fn accepted.
func (s *jsonScanner) members(b []byte, fn func(name, value []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == '}' {
		return skipSpace(b, i+1) == len(b)
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return false
		}
		end, escaped, ok := scanString(b, i)
		if !ok {
			return false
		}
		name := s.unquote(b[i:end], escaped)
		i = skipSpace(b, end)
		if i >= len(b) || b[i] != ':' {
			return false
		}
		i = skipSpace(b, i+1)
		start := i
		if i, ok = s.skipValue(b, i); !ok || !fn(name, b[start:i]) {
			return false
		}
		if i, ok = afterValue(b, i, '}'); i < 0 {
			return ok
		}
	}
}

// elements calls fn with each element of the array b as it is written; it
// reports whether b is a valid array (false as well when fn stops early).
func (s *jsonScanner) elements(b []byte, fn func(value []byte) bool) bool {
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return false
	}
	i = skipSpace(b, i+1)
	if i < len(b) && b[i] == ']' {
		return skipSpace(b, i+1) == len(b)
	}
	for {
		start := i
		var ok bool
		if i, ok = s.skipValue(b, i); !ok || !fn(b[start:i]) {
			return false
		}
		if i, ok = afterValue(b, i, ']'); i < 0 {
			return ok
		}
	}
}

// afterValue reads what follows a member or element of a container b
// ends with the byte end: a comma (the next value's offset, true), or end
// (-1, and whether end is the last byte but space), or anything else (-1,
// false).
func afterValue(b []byte, i int, end byte) (int, bool) {
	i = skipSpace(b, i)
	switch {
	case i >= len(b):
		return -1, false
	case b[i] == ',':
		return skipSpace(b, i+1), true
	case b[i] == end:
		return -1, skipSpace(b, i+1) == len(b)
	}
	return -1, false
}

// unquote decodes the string literal lit (already validated); the result
// is valid until the next call.
func (s *jsonScanner) unquote(lit []byte, escaped bool) []byte {
	if !escaped {
		return lit[1 : len(lit)-1]
	}
	s.tmp, _ = jsontext.AppendUnquote(s.tmp[:0], lit)
	return s.tmp
}

// str decodes value when it is a string literal; ok is false for any
// other value. The result is valid until the next unquote or str.
func (s *jsonScanner) str(value []byte) ([]byte, bool) {
	if len(value) < 2 || value[0] != '"' {
		return nil, false
	}
	return s.unquote(value, bytes.IndexByte(value, '\\') >= 0), true
}

// isString reports whether value is a string literal.
func isString(value []byte) bool { return len(value) >= 2 && value[0] == '"' }

// memberSet remembers which of up to 64 members a parser reads it has
// seen, so a duplicate of one is a malformed record.
type memberSet uint64

// see marks member bit k and reports whether it was new.
func (m *memberSet) see(k uint) bool {
	if *m&(1<<k) != 0 {
		return false
	}
	*m |= 1 << k
	return true
}
