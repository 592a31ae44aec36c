package config

import (
	"fmt"
)

// File roles, used in errors instead of paths.
const (
	UserFile    = "config.toml"
	ProjectFile = ".scout/config.toml"
	TrustFile   = "trusted.json"
)

// Error is a configuration problem, safe to log: File is a role name, Key a
// key path like "providers[2].type", Line is set for syntax errors.
type Error struct {
	File string
	Line int
	Key  string
	Msg  string
}

func (e *Error) Error() string {
	s := e.File
	if e.Line > 0 {
		s += fmt.Sprintf(": line %d", e.Line)
	}
	if e.Key != "" {
		s += ": " + e.Key
	}
	return s + ": " + e.Msg
}

// printableKey matches key names that may be echoed in an error; others
// are described, not quoted, because they are file content.
// (A loop, not a regular expression: compiling one cost every process
// start.)
func printableKey(k string) bool {
	if len(k) == 0 || len(k) > 64 {
		return false
	}
	for i := 0; i < len(k); i++ {
		if c := k[i]; !(envByte(c) || c == '-') {
			return false
		}
	}
	return true
}

func keyName(k string) string {
	if printableKey(k) {
		return k
	}
	return "(an unprintable key)"
}
