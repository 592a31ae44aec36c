package spawn

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestWidenPipe: the pipe a child writes into gets room for a whole
// project.index page, and the file stays as it was (non-blocking reads
// through the runtime's poller: Close still ends a read in progress).
func TestWidenPipe(t *testing.T) {
	t.Parallel()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	widenPipe(r)
	raw, err := r.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	size, flags := 0, 0
	if err := raw.Control(func(fd uintptr) {
		size, _ = unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0)
		flags, _ = unix.FcntlInt(fd, unix.F_GETFL, 0)
	}); err != nil {
		t.Fatal(err)
	}
	if size < PipeBytes {
		t.Errorf("pipe room %d bytes, want %d", size, PipeBytes)
	}
	if flags&unix.O_NONBLOCK == 0 {
		t.Error("the pipe was made blocking")
	}
	done := make(chan error)
	go func() { _, err := r.Read(make([]byte, 1)); done <- err }()
	r.Close()
	if err := <-done; err == nil {
		t.Error("a read went on after Close")
	}
}
