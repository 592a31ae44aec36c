package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/internal/scouttest"
)

// builtinHome is a backend home for the built-in openai: a config.toml
// that only points enrichment at the fake (so nothing leaves 127.0.0.1),
// and the environment that lists openai at its fake base URL.
func builtinHome(t *testing.T) (home, cfg string, env []string) {
	t.Helper()
	srv, err := fakeprovider.Start()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(srv.Close)
	openai := fakeprovider.Success("gpt-a", "gpt-b", "gpt-c")
	openai.Key = "sk-e2e-openai"
	base := srv.Add("openai", openai) + "/v1"
	doc := `{"openai":{"models":{"gpt-b":{"name":"GPT B","reasoning":true}}}}`
	home = t.TempDir()
	cfg = "# mine\n[enrichment]\nurl = \"" + srv.Add("models-dev", fakeprovider.Enrichment(doc)) + "/api.json\"\n"
	write(t, filepath.Join(home, "config.toml"), cfg)
	env = append(homeEnv(t, home), "OPENAI_API_KEY=sk-e2e-openai", "OPENAI_BASE_URL="+base)
	return home, cfg, env
}

// The Providers page against the real backend, from a detected key to a
// selection with an effort: openai is listed from OPENAI_API_KEY, r
// fetches its list, Enter shows every model of it, space enables one (the
// page restarts the backend, and the focus stays on that model), → picks
// an effort and Enter selects with it. config.toml is never rewritten.
func TestProvidersEnableRestartAndEffort(t *testing.T) {
	t.Parallel()
	home, cfg, env := builtinHome(t)
	x := scouttest.StartTmux(t, fixture(t), 120, 30, env,
		`"$SCOUT" providers > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
	x.WaitScreen("the built-ins", func(s string) bool {
		return strings.Contains(s, "▌ openai    no catalog   not checked   —") &&
			strings.Contains(s, "ollama    no catalog   no key needed") && strings.Contains(s, "lmstudio")
	})
	x.Type("r")
	x.WaitScreen("the refresh", func(s string) bool {
		return strings.Contains(s, "openai: refreshed; it lists 3 models, none enabled: Enter shows them, space enables the focused one.") &&
			strings.Contains(s, "0 of 3    refreshed")
	})
	x.Keys("Enter")
	x.WaitScreen("every model", func(s string) bool {
		return strings.Contains(s, "▌   [ ] gpt-a") && strings.Contains(s, "[ ] gpt-b  GPT B · efforts low/medium/high") && strings.Contains(s, "[ ] gpt-c")
	})
	x.Keys("Down")
	x.Type(" ")
	x.WaitScreen("the restart with gpt-b enabled", func(s string) bool {
		return strings.Contains(s, "Enabled openai/gpt-b; the backend was restarted to apply it.") &&
			strings.Contains(s, "▌   [x] gpt-b  GPT B · effort ‹default› of low/medium/high") && strings.Contains(s, "1 of 3")
	})
	x.Keys("Right", "Right")
	x.WaitScreen("the effort", func(s string) bool { return strings.Contains(s, "effort ‹medium› of low/medium/high") })
	x.Keys("Enter")
	x.WaitScreen("the selection", func(s string) bool {
		return strings.Contains(s, "Selected openai/gpt-b (effort medium).") && strings.Contains(s, "selected: openai/gpt-b (medium)")
	})
	state, err := os.ReadFile(filepath.Join(home, "state.json"))
	if err != nil || !strings.Contains(string(state), `"model":"gpt-b","effort":"medium"`) {
		t.Fatalf("state.json %q (%v)", state, err)
	}
	if enabled, err := os.ReadFile(filepath.Join(home, "enabled.json")); err != nil || !strings.Contains(string(enabled), `"model":"gpt-b","enabled":true`) {
		t.Fatalf("enabled.json %q (%v)", enabled, err)
	}
	if got, _ := os.ReadFile(filepath.Join(home, "config.toml")); string(got) != cfg {
		t.Fatalf("config.toml was rewritten: %q", got)
	}
	x.Keys("Escape")
	if rc := x.WaitFile("rc"); rc != "130\n" {
		t.Fatalf("exit status %q, stderr %q", rc, x.ReadFile("err"))
	}
}

// At 40 columns and 10 rows the page still reads: the rows, the refresh
// outcome under the table, the models with their marks.
func TestProvidersPageAt40x10(t *testing.T) {
	t.Parallel()
	_, _, env := builtinHome(t)
	x := scouttest.StartTmux(t, fixture(t), 40, 10, env,
		`"$SCOUT" providers > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
	x.WaitScreen("the table", func(s string) bool { return strings.Contains(s, "▌ openai   no catalog not checked") })
	x.Type("r")
	x.WaitScreen("the refreshed row", func(s string) bool { return strings.Contains(s, "openai   available 0/3 refreshed") })
	x.Keys("Enter")
	x.WaitScreen("the models", func(s string) bool { return strings.Contains(s, "▌   [ ] gpt-a") })
	x.Keys("Down")
	screen := x.WaitScreen("the next model", func(s string) bool { return strings.Contains(s, "▌   [ ] gpt-b  GPT B · effort ‹default›") })
	for i, l := range strings.Split(strings.TrimRight(screen, "\n"), "\n") {
		if w := len([]rune(l)); w > 40 || i >= 10 {
			t.Fatalf("line %d (%d cells) does not fit 40x10:\n%s", i, w, screen)
		}
	}
	x.Keys("Escape")
	x.WaitFile("rc")
}
