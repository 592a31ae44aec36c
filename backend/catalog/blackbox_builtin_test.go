package catalog_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/catalog"
	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// catalogCaps are every catalog capability, model.enable and scout's
// model.catalog.models included.
var catalogCaps = []string{
	wire.MethodModelCatalog, wire.MethodModelCatalogStatus, wire.MethodModelRefresh, wire.MethodModelSelect,
	wire.MethodModelEnable, wire.MethodModelCatalogModels, wire.MethodCancel,
}

// startWith starts scout backend over home with exactly env besides
// SCOUT_HOME (testhome unset every provider variable) and negotiates
// catalogCaps.
func startWith(t *testing.T, home string, env ...string) *scouttest.Proc {
	t.Helper()
	p := scouttest.Start(t, scouttest.Options{Env: append([]string{"SCOUT_HOME=" + home}, env...)})
	p.Initialize(catalogCaps...)
	return p
}

func statusIDs(st wire.CatalogStatusResult) []string {
	var out []string
	for _, ps := range *st.Providers {
		out = append(out, ps.Provider)
	}
	return out
}

// models reads every page of a fresh model.catalog.models.
func models(t *testing.T, p *scouttest.Proc) (rows []wire.ModelRow, keys []wire.ProviderKey, revision string) {
	t.Helper()
	var cursor *string
	for {
		var page wire.ModelsResult
		p.MustCall(wire.MethodModelCatalogModels, map[string]any{"cursor": cursor}, &page)
		if cursor == nil {
			revision, keys = page.Revision, *page.Providers
		} else if page.Providers != nil {
			t.Fatalf("providers on a later page: %+v", page)
		}
		rows = append(rows, page.Models...)
		if page.Cursor == nil {
			return rows, keys, revision
		}
		cursor = page.Cursor
	}
}

func enable(p *scouttest.Proc, provider, model string, on bool) scouttest.Msg {
	return p.Call(wire.MethodModelEnable, map[string]any{"provider": provider, "model": model, "enabled": on})
}

// The zero-configuration path, through the real binary: with only
// OPENAI_API_KEY and OPENAI_BASE_URL set (the base URL a fake provider on
// 127.0.0.1) and no config.toml, openai is listed first, refreshes, lists
// its models with their enabled state, one is enabled through model.enable
// (enabled.json written whole, nothing beside it, config.toml still
// absent), the running child keeps its configuration, a restarted child
// offers the model, and it is selected with one of its efforts. The
// efforts come from the default enrichment (https://models.dev/api.json),
// served by a loopback stand-in reached through HTTPS_PROXY.
func TestBuiltinOpenAIWithoutConfiguration(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	sc := fakeprovider.Success("gpt-a", "gpt-b", "gpt-c")
	sc.Key = "sk-test-openai"
	base := fake.Add("openai", sc) + "/v1"
	proxyEnv, asked := modelsDevProxy(t, modelsDev("openai", []string{"gpt-b"}, []string{"gpt-a"}))
	home := filepath.Join(t.TempDir(), "home")
	env := append([]string{"OPENAI_API_KEY=sk-test-openai", "OPENAI_BASE_URL=" + base}, proxyEnv...)
	p := startWith(t, home, env...)

	st := status(t, p)
	if got := statusIDs(st); !slices.Equal(got, []string{"openai", "ollama", "lmstudio"}) {
		t.Fatalf("providers without configuration: %v", got)
	}
	if ps := providerStatus(t, st, "openai"); ps.CatalogStatus != wire.CatalogMissingCache || ps.Relevant {
		t.Errorf("openai before a refresh: %+v", ps)
	}
	m, before := refresh(t, p, "openai")
	checkRefresh(t, m, before, wire.OutcomeRefreshed, "")
	if reqs := fake.Requests("openai"); len(reqs) != 1 || reqs[0].Path != "/v1/models" || reqs[0].Bearer != "sk-test-openai" {
		t.Errorf("requests to the fake openai: %+v", reqs)
	}
	if asked() != 1 {
		t.Errorf("the enrichment document was asked %d times", asked())
	}
	rows, keys, _ := models(t, p)
	wantKeys := []wire.ProviderKey{{Provider: "openai", KeyRequired: true}, {Provider: "ollama"}, {Provider: "lmstudio"}}
	if !slices.Equal(keys, wantKeys) {
		t.Errorf("keys = %+v", keys)
	}
	if len(rows) != 3 || rows[1].Model != "gpt-b" || rows[1].Name != "Reasoning gpt-b" || rows[1].Enabled || !rows[1].Listed ||
		!slices.Equal(rows[1].Efforts, []string{"low", "medium", "high"}) || rows[1].ContextWindow != 200000 {
		t.Fatalf("models after the refresh: %+v", rows)
	}

	var res wire.EnableResult
	p.MustCall(wire.MethodModelEnable, map[string]any{"provider": "openai", "model": "gpt-b", "enabled": true}, &res)
	if res.Provider != "openai" || res.Model != "gpt-b" || !res.Enabled || res.ConfigurationReload != "restart_child" || res.TS == "" {
		t.Errorf("model.enable result %+v", res)
	}
	if changes, ok := catalog.ParseEnabled(mustRead(t, filepath.Join(home, "enabled.json"))); !ok ||
		!slices.Equal(changes, []catalog.EnabledChange{{Provider: "openai", Model: "gpt-b", Enabled: true}}) {
		t.Errorf("enabled.json = %+v %v", changes, ok)
	}
	checkHomeFiles(t, home, "catalog", "enabled.json")
	if c := catalogPage(t, p, nil); len(c.Choices) != 0 {
		t.Errorf("the running child changed its configuration: %+v", c.Choices)
	}

	q := startWith(t, home, env...)
	cat := catalogPage(t, q, nil)
	if len(cat.Choices) != 1 || cat.Choices[0].Model != "gpt-b" || !cat.Choices[0].Selectable ||
		!slices.Equal(cat.Choices[0].Efforts, []string{"low", "medium", "high"}) {
		t.Fatalf("the restarted child's choices: %+v", cat.Choices)
	}
	if ps := providerStatus(t, status(t, q), "openai"); ps.Authentication != wire.AuthReady || !ps.Relevant || ps.Recovery != wire.RecoveryNone {
		t.Errorf("openai once enabled: %+v", ps)
	}
	rows, _, rev := models(t, q)
	if !rows[1].Enabled || rows[0].Enabled || rows[2].Enabled {
		t.Errorf("enabled states after the restart: %+v", rows)
	}
	var sel wire.SelectResult
	q.MustCall(wire.MethodModelSelect, map[string]any{"provider": "openai", "model": "gpt-b", "effort": "high", "revision": rev}, &sel)
	if sel.Selection.Model != "gpt-b" || sel.Selection.Effort == nil || *sel.Selection.Effort != "high" {
		t.Fatalf("selection: %+v", sel)
	}
	checkHomeFiles(t, home, "catalog", "enabled.json", "state.json")
}

// checkHomeFiles checks that home holds exactly names: no config.toml
// appeared, and no temporary file of an atomic write was left behind.
func checkHomeFiles(t *testing.T, home string, names ...string) {
	t.Helper()
	ents, err := os.ReadDir(home)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range ents {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, names) {
		t.Errorf("the home holds %v, want %v", got, names)
	}
}

// model.enable never rewrites config.toml: the bytes stay exactly as the
// user wrote them (comments, order, spacing), enabled.json holds the
// decisions, and a restarted child merges them over enabled_models: a
// model disabled there leaves the choices, one enabled joins them at the
// end.
func TestEnableLeavesConfigUntouched(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	base := fake.Add("p", fakeprovider.Success("a", "b", "c"))
	cfg := "# mine, by hand\n[enrichment]\nurl = \"\"   # off\n\n[[providers]]\nid = \"p\"\ntype = \"openai-compatible\"\nbase_url = \"" + base + "\"\nenabled_models = [ \"a\", \"b\" ]\n"
	home := filepath.Join(t.TempDir(), "home")
	mustWrite(t, filepath.Join(home, "config.toml"), []byte(cfg))
	p := startWith(t, home)
	m, before := refresh(t, p, "p")
	checkRefresh(t, m, before, wire.OutcomeRefreshed, "")
	for _, c := range []struct {
		model string
		on    bool
	}{{"a", false}, {"c", true}, {"b", false}, {"b", true}} {
		if m := enable(p, "p", c.model, c.on); m.Error != nil {
			t.Fatalf("enable %s %v: %s", c.model, c.on, m.Raw)
		}
	}
	if got := string(mustRead(t, filepath.Join(home, "config.toml"))); got != cfg {
		t.Fatalf("config.toml was rewritten:\n%s", got)
	}
	want := []catalog.EnabledChange{{Provider: "p", Model: "a"}, {Provider: "p", Model: "c", Enabled: true}, {Provider: "p", Model: "b", Enabled: true}}
	if changes, ok := catalog.ParseEnabled(mustRead(t, filepath.Join(home, "enabled.json"))); !ok || !slices.Equal(changes, want) {
		t.Errorf("enabled.json = %+v", changes)
	}
	q := startWith(t, home)
	var got []string
	for _, c := range catalogPage(t, q, nil).Choices {
		got = append(got, c.Model)
	}
	if !slices.Equal(got, []string{"b", "c"}) {
		t.Errorf("choices after the restart: %v, want b (config.toml) then c (enabled.json)", got)
	}
}

// A config.toml entry with a built-in's id overrides it (the keys it sets
// win, the rest stay the built-in's: its key variable here), in the
// built-in's place; id + disabled = true hides it, and the hidden id is
// unknown to model.refresh and model.enable.
func TestBuiltinOverrideAndDisable(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	sc := fakeprovider.Success("gpt-o")
	sc.Key = "sk-test-openai"
	env := []string{"OPENAI_API_KEY=sk-test-openai", "OPENAI_BASE_URL=" + fake.Add("env", fakeprovider.Success("gpt-env")) + "/v1"}
	override := "[enrichment]\nurl = \"\"\n\n[[providers]]\nid = \"mine\"\ntype = \"ollama\"\nbase_url = \"http://127.0.0.1:9\"\n\n" +
		"[[providers]]\nid = \"openai\"\nbase_url = \"" + fake.Add("override", sc) + "\"\nenabled_models = [\"gpt-o\"]\n"
	home := filepath.Join(t.TempDir(), "home")
	mustWrite(t, filepath.Join(home, "config.toml"), []byte(override))
	p := startWith(t, home, env...)
	if got := statusIDs(status(t, p)); !slices.Equal(got, []string{"openai", "mine", "ollama", "lmstudio"}) {
		t.Fatalf("providers with an override: %v", got)
	}
	m, before := refresh(t, p, "openai")
	checkRefresh(t, m, before, wire.OutcomeRefreshed, "")
	if n := len(fake.Requests("env")); n != 0 {
		t.Errorf("OPENAI_BASE_URL was asked %d times although base_url overrides it", n)
	}
	if reqs := fake.Requests("override"); len(reqs) != 1 || reqs[0].Bearer != "sk-test-openai" {
		t.Errorf("the override's base URL was asked %+v (want the built-in's key)", reqs)
	}
	if c := catalogPage(t, p, nil); len(c.Choices) != 1 || c.Choices[0].Model != "gpt-o" {
		t.Errorf("the override's enabled_models: %+v", c.Choices)
	}

	hidden := "[enrichment]\nurl = \"\"\n\n[[providers]]\nid = \"openai\"\ndisabled = true\n\n[[providers]]\nid = \"lmstudio\"\ndisabled = true\n"
	home2 := filepath.Join(t.TempDir(), "home")
	mustWrite(t, filepath.Join(home2, "config.toml"), []byte(hidden))
	q := startWith(t, home2, env...)
	if got := statusIDs(status(t, q)); !slices.Equal(got, []string{"ollama"}) {
		t.Fatalf("providers with openai and lmstudio hidden: %v", got)
	}
	if m, _ := refresh(t, q, "openai"); m.Code() != wire.CodeInvalidParams {
		t.Errorf("refresh of a hidden built-in: %s", m.Raw)
	}
	if m := enable(q, "openai", "gpt-o", true); m.Code() != wire.CodeInvalidParams {
		t.Errorf("model.enable of a hidden built-in: %s", m.Raw)
	}
}

// anthropic takes ANTHROPIC_BASE_URL as the origin (scout adds /v1, as
// Anthropic's SDKs do) and sends its key as x-api-key; openrouter and
// gemini, which have no base-URL variable, are listed from their key
// variables and refresh against an overriding base_url with a Bearer key;
// ollama takes OLLAMA_HOST as host:port, lmstudio an overriding base_url:
// both keyless, no credential sent, authentication ready once relevant,
// key_required false.
func TestBuiltinsEachAgainstAFake(t *testing.T) {
	t.Parallel()
	fake := startFake(t)
	keyed := func(key string, ids ...string) fakeprovider.Scenario {
		sc := fakeprovider.Success(ids...)
		sc.Key = key
		return sc
	}
	anthropicOrigin := fake.Add("anthropic", keyed("sk-test-anthropic", "claude-t"))
	ollama := startFake(t)
	ollama.Add("ollama", fakeprovider.Success("llama-t"))
	hostPort := ollama.Root("ollama")
	cfg := "[enrichment]\nurl = \"\"\n\n" +
		"[[providers]]\nid = \"openrouter\"\nbase_url = \"" + fake.Add("openrouter", keyed("sk-test-or", "vendor/model-t")) + "\"\n\n" +
		"[[providers]]\nid = \"gemini\"\nbase_url = \"" + fake.Add("gemini", keyed("sk-test-gemini", "models/gemini-t")) + "\"\n\n" +
		"[[providers]]\nid = \"lmstudio\"\nbase_url = \"" + fake.Add("lmstudio", fakeprovider.Success("qwen-t")) + "/v1\"\n"
	home := filepath.Join(t.TempDir(), "home")
	mustWrite(t, filepath.Join(home, "config.toml"), []byte(cfg))
	env := []string{
		"ANTHROPIC_API_KEY=sk-test-anthropic", "ANTHROPIC_BASE_URL=" + anthropicOrigin + "/",
		"OPENROUTER_API_KEY=sk-test-or", "GEMINI_API_KEY=sk-test-gemini", "OLLAMA_HOST=" + hostPort,
	}
	p := startWith(t, home, env...)
	if got := statusIDs(status(t, p)); !slices.Equal(got, []string{"anthropic", "openrouter", "gemini", "ollama", "lmstudio"}) {
		t.Fatalf("providers: %v", got)
	}
	first := map[string]string{"anthropic": "claude-t", "openrouter": "vendor/model-t", "gemini": "models/gemini-t", "ollama": "llama-t", "lmstudio": "qwen-t"}
	for id := range first {
		m, before := refresh(t, p, id)
		checkRefresh(t, m, before, wire.OutcomeRefreshed, "")
	}
	check := func(srv *fakeprovider.Server, name, path, bearer, apiKey string) {
		t.Helper()
		reqs := srv.Requests(name)
		if len(reqs) != 1 || reqs[0].Path != path || reqs[0].Bearer != bearer || reqs[0].APIKey != apiKey {
			t.Errorf("%s was asked %+v", name, reqs)
		}
	}
	check(fake, "anthropic", "/v1/models", "", "sk-test-anthropic")
	check(fake, "openrouter", "/models", "sk-test-or", "")
	check(fake, "gemini", "/models", "sk-test-gemini", "")
	check(fake, "lmstudio", "/v1/models", "", "")
	check(ollama, "ollama", "/api/tags", "", "")
	_, keys, _ := models(t, p)
	for _, k := range keys {
		if k.KeyRequired != (k.Provider != "ollama" && k.Provider != "lmstudio") {
			t.Errorf("key_required of %s: %v", k.Provider, k.KeyRequired)
		}
	}
	for id, model := range first {
		if m := enable(p, id, model, true); m.Error != nil {
			t.Fatalf("enable %s/%s: %s", id, model, m.Raw)
		}
	}
	q := startWith(t, home, env...)
	st := status(t, q)
	for id := range first {
		if ps := providerStatus(t, st, id); ps.Authentication != wire.AuthReady || !ps.Relevant {
			t.Errorf("%s once enabled: %+v", id, ps)
		}
	}
	if len(st.Choices) != 5 {
		t.Errorf("choices after the restart: %+v", st.Choices)
	}
}

// model.enable's params and failures: the closed schema, an unknown
// provider, a model absent from the valid cache, a provider without a
// valid cache (all invalid_params, nothing written), and busy while a
// refresh holds the selection slot.
func TestEnableErrors(t *testing.T) {
	t.Parallel()
	const base = "http://127.0.0.1:9/v1"
	good := prov{id: "good", typ: "ollama", base: base}
	nocache := prov{id: "nocache", typ: "ollama", base: base}
	broken := prov{id: "broken", typ: "ollama", base: base}
	home := newHome(t, "", good, nocache, broken)
	writeValidCache(t, home, good, "m")
	mustWrite(t, cachePath(home, "broken"), []byte(`{"format":"scout.catalog.v1"}`))
	p := startWith(t, home)
	params := func(change map[string]any) map[string]any {
		out := map[string]any{"provider": "good", "model": "m", "enabled": true}
		for k, v := range change {
			if v == "-" {
				delete(out, k)
			} else {
				out[k] = v
			}
		}
		return out
	}
	for name, pr := range map[string]any{
		"no params":        nil,
		"extra member":     params(map[string]any{"x": 1}),
		"provider missing": params(map[string]any{"provider": "-"}),
		"provider unsafe":  params(map[string]any{"provider": "a/b"}),
		"unknown provider": params(map[string]any{"provider": "nope"}),
		"model missing":    params(map[string]any{"model": "-"}),
		"model empty":      params(map[string]any{"model": ""}),
		"model unsafe":     params(map[string]any{"model": "a b"}),
		"enabled missing":  params(map[string]any{"enabled": "-"}),
		"enabled string":   params(map[string]any{"enabled": "true"}),
		"enabled null":     params(map[string]any{"enabled": nil}),
		"unknown model":    params(map[string]any{"model": "m3"}),
		"no cache":         params(map[string]any{"provider": "nocache"}),
		"invalid cache":    params(map[string]any{"provider": "broken"}),
	} {
		m := p.Call(wire.MethodModelEnable, pr)
		if m.Code() != wire.CodeInvalidParams {
			t.Errorf("%s: %s", name, m.Raw)
		}
		if strings.Contains(string(m.Raw), home) {
			t.Errorf("%s: the error names the home: %s", name, m.Raw)
		}
	}
	if _, err := os.Stat(filepath.Join(home, "enabled.json")); !os.IsNotExist(err) {
		t.Errorf("a refused model.enable wrote enabled.json (%v)", err)
	}
	if m := enable(p, "good", "m", false); m.Error != nil {
		t.Errorf("disabling a listed model: %s", m.Raw)
	}
}

// The enabled-but-missing notice: an enabled model the valid cache does
// not list (a typo in enabled_models, or one the provider dropped) is a
// row of model.catalog.models with listed false, after the listed ones;
// it is never a choice.
func TestEnabledButMissingIsReported(t *testing.T) {
	t.Parallel()
	p1 := prov{id: "p", typ: "ollama", base: "http://127.0.0.1:9", enabled: []string{"m1", "m3", "m2"}}
	home := newHome(t, "", p1)
	writeValidCache(t, home, p1, "m1", "m2", "other")
	p := startWith(t, home)
	rows, _, _ := models(t, p)
	var got []string
	for _, r := range rows {
		if r.Provider == "p" {
			got = append(got, r.Model+map[bool]string{true: "+", false: "-"}[r.Enabled]+map[bool]string{true: "", false: "?"}[r.Listed])
		}
	}
	if !slices.Equal(got, []string{"m1+", "m2+", "other-", "m3+?"}) {
		t.Errorf("rows: %v", got)
	}
	if c := catalogPage(t, p, nil); len(c.Choices) != 2 {
		t.Errorf("choices: %+v", c.Choices)
	}
}
