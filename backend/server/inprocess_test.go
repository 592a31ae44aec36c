package server_test

import (
	"bufio"
	"io"
	"strings"
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
