package fsguard

import (
	"io"

	"golang.org/x/sys/unix"
)

// Readable reports whether the process may read the child name of d: read
// permission for a file, read and search permission for a directory
// (faccessat(2) relative to d, so nothing is opened). Callers that hand out
// ids or content use it to leave out what they could not serve; it is a
// hint taken at one moment, and the later open is still checked.
func (d *Dir) Readable(name string, dir bool) bool {
	if d.fd < 0 || !SafeName(name) {
		return false
	}
	mode := uint32(unix.R_OK)
	if dir {
		mode |= unix.X_OK
	}
	for {
		err := unix.Faccessat(d.fd, name, mode, 0)
		if err != unix.EINTR {
			return err == nil
		}
	}
}

// Rewind makes the next Scan or ReadEntries start again from the first
// entry of the directory.
func (d *Dir) Rewind() error {
	if d.fd < 0 {
		return kindErr(ErrClosed)
	}
	if _, err := unix.Seek(d.fd, 0, io.SeekStart); err != nil {
		return mapErr(err)
	}
	d.releaseReader()
	d.eof = false
	return nil
}
