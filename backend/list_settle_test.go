package backend

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/server"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/makefs"
)

// pipeServer is a files feature served in process over pipes, so a test can
// hold a policy transition open (Begin without Settle), which no client
// request can do on its own.
type pipeServer struct {
	t   *testing.T
	ff  *filesFeature
	in  *io.PipeWriter
	out *bufio.Scanner
}

func startPipe(t *testing.T, dir string) *pipeServer {
	env := map[string]string{"SCOUT_HOME": filepath.Join(t.TempDir(), "home")}
	getenv := func(k string) string { return env[k] }
	ws := loadWorkspace(dir, getenv, io.Discard)
	ff := newFilesFeature(ws, getenv)
	srv := server.New(server.Options{Info: wire.ServerInfo{Name: "scout", Version: Version}, Workspace: ws.workspace})
	ff.register(srv)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	go srv.Serve(inR, outW)
	t.Cleanup(func() { inW.Close() })
	sc := bufio.NewScanner(outR)
	sc.Buffer(make([]byte, 0, 1<<16), 2<<20)
	p := &pipeServer{t: t, ff: ff, in: inW, out: sc}
	p.send("i", wire.MethodInitialize, map[string]any{"protocol_version": 1, "required_capabilities": []string{wire.MethodProjectList, wire.MethodProjectRead, wire.MethodCancel}})
	p.await("i")
	return p
}

func (p *pipeServer) send(id, method string, params any) {
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	b, _ := json.Marshal(req)
	if _, err := p.in.Write(append(b, '\n')); err != nil {
		p.t.Fatal(err)
	}
}

type line struct {
	ID     string          `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Data struct{ Code wire.Code } `json:"data"`
	} `json:"error"`
}

// await reads lines until the response to id and returns it with the ids
// of the other responses read on the way.
func (p *pipeServer) await(id string) (line, []string) {
	p.t.Helper()
	var others []string
	done := make(chan struct{})
	defer close(done)
	go func() {
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			p.in.CloseWithError(fmt.Errorf("timeout"))
		}
	}()
	for p.out.Scan() {
		var l line
		if err := json.Unmarshal(p.out.Bytes(), &l); err != nil {
			p.t.Fatal(err)
		}
		if l.Method == "" && l.ID == id || id == "" && l.Method != "" {
			return l, others // id "": the next notification
		}
		if l.Method == "" {
			others = append(others, l.ID)
		}
	}
	p.t.Fatalf("no response to %s", id)
	return line{}, nil
}

func TestListWaitsForSettlementAndIsCancellable(t *testing.T) {
	p := startPipe(t, makefs.MustMake(t, "a.txt << a"))
	p.send("l1", wire.MethodProjectList, map[string]any{"ref": "root"})
	l, _ := p.await("l1")
	var page wire.ListResult
	json.Unmarshal(l.Result, &page)
	if len(page.Entries) != 1 || page.Generation != 1 {
		t.Fatalf("first page: %s", l.Result)
	}
	old := page.Entries[0].ID

	// A transition opens and stays open. begin writes the notification,
	// which blocks until it is read.
	gens := make(chan int64, 1)
	go func() { g, _ := p.ff.begin(nil); gens <- g }()
	if n, _ := p.await(""); n.Method != wire.NotifyProjectInvalidated {
		t.Fatalf("expected the invalidation, read %+v", n)
	}
	gen := <-gens
	p.send("w1", wire.MethodProjectList, map[string]any{"ref": "root"})
	p.send("r1", wire.MethodProjectRead, map[string]any{"ref": old})
	p.send("s", wire.MethodStatus, nil)
	st, others := p.await("s")
	var status wire.StatusResult
	json.Unmarshal(st.Result, &status)
	if len(others) != 0 || len(status.Active) != 2 {
		t.Fatalf("while unsettled: answered %v, active %+v", others, status.Active)
	}
	p.send("c", wire.MethodCancel, map[string]any{"request_id": "w1"})
	if w1, _ := p.await("w1"); w1.Error == nil || w1.Error.Data.Code != wire.CodeOperationCancelled {
		t.Fatalf("cancelled while waiting: %+v", w1)
	}
	p.ff.ws.mgr.Settle(nil)
	if r1, _ := p.await("r1"); r1.Error == nil || r1.Error.Data.Code != wire.CodeNotFound {
		t.Fatalf("an id of the old generation after settlement: %+v", r1)
	}
	p.send("l2", wire.MethodProjectList, map[string]any{"ref": "root"})
	l, _ = p.await("l2")
	json.Unmarshal(l.Result, &page)
	if page.Generation != gen || len(page.Entries) != 1 || page.Entries[0].ID == old {
		t.Fatalf("after settlement: %s", l.Result)
	}
}
