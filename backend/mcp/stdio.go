package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"sync"

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
// accepts and requests whose id it answers as sent. Batches are refused (MCP 2025-06-18 removed them); blank lines
// are skipped; a line over MaxFrameBytes is discarded in bounded memory and
// answered invalid request. Lines may not hold raw newlines, as MCP's stdio
// transport requires.
func Stdio(in io.Reader, out io.Writer) sdk.Transport {
	w := &frameWriter{w: out}
	pr, pw := io.Pipe()
	go guard(in, pw, w)
	return &sdk.IOTransport{Reader: pr, Writer: w}
}

// frameWriter serializes the SDK's messages and the guard's answers (the
// SDK writes each message with its newline in one Write).
type frameWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (f *frameWriter) Write(p []byte) (int, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w.Write(p)
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
		case !decodable(line):
			_, werr = w.Write(invalidRequest)
		default:
			_, werr = pw.Write(append(line, '\n'))
		}
		if err != nil || werr != nil {
			pw.CloseWithError(err) // nil and io.EOF both read as end of input
			return
		}
	}
}

// decodable reports whether the SDK's decoder takes line (valid JSON) as
// one JSON-RPC message, and can answer it if it is a request.
func decodable(line []byte) bool {
	if bytes.TrimLeft(line, " \t\r")[0] == '[' {
		return false
	}
	msg, err := jsonrpc.DecodeMessage(line)
	if err != nil {
		return false
	}
	_, isRequest := msg.(*jsonrpc.Request)
	return !isRequest || answerableID(line)
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
