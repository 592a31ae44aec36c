package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/scoutdev/scout/internal/scouttest"
)

// demoTabs say what each tab of `scout demo` must show, with the keys
// that open it: the Files page lists the workspace; the Sessions page
// lists the demo's sessions of this directory and none of another
// directory, of the archive or of the malformed history; the Providers
// page lists every demo provider, the built-ins among them (openai found
// from its key variable, ollama and lmstudio always).
var demoTabs = []struct {
	keys, title  string
	want, absent []string
}{
	{"M-1", "Files", []string{"README.md", "go.mod", " files"}, nil},
	{"M-2", "Sessions", []string{"Add --print0 to scout filter", "Refactor the session store",
		"Why does the tree collapse", "How do I register scout mcp", "claude Agent tags on the Sessions tab",
		"codex  scout resume execs the agent", "gemini Explain how session discovery", "7 sessions here"},
		[]string{"Landing page speed", "zsh prompt", "Started here, then moved on", "archived chat", "cut in the middle"}},
	{"M-3", "Providers", []string{"Providers · 11", "openai", "works", "rate-limited", "rejected-key", "slow", "unreachable", "empty",
		"invalid", "no-key", "ollama", "lmstudio"}, nil},
}

// checkDemoTabs opens every tab of a running demo and checks it.
func checkDemoTabs(t *testing.T, x *scouttest.Tmux) {
	t.Helper()
	x.WaitScreen("the banner", func(s string) bool { return strings.Contains(s, "DEMO on synthetic data") })
	for _, tab := range demoTabs {
		x.Keys(tab.keys)
		screen := x.WaitScreen("the "+tab.title+" tab", func(s string) bool { return containsAll(s, tab.want) })
		for _, no := range tab.absent {
			if strings.Contains(screen, no) {
				t.Errorf("the %s tab shows %q:\n%s", tab.title, no, screen)
			}
		}
	}
}

func containsAll(s string, subs []string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// demoEnv is a demo's environment: its own TMPDIR (where the demo's home
// goes, so what is left behind can be seen) and a user's SCOUT_HOME and
// XDG_STATE_HOME that the demo must leave alone.
type demoEnv struct {
	tmp, userHome, userState string
}

func newDemoEnv(t *testing.T) demoEnv {
	return demoEnv{tmp: t.TempDir(), userHome: t.TempDir(), userState: t.TempDir()}
}

func (e demoEnv) vars(t *testing.T) []string {
	return []string{"SCOUT=" + scouttest.Binary(t), "TMPDIR=" + e.tmp, "SCOUT_HOME=" + e.userHome,
		"XDG_STATE_HOME=" + e.userState, "NO_COLOR="}
}

// checkNothingLeft checks that the demo removed its home, wrote nothing
// in the user's homes, and that its backend has exited.
func (e demoEnv) checkNothingLeft(t *testing.T, backend int) {
	t.Helper()
	for _, dir := range []string{e.tmp, e.userHome, e.userState} {
		if left, err := os.ReadDir(dir); err != nil || len(left) != 0 {
			t.Errorf("left in %s: %v (%v)", dir, left, err)
		}
	}
	if err := syscall.Kill(backend, 0); err == nil {
		t.Errorf("the demo's backend %d is still running", backend)
	}
}

// offline returns the command that runs a command in a network namespace
// of its own with only a loopback interface: nothing outside this machine
// can be reached from there.
func offline(t *testing.T) string {
	t.Helper()
	scouttest.NeedCommand(t, "unshare")
	scouttest.NeedCommand(t, "ip")
	if out, err := exec.Command("unshare", "-rn", "ip", "link", "set", "lo", "up").CombinedOutput(); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("cannot make a network namespace (unshare -rn): %v %s", err, out)
		}
		t.Skipf("cannot make a network namespace here (unshare -rn: %v %s)", err, out)
	}
	return `unshare -rn sh -c 'ip link set lo up && exec "$@"' sh`
}

func TestDemoShowsEveryTabOfflineAndLeavesNothing(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	x := scouttest.StartTmux(t, fixture(t), 140, 30, e.vars(t),
		offline(t)+` "$SCOUT" demo > "$OUTDIR/out" 2> "$OUTDIR/err"; rc=$?; stty -a > "$OUTDIR/stty"; echo $rc > "$OUTDIR/rc"`)
	x.WaitScreen("the snapshot", func(s string) bool { return strings.Contains(s, "10 files") })
	backend := backendPID(t, x)
	ours, _ := os.Readlink("/proc/self/ns/net")
	if theirs, err := os.Readlink(fmt.Sprintf("/proc/%d/ns/net", backend)); err != nil || theirs == ours {
		t.Fatalf("the backend's network namespace %q (%v) is the test's %q", theirs, err, ours)
	}
	checkDemoTabs(t, x)
	x.Keys("M-1", "Escape")
	if rc := x.WaitFile("rc"); rc != "0\n" {
		t.Fatalf("exit status %q, stderr %q", rc, x.ReadFile("err"))
	}
	checkRestored(t, x)
	e.checkNothingLeft(t, backend)
	if out := x.ReadFile("out"); out != "" {
		t.Errorf("stdout %q after Esc", out)
	}
}

func TestDemoSignalsRemoveTheHome(t *testing.T) {
	t.Parallel()
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGHUP, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			e := newDemoEnv(t)
			x := scouttest.StartTmux(t, fixture(t), 100, 24, e.vars(t),
				`"$SCOUT" demo 2> "$OUTDIR/err"; rc=$?; stty -a > "$OUTDIR/stty"; echo $rc > "$OUTDIR/rc"`)
			x.WaitScreen("the snapshot", func(s string) bool { return strings.Contains(s, "10 files") })
			demo := childOf(t, x.PanePID())
			backend := childOf(t, demo)
			if err := syscall.Kill(demo, sig); err != nil {
				t.Fatal(err)
			}
			if rc, want := x.WaitFile("rc"), fmt.Sprintf("%d\n", 128+int(sig)); rc != want {
				t.Fatalf("exit status %q, want %q; stderr %q", rc, want, x.ReadFile("err"))
			}
			checkRestored(t, x)
			e.checkNothingLeft(t, backend)
		})
	}
}

func TestDemoKeepSaysWhereAndEnterPrintsTheChoice(t *testing.T) {
	t.Parallel()
	e := newDemoEnv(t)
	x := scouttest.StartTmux(t, fixture(t), 100, 24, e.vars(t),
		`"$SCOUT" demo --keep > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
	x.WaitScreen("the snapshot", func(s string) bool { return strings.Contains(s, "10 files") })
	x.Type("observer")
	x.WaitScreen("the ranking", func(s string) bool { return strings.Contains(s, "1/10") })
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "0\n" {
		t.Fatalf("exit status %q, stderr %q", rc, x.ReadFile("err"))
	}
	if out := x.ReadFile("out"); out != "web/src/observer.ts\n" {
		t.Fatalf("stdout %q, want the chosen path", out)
	}
	kept, _ := filepath.Glob(filepath.Join(e.tmp, "scout-demo-*"))
	if len(kept) != 1 || !strings.Contains(x.ReadFile("err"), "kept in "+kept[0]+"\n") {
		t.Fatalf("kept %v; stderr %q", kept, x.ReadFile("err"))
	}
	for _, f := range []string{"config.toml", "backend.log", "sessions", "catalog"} {
		if _, err := os.Stat(filepath.Join(kept[0], f)); err != nil {
			t.Errorf("the kept home lacks %s: %v", f, err)
		}
	}
}
