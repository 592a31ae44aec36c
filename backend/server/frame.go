package server

import (
	"bufio"
	"errors"
	"io"

	"github.com/scoutdev/scout/backend/wire"
)

// frameReader reads newline-terminated frames of at most wire.MaxFrameBytes
// bytes (newline included). A longer line is read and discarded in bounded
// memory up to its newline and reported as oversized.
type frameReader struct {
	r *bufio.Reader
}

func newFrameReader(r io.Reader) *frameReader {
	return newFrameReaderSize(r, wire.MaxFrameBytes)
}

// newFrameReaderSize reads frames of at most max bytes, newline included
// (max is at least 16, bufio's smallest buffer); the fuzz target uses small
// bounds to reach them.
func newFrameReaderSize(r io.Reader, max int) *frameReader {
	return &frameReader{r: bufio.NewReaderSize(r, max)}
}

// next returns the next frame without its newline. A final line without a
// newline before EOF is returned as a frame too. At end of input it returns
// io.EOF. The returned slice is a copy the caller may keep.
func (f *frameReader) next() (line []byte, oversized bool, err error) {
	chunk, err := f.r.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		return nil, true, f.discardLine()
	}
	if len(chunk) == 0 && err != nil {
		return nil, false, err
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, false, err
	}
	if chunk[len(chunk)-1] == '\n' {
		chunk = chunk[:len(chunk)-1]
	}
	return append([]byte(nil), chunk...), false, nil
}

// discardLine drops the rest of an oversized line. It returns nil when the
// newline was found and io.EOF (or the read error) when input ended first; the
// oversized line is answered either way.
func (f *frameReader) discardLine() error {
	for {
		_, err := f.r.ReadSlice('\n')
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return nil // answered now; the next call reports EOF
		default:
			return err
		}
	}
}
