package rpcclient

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// pipeBytes is the room asked for in the pipe the child writes its lines
// into: one project.index page (a line of up to 1 MiB) fits whole, so the
// child writes it in one go instead of waking this process, and waiting
// for it, for every 64 KiB (Linux's default room), sixteen times a page.
// 1 MiB is also Linux's default ceiling for an unprivileged process
// (/proc/sys/fs/pipe-max-size).
var pipeBytes = maxResultLine

// widenPipe asks for pipeBytes of room in the pipe behind r, if it is one;
// a refusal leaves the default, which works the same, only slower.
func widenPipe(r io.Reader) {
	sc, ok := r.(syscall.Conn)
	if !ok {
		return
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return
	}
	_ = raw.Control(func(fd uintptr) {
		_, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeBytes)
	})
}
