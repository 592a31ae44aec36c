package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// MaxFrameBytes bounds one inbound line, as the SDK's own reader does.
const MaxFrameBytes = sdk.DefaultMaxLineLength

// Stdio is the transport `scout mcp` serves on: newline-delimited JSON-RPC
// over in and out (MCP's stdio transport), with a guard in front of the
// SDK. The SDK ends the whole session at the first frame it cannot decode
// (invalid JSON, trailing data, a value that is not a JSON-RPC 2.0 message,
// an empty batch, a batch under protocol 2025-06-18), so one bad line from
// a client would stop the server. The guard answers such a line itself —
// parse error (-32700) when it is not JSON, invalid request (-32600)
// otherwise, with a null id — and hands the SDK only lines its own decoder
// accepts and requests whose id it answers as sent. Batches are refused
// (MCP 2025-06-18 removed them); blank lines are skipped; a line over
// MaxFrameBytes is discarded in bounded memory and answered invalid
// request. Lines may not hold raw newlines, as MCP's stdio transport
// requires.
//
// The SDK also drops every request in flight when its input ends, so
// `printf '...' | scout mcp` used to print nothing. At end of input the
// guard therefore waits, at most eofAnswerWait, until the SDK has answered
// every request it was handed, and only then lets it see the end.
func Stdio(in io.Reader, out io.Writer) sdk.Transport {
	return stdio(in, out, eofAnswerWait)
}

// stdio is Stdio waiting at most wait for the answers at end of input.
func stdio(in io.Reader, out io.Writer, wait time.Duration) sdk.Transport {
	w := &frameWriter{w: out, wait: wait, answered: make(chan struct{}, 1)}
	pr, pw := io.Pipe()
	go guard(in, pw, w)
	return &sdk.IOTransport{Reader: pr, Writer: w}
}

// eofAnswerWait bounds the wait for answers at end of input: longer than
// project_fs_list's 2,500 ms deadline, so a walk in progress still answers.
const eofAnswerWait = 3 * time.Second

// frameWriter serializes the SDK's messages and the guard's answers (the
// SDK writes each message with its newline in one Write), and counts the
// requests handed to the SDK that it has not answered yet.
type frameWriter struct {
	mu       sync.Mutex
	w        io.Writer
	wait     time.Duration // the most awaitAnswers waits
	pending  int
	answered chan struct{} // signalled when pending drops
}

func (f *frameWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	n, err := f.w.Write(p)
	if f.pending > 0 && isResponse(p) {
		f.pending--
		select {
		case f.answered <- struct{}{}:
		default:
		}
	}
	return n, err
}

// isResponse reports whether the message p answers a request (the guard's
// own answers, of id null, do not decode as one).
func isResponse(p []byte) bool {
	msg, err := jsonrpc.DecodeMessage(p)
	_, ok := msg.(*jsonrpc.Response)
	return err == nil && ok
}

// expectAnswer counts a request about to be handed to the SDK.
func (f *frameWriter) expectAnswer() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.pending++
}

// awaitAnswers waits until every request handed to the SDK is answered,
// or f.wait has passed.
func (f *frameWriter) awaitAnswers() {
	deadline := time.NewTimer(f.wait)
	defer deadline.Stop()
	for {
		f.mu.Lock()
		n := f.pending
		f.mu.Unlock()
		if n == 0 {
			return
		}
		select {
		case <-f.answered:
		case <-deadline.C:
			return
		}
	}
}

// Close leaves the underlying writer (stdout) open.
func (f *frameWriter) Close() error { return nil }

// Answers of the guard.
var (
	parseError     = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"Parse error"}}` + "\n")
	invalidRequest = []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}` + "\n")
)

// guard copies the acceptable lines of in to pw and answers the others on
// w, until in ends (the SDK then sees end of input) or the SDK stops
// reading.
func guard(in io.Reader, pw *io.PipeWriter, w *frameWriter) {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, oversized, err := readFrame(r)
		var werr error
		switch {
		case oversized:
			_, werr = w.Write(invalidRequest)
		case len(bytes.TrimSpace(line)) == 0:
		case !json.Valid(line):
			_, werr = w.Write(parseError)
		default:
			// White space around the value is valid JSON, but the SDK's
			// reader wants the newline right after the value and ends
			// the session otherwise: it gets the value alone.
			line = bytes.TrimSpace(line)
			call, ok := decode(line)
			if !ok {
				_, werr = w.Write(invalidRequest)
				break
			}
			if call {
				w.expectAnswer()
			}
			_, werr = pw.Write(append(line, '\n'))
		}
		if err != nil || werr != nil {
			if werr == nil {
				w.awaitAnswers()
			}
			pw.CloseWithError(err) // nil and io.EOF both read as end of input
			return
		}
	}
}

// decode reports whether the SDK's decoder takes line (valid JSON) as one
// JSON-RPC message it can answer if it is a request, and whether it is a
// call (a request with an id, which the SDK answers).
func decode(line []byte) (call, ok bool) {
	if bytes.TrimLeft(line, " \t\r")[0] == '[' {
		return false, false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return false, false
	}
	req, isRequest := msg.(*jsonrpc.Request)
	if !isRequest {
		return false, true
	}
	return req.IsCall(), answerableID(line)
}

// maxEchoedID bounds a numeric request id: the SDK reads ids as float64
// and answers int64(id), which is the id it was sent only for an integer
// of at most 2^53.
const maxEchoedID = 1 << 53

// answerableID reports whether the SDK would answer the request line
// with the id it was sent. Its decoder truncates a number (1.5 is
// answered as 1, 2^53+1 as 2^53) and takes "id":null for a notification,
// never answered; MCP forbids a null id anyway. A line without an id is a
// notification and needs none.
func answerableID(line []byte) bool {
	var members map[string]json.RawMessage // the last duplicate wins, as in the SDK
	if json.Unmarshal(line, &members) != nil {
		return false
	}
	id, ok := members["id"]
	if !ok || id[0] == '"' {
		return true
	}
	n, err := strconv.ParseInt(string(id), 10, 64)
	return err == nil && -maxEchoedID <= n && n <= maxEchoedID
}

// readFrame reads one line without its newline. A line longer than
// MaxFrameBytes is read to its end and dropped (oversized). A last line
// without a newline is a frame too; err is io.EOF (or the read error)
// once input ends.
func readFrame(r *bufio.Reader) (line []byte, oversized bool, err error) {
	for {
		chunk, err := r.ReadSlice('\n')
		if !oversized {
			if len(line)+len(chunk) > MaxFrameBytes+1 {
				oversized, line = true, nil
			} else {
				line = append(line, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		if err == nil && !oversized {
			line = line[:len(line)-1]
		}
		return line, oversized, err
	}
}
