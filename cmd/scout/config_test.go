package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/assets"
	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// scout config through the real binary: the home and the files in it (with
// whether they are there), the directory's trust state before and after
// scout trust, the providers the backend lists (a detected key, the keyless
// built-ins), and a broken config.toml named by its path.
func TestConfigCommand(t *testing.T) {
	t.Parallel()
	bin := scouttest.Binary(t)
	dir, home := t.TempDir(), filepath.Join(t.TempDir(), "scout home")
	env := append(scouttest.Environ(), "SCOUT_HOME="+home, "XDG_STATE_HOME="+t.TempDir(), "OPENAI_API_KEY=sk-test-not-real")
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("scout %v: %v", args, err)
		}
		return string(out)
	}
	out := run("config")
	for _, want := range []string{
		"home:       " + home + "  (SCOUT_HOME",
		"config:     " + filepath.Join(home, "config.toml") + "  (not there: scout runs on its defaults and built-in providers",
		"enabled:    " + filepath.Join(home, "enabled.json") + "  (not there",
		"workspace:  " + dir,
		"trust:      no .scout/config.toml here",
		"providers:  openai (key required), ollama (no key needed), lmstudio (no key needed)",
	} {
		if !strings.Contains(out, want+"") {
			t.Errorf("scout config does not say %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "sk-test-not-real") {
		t.Errorf("scout config shows the key:\n%s", out)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".scout"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".scout", "config.toml"), []byte("[files]\ndeny = [\"x\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := run("config"); !strings.Contains(out, "trust:      .scout/config.toml here is not trusted, so it is not applied (scout trust applies it)") {
		t.Errorf("untrusted:\n%s", out)
	}
	run("trust")
	if out := run("config"); !strings.Contains(out, "trust:      .scout/config.toml here is trusted and applied") {
		t.Errorf("trusted:\n%s", out)
	}
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[[providers]]\nid = 3\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out = run("config")
	for _, want := range []string{
		"config:     " + filepath.Join(home, "config.toml") + "\n",
		"providers:  none listed",
		"problem:    " + filepath.Join(home, "config.toml") + ": providers[1].id: must be a string",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("broken config.toml: no %q in\n%s", want, out)
		}
	}
}

// scout config --example prints assets' commented example, which is a
// valid config.toml (so what it shows works as written).
func TestConfigExample(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(scouttest.Binary(t), "config", "--example")
	cmd.Env = scouttest.Environ()
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if string(out) != string(assets.ExampleConfig()) || !strings.HasPrefix(string(out), "# ") {
		t.Fatalf("scout config --example printed:\n%s", out)
	}
	u, err := config.ParseUser(out, config.Dirs{Home: "/h", UserHome: "/u"})
	if err != nil {
		t.Fatalf("the example does not parse: %v", err)
	}
	got, _ := config.Resolve(u.Providers, func(k string) string { return map[string]string{"OPENAI_API_KEY": "k"}[k] })
	var ids []string
	for _, p := range got {
		ids = append(ids, p.ID)
	}
	if strings.Join(ids, ",") != "openai,work-proxy,ollama" {
		t.Errorf("the example's providers: %v", ids)
	}
	if !slices.Equal(u.Sessions.Sources, wire.Agents) {
		t.Errorf("the example's session sources: %v, want every agent %v", u.Sessions.Sources, wire.Agents)
	}
}
