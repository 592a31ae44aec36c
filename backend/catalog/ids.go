package catalog

import (
	"unicode"
	"unicode/utf8"

	"github.com/scoutdev/scout/backend/fsguard"
)

// Bounds of the strings a catalog holds. They keep every choice small enough
// that a page always has room for one (see page.go).
const (
	// MaxModelIDBytes bounds a model id.
	MaxModelIDBytes = 256
	// MaxNameBytes bounds a model's display name.
	MaxNameBytes = 256
	// MaxEfforts bounds a model's reasoning efforts.
	MaxEfforts = 8
	// MaxEffortBytes bounds one effort word.
	MaxEffortBytes = 32
)

// ValidModelID reports whether id is a safe model id: valid UTF-8, 1..256
// bytes, no whitespace, no control character (C0, C1, DEL) and no
// bidirectional formatting character. Ids such as "gpt-5",
// "claude-sonnet-4-5-20250929", "llama3.2:latest" and
// "meta-llama/Llama-3.3-70B" are safe.
func ValidModelID(id string) bool {
	if id == "" || len(id) > MaxModelIDBytes || !utf8.ValidString(id) {
		return false
	}
	for _, r := range id {
		if fsguard.UnsafeRune(r) || unicode.IsSpace(r) {
			return false
		}
	}
	return true
}

// validName reports whether name may be shown: valid UTF-8, at most 256
// bytes, no control or bidirectional formatting character. Spaces are fine.
func validName(name string) bool {
	if len(name) > MaxNameBytes || !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		if fsguard.UnsafeRune(r) {
			return false
		}
	}
	return true
}

// cleanName turns a name from a remote document into one validName accepts:
// invalid bytes, control and bidirectional formatting characters are dropped,
// runs of whitespace become one space, and the result is cut to 256 bytes on
// a character boundary.
func cleanName(s string) string {
	out := make([]rune, 0, len(s))
	space := false
	for _, r := range s {
		switch {
		case unicode.IsSpace(r):
			space = len(out) > 0
			continue
		case r == utf8.RuneError || fsguard.UnsafeRune(r):
			continue
		}
		if space {
			out = append(out, ' ')
			space = false
		}
		out = append(out, r)
	}
	name := string(out)
	for len(name) > MaxNameBytes {
		_, size := utf8.DecodeLastRuneInString(name)
		name = name[:len(name)-size]
	}
	return name
}

// validEffort reports whether e is an effort word: 1..32 bytes of [a-z0-9_-].
func validEffort(e string) bool {
	if e == "" || len(e) > MaxEffortBytes {
		return false
	}
	for i := 0; i < len(e); i++ {
		c := e[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// validEfforts reports whether list holds at most 8 unique effort words.
func validEfforts(list []string) bool {
	if len(list) > MaxEfforts {
		return false
	}
	for i, e := range list {
		if !validEffort(e) {
			return false
		}
		for _, prev := range list[:i] {
			if prev == e {
				return false
			}
		}
	}
	return true
}
