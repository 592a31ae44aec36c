package sessions

import (
	"errors"
	"path/filepath"
)

// ResolveHome returns the backend home by the rule of DESIGN.md: SCOUT_HOME,
// else $XDG_DATA_HOME/scout, else $HOME/.local/share/scout. A relative value
// is made absolute against the working directory. It fails only when none of
// the variables is set.
//
// It lives here until a shared configuration package exists; it reads only
// the environment, never the disk.
func ResolveHome(getenv func(string) string) (string, error) {
	var dir string
	switch {
	case getenv("SCOUT_HOME") != "":
		dir = getenv("SCOUT_HOME")
	case getenv("XDG_DATA_HOME") != "":
		dir = filepath.Join(getenv("XDG_DATA_HOME"), "scout")
	case getenv("HOME") != "":
		dir = filepath.Join(getenv("HOME"), ".local", "share", "scout")
	default:
		return "", errors.New("sessions: no SCOUT_HOME, XDG_DATA_HOME or HOME")
	}
	return filepath.Abs(dir)
}
