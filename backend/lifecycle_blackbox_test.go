package backend_test

import (
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// Literal members of docs/protocol.md §3, compared byte for byte with what the
// real backend writes (so that a change of the Go defaults shows up here).
// The capabilities are the contract's, in its order, with scout's own
// model.catalog.models after model.enable (docs/protocol.md §10.3).
const (
	contractCapabilities = `["project.files","project.index","project.list","project.read","workspace.trust","session.list","session.discover","session.open","session.new","model.catalog","model.catalog.status","model.refresh","model.select","model.enable","model.catalog.models","operation.cancel"]`
	contractLimits       = `{"frame_bytes":65536,"requests_per_child":4096,"outstanding":8,"discovery_sessions":256,"catalog_page_entries":100,"catalog_page_bytes":32768}`
	extDiscover          = `"session.discover":{"consistency":"provisional_until_complete","ordering":"directory","step_directory_entries":256,"step_lines":10000,"step_bytes":8388608,"record_bytes":8388608,"step_ms":2000,"page_entries":100,"page_bytes":32768}`
	extRefresh           = `"model.refresh":{"providers_per_request":1,"cache_bytes":1048576,"models":2048,"preferences":"unchanged"}`
	extFiles             = `"project.files":{"max_entries":10000,"max_depth":12,"max_examined":50000,"deadline_ms":2500,"report_bytes":1048576}`
	extIndex             = `"project.index":{"page_entries":10000,"page_bytes":1048576,"step_examined":50000,"step_ms":250,"max_depth":64,"path_bytes":4096}`
	extList              = `"project.list":{"page_entries_max":1000,"page_entries_default":200,"page_bytes":1048576,"ref_ttl_ms":900000,"refs_max":20000}`
)

func startLifecycle(t *testing.T) *scouttest.Proc {
	t.Helper()
	return scouttest.Start(t, scouttest.Options{Env: []string{"SCOUT_HOME=" + t.TempDir()}})
}

// initializeRaw negotiates caps and returns the result's members as written.
func initializeRaw(t *testing.T, p *scouttest.Proc, caps ...string) map[string]jsontext.Value {
	t.Helper()
	m := p.Call(wire.MethodInitialize, map[string]any{"protocol_version": 1, "required_capabilities": caps})
	if m.Error != nil {
		t.Fatalf("initialize: %s", m.Raw)
	}
	var members map[string]jsontext.Value
	m.Decode(t, &members)
	return members
}

// TestInitializeResultIsTheContracts: capabilities, limits and each
// negotiated capability's extension are exactly the contract's; negotiated
// is the request's order; extensions hold only negotiated capabilities.
func TestInitializeResultIsTheContracts(t *testing.T) {
	t.Parallel()
	cases := []struct {
		caps       []string
		extensions string
	}{
		{[]string{wire.MethodModelSelect, wire.MethodCancel, wire.MethodProjectRead}, `{}`},
		{[]string{wire.MethodProjectList, wire.MethodSessionDiscover}, `{` + extDiscover + `,` + extList + `}`},
		{[]string{wire.MethodCancel, wire.MethodModelRefresh, wire.MethodProjectFiles, wire.MethodSessionDiscover, wire.MethodProjectList},
			`{` + extDiscover + `,` + extRefresh + `,` + extFiles + `,` + extList + `}`},
		{[]string{wire.MethodProjectList, wire.MethodProjectIndex, wire.MethodProjectFiles},
			`{` + extFiles + `,` + extIndex + `,` + extList + `}`},
	}
	for _, c := range cases {
		p := startLifecycle(t)
		got := initializeRaw(t, p, c.caps...)
		negotiated, err := wire.Marshal(c.caps)
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]string{
			"protocol_version": `1`,
			"server":           `{"name":"scout","version":"0.1.0"}`,
			"capabilities":     contractCapabilities,
			"negotiated":       string(negotiated),
			"limits":           contractLimits,
			"extensions":       c.extensions,
			"workspace":        `{"generation":1,"trust":"no_local_config"}`,
		}
		for name, value := range want {
			if string(got[name]) != value {
				t.Errorf("%v: %s =\n %s\nwant\n %s", c.caps, name, got[name], value)
			}
		}
		if len(got) != len(want)+1 || got["ts"] == nil {
			t.Errorf("%v: members %d, want exactly the contract's and ts", c.caps, len(got))
		}
	}
}

// TestStartedForExactlyTheLongRunningMethods: project.files,
// session.discover, session.list and workspace.trust write one
// rpc.command.started before their response; the other methods none.
// (model.refresh needs a configured provider: backend/catalog's tests.)
func TestStartedForExactlyTheLongRunningMethods(t *testing.T) {
	t.Parallel()
	p := startLifecycle(t)
	p.Initialize(wire.AllCapabilities...)
	calls := []struct {
		method string
		params any
		long   bool
	}{
		{wire.MethodProjectFiles, nil, true},
		{wire.MethodProjectList, map[string]any{"ref": "root"}, false},
		{wire.MethodProjectRead, map[string]any{"ref": "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}, false},
		{wire.MethodWorkspaceTrust, nil, true},
		{wire.MethodSessionList, nil, true},
		{wire.MethodSessionDiscover, map[string]any{"cursor": nil}, true},
		{wire.MethodSessionOpen, map[string]any{"id": "abc"}, false},
		{wire.MethodSessionNew, map[string]any{}, false},
		{wire.MethodModelCatalog, nil, false},
		{wire.MethodModelCatalogStatus, nil, false},
		{wire.MethodModelSelect, map[string]any{"provider": "p", "model": "m", "revision": "c1"}, false},
		{wire.MethodStatus, nil, false},
		{wire.MethodCancel, map[string]any{"request_id": "gone"}, false},
	}
	for _, c := range calls {
		id := p.NextID()
		p.Request(id, c.method, c.params)
		_, before := p.Await(id)
		var started []scouttest.Msg
		for _, m := range before {
			if m.Method == wire.NotifyCommandStarted {
				started = append(started, m)
			}
		}
		if !c.long {
			if len(started) != 0 {
				t.Errorf("%s wrote %s", c.method, started[0].Raw)
			}
			continue
		}
		if len(started) != 1 {
			t.Errorf("%s: %d rpc.command.started before its response, want 1", c.method, len(started))
			continue
		}
		var params wire.CommandStartedParams
		started[0].Decode(t, &params)
		if params.CommandID != id || params.Method != c.method || params.TS == "" {
			t.Errorf("%s: started %s", c.method, started[0].Raw)
		}
	}
}
