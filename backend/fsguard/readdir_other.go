//go:build !linux

package fsguard

import (
	"io"
	"io/fs"
	"os"

	"golang.org/x/sys/unix"
)

// dirReader on systems without getdents64: names come from a duplicate of
// the descriptor through os.File.Readdirnames (which never touches paths)
// and every type from fstatat relative to the directory.
type dirReader struct {
	f     *os.File
	names []string
}

// Scan calls fn for each entry in OS order until the directory is exhausted
// or fn returns false; see the Linux implementation for the contract.
func (d *Dir) Scan(fn func(name []byte, typ fs.FileMode) bool) error {
	if d.fd < 0 {
		return kindErr(ErrClosed)
	}
	if d.rd == nil {
		fd, err := unix.Dup(d.fd)
		if err != nil {
			return mapErr(err)
		}
		d.rd = &dirReader{f: os.NewFile(uintptr(fd), "fsguard-dir")}
	}
	for !d.eof {
		if len(d.rd.names) == 0 {
			names, err := d.rd.f.Readdirnames(256)
			if err == io.EOF {
				d.eof = true
				return nil
			}
			if err != nil {
				return kindErr(ErrUnsafe)
			}
			d.rd.names = names
		}
		name := d.rd.names[0]
		d.rd.names = d.rd.names[1:]
		var st unix.Stat_t
		if err := fstatat(d.fd, name, &st); err != nil {
			continue
		}
		if !fn([]byte(name), modeFromUnix(uint32(st.Mode)).Type()) {
			return nil
		}
	}
	return nil
}

func (d *Dir) releaseReader() {
	if d.rd != nil {
		d.rd.f.Close()
		d.rd = nil
	}
}
