// Package early starts the picker's backend child from its init, before
// most of the program has initialized: the child's process start and
// initialize then overlap the frontend's, lipgloss's colour detection
// among them (a package variable: inside tmux it runs `tmux info`). It
// does so only for a command line that opens the picker on the project's
// files with nothing else said (`scout` or `scout files`, standard input
// not a pipe or a file), and only the first backend the picker asks for
// takes the child (Take); one never taken ends with this process, its
// standard input closing. It imports nothing that would initialize
// lipgloss first (TestTheBackendStartsBeforeLipgloss).
package early

import (
	"io"
	"os"
	"sync"

	"github.com/scoutdev/scout/rpcclient/spawn"
)

var (
	mu     sync.Mutex
	child  *spawn.Process
	stderr *spawn.Relay
)

func init() {
	if !picker(os.Args[1:]) || StdinHasLines() {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		return // the picker starts its backend itself, and says why not
	}
	relay := &spawn.Relay{}
	if p, err := spawn.Start(exe, []string{"backend"}, "", nil, relay); err == nil {
		child, stderr = p, relay
	}
}

// picker reports whether args (the command line after the program) open
// the picker on the project's files with no flag.
func picker(args []string) bool {
	return len(args) == 0 || len(args) == 1 && args[0] == "files"
}

// StdinHasLines reports whether standard input is a pipe or a regular
// file: the picker then picks its lines, not the project's files.
func StdinHasLines() bool {
	fi, err := os.Stdin.Stat()
	return err == nil && (fi.Mode()&os.ModeNamedPipe != 0 || fi.Mode().IsRegular())
}

// Take returns the backend child started at init, its diagnostics from
// now on (and those it wrote already) sent to w, or nil when none was
// started or it was taken already. The child is `scout backend` in this
// process's working directory with its environment, as the picker
// starts one.
func Take(w io.Writer) *spawn.Process {
	mu.Lock()
	defer mu.Unlock()
	p := child
	if p != nil {
		stderr.Attach(w)
	}
	child, stderr = nil, nil
	return p
}
