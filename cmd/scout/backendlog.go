package main

import (
	"io"
	"os"
	"path/filepath"
)

// backendLogMax is the size from which the backend log starts over.
const backendLogMax = 1 << 20

// backendLog opens where the backend child's stderr goes while the picker
// runs, so its diagnostics never draw over the interface:
// $XDG_STATE_HOME/scout/backend.log (default ~/.local/state/scout/backend.log),
// appended to, started over once it passes 1 MiB, created 0600. When it
// cannot be opened the diagnostics are discarded.
func backendLog() (io.Writer, func()) {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return io.Discard, func() {}
		}
		dir = filepath.Join(home, ".local", "state")
	}
	dir = filepath.Join(dir, "scout")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return io.Discard, func() {}
	}
	name := filepath.Join(dir, "backend.log")
	flags := os.O_CREATE | os.O_WRONLY | os.O_APPEND
	if st, err := os.Stat(name); err == nil && st.Size() > backendLogMax {
		flags |= os.O_TRUNC
	}
	f, err := os.OpenFile(name, flags, 0o600)
	if err != nil {
		return io.Discard, func() {}
	}
	return f, func() { f.Close() }
}

// alsoTo is the backend child's stderr when its diagnostics go to a log
// and somewhere else too. It never fails: a log that cannot be written
// (a full disk) must not end the copy of the child's stderr, which would
// leave the child writing into a closed pipe.
type alsoTo struct{ log, diags io.Writer }

func (a alsoTo) Write(p []byte) (int, error) {
	_, _ = a.log.Write(p)
	_, _ = a.diags.Write(p)
	return len(p), nil
}
