package catalog_test

import (
	"bytes"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/wire"
)

// model.select through the binary: params of the closed schema, each
// selection_invalid case, selection_stale, the exact result, and state.json
// written (atomically, nothing left beside it) only by a successful select.
func TestBlackBoxSelect(t *testing.T) {
	t.Parallel()
	const base = "http://127.0.0.1:9/v1"
	ready := prov{id: "ready", typ: "ollama", base: base, enabled: []string{"m", "gone"}}
	nokey := prov{id: "nokey", typ: "openai", base: base, keyEnv: "SCOUT_TEST_UNSET_KEY", enabled: []string{"m"}}
	broken := prov{id: "broken", typ: "ollama", base: base, enabled: []string{"m"}}
	home := newHome(t, "", ready, nokey, broken)
	writeValidCache(t, home, ready, "m", "disabled") // efforts low, high
	writeValidCache(t, home, nokey, "m")
	mustWrite(t, cachePath(home, "broken"), []byte(`{}`))
	statePath := filepath.Join(home, "state.json")
	p := startBackend(t, home)
	rev := catalogPage(t, p, nil).Revision
	sel := func(params map[string]any) map[string]any {
		out := map[string]any{"provider": "ready", "model": "m", "effort": "low", "revision": rev}
		for k, v := range params {
			if v == "-" {
				delete(out, k)
			} else {
				out[k] = v
			}
		}
		return out
	}
	for name, params := range map[string]any{
		"no params":        nil,
		"extra member":     sel(map[string]any{"x": 1}),
		"provider missing": sel(map[string]any{"provider": "-"}),
		"provider number":  sel(map[string]any{"provider": 1}),
		"provider unsafe":  sel(map[string]any{"provider": "a/b"}),
		"model missing":    sel(map[string]any{"model": "-"}),
		"model null":       sel(map[string]any{"model": nil}),
		"effort number":    sel(map[string]any{"effort": 3}),
		"effort object":    sel(map[string]any{"effort": map[string]any{}}),
		"revision missing": sel(map[string]any{"revision": "-"}),
		"revision number":  sel(map[string]any{"revision": 1}),
	} {
		if m := p.Call(wire.MethodModelSelect, params); m.Code() != wire.CodeInvalidParams {
			t.Errorf("%s: %s", name, m.Raw)
		}
	}
	p.Send(`{"jsonrpc":"2.0","id":"null-params","method":"model.select","params":null}`)
	if m, _ := p.Await("null-params"); m.Code() != wire.CodeInvalidParams {
		t.Errorf("params null: %s", m.Raw)
	}
	for name, params := range map[string]map[string]any{
		"disabled model":        sel(map[string]any{"model": "disabled"}),
		"enabled, not in cache": sel(map[string]any{"model": "gone"}),
		"unknown provider":      sel(map[string]any{"provider": "other"}),
		"broken cache":          sel(map[string]any{"provider": "broken"}),
		"provider not ready":    sel(map[string]any{"provider": "nokey", "effort": nil}),
		"effort not offered":    sel(map[string]any{"effort": "medium"}),
		"effort empty":          sel(map[string]any{"effort": ""}),
	} {
		if m := p.Call(wire.MethodModelSelect, params); m.Code() != wire.CodeSelectionInvalid {
			t.Errorf("%s: %s", name, m.Raw)
		}
	}
	if _, err := os.Lstat(statePath); !os.IsNotExist(err) {
		t.Fatalf("state.json written by failed selects: %v", err)
	}

	m := p.Call(wire.MethodModelSelect, sel(nil))
	var members map[string]jsontext.Value
	m.Decode(t, &members)
	var names []string
	for k := range members {
		names = append(names, k)
	}
	sort.Strings(names)
	if m.Error != nil || len(names) != 3 || names[0] != "revision" || names[1] != "selection" || names[2] != "ts" ||
		string(members["selection"]) != `{"provider":"ready","model":"m","effort":"low"}` || string(members["revision"]) != `"`+rev+`"` {
		t.Fatalf("select: %s", m.Raw)
	}
	if got := mustRead(t, statePath); string(got) != `{"format":"scout.state.v1","selection":{"provider":"ready","model":"m","effort":"low"}}` {
		t.Fatalf("state.json: %s", got)
	}
	// effort omitted is null, like an explicit null.
	for _, params := range []map[string]any{sel(map[string]any{"effort": "-"}), sel(map[string]any{"effort": nil})} {
		os.Remove(statePath)
		m := p.Call(wire.MethodModelSelect, params)
		if m.Error != nil || !bytes.Contains(m.Raw, []byte(`"selection":{"provider":"ready","model":"m","effort":null}`)) {
			t.Fatalf("select without effort: %s", m.Raw)
		}
		if got := mustRead(t, statePath); !bytes.Contains(got, []byte(`"effort":null`)) {
			t.Fatalf("state.json: %s", got)
		}
	}
	if fi, err := os.Stat(statePath); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("state.json mode: %v %v", fi.Mode(), err)
	}
	entries, _ := os.ReadDir(home)
	for _, e := range entries {
		if e.Name() != "config.toml" && e.Name() != "catalog" && e.Name() != "state.json" {
			t.Errorf("left in the home: %s", e.Name())
		}
	}
	// The guard stays current after a select; a newer revision makes it stale.
	st := status(t, p)
	if st.Selection.Value == nil || st.Selection.Value.Effort != nil {
		t.Errorf("status selection %+v", st.Selection)
	}
	if m := p.Call(wire.MethodModelSelect, sel(nil)); m.Code() != wire.CodeSelectionStale {
		t.Errorf("old guard: %s", m.Raw)
	}
	if m := p.Call(wire.MethodModelSelect, sel(map[string]any{"revision": "c999"})); m.Code() != wire.CodeSelectionStale {
		t.Errorf("unknown guard: %s", m.Raw)
	}
}

// The guard of a select stays current (the selection cannot change the
// choices), so a second select may use it; a state.json that cannot be
// written answers internal with the promised message and changes nothing
// (docs/protocol.md §10.8.5).
func TestBlackBoxSelectGuardAndWriteFailure(t *testing.T) {
	t.Parallel()
	ready := prov{id: "ready", typ: "ollama", base: "http://127.0.0.1:9", enabled: []string{"m", "n"}}
	home := newHome(t, "", ready)
	writeValidCache(t, home, ready, "m", "n")
	statePath := filepath.Join(home, "state.json")
	p := startBackend(t, home)
	rev := catalogPage(t, p, nil).Revision
	for _, model := range []string{"m", "n"} {
		var res wire.SelectResult
		p.MustCall(wire.MethodModelSelect, map[string]any{"provider": "ready", "model": model, "revision": rev}, &res)
		if res.Revision != rev || res.Selection.Model != model {
			t.Fatalf("select %s: %+v", model, res)
		}
	}
	if err := os.Remove(statePath); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, filepath.Join(statePath, "keep"), []byte("x")) // state.json is now a directory
	m := p.Call(wire.MethodModelSelect, map[string]any{"provider": "ready", "model": "m", "revision": rev})
	if m.Code() != wire.CodeInternal || m.Error.Message != "The selection could not be saved; it is unchanged." {
		t.Fatalf("select over an unwritable state.json: %s", m.Raw)
	}
	if got := mustRead(t, filepath.Join(statePath, "keep")); string(got) != "x" {
		t.Errorf("state.json's directory changed: %q", got)
	}
	entries, _ := os.ReadDir(home)
	if len(entries) != 3 {
		t.Errorf("home holds %d entries, want config.toml, catalog and state.json only", len(entries))
	}
}
