// Package sessionstest generates session stores for tests and benchmarks:
// histories in docs/design.md's format with any number of records, record sizes,
// cwd mixes, legacy histories without cwd, malformed and oversized records,
// lock files and the entries that are never sessions. Large histories are
// streamed to disk through a small buffer, so a store of gigabytes costs
// the generator no memory.
package sessionstest

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// Epoch is the time of the first record of every generated history.
var Epoch = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// History describes one generated history file.
type History struct {
	// ID names the file <ID>.jsonl (Name overrides the whole file name).
	ID   string
	Name string
	// Cwds are recorded on the records in turn (record i gets
	// Cwds[i%len(Cwds)]); empty makes a legacy history without any cwd.
	Cwds []string
	// Records is how many records to write (a meta record, then user,
	// assistant and tool records in turn); 0 means 3.
	Records int
	// TextBytes pads every record's text to about this many bytes.
	TextBytes int
	// UserText is the first user record's text; Title, when set, adds a
	// title record at the end.
	UserText string
	Title    string
	// Start is the first record's time (Epoch when zero); each further
	// record is one second later.
	Start time.Time
	// Malformed appends a line that is not a JSON object.
	Malformed bool
	// OversizedBytes, when > 0, appends one record of exactly that many
	// bytes (its newline not counted).
	OversizedBytes int
	// Lock writes <ID>.lock renewed at LockRenewed (not written when zero).
	LockRenewed time.Time
}

// FileName is the history's file name.
func (h History) FileName() string {
	if h.Name != "" {
		return h.Name
	}
	return h.ID + ".jsonl"
}

// Write streams h into dir and returns the bytes written.
func Write(dir string, h History) (int64, error) {
	f, err := os.Create(filepath.Join(dir, h.FileName()))
	if err != nil {
		return 0, err
	}
	w := &countingWriter{w: bufio.NewWriterSize(f, 64<<10)}
	writeRecords(w, h)
	if err := w.flush(); err != nil {
		f.Close()
		return w.n, err
	}
	if err := f.Close(); err != nil {
		return w.n, err
	}
	if !h.LockRenewed.IsZero() {
		lock := fmt.Sprintf(`{"pid":4242,"renewed_at":%q}`, h.LockRenewed.UTC().Format(time.RFC3339Nano))
		if err := os.WriteFile(filepath.Join(dir, h.ID+".lock"), []byte(lock), 0o644); err != nil {
			return w.n, err
		}
	}
	return w.n, nil
}

func writeRecords(w *countingWriter, h History) {
	n := h.Records
	if n == 0 {
		n = 3
	}
	start := h.Start
	if start.IsZero() {
		start = Epoch
	}
	for i := range n {
		typ := recordType(i)
		fmt.Fprintf(w, `{"v":1,"type":%q,"ts":%q`, typ, start.Add(time.Duration(i)*time.Second).Format(time.RFC3339))
		if len(h.Cwds) > 0 {
			fmt.Fprintf(w, `,"cwd":%s`, quote(h.Cwds[i%len(h.Cwds)]))
		}
		text := fmt.Sprintf("record %d of %s", i, h.ID)
		if i == 1 && h.UserText != "" {
			text = h.UserText
		}
		w.WriteString(`,"text":` + quote(text))
		if pad := h.TextBytes - len(text); pad > 0 {
			w.seek(-1)
			padText(w, pad)
		}
		w.WriteString("}\n")
	}
	if h.Title != "" {
		fmt.Fprintf(w, `{"v":1,"type":"title","ts":%q,"title":%s}`+"\n", start.Add(time.Duration(n)*time.Second).Format(time.RFC3339), quote(h.Title))
	}
	if h.Malformed {
		w.WriteString("this line is not a JSON object\n")
	}
	if h.OversizedBytes > 0 {
		const prefix = `{"v":1,"type":"assistant","text":"`
		w.WriteString(prefix)
		padText(w, h.OversizedBytes-len(prefix)-len(`}`))
		w.WriteString("}\n")
	}
}

func recordType(i int) string {
	switch {
	case i == 0:
		return "meta"
	case i%3 == 1:
		return "user"
	case i%3 == 2:
		return "assistant"
	}
	return "tool"
}

// padText writes pad bytes of plain text and the closing quote. The text
// has words, escapes and a few multi-byte characters, like real replies.
func padText(w *countingWriter, pad int) {
	const chunk = `lorem ipsum \"dolor\" sit amet, consectetur — adipiscing elit\n `
	for pad > len(chunk)+1 {
		w.WriteString(chunk)
		pad -= len(chunk)
	}
	w.WriteString(strings.Repeat("x", max(pad-1, 0)))
	w.WriteString(`"`)
}

func quote(s string) string {
	b, err := wire.Marshal(s)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// countingWriter counts bytes and lets writeRecords take back the closing
// quote of a string it wants to extend.
type countingWriter struct {
	w       *bufio.Writer
	n       int64
	pending []byte
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.drain()
	c.pending = append(c.pending[:0], p...)
	return len(p), nil
}

func (c *countingWriter) WriteString(s string) { c.Write([]byte(s)) }

// seek drops the last n bytes of the latest write (n < 0).
func (c *countingWriter) seek(n int) { c.pending = c.pending[:len(c.pending)+n] }

func (c *countingWriter) drain() {
	if len(c.pending) > 0 {
		c.w.Write(c.pending)
		c.n += int64(len(c.pending))
		c.pending = c.pending[:0]
	}
}

func (c *countingWriter) flush() error {
	c.drain()
	return c.w.Flush()
}

// Home makes a backend home with an empty sessions/ store in a temporary
// directory and returns both paths.
func Home(t testing.TB) (home, store string) {
	t.Helper()
	home = t.TempDir()
	store = filepath.Join(home, "sessions")
	if err := os.Mkdir(store, 0o755); err != nil {
		t.Fatal(err)
	}
	return home, store
}

// MustWrite writes every history into dir and returns the bytes written.
func MustWrite(t testing.TB, dir string, hs ...History) int64 {
	t.Helper()
	var n int64
	for _, h := range hs {
		m, err := Write(dir, h)
		if err != nil {
			t.Fatal(err)
		}
		n += m
	}
	return n
}

// Many returns n histories named prefix-0000... recording cwd (legacy when
// cwd is ""), each like tmpl.
func Many(n int, prefix, cwd string, tmpl History) []History {
	out := make([]History, n)
	for i := range out {
		h := tmpl
		h.ID = fmt.Sprintf("%s-%04d", prefix, i)
		if cwd != "" {
			h.Cwds = []string{cwd}
		}
		h.Start = Epoch.Add(time.Duration(i) * time.Minute)
		out[i] = h
	}
	return out
}
