package demo

import (
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/BurntSushi/toml"
	"github.com/charmbracelet/x/ansi"
	"go.uber.org/goleak"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// start runs a demo for a fresh workspace in a private temporary
// directory; it is closed and removed when the test ends.
func start(t *testing.T) (*Demo, string) {
	t.Helper()
	ws := t.TempDir()
	d, err := Start(Options{Workspace: ws, TempDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close(); d.Remove() })
	return d, ws
}

// backend starts the real `scout backend` the way `scout demo` does: in
// the workspace, with the demo's environment.
func backend(t *testing.T, d *Demo, ws string) *scouttest.Proc {
	t.Helper()
	p := scouttest.Start(t, scouttest.Options{Dir: ws, Env: d.Env(nil)})
	p.Initialize(wire.MethodSessionList, wire.MethodModelCatalogStatus, wire.MethodModelCatalog,
		wire.MethodModelRefresh, wire.MethodModelSelect, wire.MethodModelEnable, wire.MethodModelCatalogModels, wire.MethodCancel)
	return p
}

func TestSessionsOfTheWorkspace(t *testing.T) {
	d, ws := start(t)
	p := backend(t, d, ws)
	var res wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &res)
	type row struct {
		agent, id, title, cwd string
		busy                  bool
	}
	var got []row
	for _, s := range res.Sessions {
		got = append(got, row{s.Agent, s.ID, s.Title, s.Cwd, s.Busy})
	}
	want := []row{ // newest first
		{"scout", "s-store-refactor", "Refactor the session store (agent still running)", "verified", true},
		{"scout", "s-print0-flag", "Add --print0 to scout filter", "verified", false},
		{"claude-code", "0f5e8a2c-6b1d-4f3e-9a47-3c2d1e0b9f81", "Agent tags on the Sessions tab", "verified", false},
		{"codex", "0199a0c2-7d41-7a30-9e55-2b8c4f1d6e02", "scout resume execs the agent", "verified", false},
		{"scout", "s-tree-collapse", "Why does the tree collapse after a rescan? I had three folders open.", "verified", false},
		{"gemini", "5a1c9e3b-2f7d-4b60-8c14-9d0e3a6b7c25", "Explain how session discovery pages through a large store", "verified", false},
		{"scout", "s-legacy-mcp", "How do I register scout mcp with my editor?", "cwd_unverified", false},
	}
	if !slices.Equal(got, want) {
		t.Fatalf("session.list rows\n got %+v\nwant %+v", got, want)
	}
	if n := res.Notices; n.SessionsOmittedInvalid != 1 || n.SessionsOtherDirectories != 3 {
		t.Fatalf("notices %+v, want 1 malformed and 3 of other directories", n)
	}
}

// TestAgentStoresAreTheDemos: the backend child's environment points every
// agent's store into the demo's home, whatever the user's environment
// says, so the demo never shows (or reads) the user's own sessions.
func TestAgentStoresAreTheDemos(t *testing.T) {
	d, _ := start(t)
	env := d.Env([]string{"CLAUDE_CONFIG_DIR=/real/claude", "CODEX_HOME=/real/codex", "GEMINI_CLI_HOME=/real", "OPENCODE_DB=/real/db", "CRUSH_GLOBAL_DATA=/real/crush", "HOME=/real"})
	for _, name := range []string{"CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME", "OPENCODE_DB", "CRUSH_GLOBAL_DATA"} {
		n := 0
		for _, kv := range env {
			if k, v, _ := strings.Cut(kv, "="); k == name {
				n++
				if !strings.HasPrefix(v, d.Home+string(filepath.Separator)) {
					t.Errorf("%s=%s is outside the demo's home", name, v)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s set %d times in %q", name, n, env)
		}
	}
}

func TestCatalogStatusOfEveryProvider(t *testing.T) {
	d, ws := start(t)
	p := backend(t, d, ws)
	var res wire.CatalogStatusResult
	p.MustCall(wire.MethodModelCatalogStatus, map[string]any{"cursor": nil}, &res)
	got := map[string]string{}
	for _, s := range *res.Providers {
		got[s.Provider] = s.CatalogStatus + " " + s.Authentication + " " + s.Recovery
	}
	want := map[string]string{
		"works":        "available ready none",
		"rate-limited": "incompatible_fingerprint ready refresh_catalog",
		"rejected-key": "invalid_schema ready refresh_catalog",
		"slow":         "missing_cache ready refresh_catalog",
		"unreachable":  "available ready none",
		"empty":        "empty_cache ready refresh_catalog",
		"invalid":      "invalid_format ready refresh_catalog",
		"no-key":       "available authentication_unavailable configure_authentication",
		// The built-ins: openai from its key variable, the keyless ones
		// always; nothing enabled yet, so not checked.
		"openai":   "missing_cache not_checked refresh_catalog",
		"ollama":   "missing_cache not_checked refresh_catalog",
		"lmstudio": "missing_cache not_checked refresh_catalog",
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("%s: %q, want %q", id, got[id], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("providers %v, want exactly %d", got, len(want))
	}
	// Every catalog_status is shown.
	var statuses []string
	for _, s := range *res.Providers {
		statuses = append(statuses, s.CatalogStatus)
	}
	for _, s := range []string{wire.CatalogAvailable, wire.CatalogMissingCache, wire.CatalogEmptyCache,
		wire.CatalogInvalidFormat, wire.CatalogInvalidSchema, wire.CatalogIncompatibleFingerprint} {
		if !slices.Contains(statuses, s) {
			t.Errorf("no provider has catalog_status %s", s)
		}
	}
}

func TestRefreshOutcomeOfEveryProvider(t *testing.T) {
	d, ws := start(t)
	p := backend(t, d, ws)
	want := map[string]string{
		"works":        "refreshed",
		"rate-limited": wire.ReasonRateLimited,
		"rejected-key": wire.ReasonAuthenticationRejected,
		"unreachable":  wire.ReasonRemoteUnavailable,
		"empty":        wire.ReasonEmptyCatalog,
		"invalid":      wire.ReasonInvalidCatalog,
		"no-key":       wire.ReasonAuthenticationUnavailable,
		"openai":       "refreshed",
		"ollama":       "refreshed",
		"lmstudio":     "refreshed",
	}
	for id, w := range want {
		var res wire.RefreshResult
		p.MustCall(wire.MethodModelRefresh, map[string]any{"provider": id}, &res)
		got := res.Outcome
		if res.Reason != nil {
			got = *res.Reason
		}
		if got != w {
			t.Errorf("refreshing %s: %s, want %s", id, got, w)
		}
	}
	// works now lists demo-tiny too, but only enabled models are choices.
	var cat wire.CatalogResult
	p.MustCall(wire.MethodModelCatalog, map[string]any{"cursor": nil}, &cat)
	var works []string
	for _, c := range cat.Choices {
		if c.Provider == "works" {
			works = append(works, c.Model)
		}
	}
	if !slices.Equal(works, []string{"demo-large", "demo-small"}) {
		t.Errorf("works' choices after the refresh: %v", works)
	}
}

func TestSlowRefreshCanBeCancelled(t *testing.T) {
	d, ws := start(t)
	p := backend(t, d, ws)
	id := p.NextID()
	p.Request(id, wire.MethodModelRefresh, map[string]any{"provider": "slow"})
	deadline := time.Now().Add(scouttest.DefaultTimeout)
	for len(d.server.Requests("slow")) == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the slow provider was never asked")
		}
		time.Sleep(10 * time.Millisecond)
	}
	p.MustCall(wire.MethodCancel, map[string]any{"request_id": id}, nil)
	if m, _ := p.Await(id); m.Code() != wire.CodeOperationCancelled {
		t.Fatalf("the cancelled refresh answered %s", m.Raw)
	}
}

// The built-ins path of the demo, as a user takes it: openai (found from
// OPENAI_API_KEY, reached at OPENAI_BASE_URL) refreshes, its models are
// named and given efforts by the demo's enrichment, one is enabled, the
// next child offers it and it is selected with an effort.
func TestBuiltinsPath(t *testing.T) {
	d, ws := start(t)
	p := backend(t, d, ws)
	p.MustCall(wire.MethodModelRefresh, map[string]any{"provider": "openai"}, nil)
	if reqs := d.server.Requests("openai"); len(reqs) != 1 || reqs[0].Path != "/v1/models" || reqs[0].Bearer != "sk-demo-openai" {
		t.Fatalf("the fake openai was asked %+v", reqs)
	}
	var ms wire.ModelsResult
	p.MustCall(wire.MethodModelCatalogModels, map[string]any{"cursor": nil}, &ms)
	var mini *wire.ModelRow
	for i, r := range ms.Models {
		if r.Provider == "openai" && r.Model == "gpt-demo-mini" {
			mini = &ms.Models[i]
		}
	}
	if mini == nil || mini.Name != "GPT Demo Mini" || !slices.Equal(mini.Efforts, []string{"minimal", "low", "medium", "high"}) || mini.Enabled {
		t.Fatalf("gpt-demo-mini after the refresh: %+v", mini)
	}
	p.MustCall(wire.MethodModelEnable, map[string]any{"provider": "openai", "model": "gpt-demo-mini", "enabled": true}, nil)
	q := backend(t, d, ws)
	var cat wire.CatalogResult
	q.MustCall(wire.MethodModelCatalog, map[string]any{"cursor": nil}, &cat)
	if !slices.ContainsFunc(cat.Choices, func(c wire.Choice) bool { return c.Provider == "openai" && c.Model == "gpt-demo-mini" }) {
		t.Fatalf("the next child's choices: %+v", cat.Choices)
	}
	var sel wire.SelectResult
	q.MustCall(wire.MethodModelSelect, map[string]any{"provider": "openai", "model": "gpt-demo-mini", "effort": "minimal", "revision": cat.Revision}, &sel)
	if sel.Selection.Effort == nil || *sel.Selection.Effort != "minimal" {
		t.Fatalf("selection %+v", sel)
	}
}

func TestEveryAddressIsLoopback(t *testing.T) {
	d, _ := start(t)
	var cfg struct {
		Providers []struct {
			ID      string `toml:"id"`
			BaseURL string `toml:"base_url"`
		} `toml:"providers"`
		Enrichment struct {
			URL *string `toml:"url"`
		} `toml:"enrichment"`
	}
	if _, err := toml.DecodeFile(filepath.Join(d.Home, "config.toml"), &cfg); err != nil {
		t.Fatal(err)
	}
	if cfg.Enrichment.URL == nil {
		t.Fatal("no enrichment url: the default one is on the network")
	}
	entries := 0
	for _, p := range providers() {
		if p.entry {
			entries++
		}
	}
	if len(cfg.Providers) != entries {
		t.Fatalf("%d providers in config.toml, %d entries in providers()", len(cfg.Providers), entries)
	}
	urls := []string{*cfg.Enrichment.URL}
	for _, p := range cfg.Providers {
		urls = append(urls, p.BaseURL)
	}
	for _, kv := range d.Env(nil) {
		if k, v, _ := strings.Cut(kv, "="); k == "OPENAI_BASE_URL" || k == "OLLAMA_HOST" {
			urls = append(urls, v)
		}
	}
	if len(urls) != len(cfg.Providers)+3 {
		t.Errorf("the built-ins' base URLs are not all set: %v", d.Env(nil))
	}
	for _, s := range urls {
		u, err := url.Parse(s)
		if err != nil || u.Hostname() != "127.0.0.1" {
			t.Errorf("%q is not on 127.0.0.1", s)
		}
	}
}

func TestEnvIsTheChildsOnly(t *testing.T) {
	t.Setenv("SCOUT_HOME", "/the/users/home")
	d, _ := start(t)
	env := d.Env([]string{"PATH=/bin", "SCOUT_HOME=/the/users/home", "SCOUT_DEMO_NO_KEY_KEY=a-real-key", "SCOUT_DEMO_WORKS_KEY=a-real-key",
		"ANTHROPIC_API_KEY=a-real-key", "GEMINI_API_KEY=a-real-key", "OPENAI_API_KEY=a-real-key", "OPENAI_BASE_URL=https://a-real-key.example/v1"})
	want := []string{"PATH=/bin", "SCOUT_HOME=" + d.Home, "SCOUT_DEMO_WORKS_KEY=sk-demo-works"}
	for _, w := range want {
		if !slices.Contains(env, w) {
			t.Errorf("%q missing from %q", w, env)
		}
	}
	for _, kv := range env {
		if strings.Contains(kv, "a-real-key") || kv == "SCOUT_HOME=/the/users/home" {
			t.Errorf("the user's %q reached the child", kv)
		}
	}
	if os.Getenv("SCOUT_HOME") != "/the/users/home" {
		t.Error("the demo changed its own environment")
	}
}

func TestFilesArePrivate(t *testing.T) {
	d, _ := start(t)
	err := filepath.Walk(d.Home, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if perm := info.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("%s has mode %v", p, perm)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func TestLockIsRenewed(t *testing.T) {
	d, _ := start(t)
	name := filepath.Join(d.Home, "sessions", "s-store-refactor.lock")
	later := time.Date(2031, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := d.r.renew(d.locks[0], later); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(name)
	if err != nil || !strings.Contains(string(b), `"renewed_at":"2031-02-03T04:05:06Z"`) {
		t.Fatalf("lock %q, %v", b, err)
	}
}

func TestCloseAndRemoveLeaveNothing(t *testing.T) {
	defer goleak.VerifyNone(t, goleak.IgnoreCurrent())
	tmp := t.TempDir()
	d, err := Start(Options{Workspace: t.TempDir(), TempDir: tmp})
	if err != nil {
		t.Fatal(err)
	}
	d.Close()
	d.Close() // idempotent
	if err := d.Remove(); err != nil {
		t.Fatal(err)
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

func TestStartFailureLeavesNothing(t *testing.T) {
	tmp := t.TempDir()
	if _, err := Start(Options{Workspace: filepath.Join(tmp, "missing"), TempDir: tmp}); err == nil {
		t.Fatal("a missing workspace was accepted")
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Fatalf("left behind: %v", left)
	}
}

func TestBannerFits80Columns(t *testing.T) {
	if w := ansi.StringWidth(Banner); w > 80 {
		t.Fatalf("the banner is %d columns wide", w)
	}
}
