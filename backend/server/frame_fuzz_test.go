package server

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

// chunkReader returns its data a few bytes per Read, like a client that
// writes a frame in pieces (or one byte at a time).
type chunkReader struct {
	data  []byte
	chunk int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	if len(c.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), c.chunk)], c.data)
	c.data = c.data[n:]
	return n, nil
}

type frame struct {
	line      string
	oversized bool
}

// FuzzFrameReader checks the client framing against a plain model: the
// input split at each newline, a line longer than the bound (newline
// included) reported as oversized with nothing of it kept, a last line
// without newline read as a frame, however the bytes arrive.
func FuzzFrameReader(f *testing.F) {
	f.Add([]byte("{\"a\":1}\n\n{}"), uint8(1), uint8(0))
	f.Add([]byte("0123456789abcdef\n0123456789abcde\n"), uint8(3), uint8(0))
	f.Add(bytes.Repeat([]byte("x"), 100), uint8(7), uint8(20))
	f.Fuzz(func(t *testing.T, data []byte, chunk, size uint8) {
		max := 16 + int(size)%64
		fr := newFrameReaderSize(&chunkReader{data: data, chunk: int(chunk)%7 + 1}, max)
		var got []frame
		for {
			line, oversized, err := fr.next()
			if err != nil {
				if !errors.Is(err, io.EOF) {
					t.Fatalf("error %v", err)
				}
				break
			}
			if oversized && line != nil {
				t.Fatal("an oversized frame kept bytes")
			}
			got = append(got, frame{string(line), oversized})
			if len(got) > len(data)+1 {
				t.Fatal("more frames than bytes")
			}
		}
		want := model(data, max)
		if len(got) != len(want) {
			t.Fatalf("%d frames, want %d: %+v vs %+v", len(got), len(want), got, want)
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("frame %d = %+v, want %+v", i, got[i], want[i])
			}
		}
	})
}

func model(data []byte, max int) []frame {
	var out []frame
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			out = append(out, frame{string(data), len(data) >= max})
			break
		}
		out = append(out, frame{string(data[:i]), i+1 > max})
		data = data[i+1:]
	}
	for i := range out {
		if out[i].oversized {
			out[i].line = ""
		}
	}
	return out
}
