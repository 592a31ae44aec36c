// Package spawn starts a backend child process: in its own process group,
// with its standard input and output as pipes (the output's widened for a
// whole page) and its diagnostics sent to a writer. rpcclient starts every
// child through it; the picker (cmd/scout/internal/early) starts its first
// child through it from an init, before most of the program has
// initialized, so this package imports nothing but the standard library
// and golang.org/x/sys.
package spawn

import (
	"errors"
	"io"
	"os/exec"
	"syscall"
	"time"
)

// PipeBytes is the room asked for in the pipe the child writes its lines
// into: one project.index page (a line of up to 1 MiB) fits whole, so the
// child writes it in one go instead of waking the reader, and waiting for
// it, for every 64 KiB (Linux's default room), sixteen times a page. 1 MiB
// is also Linux's default ceiling for an unprivileged process
// (/proc/sys/fs/pipe-max-size).
const PipeBytes = 1 << 20

// Process is a started child and its pipes.
type Process struct {
	Cmd    *exec.Cmd
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
}

// Start starts exe with args in dir ("" = ours) with env (nil = ours), its
// stderr written to stderr.
func Start(exe string, args []string, dir string, env []string, stderr io.Writer) (*Process, error) {
	cmd := exec.Command(exe, args...)
	cmd.Dir = dir
	cmd.Env = env
	cmd.Stderr = stderr
	// Its own process group: the terminal's signals (Ctrl-C) go to the
	// frontend only, and a kill reaches anything the child started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// After the child exits, stop waiting for pipes a leftover process may
	// still hold.
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	widenPipe(stdout)
	if err := cmd.Start(); err != nil {
		return nil, errors.New("cannot start the scout backend: " + describeStartError(err))
	}
	return &Process{Cmd: cmd, Stdin: stdin, Stdout: stdout}, nil
}

func describeStartError(err error) string {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err.Error()
	}
	return "the process could not be started"
}

// Stop kills the child's process group and waits for it.
func (p *Process) Stop() {
	_ = syscall.Kill(-p.Cmd.Process.Pid, syscall.SIGKILL)
	_ = p.Cmd.Process.Kill()
	_ = p.Cmd.Wait()
}
