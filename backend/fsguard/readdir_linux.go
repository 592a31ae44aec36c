package fsguard

import (
	"bytes"
	"encoding/binary"
	"io/fs"
	"sync"

	"golang.org/x/sys/unix"
)

// direntBufSize is the getdents64 buffer: 32 KiB holds about 1,000 typical
// names, so a 60,000-entry directory costs 60 system calls. Buffers are
// pooled because a scan opens thousands of directories.
const direntBufSize = 32 << 10

var direntBufs = sync.Pool{New: func() any { b := make([]byte, direntBufSize); return &b }}

// dirReader holds the unconsumed part of the last getdents64 result.
type dirReader struct {
	buf      *[]byte
	pos, end int
}

// Offsets in struct linux_dirent64: d_ino u64, d_off s64, d_reclen u16,
// d_type u8, d_name.
const (
	direntReclen = 16
	direntType   = 18
	direntName   = 19
)

// Scan calls fn for each entry in OS order ("." and ".." left out), until
// the directory is exhausted or fn returns false; the entries after that one
// are kept for the next Scan or ReadEntries. name is valid only during the
// call (copy it to keep it). typ is as in Entry. This is the allocation-free
// path a directory walk uses; ReadEntries is built on it.
func (d *Dir) Scan(fn func(name []byte, typ fs.FileMode) bool) error {
	if d.fd < 0 {
		return kindErr(ErrClosed)
	}
	if d.rd == nil {
		d.rd = &dirReader{buf: direntBufs.Get().(*[]byte)}
	}
	rd := d.rd
	for !d.eof {
		if rd.pos >= rd.end {
			n, err := getdents(d.fd, *rd.buf)
			if err != nil {
				return mapErr(err)
			}
			if n <= 0 {
				d.eof = true
				// Nothing more to read: the buffer serves the next
				// directory, though this one stays open (a walk holds
				// parents open for their children).
				d.releaseReader()
				return nil
			}
			rd.pos, rd.end = 0, n
		}
		for rd.pos < rd.end {
			rec := (*rd.buf)[rd.pos:rd.end]
			reclen := int(binary.NativeEndian.Uint16(rec[direntReclen:]))
			if reclen < direntName || reclen > len(rec) {
				return kindErr(ErrUnsafe) // a malformed record: stop reading
			}
			rd.pos += reclen
			name := rec[direntName:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			if binary.NativeEndian.Uint64(rec) == 0 || isDots(name) {
				continue
			}
			typ, ok := d.direntType(rec[direntType], name)
			if ok && !fn(name, typ) {
				return nil
			}
		}
	}
	return nil
}

// direntType maps d_type to type bits, resolving DT_UNKNOWN with fstatat.
// ok is false when the entry vanished in between.
func (d *Dir) direntType(t byte, name []byte) (fs.FileMode, bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	var st unix.Stat_t
	if err := fstatat(d.fd, string(name), &st); err != nil {
		if err == unix.ENOENT {
			return 0, false
		}
		return fs.ModeIrregular, true
	}
	return modeFromUnix(uint32(st.Mode)).Type(), true
}

func (d *Dir) releaseReader() {
	if d.rd != nil {
		direntBufs.Put(d.rd.buf)
		d.rd = nil
	}
}

func isDots(name []byte) bool {
	return len(name) >= 1 && len(name) <= 2 && name[0] == '.' && (len(name) == 1 || name[1] == '.')
}

func getdents(fd int, buf []byte) (int, error) {
	for {
		n, err := unix.Getdents(fd, buf)
		if err != unix.EINTR {
			return n, err
		}
	}
}
