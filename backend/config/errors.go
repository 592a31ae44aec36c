package config

import (
	"fmt"
	"regexp"
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
var printableKey = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

func keyName(k string) string {
	if printableKey.MatchString(k) {
		return k
	}
	return "(an unprintable key)"
}
