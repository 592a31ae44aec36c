package files

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
)

// Lines are candidates read from a stream (the picker's or `scout
// filter --stdin`'s standard input) while the picker runs: a goroutine
// reads, the page takes what was read so far whenever it is ready for
// more, so a slow producer's first lines are shown at once and a fast
// one's arrive in large batches.
//
// A candidate is a line as read, without its separator (a newline, or NUL
// with --read0); in newline mode a CR before the newline is dropped
// (files written on Windows). Empty lines are skipped. A line longer than
// MaxLineBytes ends the reading with an error; the lines before it stay.
type Lines struct {
	mu    sync.Mutex
	batch []string // read since the last Take
	total int
	done  bool
	err   error
	ready chan struct{} // holds a token while there is something to take
}

// MaxLineBytes bounds one candidate line.
const MaxLineBytes = 1 << 20

// readBlock is how much is read at a time; the lines of a block share its
// one string.
const readBlock = 64 << 10

// ReadLines starts reading r, split at sep ('\n' or 0), in a goroutine
// of its own that ends with r.
func ReadLines(r io.Reader, sep byte) *Lines {
	l := &Lines{ready: make(chan struct{}, 1)}
	go l.read(r, sep)
	return l
}

// Take waits until lines were read since the last Take or the reading
// ended, and returns those lines, whether the reading ended, and why it
// failed (nil at the end of the input).
func (l *Lines) Take() (batch []string, done bool, err error) {
	<-l.ready
	l.mu.Lock()
	defer l.mu.Unlock()
	batch, l.batch = l.batch, nil
	if l.done {
		l.signal() // the end stays takeable
	}
	return batch, l.done, l.err
}

// All waits for the end of the input and returns every line not taken
// yet.
func (l *Lines) All() ([]string, error) {
	var all []string
	for {
		batch, done, err := l.Take()
		all = append(all, batch...)
		if done {
			return all, err
		}
	}
}

func (l *Lines) signal() {
	select {
	case l.ready <- struct{}{}:
	default:
	}
}

func (l *Lines) push(lines []string, done bool, err error) {
	l.mu.Lock()
	l.batch = append(l.batch, lines...)
	l.total += len(lines)
	l.done, l.err = done, err
	l.mu.Unlock()
	if len(lines) > 0 || done {
		l.signal()
	}
}

func (l *Lines) read(r io.Reader, sep byte) {
	var tail []byte // the start of a line no block has ended yet
	buf := make([]byte, readBlock)
	for {
		n, err := r.Read(buf)
		var lines []string
		long := false
		if end := bytes.LastIndexByte(buf[:n], sep) + 1; end > 0 {
			// One string for the lines this block ends; the tail grows
			// in place while a long line arrives in small reads.
			lines, long = SplitLines(string(append(tail, buf[:end]...)), sep)
			tail = append(tail[:0], buf[end:n]...)
		} else {
			tail = append(tail, buf[:n]...)
		}
		if long || len(tail) > MaxLineBytes {
			l.push(lines, true, ErrLongLine)
			return
		}
		if err != nil {
			last, long := SplitLines(string(tail), sep)
			if long {
				l.push(lines, true, ErrLongLine)
				return
			}
			lines = append(lines, last...)
			if errors.Is(err, io.EOF) {
				err = nil
			} else {
				err = fmt.Errorf("reading standard input: %w", err)
			}
			l.push(lines, true, err)
			return
		}
		l.push(lines, false, nil)
	}
}

// ErrLongLine is the error of a line over MaxLineBytes.
var ErrLongLine = fmt.Errorf("reading standard input: a line is longer than %d bytes", MaxLineBytes)

// SplitLines cuts s into its non-empty lines at sep (a trailing
// separator ends the last one; in newline mode a CR before the newline is
// dropped). The lines share s. long reports a line over MaxLineBytes: the
// lines before it are returned.
func SplitLines(s string, sep byte) (out []string, long bool) {
	out = make([]string, 0, strings.Count(s, string(sep))+1)
	for rest := s; rest != ""; {
		line, tail, _ := strings.Cut(rest, string(sep))
		if len(line) > MaxLineBytes {
			return out, true
		}
		if sep == '\n' {
			line = strings.TrimSuffix(line, "\r")
		}
		if line != "" {
			out = append(out, line)
		}
		rest = tail
	}
	return out, false
}
