package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"

	"github.com/scoutdev/scout/backend/files"
)

// ReadArgs are project_fs_read's arguments. Their schema (schemaFor)
// declares the optional ones as plain integers, not required; 0 stands
// for absent here (an argument of 0 is refused).
type ReadArgs struct {
	Path      string `json:"path" jsonschema:"file to read, relative to the project root (an absolute path inside the project is taken as the same relative path)"`
	StartLine int    `json:"startLine,omitempty" jsonschema:"first line to return, 1-based (default 1)"`
	EndLine   int    `json:"endLine,omitempty" jsonschema:"last line to return, inclusive (default: the last line; a larger value is the last line)"`
}

// readArgNames are ReadArgs's members, in their schema's order.
var readArgNames = []string{"path", "startLine", "endLine"}

// parseReadArgs decodes project_fs_read's arguments and checks the line
// range on its own.
func parseReadArgs(raw json.RawMessage) (args ReadArgs, err error) {
	a, err := decodeArguments(ToolRead, raw, readArgNames)
	if err != nil {
		return args, err
	}
	if args.Path, err = a.str("path"); err != nil {
		return args, err
	}
	if args.StartLine, err = a.integer("startLine", 1); err != nil {
		return args, err
	}
	if args.EndLine, err = a.integer("endLine", 1); err != nil {
		return args, err
	}
	if args.EndLine > 0 && args.EndLine < max(args.StartLine, 1) {
		return args, argError("endLine must not be before startLine")
	}
	if _, given := a.given("path"); !given {
		return args, argError("path is required: name a file relative to the project root, such as README.md")
	}
	if args.Path == "" {
		return args, argError("path is empty: name a file relative to the project root, such as README.md")
	}
	return args, nil
}

// ReadResult is project_fs_read's structured result.
type ReadResult struct {
	Path          string `json:"path" jsonschema:"the file read, normalized"`
	Content       string `json:"content" jsonschema:"the lines asked for, with their line endings; above 204,800 bytes the middle is replaced by a marker"`
	TotalLines    int    `json:"totalLines" jsonschema:"number of lines in the file"`
	ReturnedLines int    `json:"returnedLines" jsonschema:"number of lines the content covers"`
	Bytes         int    `json:"bytes" jsonschema:"size of the returned content in bytes"`
	Truncated     bool   `json:"truncated" jsonschema:"true when the middle of the slice was cut out"`
}

// The content cap: a slice over capBytes keeps its first and last keepBytes
// around a marker.
const (
	capBytes  = 204800
	keepBytes = capBytes / 2
	// binaryProbe is how much of the head is searched for a NUL byte.
	binaryProbe = 8 << 10
)

func (s *Server) read(ctx context.Context, raw json.RawMessage) (any, string, error) {
	args, err := parseReadArgs(raw)
	if err != nil {
		return nil, "", err
	}
	rel, err := s.relative(args.Path)
	if err != nil {
		return nil, "", err
	}
	f, _, err := files.OpenFile(s.root, s.pol, rel)
	switch {
	case errors.Is(err, files.ErrIsDir):
		return nil, "", errors.New("is a directory: project_fs_read needs a file; use project_fs_list for a folder")
	case err != nil:
		return nil, "", errNoSuchFile
	}
	defer f.Close()
	ctx, cancel := context.WithTimeout(ctx, readDeadline)
	defer cancel()
	res, err := readSlice(ctx, f, max(args.StartLine, 1), args.EndLine)
	if err != nil {
		return nil, "", err
	}
	res.Path = rel
	return res, "", nil
}

// errBinary refuses a file with a NUL byte in its first 8 KiB.
var errBinary = errors.New("binary file: it has a NUL byte in its first 8 KiB; only text files can be read")

// readSlice streams r once: it refuses binary content, counts lines, and
// keeps the bytes of lines first..last (1-based, inclusive; last 0: to the
// last line) within the cap.
func readSlice(ctx context.Context, r io.Reader, first, last int) (ReadResult, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(binaryProbe)
	if bytes.IndexByte(head, 0) >= 0 {
		return ReadResult{}, errBinary
	}
	s := lineScan{first: first, last: -1}
	if last > 0 {
		s.last = last
	}
	if err := s.run(ctx, br); err != nil {
		return ReadResult{}, err
	}
	total := s.totalLines()
	if first > total && !(first == 1 && total == 0) {
		return ReadResult{}, pastTheEnd(first, total)
	}
	end := total
	if last > 0 {
		end = min(last, total)
	}
	content, truncated := s.keep.content()
	return ReadResult{
		Content: content, TotalLines: total, ReturnedLines: max(0, end-first+1),
		Bytes: len(content), Truncated: truncated,
	}, nil
}

// pastTheEnd refuses a startLine after the file's last line.
func pastTheEnd(first, total int) error {
	if total == 0 {
		return argError("line range past the end: the file is empty, so startLine must be 1 (or left out)")
	}
	lines := "lines"
	if total == 1 {
		lines = "line"
	}
	if first == math.MaxInt {
		return argError(fmt.Sprintf("line range past the end: startLine must be at most %d, the file has %d %s", total, total, lines))
	}
	return argError(fmt.Sprintf("line range past the end: startLine must be at most %d, the file has %d %s (startLine is %d)", total, total, lines, first))
}

// lineScan follows line numbers through a stream and hands the bytes of
// the wanted lines to a capped collector.
type lineScan struct {
	first, last int // wanted lines; last < 0: to the end
	line        int // the line of the next byte, from 1
	size        int64
	lastByte    byte
	keep        capped
}

// readDeadline bounds the read of one file, as listDeadline bounds a
// listing: a file so large that its lines cannot be counted in that time
// (tens of gigabytes) is refused, and the answer still comes before the
// wait at end of input runs out.
var readDeadline = listDeadline

// run reads everything. A byte belongs to line 1 + the number of newlines
// before it; a newline belongs to the line it ends.
func (s *lineScan) run(ctx context.Context, r io.Reader) error {
	s.line = 1
	buf := make([]byte, 1<<20)
	for {
		n, err := r.Read(buf)
		s.chunk(buf[:n])
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return errors.New("the file could not be read to the end")
		}
		switch ctx.Err() {
		case nil:
		case context.DeadlineExceeded:
			return fmt.Errorf("file too large: project_fs_read counts a file's lines, and %s were read of this one in %s, not its end", sizeWords(s.size), readDeadline)
		default:
			return errors.New("cancelled")
		}
	}
}

// sizeWords says n bytes in MiB, or in bytes below one.
func sizeWords(n int64) string {
	if n < 1<<20 {
		return fmt.Sprintf("%d bytes", n)
	}
	return fmt.Sprintf("%d MiB", n>>20)
}

func (s *lineScan) chunk(b []byte) {
	if len(b) == 0 {
		return
	}
	s.size += int64(len(b))
	s.lastByte = b[len(b)-1]
	if s.last >= 0 && s.line > s.last {
		s.line += bytes.Count(b, []byte{'\n'}) // past the slice: lines are only counted
		return
	}
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		seg := b
		if i >= 0 {
			seg = b[:i+1]
		}
		if s.line >= s.first && (s.last < 0 || s.line <= s.last) {
			s.keep.write(seg)
		}
		if i < 0 {
			return
		}
		s.line++
		b = b[i+1:]
	}
}

// totalLines counts a last line without a newline.
func (s *lineScan) totalLines() int {
	switch {
	case s.size == 0:
		return 0
	case s.lastByte == '\n':
		return s.line - 1
	}
	return s.line
}

// capped collects a stream, keeping all of it up to capBytes and otherwise
// its first and last keepBytes.
type capped struct {
	total int64
	head  []byte // the first capBytes
	tail  []byte // ring of the last keepBytes, once total passes capBytes
	pos   int    // next write position in tail
}

func (c *capped) write(b []byte) {
	c.total += int64(len(b))
	if room := capBytes - len(c.head); room > 0 {
		c.head = append(c.head, b[:min(room, len(b))]...)
	}
	if c.tail == nil {
		c.tail = make([]byte, 0, keepBytes)
	}
	for len(b) > 0 {
		if len(c.tail) < keepBytes {
			n := min(keepBytes-len(c.tail), len(b))
			c.tail = append(c.tail, b[:n]...)
			b = b[n:]
			continue
		}
		n := copy(c.tail[c.pos:], b)
		c.pos = (c.pos + n) % keepBytes
		b = b[n:]
	}
}

// content is what was collected: everything up to capBytes, else the
// first and last keepBytes (moved to character boundaries) around the
// marker "…[N bytes truncated]…", N the bytes left out. Invalid UTF-8
// becomes U+FFFD.
func (c *capped) content() (string, bool) {
	if c.total <= capBytes {
		return files.ValidText(c.head), false
	}
	head := c.head[:keepBytes]
	head = head[:len(head)-cutTail(head)]
	tail := append(append([]byte{}, c.tail[c.pos:]...), c.tail[:c.pos]...)
	tail = tail[cutHead(tail):]
	cut := c.total - int64(len(head)) - int64(len(tail))
	return files.ValidText(head) + fmt.Sprintf("…[%d bytes truncated]…", cut) + files.ValidText(tail), true
}
