package scouttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Tmux is a private tmux server (its own socket, no user configuration)
// with one window running a shell script, for end-to-end tests of the
// interface on a real terminal. When the test ends the server is killed and
// its socket removed (tmux 3.3a's kill-server leaves it behind).
type Tmux struct {
	t      testing.TB
	socket string // the -S path, in a directory of its own
	ctl    *control
	// Dir holds the script and whatever files the script writes.
	Dir string
}

// StartTmux runs script (sh syntax) in a w×h window with working
// directory dir and env added to the test environment; the script finds
// Dir in $OUTDIR. Without tmux it skips the test, or fails it under CI.
func StartTmux(t testing.TB, dir string, w, h int, env []string, script string) *Tmux {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed (CI installs it: .ci/run)")
		}
		t.Skip("tmux is not installed")
	}
	x := &Tmux{t: t, socket: socketPath(t), Dir: t.TempDir()}
	var sb strings.Builder
	for _, kv := range append(append(Environ(), env...), "OUTDIR="+x.Dir) {
		if k, v, ok := strings.Cut(kv, "="); ok && isEnvName(k) {
			fmt.Fprintf(&sb, "export %s=%s\n", k, shellQuote(v))
		}
	}
	fmt.Fprintf(&sb, "cd %s || exit 1\n%s\n", shellQuote(dir), script)
	sh := filepath.Join(x.Dir, "run.sh")
	if err := os.WriteFile(sh, []byte(sb.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	x.tmux("-f", "/dev/null", "new-session", "-d", "-x", fmt.Sprint(w), "-y", fmt.Sprint(h), "sh "+shellQuote(sh))
	ctl, err := attachControl(x.socket)
	t.Cleanup(func() {
		_ = exec.Command("tmux", "-S", x.socket, "kill-server").Run()
		if ctl != nil {
			ctl.close()
		}
	})
	if err != nil {
		t.Fatalf("tmux -C attach: %v", err)
	}
	x.ctl = ctl
	return x
}

// socketPath returns the path of a server's socket in a new directory
// removed when the test ends. It is not under t.TempDir: a socket's path
// is limited to 107 bytes, and a test's temporary directory alone can take
// 90.
func socketPath(t testing.TB) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "scouttest-tmux-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "socket")
}

func isEnvName(k string) bool {
	for i, r := range k {
		if !(r == '_' || r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || i > 0 && r >= '0' && r <= '9') {
			return false
		}
	}
	return k != ""
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

func (x *Tmux) tmux(args ...string) string {
	x.t.Helper()
	out, err := exec.Command("tmux", append([]string{"-S", x.socket}, args...)...).CombinedOutput()
	if err != nil {
		x.t.Fatalf("tmux %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// PanePID returns the process id of the window's shell.
func (x *Tmux) PanePID() int {
	x.t.Helper()
	var pid int
	if _, err := fmt.Sscan(x.tmux("display-message", "-p", "-t", "0", "#{pane_pid}"), &pid); err != nil {
		x.t.Fatal(err)
	}
	return pid
}

// Keys sends tmux key names (Enter, Escape, Down, C-r, ...).
func (x *Tmux) Keys(keys ...string) {
	x.t.Helper()
	x.tmux(append([]string{"send-keys", "-t", "0"}, keys...)...)
}

// Type sends s literally.
func (x *Tmux) Type(s string) { x.t.Helper(); x.tmux("send-keys", "-t", "0", "-l", s) }

// Screen returns the visible screen; with escapes, with its colours and
// attributes as escape sequences (capture-pane -e). It is captured over
// the control client: no process is started for it.
func (x *Tmux) Screen(escapes bool) string {
	x.t.Helper()
	command := "capture-pane -p -t 0"
	if escapes {
		command += " -e"
	}
	out, err := x.ctl.run(command)
	if err != nil {
		x.t.Fatalf("tmux %s: %v", command, err)
	}
	return out
}

// WaitScreen waits until cond holds for the plain screen and the screen
// has settled (no output for 100 ms, or the same screen captured again
// 100 ms later, so a frame caught half written is never returned), and
// returns it. The screen is captured again only when the pane has written
// something (the control client's %output), not on a clock.
func (x *Tmux) WaitScreen(what string, cond func(screen string) bool) string {
	x.t.Helper()
	return x.WaitScreenWithin(DefaultTimeout, what, cond)
}

// WaitScreenWithin is WaitScreen with its own bound, for waits that grow
// with the work (a walk of a large tree under -race).
func (x *Tmux) WaitScreenWithin(d time.Duration, what string, cond func(screen string) bool) string {
	x.t.Helper()
	deadline := time.Now().Add(d)
	var candidate string // a screen cond holds for, and since when
	var since time.Time
	for {
		x.ctl.drainOutput()
		s := x.Screen(false)
		if cond(s) {
			// Settled: no output for settle, or the same screen again
			// settle later (output that did not change it).
			if s == candidate && time.Since(since) >= settle {
				return s
			}
			if s != candidate {
				candidate, since = s, time.Now()
			}
			if !x.ctl.awaitOutput(settle) {
				return s
			}
			continue
		}
		candidate = ""
		left := time.Until(deadline)
		if left <= 0 {
			x.t.Fatalf("timed out waiting for %s; screen:\n%s", what, s)
		}
		x.ctl.awaitOutput(min(left, recheck))
	}
}

const (
	// settle is how long a screen must stay without output to count as
	// settled. The polling harness's two captures 30 ms apart took 100 ms
	// and more on a loaded machine (a tmux process each), and tests came
	// to rely on that: with 30 ms, a ranking of the last keystroke still
	// running was taken for the settled screen at load 15.
	settle = 100 * time.Millisecond
	// recheck bounds a wait for output: the screen is captured again
	// after it even when no %output came (a resize, say, redraws
	// without it).
	recheck = time.Second
)

// WaitFile waits until the script has written name in Dir and returns its
// content (poll; the file is complete once it ends with a newline or once
// its size stops changing).
func (x *Tmux) WaitFile(name string) string {
	x.t.Helper()
	deadline := time.Now().Add(DefaultTimeout)
	p := filepath.Join(x.Dir, name)
	for {
		if b, err := os.ReadFile(p); err == nil && len(b) > 0 && b[len(b)-1] == '\n' {
			return string(b)
		}
		if time.Now().After(deadline) {
			x.t.Fatalf("timed out waiting for %s; screen:\n%s", name, x.Screen(false))
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// ReadFile returns a file the script wrote in Dir ("" when absent).
func (x *Tmux) ReadFile(name string) string {
	b, _ := os.ReadFile(filepath.Join(x.Dir, name))
	return string(b)
}
