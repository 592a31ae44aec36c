// Command cputime runs a command and reports its wall time and the CPU
// time of every process it started, daemons included. It makes itself a
// child subreaper (prctl PR_SET_CHILD_SUBREAPER), so a process that
// detaches (the tmux server of an end-to-end test, and the scout running
// in its pane) is reparented to it, waited for and counted; /usr/bin/time
// counts only the children the command itself waited for.
//
//	cputime go test -race -count=1 ./cmd/scout
//
// It prints one line on stderr after the command and everything it left
// behind have exited, and exits with the command's status.
package main

import (
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: cputime COMMAND [ARG...]")
		os.Exit(2)
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		fmt.Fprintln(os.Stderr, "cputime:", err)
		os.Exit(2)
	}
	start := time.Now()
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := cmd.Start(); err != nil {
		fmt.Fprintln(os.Stderr, "cputime:", err)
		os.Exit(2)
	}
	status := reap(cmd.Process.Pid)
	fmt.Fprintln(os.Stderr, report(start, status))
	os.Exit(status)
}

// reap waits for every child, the adopted ones too, until none is left,
// and returns the exit status of the command (process pid).
func reap(pid int) int {
	code := 0
	for {
		var ws syscall.WaitStatus
		got, err := syscall.Wait4(-1, &ws, 0, nil)
		if err != nil { // ECHILD: nothing left
			return code
		}
		if got == pid {
			code = ws.ExitStatus()
			if ws.Signaled() {
				code = 128 + int(ws.Signal())
			}
		}
	}
}

// report is the line printed at the end.
func report(start time.Time, status int) string {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	user, sys := time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
	return fmt.Sprintf("cputime: wall %.1f s, user %.1f s, sys %.1f s, cpu %.1f s, exit %d",
		time.Since(start).Seconds(), user.Seconds(), sys.Seconds(), (user + sys).Seconds(), status)
}
