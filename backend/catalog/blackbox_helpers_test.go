package catalog_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/catalog"
	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// testKeyEnv holds the key every keyed test provider uses.
const testKeyEnv = "SCOUT_TEST_PROVIDER_KEY"

// prov is one [[providers]] entry of a test config.toml.
type prov struct {
	id, typ, base string
	enabled       []string
	keyEnv        string
	credFile      string
	timeout       string
}

// toml renders the entry.
func (p prov) toml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[[providers]]\nid = %q\ntype = %q\nbase_url = %q\n", p.id, p.typ, p.base)
	if p.keyEnv != "" {
		fmt.Fprintf(&b, "api_key_env = %q\n", p.keyEnv)
	}
	if p.credFile != "" {
		fmt.Fprintf(&b, "credential_file = %q\n", p.credFile)
	}
	if len(p.enabled) > 0 {
		quoted := make([]string, len(p.enabled))
		for i, m := range p.enabled {
			quoted[i] = fmt.Sprintf("%q", m)
		}
		fmt.Fprintf(&b, "enabled_models = [%s]\n", strings.Join(quoted, ", "))
	}
	if p.timeout != "" {
		fmt.Fprintf(&b, "refresh_timeout = %q\n", p.timeout)
	}
	return b.String()
}

// provider is the catalog package's view of the entry (for fingerprints).
func (p prov) provider() *catalog.Provider {
	return &catalog.Provider{ID: p.id, Type: p.typ, BaseURL: p.base}
}

// newHome writes config.toml (enrichment off unless enrichURL is set: no
// test reaches beyond 127.0.0.1) into a fresh home and returns its path.
func newHome(t *testing.T, enrichURL string, provs ...prov) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	var b strings.Builder
	fmt.Fprintf(&b, "[enrichment]\nurl = %q\n\n", enrichURL)
	for _, p := range provs {
		b.WriteString(p.toml() + "\n")
	}
	mustWrite(t, filepath.Join(home, "config.toml"), []byte(b.String()))
	return home
}

// hideBuiltins appends to home's config.toml the entries that hide the
// keyless built-in providers (the keyed ones need a key variable, which
// testhome unsets).
func hideBuiltins(t *testing.T, home string) string {
	t.Helper()
	path := filepath.Join(home, "config.toml")
	data, _ := os.ReadFile(path)
	data = append(data, "\n[[providers]]\nid = \"ollama\"\ndisabled = true\n\n[[providers]]\nid = \"lmstudio\"\ndisabled = true\n"...)
	mustWrite(t, path, data)
	return home
}

func mustWrite(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// writeValidCache writes a valid cache for p listing ids.
func writeValidCache(t *testing.T, home string, p prov, ids ...string) []byte {
	t.Helper()
	entries := make([]catalog.Entry, len(ids))
	for i, id := range ids {
		entries[i] = catalog.Entry{ID: id, Name: "Name of " + id, Efforts: []string{"low", "high"}}
	}
	data, err := catalog.EncodeCache(p.provider(), entries, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, cachePath(home, p.id), data)
	return data
}

func cachePath(home, id string) string { return filepath.Join(home, "catalog", id+".json") }

// startBackend starts scout backend over home with the test key set and
// negotiates every catalog capability plus operation.cancel.
func startBackend(t *testing.T, home string, extra ...string) *scouttest.Proc {
	t.Helper()
	opts := scouttest.Options{Env: append([]string{"SCOUT_HOME=" + home, testKeyEnv + "=test-key"}, extra...)}
	p := scouttest.Start(t, opts)
	p.Initialize(wire.MethodModelCatalog, wire.MethodModelCatalogStatus, wire.MethodModelRefresh, wire.MethodModelSelect, wire.MethodCancel)
	return p
}

// status is a fresh model.catalog.status first page.
func status(t *testing.T, p *scouttest.Proc) wire.CatalogStatusResult {
	t.Helper()
	var st wire.CatalogStatusResult
	p.MustCall(wire.MethodModelCatalogStatus, map[string]any{"cursor": nil}, &st)
	return st
}

// catalogPage is a model.catalog page (cursor nil: fresh).
func catalogPage(t *testing.T, p *scouttest.Proc, cursor *string) wire.CatalogResult {
	t.Helper()
	var res wire.CatalogResult
	p.MustCall(wire.MethodModelCatalog, map[string]any{"cursor": cursor}, &res)
	return res
}

func providerStatus(t *testing.T, st wire.CatalogStatusResult, id string) wire.ProviderStatus {
	t.Helper()
	for _, ps := range *st.Providers {
		if ps.Provider == id {
			return ps
		}
	}
	t.Fatalf("provider %s not in status", id)
	return wire.ProviderStatus{}
}

// refresh sends model.refresh and returns the response and what came before.
func refresh(t *testing.T, p *scouttest.Proc, id string) (scouttest.Msg, []scouttest.Msg) {
	t.Helper()
	rid := p.NextID()
	p.Request(rid, wire.MethodModelRefresh, map[string]any{"provider": id})
	return p.Await(rid)
}

// startFake starts the fake provider for one test.
func startFake(t *testing.T) *fakeprovider.Server {
	t.Helper()
	srv, err := fakeprovider.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	return srv
}

// callUntilNotBusy calls method until the answer is not busy (a worker that
// was cancelled keeps its admission slot until it has returned).
func callUntilNotBusy(t *testing.T, p *scouttest.Proc, method string, params any) scouttest.Msg {
	t.Helper()
	deadline := time.Now().Add(scouttest.DefaultTimeout)
	for {
		m := p.Call(method, params)
		if m.Code() != wire.CodeBusy || time.Now().After(deadline) {
			return m
		}
		time.Sleep(20 * time.Millisecond)
	}
}
