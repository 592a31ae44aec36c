package files

import (
	"bytes"
	"io"
	"slices"
	"strings"
	"testing"
	"testing/iotest"
)

// referenceLines is what ReadLines must return for data: the non-empty
// parts between separators, less one CR at the end in newline mode, and
// an error when a part is over MaxLineBytes (the parts before it kept).
func referenceLines(data string, sep byte) ([]string, bool) {
	var out []string
	for _, part := range strings.Split(data, string(sep)) {
		if len(part) > MaxLineBytes {
			return out, true
		}
		if sep == '\n' {
			part = strings.TrimSuffix(part, "\r")
		}
		if part != "" {
			out = append(out, part)
		}
	}
	return out, false
}

// chunked reads r n bytes at a time at most, as a pipe may.
type chunked struct {
	r io.Reader
	n int
}

func (c chunked) Read(p []byte) (int, error) { return c.r.Read(p[:min(len(p), c.n)]) }

func checkLines(t *testing.T, data string, sep byte, r io.Reader) {
	t.Helper()
	got, err := ReadLines(r, sep).All()
	want, long := referenceLines(data, sep)
	if long != (err != nil) {
		t.Fatalf("error %v, want a long-line error: %v", err, long)
	}
	if !long && !slices.Equal(got, want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
	if long && !slices.Equal(got, want[:min(len(got), len(want))]) {
		t.Fatalf("lines before the long one %q, want a prefix of %q", got, want)
	}
}

func TestReadLines(t *testing.T) {
	t.Parallel()
	for _, data := range []string{
		"", "\n", "a", "a\n", "a\r\nb\r\n", "a\r\r\n", "\n\nx\n\n", "one two\nthree",
		strings.Repeat("line\n", 50000), strings.Repeat("x", readBlock+3) + "\ny",
	} {
		for _, sep := range []byte{'\n', 0} {
			d := data
			if sep == 0 {
				d = strings.ReplaceAll(data, "\n", "\x00")
			}
			checkLines(t, d, sep, strings.NewReader(d))
			checkLines(t, d, sep, iotest.OneByteReader(strings.NewReader(d)))
		}
	}
}

func TestReadLinesLongLine(t *testing.T) {
	t.Parallel()
	long := "ok\n" + strings.Repeat("x", MaxLineBytes+1) + "\nafter\n"
	got, err := ReadLines(strings.NewReader(long), '\n').All()
	if err == nil || !strings.Contains(err.Error(), "longer than") || !slices.Equal(got, []string{"ok"}) {
		t.Fatalf("%q, %v", got, err)
	}
	// Without a separator at all, the reading stops at the bound too.
	got, err = ReadLines(io.LimitReader(neverEnding('x'), MaxLineBytes*3), '\n').All()
	if err == nil || len(got) != 0 {
		t.Fatalf("%d lines, %v", len(got), err)
	}
}

type neverEnding byte

func (b neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(b)
	}
	return len(p), nil
}

func TestReadLinesFailure(t *testing.T) {
	t.Parallel()
	r := io.MultiReader(strings.NewReader("a\nb"), iotest.ErrReader(io.ErrUnexpectedEOF))
	got, err := ReadLines(r, '\n').All()
	if err == nil || !slices.Equal(got, []string{"a", "b"}) {
		t.Fatalf("%q, %v", got, err)
	}
}

// FuzzReadLines holds the streaming reader to the reference split, for
// any bytes and any chunking (standard input is whatever a producer
// writes). docs/hostile.md lists it.
func FuzzReadLines(f *testing.F) {
	f.Add([]byte("a\r\nb\n\nc"), uint8(1), false)
	f.Add([]byte("x\x00y\x00\x00"), uint8(3), true)
	f.Fuzz(func(t *testing.T, data []byte, chunk uint8, nul bool) {
		sep := byte('\n')
		if nul {
			sep = 0
		}
		checkLines(t, string(data), sep, chunked{bytes.NewReader(data), int(chunk) + 1})
	})
}
