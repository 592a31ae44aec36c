package mcp

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scoutdev/scout/backend/files"
)

// ReadArgs are project_fs_read's arguments.
type ReadArgs struct {
	Path      string `json:"path" jsonschema:"file to read, relative to the project root"`
	StartLine *Line  `json:"startLine,omitempty" jsonschema:"first line to return, 1-based (default 1)"`
	EndLine   *Line  `json:"endLine,omitempty" jsonschema:"last line to return, inclusive (default: the last line; a larger value is the last line)"`
}

// Line is a 1-based line number argument. Any integer the schema accepts
// is a line number: one too large for an int (the SDK passes arguments
// through float64, so even 2^63-1 arrives as 9223372036854775808, and
// 1e100 is an integer to the schema) is read as the largest int, which is
// past the end of every file.
type Line int

// UnmarshalJSON reads an integral JSON number, clamping it to the int
// range.
func (l *Line) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || f != math.Trunc(f) {
		return errors.New("a line number must be an integer")
	}
	n, err := strconv.Atoi(string(b))
	switch {
	case err == nil:
		*l = Line(n)
	case f > 0:
		*l = Line(math.MaxInt)
	default:
		*l = Line(math.MinInt)
	}
	return nil
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

func (s *Server) read(ctx context.Context, _ *sdk.CallToolRequest, args ReadArgs) (*sdk.CallToolResult, ReadResult, error) {
	if err := checkRange(args); err != nil {
		return nil, ReadResult{}, err
	}
	if args.Path == "" {
		return nil, ReadResult{}, errors.New("path is empty: name a file relative to the project root")
	}
	rel, err := Clean(args.Path)
	if err != nil {
		return nil, ReadResult{}, err
	}
	f, _, err := files.OpenFile(s.root, s.pol, rel)
	switch {
	case errors.Is(err, files.ErrIsDir):
		return nil, ReadResult{}, errors.New("is a directory: project_fs_read needs a file; use project_fs_list for a folder")
	case err != nil:
		return nil, ReadResult{}, errNoSuchFile
	}
	defer f.Close()
	res, err := readSlice(ctx, f, args.StartLine, args.EndLine)
	if err != nil {
		return nil, ReadResult{}, err
	}
	res.Path = rel
	return nil, res, nil
}

// checkRange checks the line arguments on their own.
func checkRange(args ReadArgs) error {
	switch {
	case args.StartLine != nil && *args.StartLine < 1:
		return errors.New("invalid startLine: lines are numbered from 1")
	case args.EndLine != nil && *args.EndLine < 1:
		return errors.New("invalid endLine: lines are numbered from 1")
	case args.StartLine != nil && args.EndLine != nil && *args.EndLine < *args.StartLine:
		return errors.New("invalid line range: endLine is before startLine")
	}
	return nil
}

// errBinary refuses a file with a NUL byte in its first 8 KiB.
var errBinary = errors.New("binary file: it has a NUL byte in its first 8 KiB; only text files can be read")

// readSlice streams r once: it refuses binary content, counts lines, and
// keeps the bytes of lines start..end (1-based, inclusive; nil: the first
// and the last line) within the cap.
func readSlice(ctx context.Context, r io.Reader, start, end *Line) (ReadResult, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	head, _ := br.Peek(binaryProbe)
	if bytes.IndexByte(head, 0) >= 0 {
		return ReadResult{}, errBinary
	}
	s := lineScan{first: 1, last: -1}
	if start != nil {
		s.first = int(*start)
	}
	if end != nil {
		s.last = int(*end)
	}
	if err := s.run(ctx, br); err != nil {
		return ReadResult{}, err
	}
	total := s.totalLines()
	if s.first > total && !(s.first == 1 && total == 0) {
		if s.first == math.MaxInt {
			return ReadResult{}, fmt.Errorf("line range past the end: startLine is after the last line (the file has %d lines)", total)
		}
		return ReadResult{}, fmt.Errorf("line range past the end: startLine %d is after the last line (the file has %d lines)", s.first, total)
	}
	last := total
	if s.last >= 1 {
		last = min(s.last, total)
	}
	content, truncated := s.keep.content()
	return ReadResult{
		Content: content, TotalLines: total, ReturnedLines: max(0, last-s.first+1),
		Bytes: len(content), Truncated: truncated,
	}, nil
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

// run reads everything. A byte belongs to line 1 + the number of newlines
// before it; a newline belongs to the line it ends.
func (s *lineScan) run(ctx context.Context, r io.Reader) error {
	s.line = 1
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		s.chunk(buf[:n])
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return errors.New("the file could not be read to the end")
		}
		if ctx.Err() != nil {
			return errors.New("cancelled")
		}
	}
}

func (s *lineScan) chunk(b []byte) {
	if len(b) == 0 {
		return
	}
	s.size += int64(len(b))
	s.lastByte = b[len(b)-1]
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
