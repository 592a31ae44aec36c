package sessions

import (
	"unicode/utf8"
)

// MaxTitleRunes is how many characters of the first user text make a title.
// Runes, not bytes, so a title never ends in the middle of a character.
const MaxTitleRunes = 80

// unsafeTitleRune reports the characters removed from titles: C0 and C1
// controls, DEL, and the bidirectional formatting characters (the same set
// PROTOCOL.md §4 forbids in names).
func unsafeTitleRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
		return true
	}
	return false
}

// appendSanitized appends s to dst without the characters unsafeTitleRune
// rejects (invalid UTF-8 is dropped too), stopping after maxRunes kept
// characters when maxRunes > 0 and once dst would exceed maxBytes. It
// returns the extended buffer, the number of runes kept and whether s was
// cut short by maxBytes.
func appendSanitized(dst []byte, s []byte, maxRunes, maxBytes int) ([]byte, int, bool) {
	kept := 0
	for i := 0; i < len(s); {
		if maxRunes > 0 && kept == maxRunes {
			return dst, kept, false
		}
		r, size := utf8.DecodeRune(s[i:])
		if !(r == utf8.RuneError && size == 1) && !unsafeTitleRune(r) {
			if len(dst)+size > maxBytes {
				return dst, kept, true
			}
			dst = append(dst, s[i:i+size]...)
			kept++
		}
		i += size
	}
	return dst, kept, false
}
