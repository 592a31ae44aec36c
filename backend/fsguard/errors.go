package fsguard

import (
	"errors"
	"syscall"
)

// The kinds of failure callers map to protocol codes. Every error this
// package returns is one of these (errors.Is) or a bare errno kind; none
// carries a path or a file name.
var (
	// ErrNotFound: the entry does not exist (also errors.Is fs.ErrNotExist).
	ErrNotFound = errors.New("fsguard: not found")
	// ErrUnsafe: a symlink, a special file, an unsafe name or a path that
	// would leave the root.
	ErrUnsafe = errors.New("fsguard: unsafe entry")
	// ErrTooLarge: a file is larger than the caller's bound.
	ErrTooLarge = errors.New("fsguard: file too large")
	// ErrNotDir: a directory was expected.
	ErrNotDir = errors.New("fsguard: not a directory")
	// ErrClosed: the Root or Dir was already closed.
	ErrClosed = errors.New("fsguard: already closed")
)

// guardError is a sentinel kind plus the errno it came from, so callers can
// ask errors.Is(err, fs.ErrPermission) as well as errors.Is(err, ErrUnsafe).
// Its text is the kind's or the errno's, never a path.
type guardError struct {
	kind  error         // one of the sentinels, or nil
	errno syscall.Errno // 0 when the kind was decided without an OS error
}

func (e *guardError) Error() string {
	switch {
	case e.kind != nil && e.errno != 0:
		return e.kind.Error() + " (" + e.errno.Error() + ")"
	case e.kind != nil:
		return e.kind.Error()
	default:
		return "fsguard: " + e.errno.Error()
	}
}

func (e *guardError) Is(target error) bool {
	if e.kind != nil && target == e.kind {
		return true
	}
	return e.errno != 0 && (target == e.errno || e.errno.Is(target))
}

// kindErr is a sentinel kind with no OS error behind it.
func kindErr(kind error) error { return &guardError{kind: kind} }

// mapErr turns an error from a system call into a guarded error. Errors that
// are not errnos (they do not occur from the calls used here) become a
// generic error without their text, which might hold a path.
func mapErr(err error) error {
	if err == nil {
		return nil
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return errors.New("fsguard: i/o error")
	}
	switch errno {
	case syscall.ENOENT:
		return &guardError{kind: ErrNotFound, errno: errno}
	case syscall.ELOOP, syscall.ENXIO, syscall.ENAMETOOLONG, syscall.EXDEV:
		return &guardError{kind: ErrUnsafe, errno: errno}
	case syscall.ENOTDIR:
		return &guardError{kind: ErrNotDir, errno: errno}
	case syscall.EFBIG:
		return &guardError{kind: ErrTooLarge, errno: errno}
	}
	return &guardError{errno: errno}
}
