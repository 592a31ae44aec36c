package sessions

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/scoutdev/scout/backend/fsguard"
)

// MaxTitleRunes is how many characters of the first user text make a title.
// Runes, not bytes, so a title never ends in the middle of a character.
const MaxTitleRunes = 80

// appendSanitized decodes the JSON string literal lit (already validated by
// the record parser) rune by rune and appends it to dst without the
// characters fsguard.UnsafeRune reports, stopping after maxRunes kept
// characters when maxRunes > 0 and before dst would exceed maxBytes. It
// never materializes the whole string, so a title taken from the start of
// an 8 MiB text costs no more than the title. It returns the extended
// buffer, the number of runes kept and whether maxBytes cut it short.
func appendSanitized(dst []byte, lit []byte, maxRunes, maxBytes int) ([]byte, int, bool) {
	kept := 0
	body := lit[1 : len(lit)-1]
	for i := 0; i < len(body); {
		if maxRunes > 0 && kept == maxRunes {
			return dst, kept, false
		}
		r, size := nextRune(body[i:])
		i += size
		if fsguard.UnsafeRune(r) {
			continue
		}
		if len(dst)+utf8.RuneLen(r) > maxBytes {
			return dst, kept, true
		}
		dst = utf8.AppendRune(dst, r)
		kept++
	}
	return dst, kept, false
}

// nextRune decodes the first character of a validated JSON string body:
// a UTF-8 sequence or an escape (a surrogate pair is one character).
func nextRune(b []byte) (rune, int) {
	if b[0] != '\\' {
		if b[0] < utf8.RuneSelf {
			return rune(b[0]), 1
		}
		return utf8.DecodeRune(b)
	}
	switch b[1] {
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
	default:
		return rune(b[1]), 2 // '"', '\\', '/'
	}
	hi, _ := hex4(b[2:])
	if hi < 0xd800 || hi > 0xdbff {
		return hi, 6
	}
	lo, _ := hex4(b[8:])
	return utf16.DecodeRune(hi, lo), 12
}
