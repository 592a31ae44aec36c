package fsguard

import (
	"io/fs"
	"time"

	"golang.org/x/sys/unix"
)

// Info is what fstat and fstatat report about one entry, enough to build a
// validation signature (identity, type and permissions, size, times).
type Info struct {
	Dev        uint64
	Ino        uint64
	Mode       fs.FileMode // type bits and permissions, as in fs.FileMode
	Nlink      uint64
	Size       int64
	ModTime    time.Time
	ChangeTime time.Time
}

// SameFile reports whether a and b describe the same file (device and inode).
func (a Info) SameFile(b Info) bool { return a.Dev == b.Dev && a.Ino == b.Ino }

// IsDir reports whether the entry is a directory.
func (a Info) IsDir() bool { return a.Mode.IsDir() }

// IsRegular reports whether the entry is a regular file.
func (a Info) IsRegular() bool { return a.Mode.IsRegular() }

func infoFromStat(st *unix.Stat_t) Info {
	return Info{
		Dev:        uint64(st.Dev),
		Ino:        uint64(st.Ino),
		Mode:       modeFromUnix(uint32(st.Mode)),
		Nlink:      uint64(st.Nlink),
		Size:       st.Size,
		ModTime:    time.Unix(st.Mtim.Unix()),
		ChangeTime: time.Unix(st.Ctim.Unix()),
	}
}

// modeFromUnix converts st_mode to an fs.FileMode the way package os does.
func modeFromUnix(m uint32) fs.FileMode {
	mode := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFBLK:
		mode |= fs.ModeDevice
	case unix.S_IFCHR:
		mode |= fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFDIR:
		mode |= fs.ModeDir
	case unix.S_IFIFO:
		mode |= fs.ModeNamedPipe
	case unix.S_IFLNK:
		mode |= fs.ModeSymlink
	case unix.S_IFSOCK:
		mode |= fs.ModeSocket
	}
	if m&unix.S_ISGID != 0 {
		mode |= fs.ModeSetgid
	}
	if m&unix.S_ISUID != 0 {
		mode |= fs.ModeSetuid
	}
	if m&unix.S_ISVTX != 0 {
		mode |= fs.ModeSticky
	}
	return mode
}

// fileInfo adapts Info to fs.FileInfo for Root.Lstat.
type fileInfo struct {
	name string
	info Info
}

func (fi *fileInfo) Name() string       { return fi.name }
func (fi *fileInfo) Size() int64        { return fi.info.Size }
func (fi *fileInfo) Mode() fs.FileMode  { return fi.info.Mode }
func (fi *fileInfo) ModTime() time.Time { return fi.info.ModTime }
func (fi *fileInfo) IsDir() bool        { return fi.info.IsDir() }
func (fi *fileInfo) Sys() any           { return &fi.info }
