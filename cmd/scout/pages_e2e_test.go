package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/catalog"
	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/internal/scouttest"
)

// provider is one [[providers]] entry of the fixture home's config.toml.
type provider struct {
	id, typ, base string
	keyEnv        string
	enabled       []string
}

func (p provider) toml() string {
	var b strings.Builder
	fmt.Fprintf(&b, "[[providers]]\nid = %q\ntype = %q\nbase_url = %q\n", p.id, p.typ, p.base)
	if p.keyEnv != "" {
		fmt.Fprintf(&b, "api_key_env = %q\n", p.keyEnv)
	}
	quoted := make([]string, len(p.enabled))
	for i, m := range p.enabled {
		quoted[i] = fmt.Sprintf("%q", m)
	}
	fmt.Fprintf(&b, "enabled_models = [%s]\n\n", strings.Join(quoted, ", "))
	return b.String()
}

// providersHome writes a backend home whose providers point at a fake
// provider server on 127.0.0.1, one provider per state the page words:
// good (no catalog yet, refreshes), limited (429), slow (never answers),
// nokey (its key variable is unset), cached (a valid catalog), spare (a
// catalog but no enabled model), damaged (a cache that is not JSON).
func providersHome(t *testing.T) string {
	t.Helper()
	srv, err := fakeprovider.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	compat := "openai-compatible"
	provs := []provider{
		{id: "good", typ: compat, base: srv.Add("good", fakeprovider.Success("alpha", "beta", "gamma")), enabled: []string{"alpha", "beta"}},
		{id: "limited", typ: compat, base: srv.Add("limited", fakeprovider.RateLimited), enabled: []string{"m1"}},
		{id: "slow", typ: compat, base: srv.Add("slow", fakeprovider.Hanging), enabled: []string{"s1"}},
		{id: "nokey", typ: "openai", base: srv.Add("nokey", fakeprovider.Success("x1")), keyEnv: "SCOUT_E2E_UNSET_KEY", enabled: []string{"x1"}},
		{id: "cached", typ: compat, base: srv.Add("cached", fakeprovider.Success("c1", "c2")), enabled: []string{"c1", "c2"}},
		{id: "spare", typ: compat, base: srv.Add("spare", fakeprovider.Success("p1"))},
		{id: "damaged", typ: compat, base: srv.Add("damaged", fakeprovider.Success("d1")), enabled: []string{"d1"}},
	}
	home := t.TempDir()
	var cfg strings.Builder
	cfg.WriteString("[enrichment]\nurl = \"\"\n\n")
	for _, p := range provs {
		cfg.WriteString(p.toml())
	}
	write(t, filepath.Join(home, "config.toml"), cfg.String())
	for _, p := range provs[4:6] {
		writeCache(t, home, p, "c1", "c2", "p1")
	}
	write(t, filepath.Join(home, "catalog", "damaged.json"), "this is not a catalog")
	return home
}

func writeCache(t *testing.T, home string, p provider, ids ...string) {
	t.Helper()
	entries := make([]catalog.Entry, len(ids))
	for i, id := range ids {
		entries[i] = catalog.Entry{ID: id, Name: id, Efforts: []string{}}
	}
	data, err := catalog.EncodeCache(&catalog.Provider{ID: p.id, Type: p.typ, BaseURL: p.base}, entries, time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(home, "catalog", p.id+".json"), string(data))
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
}

// homeEnv is env with the backend home set to home.
func homeEnv(t *testing.T, home string) []string {
	return []string{"SCOUT=" + scouttest.Binary(t), "SCOUT_HOME=" + home, "XDG_STATE_HOME=" + t.TempDir(), "NO_COLOR=", "SCOUT_E2E_UNSET_KEY="}
}

// focusProvider moves the Providers table's cursor onto id.
func focusProvider(t *testing.T, x *scouttest.Tmux, id string) {
	t.Helper()
	screen := x.WaitScreen("the table", func(s string) bool { return strings.Contains(s, "▌ ") })
	at, want := -1, -1
	for i, l := range strings.Split(screen, "\n") {
		switch {
		case strings.HasPrefix(l, "▌ "):
			at = i
			if strings.HasPrefix(l, "▌ "+id+" ") {
				want = i
			}
		case strings.HasPrefix(l, "  "+id+" "):
			want = i
		}
	}
	if at < 0 || want < 0 {
		t.Fatalf("no row of %s, or no focused row:\n%s", id, screen)
	}
	key := "Down"
	if want < at {
		key = "Up"
	}
	for range max(want-at, at-want) {
		x.Keys(key)
	}
	x.WaitScreen(id+" focused", func(s string) bool { return strings.Contains(s, "▌ "+id+" ") })
}

func TestProvidersPageAgainstTheRealBackend(t *testing.T) {
	t.Parallel()
	home := providersHome(t)
	x := scouttest.StartTmux(t, fixture(t), 120, 40, homeEnv(t, home),
		`"$SCOUT" providers > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
	x.WaitScreen("every status", func(s string) bool {
		for _, w := range []string{
			"available", "no catalog", "damaged", "no key needed", "no key ", "2 of 3", "0 of 3",
			"Configure its key; restart (R).", "Press r to fetch its model list.", "Enable a model: Enter, space.",
			"ollama", "lmstudio", "nothing selected",
		} {
			if !strings.Contains(s, w) {
				return false
			}
		}
		return true
	})

	focusProvider(t, x, "limited")
	x.Type("r")
	x.WaitScreen("the rate limit", func(s string) bool {
		return strings.Contains(s, "limited: refresh failed: the provider is rate limiting; try again later.") &&
			strings.Contains(s, "rate limited · try later")
	})

	focusProvider(t, x, "good")
	x.Type("r")
	x.WaitScreen("the refreshed models", func(s string) bool {
		return strings.Contains(s, "good: refreshed; new models: alpha, beta.") && strings.Contains(s, "Models of good · 2 of 3 enabled") &&
			strings.Contains(s, "[x] alpha") && strings.Contains(s, "[x] beta") && strings.Contains(s, "[ ] gamma")
	})

	focusProvider(t, x, "slow")
	x.Type("r")
	x.WaitScreen("the refresh in flight", func(s string) bool { return strings.Contains(s, "refreshing slow…") })
	x.Keys("Escape")
	x.WaitScreen("the cancellation", func(s string) bool {
		return strings.Contains(s, "slow: refresh cancelled after") && strings.Contains(s, "Providers · 9")
	})

	focusProvider(t, x, "cached")
	x.Keys("Enter") // its models: c1, c2 enabled, p1 not
	x.WaitScreen("cached/c1 focused", func(s string) bool { return strings.Contains(s, "▌   [x] c1") })
	x.Keys("Enter")
	x.WaitScreen("the selection", func(s string) bool {
		return strings.Contains(s, "Selected cached/c1.") && strings.Contains(s, "selected: cached/c1")
	})
	if state, err := os.ReadFile(filepath.Join(home, "state.json")); err != nil || !strings.Contains(string(state), `"model":"c1"`) {
		t.Fatalf("state.json %q (%v), want the selection saved", state, err)
	}
	x.Keys("Escape")
	if rc := x.WaitFile("rc"); rc != "130\n" {
		t.Fatalf("exit status %q, stderr %q", rc, x.ReadFile("err"))
	}
}

// sessionsHome writes a backend home with three sessions of dir, one of
// another directory and one malformed history.
func sessionsHome(t *testing.T, dir string) string {
	t.Helper()
	home, store := sessionstest.Home(t)
	day := sessionstest.Epoch
	sessionstest.MustWrite(t, store,
		sessionstest.History{ID: "s-parser", Cwds: []string{dir}, Title: "Fix the parser's error recovery", Start: day.Add(3 * time.Hour)},
		sessionstest.History{ID: "s-tree", Cwds: []string{dir}, UserText: "Refactor the tree rows", Start: day.Add(2 * time.Hour)},
		sessionstest.History{ID: "s-legacy", UserText: "Port the old flags", Start: day.Add(time.Hour)},
		sessionstest.History{ID: "s-other", Cwds: []string{t.TempDir()}, Title: "Somewhere else"},
		sessionstest.History{ID: "s-broken", Cwds: []string{dir}, Malformed: true},
	)
	return home
}

func TestSessionsPicksASessionAndPrintsItsAgentAndID(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	x := scouttest.StartTmux(t, dir, 100, 20, homeEnv(t, sessionsHome(t, dir)),
		`"$SCOUT" sessions > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
	x.WaitScreen("the finished list", func(s string) bool {
		return strings.Contains(s, "3 sessions here · 1 in other directories · 1 omitted") &&
			strings.Contains(s, "Fix the parser's error recovery") && strings.Contains(s, "no cwd")
	})
	x.Type("refactor")
	x.WaitScreen("the filter", func(s string) bool { return strings.Contains(s, "1/3") })
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "0\n" {
		t.Fatalf("exit status %q, stderr %q", rc, x.ReadFile("err"))
	}
	if out := x.ReadFile("out"); out != "scout s-tree\n" {
		t.Fatalf("stdout %q, want exactly the agent and the id", out)
	}
}

func TestSessionsWithoutAMatchExits1(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	x := scouttest.StartTmux(t, dir, 80, 20, homeEnv(t, sessionsHome(t, dir)),
		`"$SCOUT" sessions > "$OUTDIR/out"; echo $? > "$OUTDIR/rc"`)
	x.WaitScreen("the finished list", func(s string) bool { return strings.Contains(s, "3 sessions") })
	x.Type("zzzz")
	x.WaitScreen("no match", func(s string) bool { return strings.Contains(s, "no match") })
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "1\n" || x.ReadFile("out") != "" {
		t.Fatalf("exit status %q, stdout %q: want 1 and nothing", rc, x.ReadFile("out"))
	}
}
