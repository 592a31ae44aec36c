package catalog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/catalog"
	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// model.catalog.models pages every model of the valid caches: at most 100
// rows and 32,768 bytes per response line, providers on the first page
// only, rows in report order then cache order. Its revision is a selection
// guard like the other catalog reads'; its cursors ("m") continue only
// itself, the other methods' cursors are invalid_cursor to it and its to
// them, and a newer revision makes them stale_revision.
func TestModelsPagesAndCursors(t *testing.T) {
	t.Parallel()
	big := prov{id: "big", typ: "ollama", base: "http://127.0.0.1:9", enabled: []string{"model-0007"}}
	small := prov{id: "small", typ: "ollama", base: "http://127.0.0.1:9"}
	home := newHome(t, "", small, big)
	var ids []string
	for i := range 250 {
		ids = append(ids, fmt.Sprintf("model-%04d", i))
	}
	writeValidCache(t, home, big, ids...)
	writeValidCache(t, home, small, "s1")
	p := startWith(t, home)

	var first wire.ModelsResult
	m := p.MustCall(wire.MethodModelCatalogModels, map[string]any{"cursor": nil}, &first)
	if len(m.Raw) > 32768 || len(first.Models) == 0 || len(first.Models) > 100 || first.Cursor == nil || first.Providers == nil {
		t.Fatalf("first page: %d bytes, %d rows, cursor %v", len(m.Raw), len(first.Models), first.Cursor)
	}
	if got := (*first.Providers)[0].Provider; got != "big" {
		t.Errorf("relevant provider not first: %s", got)
	}
	rows, _, rev := models(t, p)
	if len(rows) != 251 || rows[0].Provider != "big" || rows[250].Model != "s1" || !rows[7].Enabled || rows[8].Enabled {
		t.Fatalf("all rows: %d, first %+v", len(rows), rows[0])
	}
	var sel wire.SelectResult
	p.MustCall(wire.MethodModelSelect, map[string]any{"provider": "big", "model": "model-0007", "revision": rev}, &sel)

	var again wire.ModelsResult
	p.MustCall(wire.MethodModelCatalogModels, map[string]any{"cursor": nil}, &again)
	catCursor := catalogPage(t, p, nil).Cursor // a newer revision; one page of choices: no cursor
	if catCursor != nil {
		t.Fatalf("one choice, and a cursor: %v", *catCursor)
	}
	if m := p.Call(wire.MethodModelCatalogModels, map[string]any{"cursor": *again.Cursor}); m.Code() != wire.CodeStaleRevision {
		t.Errorf("a cursor of an older revision: %s", m.Raw)
	}
	p.MustCall(wire.MethodModelCatalogModels, map[string]any{"cursor": nil}, &again)
	for _, method := range []string{wire.MethodModelCatalog, wire.MethodModelCatalogStatus} {
		if m := p.Call(method, map[string]any{"cursor": *again.Cursor}); m.Code() != wire.CodeInvalidCursor {
			t.Errorf("%s given a models cursor: %s", method, m.Raw)
		}
	}
	var page wire.ModelsResult
	p.MustCall(wire.MethodModelCatalogModels, map[string]any{"cursor": *again.Cursor}, &page)
	if page.Providers != nil || page.Revision != again.Revision || len(page.Models) == 0 {
		t.Errorf("second page: %+v", page)
	}
	for name, params := range map[string]any{
		"extra member": map[string]any{"cursor": nil, "provider": "big"},
		"cursor empty": map[string]any{"cursor": ""},
		"cursor long":  map[string]any{"cursor": fmt.Sprintf("%065d", 0)},
	} {
		if m := p.Call(wire.MethodModelCatalogModels, params); m.Code() != wire.CodeInvalidParams {
			t.Errorf("%s: %s", name, m.Raw)
		}
	}
}

// model.enable is cancellable (§3): a cancelled one answers
// operation_cancelled after the acknowledgement and writes nothing.
func TestEnableCancelled(t *testing.T) {
	t.Parallel()
	pr := prov{id: "p", typ: "ollama", base: "http://127.0.0.1:9"}
	home := newHome(t, "", pr)
	writeValidCache(t, home, pr, "m")
	p := scouttest.Start(t, scouttest.Options{Env: []string{"SCOUT_HOME=" + home, "SCOUT_DEBUG_METHODS=1", "SCOUT_DEBUG_ENABLE_STALL_MS=60000"}})
	p.Initialize(catalogCaps...)
	p.Request("e1", wire.MethodModelEnable, map[string]any{"provider": "p", "model": "m", "enabled": true})
	var st wire.StatusResult
	for len(st.Active) == 0 {
		p.MustCall(wire.MethodStatus, nil, &st)
	}
	if st.Active[0].Method != wire.MethodModelEnable {
		t.Fatalf("active: %+v", st.Active)
	}
	p.MustCall(wire.MethodCancel, map[string]any{"request_id": "e1"}, nil)
	if m, _ := p.Await("e1"); m.Code() != wire.CodeOperationCancelled {
		t.Fatalf("cancelled model.enable: %s", m.Raw)
	}
	if _, err := os.Stat(filepath.Join(home, "enabled.json")); !os.IsNotExist(err) {
		t.Errorf("a cancelled model.enable wrote enabled.json (%v)", err)
	}
}

// A refresh whose provider sends no display names (OpenAI's shape), with
// enrichment off, keeps the names, efforts and context windows the
// previous cache knew for the same ids; new ids get their id as name.
func TestRefreshKeepsKnownNames(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	pr := prov{id: "p", typ: "openai-compatible", base: fake.Add("p", fakeprovider.Success("a", "new")), enabled: []string{"a"}}
	home := newHome(t, "", pr)
	entries := []catalog.Entry{{ID: "a", Name: "Model A", Efforts: []string{"low", "high"}, ContextWindow: 9000}, {ID: "gone", Name: "Gone", Efforts: []string{}}}
	data, err := catalog.EncodeCache(pr.provider(), entries, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, cachePath(home, "p"), data)
	p := startWith(t, home)
	m, before := refresh(t, p, "p")
	checkRefresh(t, m, before, wire.OutcomeRefreshed, "")
	rows, _, _ := models(t, p)
	want := []wire.ModelRow{
		{Provider: "p", Model: "a", Name: "Model A", Efforts: []string{"low", "high"}, ContextWindow: 9000, Enabled: true, Listed: true},
		{Provider: "p", Model: "new", Name: "new", Efforts: []string{}, Listed: true},
	}
	var got []wire.ModelRow
	for _, r := range rows {
		if r.Provider == "p" {
			got = append(got, r)
		}
	}
	if !slices.EqualFunc(got, want, equalRow) {
		t.Errorf("rows after a refresh without names:\n got %+v\nwant %+v", got, want)
	}
}

func equalRow(a, b wire.ModelRow) bool {
	return a.Provider == b.Provider && a.Model == b.Model && a.Name == b.Name && slices.Equal(a.Efforts, b.Efforts) &&
		a.ContextWindow == b.ContextWindow && a.Enabled == b.Enabled && a.Listed == b.Listed
}
