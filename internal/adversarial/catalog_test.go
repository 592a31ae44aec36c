package adversarial

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/catalog"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/leakscan"
	"github.com/scoutdev/scout/internal/scouttest"
)

var catalogCaps = []string{wire.MethodModelCatalog, wire.MethodModelCatalogStatus, wire.MethodModelRefresh, wire.MethodModelSelect, wire.MethodCancel}

// catalogProvider is one [[providers]] entry of a test config.toml.
type catalogProvider struct {
	id, typ, base, keyEnv, timeout string
	enabled                        []string
}

func (p catalogProvider) toml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[[providers]]\nid = %q\ntype = %q\nbase_url = %q\n", p.id, p.typ, p.base)
	if p.keyEnv != "" {
		fmt.Fprintf(&b, "api_key_env = %q\n", p.keyEnv)
	}
	if p.timeout != "" {
		fmt.Fprintf(&b, "refresh_timeout = %q\n", p.timeout)
	}
	q := make([]string, len(p.enabled))
	for i, m := range p.enabled {
		q[i] = fmt.Sprintf("%q", m)
	}
	fmt.Fprintf(&b, "enabled_models = [%s]\n", strings.Join(q, ", "))
	return b.String()
}

func (p catalogProvider) provider() *catalog.Provider {
	return &catalog.Provider{ID: p.id, Type: p.typ, BaseURL: p.base}
}

// catalogHome writes config.toml (enrichment as given: "" turns it off)
// into a fresh home.
func catalogHome(t *testing.T, enrich string, provs ...catalogProvider) string {
	t.Helper()
	home := filepath.Join(t.TempDir(), "home")
	var b strings.Builder
	fmt.Fprintf(&b, "[enrichment]\nurl = %q\n\n", enrich)
	for _, p := range provs {
		b.WriteString(p.toml() + "\n")
	}
	must(t, os.MkdirAll(filepath.Join(home, "catalog"), 0o700))
	must(t, os.WriteFile(filepath.Join(home, "config.toml"), []byte(b.String()), 0o600))
	return home
}

// encodeCache is a valid cache of p listing ids.
func encodeCache(t testing.TB, p catalogProvider, ids []string) []byte {
	t.Helper()
	entries := make([]catalog.Entry, len(ids))
	for i, id := range ids {
		entries[i] = catalog.Entry{ID: id, Name: "Model " + id, Efforts: []string{"low", "high"}}
	}
	data, err := catalog.EncodeCache(p.provider(), entries, time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// entriesFirst moves a cache's entries member before its header members.
func entriesFirst(t testing.TB, data []byte) []byte {
	t.Helper()
	i := bytes.Index(data, []byte(`,"entries":`))
	if i < 0 || data[0] != '{' || data[len(data)-1] != '}' {
		t.Fatalf("unexpected cache encoding %.80q", data)
	}
	out := append([]byte("{"), data[i+1:len(data)-1]...)
	out = append(append(out, ','), data[1:i]...)
	return append(out, '}')
}

func numbered(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%03d", prefix, i)
	}
	return out
}

// writeAtomic replaces path the way the backend does: a temporary file in
// the same directory renamed over it.
func writeAtomic(path string, data []byte) error {
	if fi, err := os.Lstat(path); err == nil && fi.IsDir() {
		os.RemoveAll(path) // a rename cannot replace a directory
	}
	tmp := path + ".swap"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// fatalVariants is how many of cacheVariants fail catalog calls.
const fatalVariants = 3

// cacheVariants are what a cache file is replaced with while catalog
// calls read it, and the answers each allows.
func cacheVariants(t *testing.T, p catalogProvider) []func(path string) error {
	a, b := encodeCache(t, p, numbered("a", 150)), encodeCache(t, p, numbered("b", 150))
	// Written in place, a cache can be read torn: the start of the old
	// file and the rest of the new one. Two catalogs of the same shape can
	// tear into a valid mix, which no reader can tell from a real catalog
	// (docs/hostile.md), so catalog C, the one written in place, has its
	// members in the other order (entries first, as JSON allows): a torn
	// read of C and A or B holds a member twice or lacks the header, and is
	// never a catalog.
	c := entriesFirst(t, encodeCache(t, p, numbered("c", 149)))
	other := p
	other.base = "http://127.0.0.1:10/other"
	foreign := encodeCache(t, other, numbered("a", 150))
	var doc catalog.Cache
	must(t, wire.Unmarshal(a, &doc))
	doc.Entries = []catalog.Entry{}
	empty, err := wire.Marshal(doc)
	must(t, err)
	huge := bytes.Repeat([]byte(" "), catalog.MaxCacheBytes+1)
	return []func(string) error{
		// The first fatalVariants fail every catalog call while they last.
		func(path string) error { os.RemoveAll(path); return os.Symlink(path+".swap", path) },
		func(path string) error { os.RemoveAll(path); return os.Mkdir(path, 0o700) },
		func(path string) error { return writeAtomic(path, huge) },
		func(path string) error { return writeAtomic(path, a) },
		func(path string) error { return writeAtomic(path, b) },
		func(path string) error { return writeAtomic(path, foreign) },
		func(path string) error { return writeAtomic(path, empty) },
		func(path string) error { return writeAtomic(path, []byte(`{"format":"scout.catalog.v1",`)) },
		func(path string) error { return os.WriteFile(path, c, 0o600) }, // in place: a reader may see it half written
		func(path string) error { os.RemoveAll(path); return nil },
	}
}

// TestCatalogCachesReplacedDuringStatus replaces the caches of four
// providers (valid catalogs A and B, another provider's, empty, broken,
// half written, missing, symlinked, a directory, oversized) while
// model.catalog.status and model.catalog page through them. Each fresh
// call answers a snapshot or catalog_unavailable/catalog_limit; its
// cursor pages always answer (the snapshot is in memory) with the same
// revision; every provider's choices come whole from one catalog that its
// status calls available; a choice of the snapshot can be selected.
func TestCatalogCachesReplacedDuringStatus(t *testing.T) {
	t.Parallel()
	enabled := append(append(numbered("a", 150), numbered("b", 150)...), numbered("c", 149)...)
	var provs []catalogProvider
	for i := range 4 {
		provs = append(provs, catalogProvider{id: fmt.Sprintf("p%d", i), typ: "openai-compatible", base: fmt.Sprintf("http://127.0.0.1:9/p%d", i), enabled: enabled})
	}
	home := catalogHome(t, "", provs...)
	variants := make([][]func(string) error, len(provs))
	for i, p := range provs {
		variants[i] = cacheVariants(t, p)
		must(t, variants[i][fatalVariants](filepath.Join(home, "catalog", p.id+".json")))
	}
	p := start(t, scouttest.Options{Env: []string{"SCOUT_HOME=" + home}}, leakscan.Canaries{Paths: []string{home}})
	p.Initialize(catalogCaps...)
	stop, done := make(chan struct{}), make(chan struct{})
	replaced := 0
	// Whole catalogs (A, B, C written in place) weigh more than the rest,
	// so that walks meet available catalogs as often as broken ones.
	weighted := []int{3, 3, 3, 4, 4, 4, 5, 6, 7, 8, 8, 9}
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 7))
	go func() {
		defer close(done)
		for {
			select {
			case <-stop:
				return
			default:
			}
			// Mostly catalogs of every kind; now and then, briefly, one that
			// fails every call (a symlink, a directory, an oversized file).
			i := rng.IntN(len(provs))
			path := filepath.Join(home, "catalog", provs[i].id+".json")
			if rng.IntN(20) == 0 {
				variants[i][rng.IntN(fatalVariants)](path)
				runtime.Gosched()
			}
			variants[i][weighted[rng.IntN(len(weighted))]](path)
			replaced++
			if replaced%16 == 0 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	outcomes := map[string]int{}
	for i := range rounds(60, 20) {
		method := wire.MethodModelCatalogStatus
		if i%3 == 2 {
			method = wire.MethodModelCatalog
		}
		outcomes[walkCatalog(t, p, method)]++
	}
	close(stop)
	<-done
	t.Logf("outcomes %v; %d caches replaced", outcomes, replaced)
	if outcomes["selected"] == 0 {
		t.Error("no walk ever got as far as a selection")
	}
	checkHomeFiles(t, home)
}

// walkCatalog makes one fresh call of method, follows its cursors, checks
// every page and selects a choice. It returns what happened.
func walkCatalog(t *testing.T, p *scouttest.Proc, method string) string {
	t.Helper()
	m := p.Call(method, map[string]any{"cursor": nil})
	switch m.Code() {
	case "":
	case wire.CodeCatalogUnavailable, wire.CodeCatalogLimit:
		return string(m.Code())
	default:
		t.Fatalf("%s answered %s", method, m.Raw)
	}
	var res wire.CatalogStatusResult
	m.Decode(t, &res)
	checkCatalogPage(t, m, res)
	revision, choices := res.Revision, res.Choices
	for res.Cursor != nil {
		m = p.Call(method, map[string]any{"cursor": *res.Cursor})
		if m.Error != nil {
			t.Fatalf("a cursor page of a current snapshot answered %s", m.Raw)
		}
		res = wire.CatalogStatusResult{}
		m.Decode(t, &res)
		checkCatalogPage(t, m, res)
		if res.Revision != revision {
			t.Fatalf("revision %s on a page of %s", res.Revision, revision)
		}
		choices = append(choices, res.Choices...)
	}
	byProvider := map[string][]wire.Choice{}
	for _, c := range choices {
		byProvider[c.Provider] = append(byProvider[c.Provider], c)
	}
	for prov, cs := range byProvider {
		prefix := cs[0].Model[:2]
		for _, c := range cs {
			if !strings.HasPrefix(c.Model, prefix) {
				t.Fatalf("%s mixes catalogs: %s and %s", prov, cs[0].Model, c.Model)
			}
		}
		if want := map[string]int{"a-": 150, "b-": 150, "c-": 149}[prefix]; len(cs) != want {
			t.Fatalf("%s has %d choices of catalog %s, which has %d", prov, len(cs), prefix, want)
		}
	}
	if len(choices) == 0 {
		return "no choices"
	}
	c := choices[len(choices)/2]
	sel := p.Call(wire.MethodModelSelect, map[string]any{"provider": c.Provider, "model": c.Model, "effort": "high", "revision": revision})
	if sel.Error != nil {
		t.Fatalf("selecting a choice of the current snapshot: %s", sel.Raw)
	}
	return "selected"
}

func checkCatalogPage(t *testing.T, m scouttest.Msg, res wire.CatalogStatusResult) {
	t.Helper()
	if len(m.Raw)+1 > wire.DefaultLimits.CatalogPageBytes || len(res.Choices) > wire.DefaultLimits.CatalogPageEntries || res.Choices == nil {
		t.Fatalf("page of %d bytes with %d choices", len(m.Raw)+1, len(res.Choices))
	}
	if res.Providers == nil {
		return
	}
	status := map[string]string{}
	for _, ps := range *res.Providers {
		status[ps.Provider] = ps.CatalogStatus
	}
	for _, c := range res.Choices {
		if status[c.Provider] != wire.CatalogAvailable {
			t.Fatalf("a choice of %s, whose catalog is %s", c.Provider, status[c.Provider])
		}
	}
}

// checkHomeFiles: after everything, the home holds no temporary file of
// the backend, state.json (if any) is a whole document, and every cache
// the backend wrote is whole.
func checkHomeFiles(t *testing.T, home string) {
	t.Helper()
	filepath.Walk(home, func(p string, fi os.FileInfo, err error) error {
		if err == nil && strings.HasPrefix(fi.Name(), ".scout-tmp-") {
			t.Errorf("temporary file left behind: %s", strings.TrimPrefix(p, home))
		}
		return nil
	})
	if data, err := os.ReadFile(filepath.Join(home, "state.json")); err == nil {
		if !bytes.HasPrefix(data, []byte(`{"format":"scout.state.v1"`)) || !bytes.HasSuffix(bytes.TrimSpace(data), []byte("}")) {
			t.Errorf("state.json is not whole: %q", data)
		}
	}
}
