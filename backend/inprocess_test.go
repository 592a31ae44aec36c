package backend_test

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend"
	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// inProcess is backend.Run on pipes, in this process, so that TestMain's
// goroutine check sees every goroutine the backend started: scan readers,
// discovery, HTTP clients, workers of cancelled requests.
type inProcess struct {
	t     *testing.T
	in    *io.PipeWriter
	lines chan []byte // what the backend wrote, read as it comes: pipes do not buffer
	ended chan error
}

func runInProcess(t *testing.T, ws string, env map[string]string) *inProcess {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	p := &inProcess{t: t, in: inW, lines: make(chan []byte, 1<<12), ended: make(chan error, 1)}
	go func() {
		defer close(p.lines)
		r := bufio.NewReaderSize(outR, 1<<20)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			p.lines <- line
		}
	}()
	getenv := func(k string) string { return env[k] }
	go func() {
		err := backend.Run(backend.Options{Workspace: ws, Getenv: getenv, Stderr: io.Discard}, inR, outW)
		outW.Close()
		p.ended <- err
	}()
	return p
}

// call writes one request and reads until its response, returning it.
func (p *inProcess) call(id, method, params string) scouttest.Msg {
	p.t.Helper()
	frame := fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":%q`, id, method)
	if params != "" {
		frame += `,"params":` + params
	}
	if _, err := io.WriteString(p.in, frame+"}\n"); err != nil {
		p.t.Fatal(err)
	}
	for {
		m := p.next()
		if m.ID != nil && *m.ID == id {
			return m
		}
	}
}

func (p *inProcess) next() scouttest.Msg {
	p.t.Helper()
	select {
	case line, ok := <-p.lines:
		if !ok {
			p.t.Fatal("the backend's output ended")
		}
		return scouttest.DecodeLine(line)
	case <-time.After(scouttest.DefaultTimeout):
		p.t.Fatal("no answer from the backend")
	}
	return scouttest.Msg{}
}

// end closes the input and waits for Run to return, reading what is left.
func (p *inProcess) end() {
	p.t.Helper()
	p.in.Close()
	go func() {
		for range p.lines {
		}
	}()
	select {
	case err := <-p.ended:
		if err != nil {
			p.t.Fatalf("Run: %v", err)
		}
	case <-time.After(scouttest.DefaultTimeout):
		p.t.Fatal("Run did not return after end of input")
	}
}

// TestInProcessLeavesNoGoroutine runs every kind of request in process —
// scans (one cancelled), discovery, list, open, catalog and status pages, a
// refresh against a provider, a selection, a trust — and ends with work in
// flight; TestMain then fails if any goroutine is left.
func TestInProcessLeavesNoGoroutine(t *testing.T) {
	srv, err := fakeprovider.Start()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ws := makefs.MustMake(t, "src/main.go", "README.md", ".scout/config.toml << [files]\ndeny = [\"gen/**\"]\n")
	home := filepath.Join(t.TempDir(), "home")
	base := srv.Add("ok", fakeprovider.Success("m1", "m2"))
	slow := srv.Add("slow", fakeprovider.Hanging)
	config := fmt.Sprintf("[enrichment]\nurl = \"\"\n[[providers]]\nid = \"p\"\ntype = \"ollama\"\nbase_url = %q\nenabled_models = [\"m1\"]\n"+
		"[[providers]]\nid = \"h\"\ntype = \"ollama\"\nbase_url = %q\nenabled_models = [\"m1\"]\n", base, slow)
	if err := os.MkdirAll(filepath.Join(home, "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	sessionstest.MustWrite(t, filepath.Join(home, "sessions"), sessionstest.Many(150, "s", ws, sessionstest.History{})...)
	p := runInProcess(t, ws, map[string]string{"SCOUT_HOME": home})
	caps := `["project.files","workspace.trust","session.list","session.discover","session.open","session.new","model.catalog","model.catalog.status","model.refresh","model.select","operation.cancel"]`
	steps := []struct{ id, method, params string }{
		{"i", wire.MethodInitialize, `{"protocol_version":1,"required_capabilities":` + caps + `}`},
		{"f", wire.MethodProjectFiles, `{}`},
		{"d", wire.MethodSessionDiscover, `{"cursor":null}`},
		{"l", wire.MethodSessionList, ``},
		{"o", wire.MethodSessionOpen, `{"id":"s-0001"}`},
		{"r", wire.MethodModelRefresh, `{"provider":"p"}`},
		{"c", wire.MethodModelCatalogStatus, `{"cursor":null}`},
		{"w", wire.MethodWorkspaceTrust, ``},
		{"f2", wire.MethodProjectFiles, `{}`},
	}
	for _, s := range steps {
		if m := p.call(s.id, s.method, s.params); m.Error != nil {
			t.Fatalf("%s: %s", s.method, m.Raw)
		}
	}
	var st wire.CatalogStatusResult
	p.call("c2", wire.MethodModelCatalogStatus, `{"cursor":null}`).Decode(t, &st)
	sel := fmt.Sprintf(`{"provider":"p","model":"m1","revision":%q}`, st.Revision)
	if m := p.call("s", wire.MethodModelSelect, sel); m.Error != nil {
		t.Fatalf("select: %s", m.Raw)
	}
	// Work in flight at the end: a refresh hanging on its provider and a
	// discovery scan holding its reader between pages.
	io.WriteString(p.in, `{"jsonrpc":"2.0","id":"hang","method":"model.refresh","params":{"provider":"h"}}`+"\n")
	if m := p.call("d2", wire.MethodSessionDiscover, `{"cursor":null}`); m.Error != nil || !strings.Contains(string(m.Raw), `"complete":false`) {
		t.Fatalf("discovery: %s", m.Raw)
	}
	p.end()
}
