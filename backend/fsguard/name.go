package fsguard

import (
	"unicode/utf8"
	"unsafe"
)

// MaxNameBytes is the longest name SafeName accepts, in bytes.
const MaxNameBytes = 255

// SafeName reports whether name is one path component that may be shown,
// stored and opened: valid UTF-8, 1..255 bytes, not "." or "..", and free of
// the characters UnsafeRune reports, backslashes and slashes (docs/protocol.md §4.2;
// the slash because a name is one component).
func SafeName(name string) bool {
	if len(name) == 0 || len(name) > MaxNameBytes || name == "." || name == ".." {
		return false
	}
	i := 0
	for i < len(name) && asciiOK[name[i]] {
		i++ // the usual name: ASCII throughout, one table test a byte
	}
	for i < len(name) {
		b := name[i]
		if b < utf8.RuneSelf {
			if !asciiOK[b] {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(name[i:])
		if r == utf8.RuneError && size == 1 || UnsafeRune(r) {
			return false
		}
		i += size
	}
	return true
}

// asciiOK marks the ASCII bytes a name may hold: not C0 controls, DEL,
// backslash or slash. Non-ASCII bytes are false here and decoded.
var asciiOK = func() (t [256]bool) {
	for b := 0x20; b < 0x7f; b++ {
		t[b] = b != '\\' && b != '/'
	}
	return t
}()

// SafeNameBytes is SafeName for a byte slice, without allocating. The slice
// is only read during the call.
func SafeNameBytes(name []byte) bool {
	if len(name) == 0 {
		return false
	}
	return SafeName(unsafe.String(&name[0], len(name)))
}

// UnsafeRune reports the characters docs/protocol.md §4.2 forbids in names and
// that scout never shows anywhere (names, titles, model names): C0 and C1
// control characters, DEL, and the bidirectional formatting characters
// U+061C, U+200E, U+200F, U+202A..U+202E and U+2066..U+2069.
func UnsafeRune(r rune) bool {
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
