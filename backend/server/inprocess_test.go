package server_test

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/server"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// TestServeInProcessLeavesNoGoroutine serves a conversation in process —
// admitted and cancelled sleeps, busy answers, malformed and oversized
// frames — ending in shutdown with a worker in flight. Serve returns, and
// TestMain's goroutine check finds nothing left of the workers, the
// cancellations or the frame reader.
func TestServeInProcessLeavesNoGoroutine(t *testing.T) {
	srv := server.New(server.Options{Info: wire.ServerInfo{Name: "scout", Version: "test"}})
	srv.RegisterDebug()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(inR, outW); outW.Close() }()
	lines := make(chan string, 256)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(outR)
		sc.Buffer(make([]byte, 0, 1<<16), 1<<20)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	frames := []string{
		`{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocol_version":1,"required_capabilities":["operation.cancel"]}}`,
		`{"jsonrpc":"2.0","id":"a","method":"debug.sleep","params":{"ms":60000}}`,
		`{"jsonrpc":"2.0","id":"b","method":"debug.sleep","params":{"ms":5}}`,
		`{"jsonrpc":"2.0","id":"x","method":"operation.cancel","params":{"request_id":"a"}}`,
		`not json`,
		`{"jsonrpc":"2.0","id":"big","method":"status","params":{"p":"` + strings.Repeat("x", wire.MaxFrameBytes) + `"}}`,
		`{"jsonrpc":"2.0","id":"c","method":"debug.sleep","params":{"ms":60000}}`,
		`{"jsonrpc":"2.0","id":"s","method":"status"}`,
		`{"jsonrpc":"2.0","id":"bye","method":"shutdown"}`,
	}
	go func() {
		for _, f := range frames {
			if _, err := io.WriteString(inW, f+"\n"); err != nil {
				return
			}
		}
	}()
	answered := map[string]wire.Code{}
	for m := range lines {
		msg := scouttest.DecodeLine([]byte(m))
		if msg.IsResponse() && msg.ID != nil {
			answered[*msg.ID] = msg.Code()
		}
	}
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(scouttest.DefaultTimeout):
		t.Fatal("Serve did not return after shutdown")
	}
	inW.Close()
	want := map[string]wire.Code{"i": "", "a": wire.CodeOperationCancelled, "x": "", "c": wire.CodeOperationCancelled, "s": "", "bye": ""}
	for id, code := range want {
		if got, ok := answered[id]; !ok || got != code {
			t.Errorf("%s answered %q (%v), want %q", id, got, ok, code)
		}
	}
}

// TestHandlerFailureIsInternal (docs/protocol.md §10.4): a handler error that is not a
// protocol error, and a handler panic, are answered internal with a generic
// message (the detail goes to the log only), and the backend keeps serving.
func TestHandlerFailureIsInternal(t *testing.T) {
	var log strings.Builder
	srv := server.New(server.Options{Info: wire.ServerInfo{Name: "scout", Version: "test"}, Log: &syncWriter{w: &log}})
	srv.Register(&server.Method{Name: "test.fail", Kind: server.KindAux, Unlisted: true,
		Handle: func(context.Context, *server.Call) (any, error) { return nil, errors.New("detail-fail /secret/path") }})
	srv.Register(&server.Method{Name: "test.panic", Kind: server.KindAux, Unlisted: true,
		Handle: func(context.Context, *server.Call) (any, error) { panic("detail-panic /secret/path") }})
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	served := make(chan error, 1)
	go func() { served <- srv.Serve(inR, outW); outW.Close() }()
	lines := bufio.NewScanner(outR)
	// call writes one frame and returns the response to it (no method here
	// writes a notification).
	call := func(id, method, params string) scouttest.Msg {
		t.Helper()
		frame := `{"jsonrpc":"2.0","id":"` + id + `","method":"` + method + `","params":` + params + "}\n"
		if _, err := io.WriteString(inW, frame); err != nil {
			t.Fatal(err)
		}
		if !lines.Scan() {
			t.Fatalf("no response to %s", id)
		}
		return scouttest.DecodeLine(lines.Bytes())
	}
	call("i", wire.MethodInitialize, `{"protocol_version":1}`)
	for _, c := range []struct{ id, method string }{{"f", "test.fail"}, {"p", "test.panic"}, {"f2", "test.fail"}} {
		m := call(c.id, c.method, "{}")
		if m.Code() != wire.CodeInternal || strings.Contains(string(m.Raw), "detail") || strings.Contains(string(m.Raw), "secret") {
			t.Errorf("%s: %s", c.id, m.Raw)
		}
	}
	if m := call("s", wire.MethodStatus, "{}"); m.Error != nil {
		t.Errorf("status after the failures: %s", m.Raw)
	}
	inW.Close()
	go io.Copy(io.Discard, outR)
	if err := <-served; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if l := log.String(); !strings.Contains(l, "detail-fail") || !strings.Contains(l, "detail-panic") {
		t.Errorf("log %q lacks the details", l)
	}
}

// syncWriter serializes writes of the server's workers to the log.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (s *syncWriter) Write(b []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(b)
}
