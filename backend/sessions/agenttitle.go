package sessions

import (
	"unicode/utf8"

	"github.com/scoutdev/scout/backend/fsguard"
)

// titleBuilder makes the title of another agent's session from one or more
// JSON string literals (a prompt's text parts, a stored name): at most
// MaxTitleRunes characters, white space (tabs and line breaks included)
// folded into single spaces and trimmed, other control and bidi characters
// removed. Prompts are typed with line breaks; folding them keeps the
// words apart where scout's own rule (text.go) would join them.
type titleBuilder struct {
	buf   []byte
	runes int
	space bool // a space is owed before the next character
}

// reset empties b, keeping its buffer.
func (b *titleBuilder) reset() { *b = titleBuilder{buf: b.buf[:0]} }

// full reports whether no further character fits.
func (b *titleBuilder) full() bool { return b.runes >= MaxTitleRunes }

// add appends the string literal lit (validated by the scanner).
func (b *titleBuilder) add(lit []byte) {
	body := lit[1 : len(lit)-1]
	for i := 0; i < len(body) && !b.full(); {
		r, size := nextRune(body[i:])
		i += size
		b.rune(r)
	}
}

// addString appends s, a title a database stored (invalid UTF-8 is
// dropped byte by byte).
func (b *titleBuilder) addString(s string) {
	for _, r := range s {
		if b.full() {
			return
		}
		if r != utf8.RuneError {
			b.rune(r)
		}
	}
}

// addBytes appends text, decoded (invalid UTF-8 is dropped byte by byte).
func (b *titleBuilder) addBytes(text []byte) {
	for i := 0; i < len(text) && !b.full(); {
		r, size := utf8.DecodeRune(text[i:])
		i += size
		if r != utf8.RuneError || size > 1 {
			b.rune(r)
		}
	}
}

// rune appends one character by the rules above.
func (b *titleBuilder) rune(r rune) {
	switch {
	case r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' || r == '\v':
		b.space = b.runes > 0
	case fsguard.UnsafeRune(r):
	default:
		if b.space {
			b.buf = append(b.buf, ' ')
			b.runes++
			b.space = false
			if b.full() {
				return
			}
		}
		b.buf = utf8.AppendRune(b.buf, r)
		b.runes++
	}
}

// text is the title built so far.
func (b *titleBuilder) text() []byte { return b.buf }

// set replaces dst with lit's title and reports whether it is not empty:
// the way a later stored title replaces an earlier one (an empty one does
// not clear it).
func setTitle(dst *[]byte, scratch *titleBuilder, lit []byte) bool {
	scratch.reset()
	scratch.add(lit)
	if scratch.runes == 0 {
		return false
	}
	*dst = append((*dst)[:0], scratch.buf...)
	return true
}

// hasPrefix reports whether title starts with one of prefixes.
func hasPrefix(title []byte, prefixes ...string) bool {
	for _, p := range prefixes {
		if len(title) >= len(p) && string(title[:len(p)]) == p {
			return true
		}
	}
	return false
}
