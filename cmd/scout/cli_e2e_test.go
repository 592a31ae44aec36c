package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/files"
)

// TestHelpListsEveryBindingOfTheFilesTab opens help on the Files tab of
// the real picker: every enabled binding of the root and the page is
// there, Ctrl-C next to Esc, and the query line's editing keys too.
func TestHelpListsEveryBindingOfTheFilesTab(t *testing.T) {
	x, _ := picker(t, 100, 24, "")
	x.Keys("?")
	screen := x.WaitScreen("help", func(s string) bool { return strings.Contains(s, "go to tab") })
	want := []string{"esc/ctrl+c", "ctrl+a/e/w/u/k"}
	for _, b := range append(bindings(tui.DefaultKeyMap()), bindings(files.DefaultKeyMap(false))...) {
		if b.Enabled() {
			want = append(want, b.Help().Key+" ")
		}
	}
	for _, w := range want {
		if !strings.Contains(screen, w) {
			t.Errorf("help does not show %q:\n%s", w, screen)
		}
	}
	x.Keys("Escape")
	x.WaitScreen("help closed", func(s string) bool { return strings.Contains(s, "10 files") && !strings.Contains(s, "go to tab") })
	x.Keys("C-c")
	if rc := x.WaitFile("rc"); rc != "130\n" {
		t.Fatalf("exit status %q, want 130", rc)
	}
}

// TestCtrlRRescans adds a file while the picker is open: Ctrl-R's new
// snapshot shows it, and Enter prints it.
func TestCtrlRRescans(t *testing.T) {
	x, dir := picker(t, 100, 24, "--query fresh")
	x.WaitScreen("no match yet", func(s string) bool { return strings.Contains(s, "0/10") })
	if err := os.WriteFile(filepath.Join(dir, "docs", "fresh.md"), []byte("new"), 0o600); err != nil {
		t.Fatal(err)
	}
	x.Keys("C-r")
	x.WaitScreen("the rescan", func(s string) bool { return strings.Contains(s, "1/11") && strings.Contains(s, "docs/fresh.md") })
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "0\n" || x.ReadFile("out") != "docs/fresh.md\n" {
		t.Fatalf("exit status %q, stdout %q", rc, x.ReadFile("out"))
	}
}

// TestSubdirectoryIsTheWorkspace starts the picker in a subdirectory of
// a project: the workspace is the current directory, so the snapshot
// holds that folder's files and Enter prints a path relative to it.
func TestSubdirectoryIsTheWorkspace(t *testing.T) {
	dir := fixture(t)
	if err := makefs.Make(dir, ".gitignore << *.log", "internal/trace.log << x"); err != nil {
		t.Fatal(err)
	}
	x := scouttest.StartTmux(t, filepath.Join(dir, "internal"), 100, 24, env(t),
		`"$SCOUT" --query handler > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
	x.WaitScreen("the ranking", func(s string) bool { return strings.Contains(s, "1/5") && strings.Contains(s, "server/handler.go") })
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "0\n" || x.ReadFile("out") != "server/handler.go\n" {
		t.Fatalf("exit status %q, stdout %q, stderr %q", rc, x.ReadFile("out"), x.ReadFile("err"))
	}
}

// TestBrokenConfigIsSaid starts the picker and `scout filter` with a
// config.toml that is not TOML: the backend serves an empty workspace
// (docs/protocol.md §10), and both say why instead of looking like an
// empty project; the status line names the file by its path.
func TestBrokenConfigIsSaid(t *testing.T) {
	home := t.TempDir()
	write(t, filepath.Join(home, "config.toml"), "this is [not toml\n")
	dir := fixture(t)
	x := scouttest.StartTmux(t, dir, 200, 12, homeEnv(t, home),
		`"$SCOUT" > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
	x.WaitScreen("the reason on the status line", func(s string) bool {
		return strings.Contains(s, "0 files") && strings.Contains(s, "● ready · "+filepath.Join(home, "config.toml")+": line 1: not valid TOML")
	})
	// Fixed, and the child restarted (R on the Providers tab): the note
	// goes, the files come.
	write(t, filepath.Join(home, "config.toml"), "[files]\nrespect_ignore = true\n")
	x.Keys("M-3")
	x.WaitScreen("the Providers tab", func(s string) bool { return strings.Contains(s, "Providers · 0") })
	x.Keys("R", "M-1")
	x.WaitScreen("the files, without the note", func(s string) bool {
		return strings.Contains(s, "10 files") && !strings.Contains(s, "TOML")
	})
	x.Keys("Escape")
	if rc := x.WaitFile("rc"); rc != "130\n" || x.ReadFile("err") != "" {
		t.Fatalf("exit status %q, stderr %q", rc, x.ReadFile("err"))
	}
	write(t, filepath.Join(home, "config.toml"), "this is [not toml\n")

	cmd := exec.Command(scouttest.Binary(t), "filter", "")
	cmd.Dir = dir
	cmd.Env = append(scouttest.Environ(), homeEnv(t, home)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); exitStatus(err) != 1 || stdout.Len() != 0 || !strings.Contains(stderr.String(), filepath.Join(home, "config.toml")+": line 1: not valid TOML") {
		t.Fatalf("scout filter: %v, stdout %q, stderr %q: want exit 1 and the reason", err, stdout.String(), stderr.String())
	}
}

// TestSessionsAndProvidersExit130 ends `scout sessions` with Esc and
// `scout providers` with Ctrl-C: status 130, nothing on stdout.
func TestSessionsAndProvidersExit130(t *testing.T) {
	for _, tc := range []struct{ cmd, ready, key string }{
		{"sessions", "sessions here", "Escape"},
		{"providers", "Providers · 2", "C-c"}, // the keyless built-ins
	} {
		t.Run(tc.cmd, func(t *testing.T) {
			t.Parallel()
			x := scouttest.StartTmux(t, fixture(t), 100, 20, env(t),
				`"$SCOUT" `+tc.cmd+` > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
			x.WaitScreen(tc.cmd, func(s string) bool { return strings.Contains(s, tc.ready) })
			x.Keys(tc.key)
			if rc := x.WaitFile("rc"); rc != "130\n" || x.ReadFile("out") != "" || x.ReadFile("err") != "" {
				t.Fatalf("exit status %q, stdout %q, stderr %q", rc, x.ReadFile("out"), x.ReadFile("err"))
			}
		})
	}
}
