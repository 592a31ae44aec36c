package spawn

import (
	"io"
	"syscall"

	"golang.org/x/sys/unix"
)

// widenPipe asks for PipeBytes of room in the pipe behind r, if it is one;
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
		_, _ = unix.FcntlInt(fd, unix.F_SETPIPE_SZ, PipeBytes)
	})
}
