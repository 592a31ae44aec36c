package mcp

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scoutdev/scout/internal/makefs"
)

// stdioSession is a Server on Stdio over pipes, in this process.
type stdioSession struct {
	tb    testing.TB
	in    *io.PipeWriter
	lines chan string
	ended chan error
	n     int
}

func startStdio(tb testing.TB) *stdioSession {
	srv := testServer(tb, makefs.MustMake(tb, "a.txt << hello\n"))
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &stdioSession{tb: tb, in: inW, lines: make(chan string, 64), ended: make(chan error, 1)}
	go func() {
		s.ended <- srv.Run(context.Background(), Stdio(inR, outW))
		outW.Close()
	}()
	go func() {
		defer close(s.lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			s.lines <- sc.Text()
		}
	}()
	tb.Cleanup(func() {
		inW.Close()
		for range s.lines {
		}
		<-s.ended // before testServer's cleanup closes the root
	})
	s.send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	s.await(`"id":"init"`)
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

func (s *stdioSession) send(line string) {
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		s.tb.Fatalf("the server stopped reading: %v", err)
	}
}

// await returns the lines up to and including the first holding marker.
func (s *stdioSession) await(marker string) []string {
	var got []string
	for {
		select {
		case l, ok := <-s.lines:
			if !ok {
				s.tb.Fatalf("the server ended (%v) before %s; it wrote %q", <-s.ended, marker, got)
			}
			got = append(got, l)
			if strings.Contains(l, marker) {
				return got
			}
		case <-time.After(10 * time.Second):
			s.tb.Fatalf("no %s; the server wrote %q", marker, got)
		}
	}
}

// ping checks the server still serves and returns what it wrote before.
func (s *stdioSession) ping() []string {
	s.n++
	id := fmt.Sprintf(`"id":"ping-%d"`, s.n)
	s.send(`{"jsonrpc":"2.0",` + id + `,"method":"ping"}`)
	return s.await(id)
}

// TestStdioSurvivesMalformedFrames: each of these lines used to end
// `scout mcp` (the SDK stops the session at the first frame it cannot
// decode; found by the adversarial suite). Now each is answered with a
// JSON-RPC error of id null and the server keeps serving.
func TestStdioSurvivesMalformedFrames(t *testing.T) {
	s := startStdio(t)
	for _, tc := range []struct{ line, code string }{
		{`garbage{`, "-32700"},
		{`{"jsonrpc":"2.0","id":5,"method":"ping"} x`, "-32700"},
		{"\xff\xfe", "-32700"},
		{`{}`, "-32600"},
		{`[]`, "-32600"},
		{`[{"jsonrpc":"2.0","id":5,"method":"ping"}]`, "-32600"},
		{`123`, "-32600"},
		{`"x"`, "-32600"},
		{`null`, "-32600"},
		{`{"jsonrpc":"2.0","id":{},"method":"x"}`, "-32600"},
		{`{"jsonrpc":"1.0","id":5,"method":"tools/list"}`, "-32600"},
		{`{"a":1,"a":2}`, "-32600"},
		{`{"jsonrpc":"2.0","id":5,"method":"tools/list"` + strings.Repeat(" ", MaxFrameBytes) + `}`, "-32600"},
	} {
		s.send(tc.line)
		got := s.ping()
		if len(got) != 2 || !strings.Contains(got[0], `"id":null`) || !strings.Contains(got[0], tc.code) {
			t.Errorf("%.60q: answered %q, want one %s error first", tc.line, got, tc.code)
		}
	}
	s.send("")
	s.send("   ")
	if got := s.ping(); len(got) != 1 {
		t.Errorf("blank lines were answered: %q", got)
	}
	s.send(`{"jsonrpc":"2.0","id":"r","method":"tools/call","params":{"name":"project_fs_read","arguments":{"path":"a.txt"}}}`)
	if got := s.await(`"id":"r"`); !strings.Contains(got[len(got)-1], "hello") {
		t.Errorf("read after the faults: %q", got)
	}
}

// FuzzStdioFrames sends any line (newlines removed: MCP's stdio frames
// hold none) followed by a ping: whatever the line, the server answers the
// ping, i.e. it is still serving.
func FuzzStdioFrames(f *testing.F) {
	for _, s := range []string{
		`garbage{`, `{}`, `[]`, `123`, `{"jsonrpc":"2.0","id":{},"method":"x"}`, `{"jsonrpc":"2.0","id":1.5,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"project_fs_list","arguments":{"dir":"../"}}}`,
		`{"jsonrpc":"2.0","id":8,"result":{}}`, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}`,
		`{"jsonrpc":"2.0","id":"x","method":"initialize","params":{}}`,
	} {
		f.Add([]byte(s))
	}
	s := startStdio(f)
	f.Fuzz(func(t *testing.T, line []byte) {
		s.tb = t
		s.send(string(bytes.ReplaceAll(line, []byte("\n"), []byte(" "))))
		s.ping()
	})
}

// TestEndOfInputEndsOnceAnswered: at end of input the server waits for
// the answers to the requests it read, and ends as soon as they are
// written, not when its wait runs out: here the wait is an hour, so a
// server that missed an answer would still be waiting when the test gives
// up. (The black-box TestEndOfInputAnswersWhatWasRead checks the answers
// and the exit status of the real binary.)
func TestEndOfInputEndsOnceAnswered(t *testing.T) {
	t.Parallel()
	srv := testServer(t, makefs.MustMake(t, "a.txt << hello\n"))
	in := strings.NewReader(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":"list","method":"tools/call","params":{"name":"project_fs_list","arguments":{"recursive":true}}}` + "\n" +
		`{"jsonrpc":"2.0","id":"read","method":"tools/call","params":{"name":"project_fs_read","arguments":{"path":"a.txt"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":"ping","method":"ping"}`)
	var out lockedWriter
	ended := make(chan error, 1)
	go func() {
		ended <- srv.Run(context.Background(), stdio(in, &out, time.Hour))
	}()
	select {
	case <-ended:
	case <-time.After(time.Minute):
		t.Fatalf("still waiting at end of input after answering %q", out.String())
	}
	for _, id := range []string{"init", "list", "read", "ping"} {
		if !strings.Contains(out.String(), `"id":"`+id+`","result"`) {
			t.Errorf("no answer to %s in %q", id, out.String())
		}
	}
}

// lockedWriter is a bytes.Buffer safe for the server's writer and the
// test's reader.
type lockedWriter struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (w *lockedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.Write(p)
}

func (w *lockedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.b.String()
}
