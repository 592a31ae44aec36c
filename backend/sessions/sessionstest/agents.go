package sessionstest

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// This file holds what the generators of the other agents' stores share
// (claude.go, codex.go, gemini.go): streamed files, a clock, ids.

// writeFile creates path (and its directories) and streams body into it
// through a small buffer, so a history of gigabytes costs no memory.
func writeFile(path string, body func(w *countingWriter)) (int64, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return 0, err
	}
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	w := &countingWriter{w: bufio.NewWriterSize(f, 64<<10)}
	body(w)
	if err := w.flush(); err != nil {
		f.Close()
		return w.n, err
	}
	return w.n, f.Close()
}

// clock hands out the times of a history's records, one second apart, in
// the form the agents write (RFC 3339, UTC, milliseconds).
type clock struct {
	t time.Time
}

func newClock(start time.Time) *clock {
	if start.IsZero() {
		start = Epoch
	}
	return &clock{t: start}
}

// peek is the next record's time without using it.
func (c *clock) peek() string { return c.t.UTC().Format("2006-01-02T15:04:05.000Z") }

// next is the next record's time.
func (c *clock) next() string {
	s := c.peek()
	c.t = c.t.Add(time.Second)
	return s
}

// uuids hands out UUID-shaped ids derived from a seed, the same for the
// same seed, so fixtures are reproducible.
type uuids struct {
	seed string
	n    uint64
}

func newUUIDs(seed string) *uuids { return &uuids{seed: seed} }

func (u *uuids) next() string {
	u.n++
	return UUID(fmt.Sprintf("%s/%d", u.seed, u.n))
}

// UUID is a version-4-shaped UUID derived from seed.
func UUID(seed string) string {
	sum := sha256.Sum256([]byte(seed))
	a := binary.BigEndian.Uint32(sum[0:])
	b := binary.BigEndian.Uint16(sum[4:])
	c := binary.BigEndian.Uint16(sum[6:])&0x0fff | 0x4000
	d := binary.BigEndian.Uint16(sum[8:])&0x3fff | 0x8000
	e := binary.BigEndian.Uint64(sum[10:]) >> 16
	return fmt.Sprintf("%08x-%04x-%04x-%04x-%012x", a, b, c, d, e)
}

// padString writes text as a JSON string literal padded with reply-like
// text to about n bytes (quotes included; never shorter than text).
func padString(w *countingWriter, text string, n int) {
	lit := quote(text)
	if n <= len(lit) {
		w.WriteString(lit)
		return
	}
	w.WriteString(lit[:len(lit)-1])
	padText(w, n-(len(lit)-1))
}
