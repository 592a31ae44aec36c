package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutdev/scout/internal/scouttest"
)

// TestTrustCommand trusts a project's .scout/config.toml through the real
// binary: a file its deny glob protects is listed before and hidden after,
// and a changed file is untrusted again.
func TestTrustCommand(t *testing.T) {
	t.Parallel()
	bin := scouttest.Binary(t)
	dir, home := t.TempDir(), t.TempDir()
	env := append(scouttest.Environ(), "SCOUT_HOME="+home, "XDG_STATE_HOME="+t.TempDir())
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) (string, int) {
		t.Helper()
		cmd := exec.Command(bin, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.Output()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return string(out), code
	}
	if out, code := run("trust"); code != 0 || !strings.Contains(out, "nothing to trust") {
		t.Fatalf("trust without a config: %d %q", code, out)
	}
	write("notes/secret.txt", "x")
	write("notes/plan.txt", "x")
	write(".scout/config.toml", "[files]\ndeny = [\"secret.txt\"]\n")
	if out, code := run("filter", "secret"); code != 0 || !strings.Contains(out, "notes/secret.txt") {
		t.Fatalf("before trust: %d %q, want the file listed", code, out)
	}
	if out, code := run("trust"); code != 0 || !strings.Contains(out, "Trusted") {
		t.Fatalf("trust: %d %q", code, out)
	}
	if out, code := run("filter", "secret"); code != 1 || out != "" {
		t.Fatalf("after trust: %d %q, want the file hidden", code, out)
	}
	write(".scout/config.toml", "[files]\ndeny = [\"plan.txt\"]\n")
	if out, code := run("filter", "secret"); code != 0 || !strings.Contains(out, "notes/secret.txt") {
		t.Fatalf("after the file changed: %d %q, want it untrusted again", code, out)
	}
}

// TestTrustFailureSaysWhy: a .scout/config.toml that cannot be adopted
// fails `scout trust` with exit 2 and one line that names the key and the
// rule it breaks (the backend's own reason), not only that it failed.
func TestTrustFailureSaysWhy(t *testing.T) {
	t.Parallel()
	bin := scouttest.Binary(t)
	for _, tc := range []struct{ file, want string }{
		{"[[providers]]\nid = \"openai\"\ntype = \"openai\"\n", ".scout/config.toml: providers[1].id: is a built-in provider's id"},
		{"[files]\ndeny = [\"!x\"]\n", ".scout/config.toml: files.deny: a deny glob may not be a negation"},
	} {
		dir := t.TempDir()
		if err := os.MkdirAll(filepath.Join(dir, ".scout"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, ".scout", "config.toml"), []byte(tc.file), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command(bin, "trust")
		cmd.Dir, cmd.Env = dir, append(scouttest.Environ(), "SCOUT_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		ee, ok := err.(*exec.ExitError)
		line := stderr.String()
		if !ok || ee.ExitCode() != 2 || len(out) != 0 || strings.Count(line, "\n") != 1 ||
			!strings.HasPrefix(line, "scout: the project configuration was not trusted: "+tc.want) {
			t.Errorf("exit %v, stdout %q, stderr %q; want %q", err, out, line, tc.want)
		}
	}
}
