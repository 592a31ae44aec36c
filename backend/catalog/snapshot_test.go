package catalog

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// writeCache writes a valid cache for p with the given model ids.
func writeCache(t testing.TB, home string, p *Provider, ids ...string) []byte {
	t.Helper()
	entries := make([]Entry, len(ids))
	for i, id := range ids {
		entries[i] = Entry{ID: id, Name: strings.ToUpper(id), Efforts: []string{"low", "high"}}
	}
	data, err := EncodeCache(p, entries, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(home, "catalog", p.ID+".json"), data)
	return data
}

func TestScanStatusesAndNotices(t *testing.T) {
	t.Parallel()
	prov := func(id string, enabled ...string) Provider {
		return Provider{ID: id, Type: TypeOpenAI, BaseURL: "http://127.0.0.1:9/v1", APIKeyEnv: "KEY", EnabledModels: enabled}
	}
	providers := []Provider{
		prov("missing"), prov("empty"), prov("badjson"), prov("badschema"), prov("otherfp"),
		prov("custom", "m1", "absent", "m2"), prov("unused"),
		{ID: "nokey", Type: TypeOpenAI, BaseURL: "http://127.0.0.1:9/v1", APIKeyEnv: "NONE", EnabledModels: []string{"x"}},
	}
	s, home := newService(t, Options{}, providers...)
	cache := func(id string) string { return filepath.Join(home, "catalog", id+".json") }
	writeFile(t, cache("empty"), []byte(cacheFor("empty", `[]`)))
	writeFile(t, cache("badjson"), []byte(`{"format":"scout.catalog.v1",`))
	writeFile(t, cache("badschema"), []byte(`{"format":"scout.catalog.v1","provider":"badschema"}`))
	other := prov("otherfp")
	other.BaseURL = "http://127.0.0.1:10/v1"
	writeCache(t, home, &other, "m1")
	writeCache(t, home, s.byID["custom"], "m2", "m1", "m3")
	writeCache(t, home, s.byID["unused"], "u1")

	snap, err := s.scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]wire.ProviderStatus{}
	var order []string
	for _, p := range snap.providers {
		got[p.Provider] = p
		order = append(order, p.Provider)
	}
	if strings.Join(order, ",") != "custom,nokey,missing,empty,badjson,badschema,otherfp,unused" {
		t.Errorf("order = %v", order)
	}
	want := map[string]wire.ProviderStatus{
		"missing":   {Provider: "missing", CatalogStatus: wire.CatalogMissingCache, Authentication: wire.AuthNotChecked, Recovery: wire.RecoveryRefreshCatalog},
		"empty":     {Provider: "empty", CatalogStatus: wire.CatalogEmptyCache, Authentication: wire.AuthNotChecked, Recovery: wire.RecoveryRefreshCatalog},
		"badjson":   {Provider: "badjson", CatalogStatus: wire.CatalogInvalidFormat, Authentication: wire.AuthNotChecked, Recovery: wire.RecoveryRefreshCatalog},
		"badschema": {Provider: "badschema", CatalogStatus: wire.CatalogInvalidSchema, Authentication: wire.AuthNotChecked, Recovery: wire.RecoveryRefreshCatalog},
		"otherfp":   {Provider: "otherfp", CatalogStatus: wire.CatalogIncompatibleFingerprint, Authentication: wire.AuthNotChecked, Recovery: wire.RecoveryRefreshCatalog},
		"custom":    {Provider: "custom", CatalogStatus: wire.CatalogAvailable, Authentication: wire.AuthReady, Relevant: true, Recovery: wire.RecoveryNone},
		"unused":    {Provider: "unused", CatalogStatus: wire.CatalogAvailable, Authentication: wire.AuthNotChecked, Recovery: wire.RecoveryEnableModelsAndRestart},
		"nokey":     {Provider: "nokey", CatalogStatus: wire.CatalogMissingCache, Authentication: wire.AuthUnavailable, Relevant: true, Recovery: wire.RecoveryConfigureAuthentication},
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s = %+v, want %+v", id, got[id], w)
		}
	}
	if fmt.Sprint(snap.notices) != "[{missing_cache nokey} {authentication_unavailable nokey}]" {
		t.Errorf("notices = %v", snap.notices)
	}
	if len(snap.choices) != 2 || snap.choices[0].Model != "m1" || snap.choices[1].Model != "m2" ||
		!snap.choices[0].Selectable || snap.choices[0].Name != "M1" || len(snap.choices[0].Efforts) != 2 {
		t.Errorf("choices = %+v", snap.choices)
	}
}

func cacheFor(id, entries string) string {
	p := Provider{ID: id, Type: TypeOpenAI, BaseURL: "http://127.0.0.1:9/v1"}
	return `{"format":"scout.catalog.v1","provider":"` + id + `","fingerprint":"` + p.Fingerprint() +
		`","fetched_at":"2026-11-29T18:00:00Z","entries":` + entries + `}`
}

func TestScanFailures(t *testing.T) {
	t.Parallel()
	p := Provider{ID: "p", Type: TypeOpenAI, BaseURL: "http://127.0.0.1:9/v1", APIKeyEnv: "KEY"}
	cases := map[string]struct {
		setup func(t *testing.T, home string)
		want  wire.Code
	}{
		"over 1 MiB": {func(t *testing.T, home string) {
			writeFile(t, filepath.Join(home, "catalog", "p.json"), make([]byte, MaxCacheBytes+1))
		}, wire.CodeCatalogLimit},
		"symlink": {func(t *testing.T, home string) {
			writeFile(t, filepath.Join(home, "elsewhere.json"), []byte(cacheFor("p", `[]`)))
			symlink(t, filepath.Join(home, "elsewhere.json"), filepath.Join(home, "catalog", "p.json"))
		}, wire.CodeCatalogUnavailable},
		"directory": {func(t *testing.T, home string) {
			mkdir(t, filepath.Join(home, "catalog", "p.json"))
		}, wire.CodeCatalogUnavailable},
		"catalog is a file": {func(t *testing.T, home string) {
			writeFile(t, filepath.Join(home, "catalog"), nil)
		}, wire.CodeCatalogUnavailable},
		"fifo": {func(t *testing.T, home string) {
			mkfifo(t, filepath.Join(home, "catalog", "p.json"))
		}, wire.CodeCatalogUnavailable},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			s, home := newService(t, Options{}, p)
			c.setup(t, home)
			_, err := s.scan(context.Background())
			we, ok := err.(*wire.Error)
			if !ok || we.Code != c.want {
				t.Fatalf("scan error = %v, want %s", err, c.want)
			}
		})
	}
	t.Run("no home", func(t *testing.T) {
		s, _ := newService(t, Options{}, p)
		snap, err := s.scan(context.Background())
		if err != nil || snap.providers[0].CatalogStatus != wire.CatalogMissingCache {
			t.Fatalf("scan = %+v, %v", snap, err)
		}
	})
}

func TestSelectionRelevance(t *testing.T) {
	t.Parallel()
	p := Provider{ID: "p", Type: TypeOpenAI, BaseURL: "http://127.0.0.1:9/v1", APIKeyEnv: "NONE"}
	s, home := newService(t, Options{}, p)
	writeFile(t, filepath.Join(home, "state.json"), []byte(`{"format":"scout.state.v1","selection":{"provider":"p","model":"m","effort":null}}`))
	snap, err := s.scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ps := snap.providers[0]
	if !ps.Relevant || ps.Authentication != wire.AuthUnavailable || ps.Recovery != wire.RecoveryConfigureAuthentication {
		t.Fatalf("selected provider = %+v", ps)
	}
	if snap.selection == nil || snap.selection.Model != "m" || len(snap.notices) != 2 {
		t.Fatalf("selection %+v notices %v", snap.selection, snap.notices)
	}
	writeFile(t, filepath.Join(home, "state.json"), []byte(`{"selection":1}`))
	if snap, _ := s.scan(context.Background()); snap.selection != nil || snap.providers[0].Relevant {
		t.Fatalf("malformed state.json gave %+v", snap.selection)
	}
}

func TestProvidersBound(t *testing.T) {
	t.Parallel()
	var providers []Provider
	for i := range 40 {
		p := Provider{ID: fmt.Sprintf("p%02d", i), Type: TypeOllama, BaseURL: "http://127.0.0.1:9"}
		if i >= 35 {
			p.EnabledModels = []string{"m"}
		}
		providers = append(providers, p)
	}
	s, _ := newService(t, Options{}, providers...)
	snap, err := s.scan(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.providers) != 32 || snap.providers[0].Provider != "p35" || snap.providers[5].Provider != "p00" || snap.providers[31].Provider != "p26" {
		t.Fatalf("providers: %d, first %s, sixth %s, last %s", len(snap.providers), snap.providers[0].Provider, snap.providers[5].Provider, snap.providers[31].Provider)
	}
}
