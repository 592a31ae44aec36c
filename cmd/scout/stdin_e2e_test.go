package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// lines runs `producer | scout args` in tmux over the fixture project,
// with stdout and the exit status written to files.
func linesPicker(t *testing.T, producer, args string) *scouttest.Tmux {
	t.Helper()
	return scouttest.StartTmux(t, fixture(t), 100, 20, env(t),
		producer+` | "$SCOUT" `+args+` > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
}

func TestPickerRanksStdinAndPrintsTheChosenLine(t *testing.T) {
	t.Parallel()
	x := linesPicker(t, `printf 'alpha\nbeta\ngamma\n'`, "")
	x.WaitScreen("the lines", func(s string) bool { return strings.Contains(s, "gamma") && strings.Contains(s, "3/3") })
	if s := x.Screen(false); strings.Contains(s, "README") || strings.Contains(s, "files") {
		t.Fatalf("the project's files instead of the lines:\n%s", s)
	}
	x.Type("bet")
	x.WaitScreen("the ranking", func(s string) bool { return strings.Contains(s, "1/3") })
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "0\n" {
		t.Fatalf("exit status %q, stderr %q", rc, x.ReadFile("err"))
	}
	if out := x.ReadFile("out"); out != "beta\n" {
		t.Fatalf("stdout %q, want beta", out)
	}
}

// TestPickerShowsASlowProducersFirstLines: one line every 100 ms, the
// first ones on screen (and ranked) while the producer is still writing.
func TestPickerShowsASlowProducersFirstLines(t *testing.T) {
	t.Parallel()
	// The producer writes a line every 100 ms until the test says stop (or
	// for a minute): however loaded the machine, it is still writing when
	// the first lines are checked.
	x := linesPicker(t, `(i=1; while [ $i -le 600 ] && [ ! -e "$OUTDIR/stop" ]; do echo "line $i"; i=$((i+1)); sleep 0.1; done; : > "$OUTDIR/produced")`, "--query line")
	defer os.WriteFile(filepath.Join(x.Dir, "stop"), nil, 0o600)
	screen := x.WaitScreen("the first lines", func(s string) bool { return strings.Contains(s, "line 2") })
	if x.ReadFile("produced") != "" || fileExists(filepath.Join(x.Dir, "produced")) {
		t.Fatalf("the producer had finished before its first lines were shown:\n%s", screen)
	}
	if !strings.Contains(screen, "reading") {
		t.Fatalf("no sign that input is still being read:\n%s", screen)
	}
	x.WaitScreen("the count to grow", func(s string) bool {
		return regexp.MustCompile(`\b([4-9]|[1-9][0-9]{1,2})/([4-9]|[1-9][0-9]{1,2})\b`).MatchString(s)
	})
	x.Keys("Escape")
	if rc := x.WaitFile("rc"); rc != "130\n" {
		t.Fatalf("exit status %q", rc)
	}
}

func fileExists(p string) bool { _, err := os.Stat(p); return err == nil }

// TestPickerReadsAndPrintsNULSeparatedNames: names with a newline and a
// space go in with --read0 and come out with --print0 exactly, their
// newline shown as ^J.
func TestPickerReadsAndPrintsNULSeparatedNames(t *testing.T) {
	t.Parallel()
	x := linesPicker(t, `printf 'one\ntwo\000three four\000'`, "--read0 --print0 --multi")
	x.WaitScreen("the names", func(s string) bool { return strings.Contains(s, "one^Jtwo") && strings.Contains(s, "2/2") })
	x.Keys("Tab", "Tab")
	x.WaitScreen("two marks", func(s string) bool { return strings.Contains(s, "2 marked") })
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "0\n" {
		t.Fatalf("exit status %q, stderr %q", rc, x.ReadFile("err"))
	}
	if out := x.ReadFile("out"); out != "one\ntwo\x00three four\x00" {
		t.Fatalf("stdout %q", out)
	}
}

func TestDevNullStdinPicksTheProject(t *testing.T) {
	t.Parallel()
	x := scouttest.StartTmux(t, fixture(t), 100, 20, env(t), `"$SCOUT" < /dev/null > "$OUTDIR/out"; echo $? > "$OUTDIR/rc"`)
	x.WaitScreen("the project's files", func(s string) bool { return strings.Contains(s, "10 files") })
	x.Keys("Escape")
	x.WaitFile("rc")
}

// TestHeightLeavesTheScreenAboveIntact: --height 10 draws the picker in
// ten rows under the prompt; what was printed above it is there while it
// runs and after it ends, and its own rows are cleared.
func TestHeightLeavesTheScreenAboveIntact(t *testing.T) {
	t.Parallel()
	x := scouttest.StartTmux(t, fixture(t), 100, 30, env(t),
		`for i in 1 2 3 4 5; do echo "above $i"; done; "$SCOUT" --height 10 > "$OUTDIR/out"; echo $? > "$OUTDIR/rc"; echo after; sleep 60`)
	before := x.WaitScreen("the inline picker", func(s string) bool { return strings.Contains(s, "10 files") })
	rows := strings.Split(before, "\n")
	for i := range 5 {
		if rows[i] != fmt.Sprintf("above %d", i+1) {
			t.Fatalf("row %d is %q while the picker runs:\n%s", i, rows[i], before)
		}
	}
	if !strings.Contains(rows[5], "Files") || strings.TrimSpace(strings.Join(rows[15:], "")) != "" {
		t.Fatalf("the picker is not in the ten rows under the lines:\n%s", before)
	}
	x.Keys("Escape")
	after := x.WaitScreen("the end", func(s string) bool { return strings.Contains(s, "after") })
	want := "above 1\nabove 2\nabove 3\nabove 4\nabove 5\nafter\n"
	if !strings.HasPrefix(after, want) || strings.Contains(after, "Files") {
		t.Fatalf("the screen after the picker:\n%s\nwant it to start with:\n%s", after, want)
	}
}

// goFile is a Go file long enough to scroll.
func goFile() string {
	var b strings.Builder
	b.WriteString("package demo\n\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&b, "// F%02d returns %d.\nfunc F%02d() int { return %d }\n", i, i, i, i)
	}
	return b.String()
}

// previewPicker opens the picker on a project with a long Go file.
func previewPicker(t *testing.T, extraEnv ...string) *scouttest.Tmux {
	t.Helper()
	dir := t.TempDir()
	if err := makefs.Make(dir, "src/demo.go << "+goFile(), "README.md << # demo"); err != nil {
		t.Fatal(err)
	}
	x := scouttest.StartTmux(t, dir, 120, 24, append(env(t), extraEnv...), `"$SCOUT" --query demo.go`)
	x.WaitScreen("the preview", func(s string) bool { return strings.Contains(s, "1 package demo") })
	return x
}

// paneOf returns the preview pane's part of a captured screen.
func paneOf(screen string) string {
	var b strings.Builder
	for _, l := range strings.Split(screen, "\n") {
		if _, pane, ok := strings.Cut(l, "│"); ok {
			b.WriteString(pane + "\n")
		}
	}
	return b.String()
}

var colourSGR = regexp.MustCompile(`\x1b\[[0-9;]*[34]8;[25];`)

func TestPreviewIsColouredAndScrollsWithShiftDown(t *testing.T) {
	t.Parallel()
	x := previewPicker(t)
	x.WaitScreen("the colours", func(string) bool { return colourSGR.MatchString(paneOf(x.Screen(true))) })
	x.Keys("S-Down", "S-Down")
	// Line 3 is on screen from the start: scrolled means line 1 gone and
	// line 3 still there (two lines, not a page).
	x.WaitScreen("two lines scrolled", func(s string) bool {
		pane := paneOf(s)
		return !strings.Contains(pane, "1 package demo") && strings.Contains(pane, " 3 // F01 returns 1.")
	})
	x.Keys("S-PageDown")
	x.WaitScreen("a page scrolled", func(s string) bool { return !strings.Contains(paneOf(s), " 3 // F01") })
	if got := x.Screen(false); !strings.Contains(got, "demo.go") {
		t.Fatalf("the list lost its row:\n%s", got)
	}
}

func TestPreviewWithoutColourUnderNoColor(t *testing.T) {
	t.Parallel()
	x := previewPicker(t, "NO_COLOR=1")
	x.WaitScreen("line numbers", func(s string) bool { return strings.Contains(s, "2 ") && strings.Contains(s, "3 // F01") })
	if pane := paneOf(x.Screen(true)); colourSGR.MatchString(pane) {
		t.Fatalf("colours in the preview under NO_COLOR:\n%q", pane)
	}
}

func TestFilterReadsAndPrintsNULSeparatedNames(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(scouttest.Binary(t), "filter", "--stdin", "--read0", "--print0", "two")
	cmd.Stdin = strings.NewReader("one\ntwo\x00three\x00two words\x00")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%v: %s", err, stderr.String())
	}
	if got := string(out); got != "one\ntwo\x00two words\x00" && got != "two words\x00one\ntwo\x00" {
		t.Fatalf("stdout %q", got)
	}
	if err := exec.Command(scouttest.Binary(t), "filter", "--read0", "x").Run(); exitStatus(err) != 2 {
		t.Fatalf("--read0 without --stdin: %v, want exit status 2", err)
	}
}

// TestFilterRanksTheProjectWithDevNullStdin: only --stdin reads standard
// input; /dev/null there (what editors give their children) changes
// nothing.
func TestFilterRanksTheProjectWithDevNullStdin(t *testing.T) {
	t.Parallel()
	null, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	cmd := exec.Command(scouttest.Binary(t), "filter", "server")
	cmd.Dir, cmd.Stdin = fixture(t), null
	cmd.Env = append(scouttest.Environ(), env(t)...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "internal/server/server.go\n") {
		t.Fatalf("stdout %q", out)
	}
}
