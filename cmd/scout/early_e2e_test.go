package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutdev/scout/internal/scouttest"
)

// initOrder is the packages in the order a scout process initialized
// them, from GODEBUG=inittrace=1's lines on stderr.
func initOrder(stderr string) []string {
	var pkgs []string
	for _, line := range strings.Split(stderr, "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[0] == "init" && strings.HasPrefix(f[2], "@") {
			pkgs = append(pkgs, f[1])
		}
	}
	return pkgs
}

// TestTheBackendStartsBeforeLipgloss: the package that starts the
// picker's backend child from its init (cmd/scout/internal/early) is
// initialized before lipgloss, whose package variable detects the
// terminal's colours (inside tmux by running `tmux info`): otherwise the
// child would start no sooner than before.
func TestTheBackendStartsBeforeLipgloss(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(scouttest.Binary(t), "version")
	cmd.Env = append(scouttest.Environ(), "GODEBUG=inittrace=1", "SCOUT_HOME="+t.TempDir(), "XDG_STATE_HOME="+t.TempDir())
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("scout version: %v\n%s", err, stderr.String())
	}
	at := map[string]int{}
	for i, p := range initOrder(stderr.String()) {
		at[p] = i
	}
	const early, lipgloss = "github.com/scoutdev/scout/cmd/scout/internal/early", "charm.land/lipgloss/v2"
	e, ok1 := at[early]
	l, ok2 := at[lipgloss]
	if !ok1 || !ok2 {
		t.Fatalf("inittrace names %s: %v, %s: %v\n%s", early, ok1, lipgloss, ok2, stderr.String())
	}
	if e > l {
		t.Fatalf("%s is initialized after %s (%d, %d)", early, lipgloss, e, l)
	}
}

// TestThePickersEarlyBackend: `scout` alone starts its backend from
// init, and that child is the picker's one backend: the files are shown
// through it, and what it wrote on stderr before the picker took it (the
// runtime's init trace, inherited through GODEBUG) is in the backend log.
func TestThePickersEarlyBackend(t *testing.T) {
	t.Parallel()
	state := t.TempDir()
	env := []string{"SCOUT=" + scouttest.Binary(t), "SCOUT_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + state, "NO_COLOR=", "GODEBUG=inittrace=1"}
	x := scouttest.StartTmux(t, fixture(t), 100, 20, env, `"$SCOUT" > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
	x.WaitScreen("the snapshot", func(s string) bool { return strings.Contains(s, "10 files") })
	backendPID(t, x) // exactly one child
	chooseObserver(t, x)
	log, err := os.ReadFile(filepath.Join(state, "scout", "backend.log"))
	if err != nil {
		t.Fatal(err)
	}
	if pkgs := initOrder(string(log)); len(pkgs) == 0 || !strings.Contains(string(log), "init github.com/scoutdev/scout/backend ") {
		t.Fatalf("the backend log lacks the child's init trace:\n%s", log)
	}
}
