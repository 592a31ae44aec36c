package adversarial

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/leakscan"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// allCaps negotiates every capability the backend offers today.
var allCaps = []string{
	wire.MethodProjectFiles, wire.MethodProjectList, wire.MethodProjectRead, wire.MethodWorkspaceTrust, wire.MethodSessionList, wire.MethodSessionDiscover,
	wire.MethodSessionOpen, wire.MethodSessionNew, wire.MethodModelCatalog, wire.MethodModelCatalogStatus,
	wire.MethodModelRefresh, wire.MethodModelSelect, wire.MethodCancel,
}

// world is a workspace, a home with sessions, a catalog and a provider,
// for tests that send every kind of request.
type world struct {
	ws, home, tok string
	prov          catalogProvider
	srv           *hostileServer
}

func newWorld(t *testing.T) world {
	t.Helper()
	w := world{tok: token(t), srv: startHostile(t)}
	w.ws = makefs.MustMake(t, "src/main.go << package main // "+w.tok, "README.md", "docs/a.md", ".env.local << SECRET="+w.tok)
	w.prov = catalogProvider{id: "p", typ: "openai-compatible", base: w.srv.base("ok"), enabled: []string{"good-1", "old-1"}}
	w.home = catalogHome(t, "", w.prov)
	must(t, os.WriteFile(filepath.Join(w.home, "catalog", "p.json"), encodeCache(t, w.prov, []string{"old-1"}), 0o600))
	must(t, os.MkdirAll(filepath.Join(w.home, "sessions"), 0o700))
	sessionstest.MustWrite(t, filepath.Join(w.home, "sessions"), sessionstest.Many(30, "s", w.ws, sessionstest.History{})...)
	return w
}

func (w world) start(t *testing.T, opts scouttest.Options) *scouttest.Proc {
	t.Helper()
	opts.Dir = w.ws
	opts.Env = append(opts.Env, "SCOUT_HOME="+w.home)
	return start(t, opts, w.canaries())
}

// canaries are what the world planted: its paths, its file contents (the
// token) and its protected file. (Its provider's address is a URL, which
// every line is checked for anyway.)
func (w world) canaries() leakscan.Canaries {
	return leakscan.Canaries{Paths: []string{w.home, w.ws}, Contents: []string{w.tok}, ProtectedNames: []string{".env.local"}}
}

// TestOneByteAtATime writes a conversation one byte per write: requests,
// a notification, a malformed frame, an oversized one and blank lines.
// Every request is answered exactly once, as if it had been written whole.
func TestOneByteAtATime(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.start(t, scouttest.Options{})
	frames := []string{
		`{"jsonrpc":"2.0","id":"i","method":"initialize","params":{"protocol_version":1,"required_capabilities":["project.files","session.list","model.catalog.status"]}}`,
		`{"jsonrpc":"2.0","method":"status"}`, // a notification: never answered
		`{"jsonrpc":"2.0","id":"s","method":"status"}`,
		`{"jsonrpc":"2.0","id":"bad","method":`,
		``,
		`{"jsonrpc":"2.0","id":"big","method":"status","params":{"x":"` + strings.Repeat("x", wire.MaxFrameBytes) + `"}}`,
		`{"jsonrpc":"2.0","id":"f","method":"project.files","params":{}}`,
		`{"jsonrpc":"2.0","id":"l","method":"session.list"}`,
		`{"jsonrpc":"2.0","id":"c","method":"model.catalog.status","params":{"cursor":null}}`,
		`{"jsonrpc":"2.0","id":"u","method":"nope"}`,
	}
	go func() {
		rng := rand.New(rand.NewPCG(1, 2))
		for _, f := range frames {
			data := []byte(f + "\n")
			if len(data) > 4096 {
				p.TryWrite(data) // the oversized frame: bytes one by one would take minutes
				continue
			}
			for i := range data {
				p.TryWrite(data[i : i+1])
				if rng.IntN(50) == 0 {
					time.Sleep(time.Millisecond)
				}
			}
		}
	}()
	want := map[string]wire.Code{"i": "", "s": "", "f": "", "l": "", "c": "", "u": wire.CodeMethodNotFound}
	got := map[string]wire.Code{}
	var nulls []wire.Code
	for len(got) < len(want) || len(nulls) < 2 {
		m := p.Next(scouttest.DefaultTimeout)
		if !m.IsResponse() {
			continue
		}
		if m.ID == nil {
			nulls = append(nulls, m.Code())
			continue
		}
		if _, dup := got[*m.ID]; dup {
			t.Fatalf("%s answered twice", *m.ID)
		}
		got[*m.ID] = m.Code()
	}
	for id, code := range want {
		if got[id] != code {
			t.Errorf("%s answered %q, want %q", id, got[id], code)
		}
	}
	if fmt.Sprint(nulls) != fmt.Sprint([]wire.Code{wire.CodeParseError, wire.CodeInvalidRequest}) {
		t.Errorf("null-id answers %v", nulls)
	}
	if m, ok := p.TryNext(200 * time.Millisecond); ok {
		t.Errorf("an extra message: %s", m.Raw)
	}
}

// floodRequest is the i-th request of the flood and how it counts.
func floodRequest(i int) (frame string, id string, countable bool) {
	id = fmt.Sprintf("r%d", i)
	switch i % 10 {
	case 0:
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"status"}`, id), id, false
	case 1:
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"project.list","params":{"ref":"root"}}`, id), id, true
	case 2, 3:
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"project.files","params":{}}`, id), id, true
	case 4:
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"model.catalog.status","params":{"cursor":null}}`, id), id, true
	case 5:
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"session.discover","params":{"cursor":null}}`, id), id, true
	case 6:
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"operation.cancel","params":{"request_id":"r%d"}}`, id, i-4), id, false
	case 7:
		return fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"session.list"}`, id), id, true
	case 8:
		return `{"jsonrpc":"2.0","id":` + id, "", false // malformed: answered with a null id
	}
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":"project.files","params":{"x":1}}`, id), id, false // invalid_params
}

// longRunning counts the rpc.command.started notification each admitted
// request of a method has.
var longRunning = map[string]int{wire.MethodProjectFiles: 1, wire.MethodSessionDiscover: 1, wire.MethodSessionList: 1, wire.MethodModelRefresh: 1, wire.MethodWorkspaceTrust: 1}

// rejected are the answers of requests that were never admitted.
var rejected = map[wire.Code]bool{wire.CodeBusy: true, wire.CodeRequestLimit: true, wire.CodeInvalidParams: true, wire.CodeMethodNotFound: true}

// TestFloodOfRequests writes 10,000 frames in one go: every request is
// answered exactly once, busy only for kinds with an admission limit,
// request_limit only once 4,096 requests were admitted, the admitted count
// of status matches the answers, every long-running admitted request had
// exactly one rpc.command.started before its response and no rejected
// one had any, and the backend still serves status afterwards.
func TestFloodOfRequests(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.start(t, scouttest.Options{})
	p.Initialize(allCaps...)
	const n = 10000
	var buf bytes.Buffer
	ids, countable, malformed := map[string]string{}, map[string]bool{}, 0
	for i := range n {
		frame, id, c := floodRequest(i)
		buf.WriteString(frame + "\n")
		if id == "" {
			malformed++
			continue
		}
		ids[id] = frame
		countable[id] = c
	}
	go p.TryWrite(buf.Bytes())
	answers, started := map[string]wire.Code{}, map[string]int{}
	var order []string
	nulls := 0
	for len(answers) < len(ids) || nulls < malformed {
		m := p.Next(scouttest.DefaultTimeout)
		switch {
		case m.Method == wire.NotifyCommandStarted:
			var sp wire.CommandStartedParams
			m.Decode(t, &sp)
			if _, done := answers[sp.CommandID]; done {
				t.Errorf("started after the response of %s", sp.CommandID)
			}
			started[sp.CommandID]++
		case m.ID == nil:
			nulls++
		default:
			if _, dup := answers[*m.ID]; dup {
				t.Fatalf("%s answered twice", *m.ID)
			}
			answers[*m.ID] = m.Code()
			order = append(order, *m.ID)
		}
	}
	admitted, codes := 0, map[string]int{}
	limitHit := false
	for _, id := range order {
		code := answers[id]
		codes[fmt.Sprintf("%s:%s", method(ids[id]), code)]++
		switch {
		case code == wire.CodeRequestLimit:
			limitHit = true
			if admitted+1 != wire.DefaultLimits.RequestsPerChild {
				t.Errorf("request_limit after %d admitted", admitted+1)
			}
		case code == wire.CodeBusy && !countable[id]:
			t.Errorf("%s answered busy", method(ids[id]))
		case countable[id] && !rejected[code]:
			admitted++
			if want := longRunning[method(ids[id])]; started[id] != want {
				t.Errorf("%s (%s) had %d started notifications, want %d", id, method(ids[id]), started[id], want)
			}
		case started[id] != 0:
			t.Errorf("rejected %s had a started notification", id)
		}
	}
	var st wire.StatusResult
	p.MustCall(wire.MethodStatus, nil, &st)
	if st.RequestsAdmitted != admitted+1 || !limitHit && admitted+1 >= wire.DefaultLimits.RequestsPerChild {
		t.Errorf("status says %d admitted, the answers %d (+ initialize); limit hit %v", st.RequestsAdmitted, admitted, limitHit)
	}
	t.Logf("answers %v", codes)
}

// method is the method of a flood frame.
func method(frame string) string {
	_, rest, _ := strings.Cut(frame, `"method":"`)
	m, _, _ := strings.Cut(rest, `"`)
	return m
}

// TestEndOfInputMidRequest closes stdin in the middle of a frame while a
// scan (stuck in a system call), a discovery, a catalog call and a refresh
// against a server that never answers are in flight: each gets exactly one
// terminal answer, the half frame is a parse error, and the process exits
// 0 within the protocol's 2 s (with tolerance for a loaded machine).
func TestEndOfInputMidRequest(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.prov.base = w.srv.base("hang")
	w.home = catalogHome(t, "", w.prov)
	p := w.start(t, scouttest.Options{Debug: true, Env: []string{"SCOUT_DEBUG_SCAN_STALL_MS=60000"}})
	p.Initialize(allCaps...)
	p.Request("f", wire.MethodProjectFiles, map[string]any{})
	p.Request("r", wire.MethodModelRefresh, map[string]any{"provider": "p"})
	p.Request("d", wire.MethodSessionDiscover, map[string]any{"cursor": nil})
	p.Request("c", wire.MethodModelCatalogStatus, map[string]any{"cursor": nil})
	// Mid request: the scan, the refresh and the discovery have said they
	// started (rpc.command.started, written on admission) before the input
	// ends.
	var before []scouttest.Msg
	for started := 0; started < 3; {
		m := p.Next(scouttest.DefaultTimeout)
		if m.Method == wire.NotifyCommandStarted {
			started++
		}
		before = append(before, m)
	}
	p.Write([]byte(`{"jsonrpc":"2.0","id":"half","method":"sess`))
	began := time.Now()
	p.CloseStdin()
	code, rest := p.Wait(scouttest.DefaultTimeout)
	rest = append(before, rest...)
	if code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if d := time.Since(began); d > 2*time.Second+3*time.Second {
		t.Errorf("exit took %v; the bound is 2 s", d)
	}
	answered := map[string]int{}
	nulls := 0
	for _, m := range rest {
		switch {
		case !m.IsResponse():
		case m.ID == nil:
			nulls++
			if m.Code() != wire.CodeParseError {
				t.Errorf("the half frame answered %s", m.Raw)
			}
		default:
			answered[*m.ID]++
		}
	}
	for _, id := range []string{"f", "r", "d", "c"} {
		if answered[id] != 1 {
			t.Errorf("%s answered %d times", id, answered[id])
		}
	}
	if nulls != 1 {
		t.Errorf("%d answers to the half frame", nulls)
	}
}

// openFDs counts the backend's open file descriptors.
func openFDs(t *testing.T, p *scouttest.Proc) int {
	t.Helper()
	ents, err := os.ReadDir(fmt.Sprintf("/proc/%d/fd", p.Cmd.Process.Pid))
	must(t, err)
	return len(ents)
}

// idle waits until the backend has no active request (workers of
// answered requests finish on their own).
func idle(t *testing.T, p *scouttest.Proc) {
	t.Helper()
	for range 200 {
		var st wire.StatusResult
		p.MustCall(wire.MethodStatus, nil, &st)
		if len(st.Active) == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("requests stayed active")
}

// callOK calls method until it is not busy (a cancelled worker keeps its
// slot until it has returned) and fails the test on any other error.
func callOK(t *testing.T, p *scouttest.Proc, method string, params any) scouttest.Msg {
	t.Helper()
	for range 500 {
		m := p.Call(method, params)
		switch m.Code() {
		case "":
			return m
		case wire.CodeBusy:
			time.Sleep(5 * time.Millisecond)
		default:
			t.Fatalf("%s: %s", method, m.Raw)
		}
	}
	t.Fatalf("%s stayed busy", method)
	return scouttest.Msg{}
}

// TestFileDescriptorsAfterAThousandRequests counts the backend's open
// descriptors after one request of every kind (the process's steady state:
// the HTTP client keeps one idle connection to the provider) and again
// after a thousand more; none may be left behind by a scan, a history
// reader, a cache read, a refresh, a selection or a cancellation.
func TestFileDescriptorsAfterAThousandRequests(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	p := w.start(t, scouttest.Options{})
	p.Initialize(allCaps...)
	var revision, model string
	kinds := []func(){
		func() { callOK(t, p, wire.MethodProjectFiles, map[string]any{}) },
		func() { p.MustCall(wire.MethodSessionList, nil, nil) },
		func() {
			var st wire.CatalogStatusResult
			p.MustCall(wire.MethodModelCatalogStatus, map[string]any{"cursor": nil}, &st)
			revision, model = st.Revision, st.Choices[0].Model
		},
		func() {
			p.MustCall(wire.MethodModelSelect, map[string]any{"provider": "p", "model": model, "revision": revision}, nil)
		},
		func() { p.MustCall(wire.MethodModelRefresh, map[string]any{"provider": "p"}, nil) },
		func() { p.MustCall(wire.MethodSessionOpen, map[string]any{"id": "s-0003"}, nil) },
		func() { p.MustCall(wire.MethodSessionNew, nil, nil) },
		func() { p.MustCall(wire.MethodSessionDiscover, map[string]any{"cursor": nil}, nil) },
		func() { // a scan cancelled at once
			id := p.NextID()
			p.Request(id, wire.MethodProjectFiles, map[string]any{})
			p.Call(wire.MethodCancel, map[string]any{"request_id": id})
			p.Await(id)
		},
		func() { p.Call(wire.MethodModelCatalog, map[string]any{"cursor": "c1.a.0.forged"}) },
		func() {
			var l wire.ListResult
			callOK(t, p, wire.MethodProjectList, map[string]any{"ref": "root"}).Decode(t, &l)
			for _, e := range l.Entries {
				if e.Type == wire.TypeFile {
					callOK(t, p, wire.MethodProjectRead, map[string]any{"ref": e.ID})
				}
			}
		},
	}
	for _, k := range kinds {
		k()
		k() // a refresh's rescan makes the next selection's guard current
	}
	idle(t, p)
	before := openFDs(t, p)
	n := rounds(1000, 300)
	for i := range n {
		kinds[i%len(kinds)]()
	}
	idle(t, p)
	after := openFDs(t, p)
	if after != before {
		t.Errorf("%d descriptors before %d requests, %d after", before, n, after)
	}
	t.Logf("%d descriptors before %d requests, %d after", before, n, after)
}
