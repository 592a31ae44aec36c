package catalog_test

import (
	"bufio"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/wire"
)

// A broken config.toml leaves the catalog without providers: both catalog
// methods answer no providers and no choices, and model.refresh refuses
// every id as invalid_params (docs/protocol.md §10.8.1).
func TestBlackBoxBrokenConfigHasNoProviders(t *testing.T) {
	t.Parallel()
	p := prov{id: "x", typ: "openai", base: "http://127.0.0.1:9/v1", keyEnv: testKeyEnv, enabled: []string{"m"}}
	home := newHome(t, "", p)
	writeValidCache(t, home, p, "m")
	mustWrite(t, filepath.Join(home, "config.toml"), []byte(p.toml()+"bogus = 1\n"))
	b := startBackend(t, home)
	st := status(t, b)
	if len(st.Choices) != 0 || len(*st.Providers) != 0 || len(*st.Notices) != 0 {
		t.Errorf("broken config.toml: status %+v", st)
	}
	if c := catalogPage(t, b, nil); len(c.Choices) != 0 || len(*c.Notices) != 0 {
		t.Errorf("broken config.toml: catalog %+v", c)
	}
	if m, _ := refresh(t, b, "x"); m.Code() != wire.CodeInvalidParams {
		t.Errorf("refresh of a provider of a broken config.toml: %s", m.Raw)
	}
}

// Without an [enrichment] table a refresh fetches https://models.dev/api.json,
// through the environment's proxy; the provider on 127.0.0.1 is reached
// directly. The proxy here refuses, so enrichment is skipped and the refresh
// still succeeds (docs/protocol.md §10.8.1, §10.8.4). Nothing leaves 127.0.0.1.
func TestBlackBoxDefaultEnrichmentThroughProxy(t *testing.T) {
	t.Parallel()
	proxy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { proxy.Close() })
	asked := make(chan string, 4)
	go func() {
		for {
			conn, err := proxy.Accept()
			if err != nil {
				return
			}
			line, _ := bufio.NewReader(conn).ReadString('\n')
			asked <- strings.TrimSpace(line)
			conn.Close()
		}
	}()
	fake := startFake(t)
	p := prov{id: "local", typ: "openai-compatible", base: fake.Add("local", fakeprovider.Success("m")), enabled: []string{"m"}}
	home := filepath.Join(t.TempDir(), "home")
	mustWrite(t, filepath.Join(home, "config.toml"), []byte(p.toml()))
	url := "http://" + proxy.Addr().String()
	b := startBackend(t, home, "HTTPS_PROXY="+url, "https_proxy="+url, "HTTP_PROXY="+url, "http_proxy="+url, "NO_PROXY=", "no_proxy=")
	m, before := refresh(t, b, "local")
	checkRefresh(t, m, before, wire.OutcomeRefreshed, "")
	select {
	case got := <-asked:
		if got != "CONNECT models.dev:443 HTTP/1.1" {
			t.Errorf("the proxy was asked %q", got)
		}
	default:
		t.Error("enrichment did not go through the proxy")
	}
	if n := len(fake.Requests("local")); n != 1 {
		t.Errorf("the provider on 127.0.0.1 was asked %d times", n)
	}
	if data, err := os.ReadFile(cachePath(home, "local")); err != nil || !strings.Contains(string(data), `"name":"m"`) {
		t.Errorf("cache without enrichment: %s %v", data, err)
	}
}

// A credential_file relative to the home is read through the guarded
// helpers: its first non-blank line, trimmed, is the key. A symlink, a file
// over 64 KiB, a blank file or a key with an invisible byte is
// authentication_unavailable, before any request (docs/protocol.md §10.8.1).
func TestBlackBoxCredentialFiles(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	base := fake.Add("keyed", fakeprovider.Scenario{Key: "sk-file", Models: []fakeprovider.Model{{ID: "m"}}})
	files := map[string]string{
		"good":  "\n  \r\n\t sk-file \r\nsecond line\n",
		"big":   "sk-file\n" + strings.Repeat("#", 64<<10),
		"blank": " \n\t\n",
		"inner": "sk file\n",
		"utf8":  "sk-filé\n",
	}
	var provs []prov
	for name := range files {
		provs = append(provs, prov{id: name, typ: "openai", base: base, credFile: "keys/" + name, enabled: []string{"m"}})
	}
	provs = append(provs, prov{id: "link", typ: "anthropic", base: base, credFile: "keys/link", enabled: []string{"m"}})
	home := newHome(t, "", provs...)
	for name, data := range files {
		mustWrite(t, filepath.Join(home, "keys", name), []byte(data))
	}
	if err := os.Symlink("good", filepath.Join(home, "keys", "link")); err != nil {
		t.Fatal(err)
	}
	b := startBackend(t, home)
	st := status(t, b)
	for _, pr := range provs {
		want, reason, outcome := wire.AuthUnavailable, wire.ReasonAuthenticationUnavailable, wire.OutcomeFailed
		if pr.id == "good" {
			want, reason, outcome = wire.AuthReady, "", wire.OutcomeRefreshed
		}
		if got := providerStatus(t, st, pr.id).Authentication; got != want {
			t.Errorf("%s: authentication %s, want %s", pr.id, got, want)
		}
		m, before := refresh(t, b, pr.id)
		checkRefresh(t, m, before, outcome, reason)
	}
	reqs := fake.Requests("keyed")
	if len(reqs) != 1 || reqs[0].Bearer != "sk-file" {
		t.Errorf("requests %+v, want one with the good file's key", reqs)
	}
}

// A cache belongs to its provider's identity (docs/protocol.md §10.8.2): trailing slashes of
// the base URL do not change it; another base URL or type makes the cache
// incompatible_fingerprint; a cache naming another provider id is
// invalid_schema, which is checked first.
func TestBlackBoxFingerprintFollowsIdentity(t *testing.T) {
	t.Parallel()
	const base = "http://127.0.0.1:9/v1"
	cases := []struct {
		configured, written prov
		want                string
	}{
		{prov{id: "slash", typ: "ollama", base: base + "//"}, prov{id: "slash", typ: "ollama", base: base}, wire.CatalogAvailable},
		{prov{id: "endpoint", typ: "ollama", base: base + "/x"}, prov{id: "endpoint", typ: "ollama", base: base}, wire.CatalogIncompatibleFingerprint},
		{prov{id: "type", typ: "ollama", base: base}, prov{id: "type", typ: "openai-compatible", base: base}, wire.CatalogIncompatibleFingerprint},
		{prov{id: "renamed", typ: "ollama", base: base}, prov{id: "old", typ: "ollama", base: base}, wire.CatalogInvalidSchema},
	}
	var provs []prov
	for _, c := range cases {
		c.configured.enabled = []string{"m"}
		provs = append(provs, c.configured)
	}
	home := newHome(t, "", provs...)
	for _, c := range cases {
		mustWrite(t, cachePath(home, c.configured.id), writeValidCache(t, home, c.written, "m"))
	}
	st := status(t, startBackend(t, home))
	for _, c := range cases {
		if got := providerStatus(t, st, c.configured.id).CatalogStatus; got != c.want {
			t.Errorf("%s: catalog_status %s, want %s", c.configured.id, got, c.want)
		}
	}
}

// What a refresh writes (docs/protocol.md §10.8.4): entries sorted by id; a name from the
// list's display_name (cleaned; a later duplicate only fills a missing
// one), else the enrichment's under the provider's own key, else the id;
// efforts and context window only from the enrichment.
func TestBlackBoxRefreshNamesAndEnrichment(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	base := fake.Add("anth", fakeprovider.Scenario{Models: []fakeprovider.Model{
		{ID: "z"}, {ID: "a", Name: " Alpha\u202e \t One "}, {ID: "z", Name: "Zed"}, {ID: "e"}, {ID: "plain"}, {ID: "a", Name: "Second"},
	}})
	enrich := fake.Add("enrich", fakeprovider.Enrichment(`{
		"anthropic": {"models": {"plain": {"name": "Not this key"}}},
		"anth": {"models": {
			"e": {"name": "  Enriched\u0007 ", "reasoning": true, "limit": {"context": 200000}},
			"a": {"name": "Not used", "reasoning": ["max", "min"]},
			"z": {"name": "Not used either", "limit": {"context": -1}},
			"plain": {"name": 7}
		}}}`)) + "/api.json"
	p := prov{id: "anth", typ: "anthropic", base: base, keyEnv: testKeyEnv, enabled: []string{"a"}}
	home := newHome(t, enrich, p)
	m, before := refresh(t, startBackend(t, home), "anth")
	checkRefresh(t, m, before, wire.OutcomeRefreshed, "")
	got := string(mustRead(t, cachePath(home, "anth")))
	want := `"entries":[` +
		`{"id":"a","name":"Alpha One","efforts":["max","min"],"context_window":0},` +
		`{"id":"e","name":"Enriched","efforts":["low","medium","high"],"context_window":200000},` +
		`{"id":"plain","name":"plain","efforts":[],"context_window":0},` +
		`{"id":"z","name":"Zed","efforts":[],"context_window":0}]}`
	if !strings.HasSuffix(got, want) {
		t.Errorf("cache:\n%s\nwant it to end with\n%s", got, want)
	}
}

// A provider id too long for "<id>.json" to be a file name (over 250
// bytes) has missing_cache, and its refresh fetches the list but answers
// cache_write_failed with check_backend_home (docs/protocol.md §10.8.2).
func TestBlackBoxProviderIDTooLongForACache(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	long := prov{id: strings.Repeat("l", 251), typ: "ollama", base: fake.Add("long", fakeprovider.Success("m")), enabled: []string{"m"}}
	b := startBackend(t, newHome(t, "", long))
	if got := providerStatus(t, status(t, b), long.id).CatalogStatus; got != wire.CatalogMissingCache {
		t.Errorf("catalog_status %s, want missing_cache", got)
	}
	m, before := refresh(t, b, long.id)
	if res := checkRefresh(t, m, before, wire.OutcomeFailed, wire.ReasonCacheWriteFailed); res.Recovery != "check_backend_home" {
		t.Errorf("recovery %s", res.Recovery)
	}
	if n := len(fake.Requests("long")); n != 1 {
		t.Errorf("the provider was asked %d times, want once", n)
	}
}
