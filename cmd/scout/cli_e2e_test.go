package main_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
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
	t.Parallel()
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
	t.Parallel()
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
	t.Parallel()
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
// (docs/protocol.md §10.6.2), and both say why, naming the file by its
// path, instead of looking like an empty project: the picker in red on its
// status line, wrapped when the terminal is narrow, never cut, and in its
// empty list; `scout filter` exits 2 with that one line.
func TestBrokenConfigIsSaid(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	write(t, filepath.Join(home, "config.toml"), "this is [not toml\n")
	dir := fixture(t)
	x := scouttest.StartTmux(t, dir, 200, 12, homeEnv(t, home),
		`"$SCOUT" > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
	named := filepath.Join(home, "config.toml") + ": line 1: not valid TOML"
	x.WaitScreen("the reason on the status line and in the list", func(s string) bool {
		joined := strings.Join(strings.Fields(s), " ")
		return strings.Contains(joined, "● not serving · "+named) && strings.Contains(joined, "; nothing is listed: fix it, then press R") &&
			strings.Contains(joined, "nothing can be listed: ") && strings.Contains(joined, "then press R to restart the backend")
	})
	if s := x.Screen(false); strings.Contains(s, "ready") || strings.Contains(s, "no files here") {
		t.Fatalf("an unusable workspace looks like an empty project:\n%s", s)
	}
	// The Error style's colour (tui/styles.go), 256-colour in tmux.
	if !regexp.MustCompile(`\x1b\[[0-9;]*38;5;204m(\x1b\[[0-9;]*m)*[^\x1b]*config\.toml: line 1`).MatchString(x.Screen(true)) {
		t.Fatalf("the reason is not red:\n%q", x.Screen(true))
	}
	// No session store is read either, and the Sessions tab says why in
	// the same words, not that its store is unsafe.
	x.Keys("M-2")
	x.WaitScreen("the reason on the Sessions tab", func(s string) bool {
		joined := strings.Join(strings.Fields(s), " ")
		return strings.Contains(joined, "No session can be listed: "+named) && !strings.Contains(joined, "unsafe")
	})
	x.Keys("M-1")
	// Fixed, and the child restarted with R: the note goes, the files come.
	write(t, filepath.Join(home, "config.toml"), "[files]\nrespect_ignore = true\n")
	x.Keys("R")
	x.WaitScreen("the files, without the note", func(s string) bool {
		return strings.Contains(s, "10 files") && !strings.Contains(s, "TOML") && strings.Contains(s, "● ready")
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
	err := cmd.Run()
	msg := stderr.String()
	if exitStatus(err) != 2 || stdout.Len() != 0 || strings.Count(msg, "\n") != 1 ||
		!strings.HasPrefix(msg, "scout: "+named) || !strings.HasSuffix(msg, "; nothing can be listed until it is fixed\n") {
		t.Fatalf("scout filter: %v, stdout %q, stderr %q: want exit 2 and one line saying why", err, stdout.String(), msg)
	}
}

// TestBrokenConfigIsWrappedOnANarrowTerminal: at 40 columns the reason
// takes lines of its own under the state, whole.
func TestBrokenConfigIsWrappedOnANarrowTerminal(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	write(t, filepath.Join(home, "config.toml"), "[files]\nrespect = true\n")
	x := scouttest.StartTmux(t, fixture(t), 40, 16, homeEnv(t, home), `"$SCOUT"`)
	s := x.WaitScreen("the wrapped reason", func(s string) bool { return strings.Contains(s, "● not serving") && strings.Contains(s, "press R") })
	// Whole, the path of config.toml included (broken where it is longer
	// than a line): every character is there, in order.
	compact := strings.Join(strings.Fields(s), "")
	want := strings.Join(strings.Fields(filepath.Join(home, "config.toml")+": files.respect: unknown key; nothing is listed: fix it, then press R"), "")
	if !strings.Contains(compact, want) {
		t.Fatalf("the reason is cut:\n%s", s)
	}
}

// TestSessionsAndProvidersExit130 ends `scout sessions` with Esc and
// `scout providers` with Ctrl-C: status 130, nothing on stdout.
func TestSessionsAndProvidersExit130(t *testing.T) {
	t.Parallel()
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
