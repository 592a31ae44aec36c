package sessions

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// This file is the fast path of the record parser. History lines are
// mostly one long string (a reply, a tool output), so the parser scans
// strings itself, eight or 64 bytes at a time, and leaves every other value
// (numbers, literals, nested objects and arrays, which are short) to the
// strict jsontext decoder. Its acceptance is exactly jsontext's: UTF-8
// validity, escapes (surrogates paired), no control characters, no
// duplicate member names, no trailing data. FuzzParseRecord holds it to
// that.

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// specialMask has the high bit set in every byte of w that needs a closer
// look inside a string: '"', '\\', a control character or a non-ASCII
// byte. For an ASCII byte c, c^'"'-1, c^'\\'-1 and c-0x20 have the high
// bit set exactly when c is the quote, the backslash or a control
// character; for a non-ASCII byte one of them always has (the first keeps
// c's high bit unless c^'"' is 0x80 or 0x81, and then c-0x20 has it). No
// special byte is ever missed, even with a borrow from the byte below, and
// borrows only run upwards from a byte that is itself special, so the
// lowest set bit always marks the first special byte; bits above it may be
// false.
func specialMask(w uint64) uint64 {
	quote := w ^ (lsb * '"')
	bslash := w ^ (lsb * '\\')
	return ((quote - lsb) | (bslash - lsb) | (w - lsb*0x20)) & msb
}

// simpleEscape marks the characters after a backslash that make a
// two-byte escape.
var simpleEscape = [256]bool{'"': true, '\\': true, '/': true, 'b': true, 'f': true, 'n': true, 'r': true, 't': true}

// pack moves the flags of specialMask (bit 7 of each byte) to the low
// eight bits, byte k's to bit k. The product's terms land on distinct
// bits, so nothing carries into the top byte but the flags.
func pack(m uint64) uint64 {
	return (m >> 7) * 0x0102040810204080 >> 56
}

// blockMask has bit k set when b[k] may be special (see specialMask), for
// the 64 bytes of b.
func blockMask(b []byte) uint64 {
	_ = b[63]
	return pack(specialMask(binary.LittleEndian.Uint64(b[0:]))) |
		pack(specialMask(binary.LittleEndian.Uint64(b[8:])))<<8 |
		pack(specialMask(binary.LittleEndian.Uint64(b[16:])))<<16 |
		pack(specialMask(binary.LittleEndian.Uint64(b[24:])))<<24 |
		pack(specialMask(binary.LittleEndian.Uint64(b[32:])))<<32 |
		pack(specialMask(binary.LittleEndian.Uint64(b[40:])))<<40 |
		pack(specialMask(binary.LittleEndian.Uint64(b[48:])))<<48 |
		pack(specialMask(binary.LittleEndian.Uint64(b[56:])))<<56
}

// scanString returns the index just past the string literal that starts
// with the quote at b[i], and whether it holds an escape; ok is false for
// anything jsontext would refuse.
//
// Two-byte escapes and two- or three-byte characters are most of what
// stops a scan in prose (one every 16 bytes or so): they are passed from
// the mask of the bytes read, without reading those bytes again. A string
// is read a word at a time first (names and short values end in a few),
// then, once it has proved long, 64 bytes at a time: one mask for the
// block, one branch on it, and the flagged bytes handled in turn. Flags
// above the first in a word may be false (borrows), so each flagged byte
// is looked at; next is where the bytes consumed so far end, and the
// flags below it are dropped. Anything else (a quote, a control
// character, \u, four bytes, invalid UTF-8) goes to the exact step at the
// bottom of the loop.
// Not shared with wire's or catalog's JSON readers: it must check untrusted bytes exactly as jsontext does.
func scanString(b []byte, i int) (end int, escaped, ok bool) {
	i++
	words := 0 // words read one at a time since the last block
scan:
	for {
	blocks:
		for words >= 4 && i+64 <= len(b) {
			m := blockMask(b[i : i+64])
			if m == 0 {
				i += 64
				continue
			}
			next := i
			for m != 0 {
				j := i + bits.TrailingZeros64(m)
				switch c := b[j]; {
				case c == '\\':
					if j+1 >= len(b) || !simpleEscape[b[j+1]] {
						i, words = j, 0
						break blocks
					}
					next = j + 2
					escaped = true
				case c >= utf8.RuneSelf:
					n := utf8Len(b[j:])
					if n == 0 {
						i, words = j, 0
						break blocks
					}
					next = j + n
				case c == '"' || c < 0x20:
					i, words = j, 0
					break blocks
				default:
					next = j + 1
				}
				m &= ^uint64(0) << uint(next-i) // 0 from 64 on
			}
			i = max(i+64, next)
		}
	words:
		for i+8 <= len(b) {
			if words >= 4 && i+64 <= len(b) {
				continue scan
			}
			words++
			m := specialMask(binary.LittleEndian.Uint64(b[i:]))
			if m == 0 {
				i += 8
				continue
			}
			next := i
			for m != 0 {
				j := i + bits.TrailingZeros64(m)/8
				switch c := b[j]; {
				case c == '\\':
					if j+1 >= len(b) || !simpleEscape[b[j+1]] {
						i = j
						break words
					}
					next = j + 2
					escaped = true
				case c >= utf8.RuneSelf:
					n := utf8Len(b[j:])
					if n == 0 {
						i = j
						break words
					}
					next = j + n
				case c == '"' || c < 0x20:
					i = j
					break words
				default:
					next = j + 1
				}
				m &= ^uint64(0) << (8 * uint(next-i)) // 0 from 64 on
			}
			i = max(i+8, next)
		}
		if i >= len(b) {
			return 0, false, false
		}
		switch c := b[i]; {
		case c == '"':
			return i + 1, escaped, true
		case c == '\\':
			n := escapeLen(b[i:])
			if n == 0 {
				return 0, false, false
			}
			i += n
			escaped = true
		case c < 0x20:
			return 0, false, false
		case c < utf8.RuneSelf:
			i++
		default:
			r, size := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && size == 1 {
				return 0, false, false
			}
			i += size
		}
	}
}

// utf8Len is the length of the two- or three-byte UTF-8 sequence at the
// start of b, 0 for anything else (ASCII, four bytes, invalid: the caller
// looks closer).
func utf8Len(b []byte) int {
	if len(b) < 3 {
		return 0
	}
	c0, c1, c2 := b[0], b[1], b[2]
	switch {
	case c0 >= 0xc2 && c0 <= 0xdf:
		if c1&0xc0 == 0x80 {
			return 2
		}
	case c0 >= 0xe0 && c0 <= 0xef:
		// E0 needs A0..BF (no overlong form), ED 80..9F (no surrogate).
		lo, hi := byte(0x80), byte(0xbf)
		switch c0 {
		case 0xe0:
			lo = 0xa0
		case 0xed:
			hi = 0x9f
		}
		if c1 >= lo && c1 <= hi && c2&0xc0 == 0x80 {
			return 3
		}
	}
	return 0
}

// escapeLen is the length of the escape sequence at the start of b, or 0
// when it is invalid. A \u escape of a high surrogate must be followed by
// one of a low surrogate; a lone low surrogate is invalid.
func escapeLen(b []byte) int {
	if len(b) < 2 {
		return 0
	}
	switch b[1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
	default:
		return 0
	}
	r, ok := hex4(b[2:])
	switch {
	case !ok:
		return 0
	case r >= 0xdc00 && r <= 0xdfff:
		return 0
	case r < 0xd800 || r > 0xdbff:
		return 6
	}
	if len(b) < 12 || b[6] != '\\' || b[7] != 'u' {
		return 0
	}
	if lo, ok := hex4(b[8:]); !ok || lo < 0xdc00 || lo > 0xdfff {
		return 0
	}
	return 12
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// skipSpace returns the index of the first non-whitespace byte at or after i.
func skipSpace(b []byte, i int) int {
	for i < len(b) {
		switch b[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// otherValue returns the end of a value that is not a string, checked by
// the strict decoder (d is reused).
func otherValue(d *jsontext.Decoder, buf *bytes.Buffer, b []byte, i int) (int, bool) {
	*buf = *bytes.NewBuffer(b[i:])
	d.Reset(buf)
	v, err := d.ReadValue()
	if err != nil || v.Kind() == '"' {
		return 0, false
	}
	return i + int(d.InputOffset()), true
}
