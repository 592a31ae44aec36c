package main

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"slices"
	"unsafe"

	"github.com/scoutdev/scout/tui/files"
)

// `scout filter --stdin` is a one-shot process: it reads its candidates,
// ranks them once and exits. So it reads standard input into one buffer (the
// file's size when stdin is a regular file, else doubling), takes the
// lines as strings sharing that buffer instead of a copy of it, and runs
// without the garbage collector until memory nears a limit: what it
// allocates lives until it exits anyway, and collecting cost a fifth of
// its time at a million lines.

// oneShotMemory is the heap size at which `scout filter`'s collector
// runs: well above what ranking a million paths holds (its input, one
// string header a line, a match and its sort key a match).
const oneShotMemory = 1 << 30

// oneShotGC turns the collector off until the heap nears max(limit,
// oneShotMemory).
func oneShotGC(limit int) {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(int64(max(limit, oneShotMemory)))
}

// readInput reads r to its end into one buffer.
func readInput(r io.Reader) ([]byte, error) {
	size := 64 << 10
	if f, ok := r.(*os.File); ok {
		if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
			size = int(fi.Size()) + 1 // one more, to read the end without growing
		}
	}
	buf := make([]byte, 0, size)
	for {
		if len(buf) == cap(buf) {
			buf = slices.Grow(buf, cap(buf))
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		switch {
		case err == io.EOF:
			return buf, nil
		case err != nil:
			return nil, err
		}
	}
}

// readCandidates reads the candidates of `scout filter --stdin` as
// files.ReadLines splits them (files.SplitLines), but from one buffer
// that the lines share and nothing writes again.
func readCandidates(r io.Reader, sep byte) ([]string, error) {
	data, err := readInput(r)
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	oneShotGC(4 * len(data))
	lines, long := files.SplitLines(unsafe.String(unsafe.SliceData(data), len(data)), sep)
	if long {
		return nil, files.ErrLongLine
	}
	return lines, nil
}
