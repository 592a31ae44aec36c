package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

func TestReadSliceLines(t *testing.T) {
	const text = "one\ntwo\nthree\nfour"
	cases := []struct {
		name       string
		in         string
		start, end int // 0: absent
		content    string
		total, ret int
		err        string
	}{
		{"whole", text, 0, 0, text, 4, 4, ""},
		{"middle", text, 2, 3, "two\nthree\n", 4, 2, ""},
		{"one line", text, 3, 3, "three\n", 4, 1, ""},
		{"last line without newline", text, 4, 0, "four", 4, 1, ""},
		{"end past the last line is the last line", text, 3, 99, "three\nfour", 4, 2, ""},
		{"start past the end", text, 5, 0, "", 0, 0, "line range past the end"},
		{"trailing newline", "a\nb\n", 0, 0, "a\nb\n", 2, 2, ""},
		{"trailing newline, line 3", "a\nb\n", 3, 0, "", 0, 0, "past the end"},
		{"empty lines", "\n\n\n", 2, 2, "\n", 3, 1, ""},
		{"empty file", "", 0, 0, "", 0, 0, ""},
		{"empty file from line 1", "", 1, 1, "", 0, 0, ""},
		{"empty file from line 2", "", 2, 0, "", 0, 0, "past the end"},
		{"CRLF kept", "a\r\nb\r\n", 2, 0, "b\r\n", 2, 1, ""},
		{"binary", "text\x00more", 0, 0, "", 0, 0, "binary file"},
		{"invalid UTF-8 replaced", "caf\xe9\n", 0, 0, "caf\uFFFD\n", 1, 1, ""},
	}
	for _, tc := range cases {
		res, err := readSlice(context.Background(), strings.NewReader(tc.in), max(tc.start, 1), tc.end)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.name, err, tc.err)
			}
			continue
		}
		if err != nil || res.Content != tc.content || res.TotalLines != tc.total || res.ReturnedLines != tc.ret || res.Bytes != len(tc.content) || res.Truncated {
			t.Errorf("%s: %+v, %v", tc.name, res, err)
		}
	}
}

func TestReadSliceBinaryProbe(t *testing.T) {
	late := strings.Repeat("a", 8192) + "\x00"
	if _, err := readSlice(context.Background(), strings.NewReader(late), 1, 0); err != nil {
		t.Errorf("a NUL after the first 8 KiB refused: %v", err)
	}
	early := strings.Repeat("a", 8191) + "\x00"
	if _, err := readSlice(context.Background(), strings.NewReader(early), 1, 0); err != errBinary {
		t.Errorf("a NUL at byte 8,192: %v", err)
	}
}

func TestReadSliceCap(t *testing.T) {
	line := func(i int) string { return fmt.Sprintf("line %06d %s\n", i, strings.Repeat("x", 88)) } // 101 bytes
	var b strings.Builder
	for i := 1; i <= 5000; i++ {
		b.WriteString(line(i))
	}
	text := b.String() // 505,000 bytes
	res, err := readSlice(context.Background(), strings.NewReader(text), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := len(text) - capBytes
	marker := fmt.Sprintf("…[%d bytes truncated]…", n)
	want := text[:keepBytes] + marker + text[len(text)-keepBytes:]
	if res.Content != want || !res.Truncated || res.Bytes != len(want) || res.TotalLines != 5000 || res.ReturnedLines != 5000 {
		t.Fatalf("cap: truncated %v bytes %d (want %d) lines %d/%d", res.Truncated, res.Bytes, len(want), res.TotalLines, res.ReturnedLines)
	}
	// The slice is taken first: lines 1001..3000 are 202,000 bytes, under
	// the cap; 1001..3100 are 212,100, over it.
	res, _ = readSlice(context.Background(), strings.NewReader(text), 1001, 3000)
	if res.Truncated || res.Content != text[1000*101:3000*101] || res.ReturnedLines != 2000 {
		t.Errorf("slice under the cap: truncated %v, %d bytes", res.Truncated, res.Bytes)
	}
	res, _ = readSlice(context.Background(), strings.NewReader(text), 1001, 3100)
	slice := text[1000*101 : 3100*101]
	want = slice[:keepBytes] + fmt.Sprintf("…[%d bytes truncated]…", len(slice)-capBytes) + slice[len(slice)-keepBytes:]
	if !res.Truncated || res.Content != want {
		t.Errorf("slice over the cap: truncated %v, %d bytes", res.Truncated, res.Bytes)
	}
	// Exactly at the cap nothing is cut.
	exact := strings.Repeat("y", capBytes)
	if res, _ := readSlice(context.Background(), strings.NewReader(exact), 1, 0); res.Truncated || res.Content != exact {
		t.Error("a slice of exactly 204,800 bytes was cut")
	}
}

func TestReadSliceCapOnCharacterBoundaries(t *testing.T) {
	// "é" is two bytes; with an odd prefix every cut point falls inside one.
	text := "x" + strings.Repeat("é", capBytes) // 409,601 bytes
	res, err := readSlice(context.Background(), strings.NewReader(text), 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.ValidString(res.Content) || strings.ContainsRune(res.Content, utf8.RuneError) {
		t.Fatal("the cut split a character")
	}
	head, tail, ok := strings.Cut(res.Content, "…[")
	if !ok {
		t.Fatal("no marker")
	}
	var n int
	_, rest, _ := strings.Cut(tail, "]…")
	fmt.Sscanf(tail, "%d bytes truncated", &n)
	if len(head)+n+len(rest) != len(text) || len(head) > keepBytes || len(rest) > keepBytes || len(head) < keepBytes-3 {
		t.Errorf("head %d + cut %d + tail %d != %d", len(head), n, len(rest), len(text))
	}
}

func TestCappedRing(t *testing.T) {
	for _, chunks := range []int{100, 30000, 40000, 100000} {
		var c capped
		var all []byte
		for i := range chunks {
			chunk := []byte(fmt.Sprintf("%d,", i))
			all = append(all, chunk...)
			c.write(chunk)
		}
		got, cut := c.content()
		if len(all) <= capBytes {
			if cut || got != string(all) {
				t.Errorf("uncut content differs (%d bytes written)", len(all))
			}
			continue
		}
		want := string(all[:keepBytes]) + fmt.Sprintf("…[%d bytes truncated]…", len(all)-capBytes) + string(all[len(all)-keepBytes:])
		if !cut || got != want {
			t.Errorf("ring content differs (%d bytes written)", len(all))
		}
	}
}

// TestCancelledListIsNoListing: a project_fs_list whose request was
// cancelled (notifications/cancelled cancels its context) answers the
// cancellation, not the entries walked so far as a listing the bounds cut.
func TestCancelledListIsNoListing(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.txt"), []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := testServer(t, dir)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, _, err := s.list(ctx, json.RawMessage(`{"recursive":true}`)); !errors.Is(err, context.Canceled) {
		t.Fatalf("a cancelled listing answered %+v, %v", res, err)
	}
	if res, _, err := s.list(context.Background(), json.RawMessage(`{"recursive":true}`)); err != nil || res.(ListResult).Count != 1 {
		t.Fatalf("a listing answered %+v, %v", res, err)
	}
}

// endless is text without an end: "line\n" forever.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = "line\n"[i%5]
	}
	return len(p), nil
}

// TestReadSliceDeadline: a file whose lines cannot all be counted before
// the read's deadline is refused with an answer that says why (a file of
// tens of gigabytes took a minute, past the wait at end of input), and a
// cancelled read says it was cancelled.
func TestReadSliceDeadline(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	_, err := readSlice(ctx, endless{}, 1, 1)
	if err == nil || !strings.HasPrefix(err.Error(), "file too large: ") || !strings.Contains(err.Error(), "MiB were read") {
		t.Fatalf("an endless file: %v", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := readSlice(ctx, endless{}, 1, 0); err == nil || err.Error() != "cancelled" {
		t.Fatalf("a cancelled read: %v", err)
	}
	// Past the slice the lines are still counted, one by one.
	res, err := readSlice(context.Background(), strings.NewReader("a\nb\nc\nd\ne"), 2, 3)
	if err != nil || res.Content != "b\nc\n" || res.TotalLines != 5 || res.ReturnedLines != 2 {
		t.Fatalf("lines 2-3 of 5: %+v %v", res, err)
	}
}
