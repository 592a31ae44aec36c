package catalog_test

import (
	"bytes"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// Every reason of docs/protocol.md §7's mapping, through the real binary: one
// provider per situation, each with a previous cache that a failure keeps
// byte for byte, a selection that no refresh changes, and catalog calls that
// never reach the network.
func TestBlackBoxRefreshReasons(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	refused, err := fakeprovider.UnreachableURL()
	if err != nil {
		t.Fatal(err)
	}
	long := make([]fakeprovider.Model, 2048) // about 1.1 MB as a cache, 1.2 MB as a body
	for i := range long {
		long[i] = fakeprovider.Model{ID: strings.Repeat("i", 240) + strconv.Itoa(i), Name: strings.Repeat("n", 250)}
	}
	cases := []struct {
		name, typ, reason string
		sc                fakeprovider.Scenario
		base              string // instead of the scenario's URL
		keyEnv, credFile  string
		timeout           string
	}{
		{name: "nokey", typ: "openai", reason: wire.ReasonAuthenticationUnavailable, keyEnv: "SCOUT_TEST_UNSET_KEY", sc: fakeprovider.Success("m")},
		{name: "nofile", typ: "anthropic", reason: wire.ReasonAuthenticationUnavailable, credFile: "keys/missing", sc: fakeprovider.Success("m")},
		{name: "s401", typ: "openai", reason: wire.ReasonAuthenticationRejected, sc: fakeprovider.Unauthorized},
		{name: "s403", typ: "anthropic", reason: wire.ReasonAuthenticationRejected, sc: fakeprovider.Forbidden},
		{name: "s404", typ: "openai", reason: wire.ReasonConfigurationInvalid, sc: fakeprovider.NotFound},
		{name: "s429", typ: "openai", reason: wire.ReasonRateLimited, sc: fakeprovider.RateLimited},
		{name: "s400", typ: "openai", reason: wire.ReasonRemoteUnavailable, sc: fakeprovider.Scenario{Status: http.StatusBadRequest}},
		{name: "s418", typ: "anthropic", reason: wire.ReasonRemoteUnavailable, sc: fakeprovider.Scenario{Status: http.StatusTeapot}},
		{name: "s500", typ: "openai", reason: wire.ReasonRemoteUnavailable, sc: fakeprovider.ServerError},
		{name: "s503", typ: "ollama", reason: wire.ReasonRemoteUnavailable, sc: fakeprovider.Scenario{Status: http.StatusServiceUnavailable}},
		{name: "refused", typ: "openai", reason: wire.ReasonRemoteUnavailable, base: refused},
		{name: "reset", typ: "openai", reason: wire.ReasonRemoteUnavailable, sc: fakeprovider.Reset},
		{name: "crossorigin", typ: "openai", reason: wire.ReasonRemoteUnavailable, sc: fakeprovider.CrossOrigin},
		{name: "sameorigin", typ: "openai", sc: fakeprovider.Scenario{RedirectSameOrigin: "sameorigin-target"}},
		{name: "hang", typ: "openai", reason: wire.ReasonRemoteTimeout, sc: fakeprovider.Hanging, timeout: "1s"},
		{name: "empty", typ: "openai", reason: wire.ReasonEmptyCatalog, sc: fakeprovider.Empty},
		{name: "unparseable", typ: "openai", reason: wire.ReasonInvalidCatalog, sc: fakeprovider.InvalidJSON},
		{name: "wrongshape", typ: "ollama", reason: wire.ReasonInvalidCatalog, sc: fakeprovider.WrongShape},
		{name: "oversized", typ: "openai", reason: wire.ReasonCatalogLimit, sc: fakeprovider.Oversized},
		{name: "toomany", typ: "openai", reason: wire.ReasonCatalogLimit, sc: fakeprovider.TooMany},
		{name: "cachebig", typ: "anthropic", reason: wire.ReasonCatalogLimit, sc: fakeprovider.Success(), base: ""},
		{name: "duplicates", typ: "openai", sc: fakeprovider.Success("m", "d", "m", "d")},
	}
	// docs/protocol.md §10.8.4's recovery of each outcome (all rescans succeed).
	recoveries := map[string]string{
		"":                                   "reload_catalog",
		wire.ReasonAuthenticationUnavailable: "configure_authentication",
		wire.ReasonAuthenticationRejected:    "configure_authentication",
		wire.ReasonConfigurationInvalid:      "fix_configuration_and_restart",
		wire.ReasonRateLimited:               "retry_later",
		wire.ReasonRemoteUnavailable:         "retry_later",
		wire.ReasonRemoteTimeout:             "retry_later",
		wire.ReasonEmptyCatalog:              "check_provider",
		wire.ReasonInvalidCatalog:            "check_provider",
		wire.ReasonCatalogLimit:              "check_provider",
	}
	fake.Add("sameorigin-target", fakeprovider.Success("m", "r"))
	var provs []prov
	for i := range cases {
		c := &cases[i]
		if c.name == "cachebig" {
			c.sc = fakeprovider.Scenario{Models: long}
		}
		base := c.base
		if base == "" {
			base = fake.Add(c.name, c.sc)
		}
		key := c.keyEnv
		if key == "" && c.credFile == "" {
			key = testKeyEnv
		}
		provs = append(provs, prov{id: c.name, typ: c.typ, base: base, keyEnv: key, credFile: c.credFile, timeout: c.timeout, enabled: []string{"m"}})
	}
	home := newHome(t, "", provs...)
	old := map[string][]byte{}
	for _, p := range provs {
		old[p.id] = writeValidCache(t, home, p, "m", "old")
	}
	p := startBackend(t, home)
	catalogPage(t, p, nil)
	first := status(t, p)
	for _, c := range cases {
		if n := len(fake.Requests(c.name)); n != 0 {
			t.Fatalf("catalog calls reached provider %s (%d requests)", c.name, n)
		}
	}
	p.MustCall(wire.MethodModelSelect, map[string]any{"provider": "s401", "model": "m", "effort": "low", "revision": first.Revision}, nil)
	state := mustRead(t, filepath.Join(home, "state.json"))

	for _, c := range cases {
		m, before := refresh(t, p, c.name)
		outcome := wire.OutcomeFailed
		if c.reason == "" {
			outcome = wire.OutcomeRefreshed
		}
		res := checkRefresh(t, m, before, outcome, c.reason)
		if res.CatalogRevision == nil || res.CatalogError != nil || res.Recovery != recoveries[c.reason] {
			t.Errorf("%s: %s", c.name, m.Raw)
		}
		got := mustRead(t, cachePath(home, c.name))
		if c.reason != "" && !bytes.Equal(got, old[c.name]) {
			t.Errorf("%s: a failed refresh changed the cache:\n%s", c.name, got)
		}
		if c.reason == "" && bytes.Equal(got, old[c.name]) {
			t.Errorf("%s: a successful refresh kept the old cache", c.name)
		}
	}
	// Duplicate ids are merged; a same-origin redirect is followed.
	if got := string(mustRead(t, cachePath(home, "duplicates"))); strings.Count(got, `"id":"m"`) != 1 || strings.Count(got, `"id":"d"`) != 1 {
		t.Errorf("duplicates merged into:\n%s", got)
	}
	if got := mustRead(t, cachePath(home, "sameorigin")); !bytes.Contains(got, []byte(`"id":"r"`)) {
		t.Errorf("same-origin redirect: %s", got)
	}
	if got := mustRead(t, filepath.Join(home, "state.json")); !bytes.Equal(got, state) {
		t.Errorf("state.json changed by refreshes:\n%s\nwas\n%s", got, state)
	}
	entries, err := os.ReadDir(filepath.Join(home, "catalog"))
	if err != nil || len(entries) != len(cases) {
		t.Errorf("catalog directory: %d entries (%v), want %d caches and no temporary file", len(entries), err, len(cases))
	}
}

// model.refresh's params are exactly {"provider":S} naming a configured
// provider (invalid_params otherwise, never admitted: the revision stays
// current); while one refresh runs, a second refresh and a select are busy.
func TestBlackBoxRefreshParamsAndBusy(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	hang := prov{id: "hang", typ: "ollama", base: fake.Add("hang", fakeprovider.Hanging), enabled: []string{"m"}}
	home := newHome(t, "", hang)
	writeValidCache(t, home, hang, "m")
	p := startBackend(t, home)
	cat := catalogPage(t, p, nil)
	for name, params := range map[string]any{
		"absent":         nil,
		"empty":          map[string]any{},
		"null id":        map[string]any{"provider": nil},
		"number":         map[string]any{"provider": 7},
		"array":          map[string]any{"provider": []string{"hang"}},
		"empty id":       map[string]any{"provider": ""},
		"unknown":        map[string]any{"provider": "nope"},
		"other case":     map[string]any{"provider": "HANG"},
		"unknown of 256": map[string]any{"provider": strings.Repeat("h", 256)},
		"257 bytes":      map[string]any{"provider": strings.Repeat("h", 257)},
		"unsafe":         map[string]any{"provider": "../hang"},
		"extra member":   map[string]any{"provider": "hang", "force": true},
	} {
		if m := p.Call(wire.MethodModelRefresh, params); m.Code() != wire.CodeInvalidParams || bytes.Contains(m.Raw, []byte("rpc.command")) {
			t.Errorf("%s: %s", name, m.Raw)
		}
	}
	if len(fake.Requests("hang")) != 0 {
		t.Fatal("a refused refresh reached the provider")
	}
	if m := p.Call(wire.MethodModelSelect, map[string]any{"provider": "hang", "model": "m", "revision": cat.Revision}); m.Error != nil {
		t.Fatalf("select with the revision from before the refused refreshes: %s", m.Raw)
	}
	p.Request("r1", wire.MethodModelRefresh, map[string]any{"provider": "hang"})
	if m := p.Next(scouttest.DefaultTimeout); m.Method != wire.NotifyCommandStarted {
		t.Fatalf("first message %s", m.Raw)
	}
	if m := p.Call(wire.MethodModelRefresh, map[string]any{"provider": "hang"}); m.Code() != wire.CodeBusy {
		t.Errorf("second refresh: %s", m.Raw)
	}
	if m := p.Call(wire.MethodModelSelect, map[string]any{"provider": "hang", "model": "m", "revision": cat.Revision}); m.Code() != wire.CodeBusy {
		t.Errorf("select during a refresh: %s", m.Raw)
	}
	if m := p.Call(wire.MethodStatus, nil); m.Error != nil {
		t.Errorf("status during a refresh: %s", m.Raw)
	}
	p.MustCall(wire.MethodCancel, map[string]any{"request_id": "r1"}, nil)
	if m, _ := p.Await("r1"); m.Code() != wire.CodeOperationCancelled {
		t.Fatalf("cancelled refresh: %s", m.Raw)
	}
}

// A provider whose id starts like a temporary file (".scout-tmp-x") keeps
// its cache when another provider's refresh writes into catalog/: only
// exact temporary names left by a dead writer are swept.
func TestBlackBoxTempLikeProviderCacheSurvives(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	tmpLike := prov{id: ".scout-tmp-x", typ: "ollama", base: "http://127.0.0.1:9/v1", enabled: []string{"m"}}
	other := prov{id: "other", typ: "ollama", base: fake.Add("other", fakeprovider.Success("m")), enabled: []string{"m"}}
	home := newHome(t, "", tmpLike, other)
	data := writeValidCache(t, home, tmpLike, "m")
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(cachePath(home, tmpLike.id), old, old); err != nil {
		t.Fatal(err)
	}
	p := startBackend(t, home)
	m, before := refresh(t, p, "other")
	checkRefresh(t, m, before, wire.OutcomeRefreshed, "")
	if got, err := os.ReadFile(cachePath(home, tmpLike.id)); err != nil || !bytes.Equal(got, data) {
		t.Fatalf("the cache of %s after another refresh: %v", tmpLike.id, err)
	}
	if st := status(t, p); providerStatus(t, st, tmpLike.id).CatalogStatus != wire.CatalogAvailable {
		t.Fatalf("status: %+v", *st.Providers)
	}
}
