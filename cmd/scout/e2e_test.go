package main_test

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// project is the fixture workspace of the end-to-end tests.
var project = []string{
	"README.md << # demo",
	"go.mod << module demo",
	"cmd/demo/main.go << package main",
	"internal/server/server.go << package server",
	"internal/server/server_test.go << package server",
	"internal/server/handler.go << package server",
	"internal/client/client.go << package client",
	"docs/serving.md << # serving",
	"web/src/observer.ts << export {}",
	"web/src/app.tsx << export {}",
}

func fixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := makefs.Make(dir, project...); err != nil {
		t.Fatal(err)
	}
	return dir
}

// env is the environment of every scout the tests start: a private home
// for the backend and for the backend log.
func env(t *testing.T) []string {
	return []string{"SCOUT=" + scouttest.Binary(t), "SCOUT_HOME=" + t.TempDir(), "XDG_STATE_HOME=" + t.TempDir(), "NO_COLOR="}
}

// picker starts `scout args` in tmux with stdout, stderr and the exit
// status written to files, and waits for the first frame.
// After scout ends, the script records the terminal's modes: they must
// be restored (canonical mode, echo).
func picker(t *testing.T, w, h int, args string) (*scouttest.Tmux, string) {
	t.Helper()
	dir := fixture(t)
	x := scouttest.StartTmux(t, dir, w, h, env(t),
		`"$SCOUT" `+args+` > "$OUTDIR/out" 2> "$OUTDIR/err"; rc=$?; stty -a > "$OUTDIR/stty"; echo $rc > "$OUTDIR/rc"`)
	x.WaitScreen("the snapshot", func(s string) bool { return strings.Contains(s, "10 files") })
	return x, dir
}

// checkRestored checks the terminal modes recorded after scout ended.
func checkRestored(t *testing.T, x *scouttest.Tmux) {
	t.Helper()
	modes := " " + strings.Join(strings.Fields(x.ReadFile("stty")), " ") + " "
	for _, want := range []string{" icanon ", " echo ", " icrnl "} {
		if !strings.Contains(modes, want) {
			t.Fatalf("terminal not restored: %q missing from stty -a:\n%s", want, modes)
		}
	}
}

func TestPickerTypesHighlightsAndPrintsTheChoice(t *testing.T) {
	t.Parallel()
	x, _ := picker(t, 100, 24, "")
	x.Type("server")
	// 4/10 is the ranking of "server" itself: the screen of a shorter
	// query's ranking under the whole query ("serv", 5/10, with
	// docs/serving.md first) can look settled on a loaded machine
	// before the last ranking is drawn (the frame clock, tui/internal/frameclock/frameclock.go).
	screen := x.WaitScreen("the ranking", func(s string) bool { return strings.Contains(s, "4/10") && strings.Contains(s, "> server") })
	first := rowsOf(screen)[0]
	if first != "internal/server/server.go" {
		t.Fatalf("first row %q, want internal/server/server.go; screen:\n%s", first, screen)
	}
	checkHighlighted(t, x.Screen(true), "internal/server/", "server", ".go")
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "0\n" {
		t.Fatalf("exit status %q, stderr %q", rc, x.ReadFile("err"))
	}
	if out := x.ReadFile("out"); out != "internal/server/server.go\n" {
		t.Fatalf("stdout %q, want exactly the chosen path", out)
	}
	checkRestored(t, x)
}

// checkHighlighted checks, in a capture with escapes, that the characters
// of match right after dir carry attributes of their own: escape sequences
// that make them bold and coloured start right before them, and others end
// them before rest.
func checkHighlighted(t *testing.T, screen, dir, match, rest string) {
	t.Helper()
	sgr := `((?:\x1b\[[0-9;]*m)+)`
	re := regexp.MustCompile(regexp.QuoteMeta(dir) + sgr + regexp.QuoteMeta(match) + sgr + regexp.QuoteMeta(rest))
	m := re.FindStringSubmatch(screen)
	if m == nil {
		t.Fatalf("%q%q%q is not highlighted in:\n%q", dir, match, rest, screen)
	}
	params := regexp.MustCompile(`[0-9;]+`).FindAllString(m[1], -1)
	joined := ";" + strings.Join(params, ";") + ";"
	if !strings.Contains(joined, ";1;") || !strings.Contains(joined, ";38;") {
		t.Fatalf("the match is not bold and coloured: %q", m[1])
	}
}

// rowsOf returns the list rows of a plain screen: the lines after the
// query line, without the gutter and mark columns, up to the status line.
func rowsOf(screen string) []string {
	lines := strings.Split(screen, "\n")
	var rows []string
	for _, l := range lines[2:] {
		if strings.HasPrefix(l, "● ") || strings.TrimSpace(l) == "" {
			break
		}
		l, _, _ = strings.Cut(l, "│")
		rows = append(rows, strings.TrimSpace(strings.TrimLeft(l, "▌•")))
	}
	return rows
}

// TestNoColorHighlightsWithAttributesOnly: with NO_COLOR, or on a
// monochrome terminal (a terminfo name ending in -mono or -m, such as
// xterm-mono), the picker sends no colour at all, of any depth, and the
// match is bold and underlined.
func TestNoColorHighlightsWithAttributesOnly(t *testing.T) {
	t.Parallel()
	for _, setting := range []string{"NO_COLOR=yes", "TERM=xterm-mono"} {
		t.Run(setting, func(t *testing.T) {
			t.Parallel()
			x := scouttest.StartTmux(t, fixture(t), 100, 20, append(env(t), setting), `"$SCOUT" --query server`)
			x.WaitScreen("the ranking", func(s string) bool { return strings.Contains(s, "/10") })
			screen := x.Screen(true)
			for _, sgr := range regexp.MustCompile(`\x1b\[([0-9;]*)m`).FindAllStringSubmatch(screen, -1) {
				for _, p := range strings.Split(sgr[1], ";") {
					if n, err := strconv.Atoi(p); err == nil && n != 39 && n != 49 && (30 <= n && n <= 49 || 90 <= n && n <= 107) { // 39, 49: the default colours
						t.Fatalf("colour %q despite %s:\n%q", sgr[0], setting, screen)
					}
				}
			}
			re := regexp.MustCompile(`internal/server/((?:\x1b\[[0-9;]*m)+)server`)
			m := re.FindStringSubmatch(screen)
			if m == nil || !strings.Contains(m[1], "1;4") && !strings.Contains(m[1], "4;1") {
				t.Fatalf("the match is not bold and underlined without colour:\n%q", screen)
			}
		})
	}
}

// TestColoursWhetherStdoutIsATerminalOrAPipe: the picker draws on the
// terminal in its colour profile whether its standard output is that
// terminal (the profile lipgloss detected at init) or a pipe, as in
// vim $(scout) (detected on the terminal itself, pick.go's colorProfile):
// the colours are written in the same encodings either way (256 colours
// in tmux without RGB, 24-bit under COLORTERM=truecolor; never only 16).
// The colours on screen may differ (a transient line), their encoding
// may not.
func TestColoursWhetherStdoutIsATerminalOrAPipe(t *testing.T) {
	t.Parallel()
	encodings := func(script string) map[string]bool {
		x := scouttest.StartTmux(t, fixture(t), 100, 20, env(t), script)
		x.WaitScreen("the ranking and the preview", func(s string) bool {
			return strings.Contains(s, "4/10") && strings.Contains(s, "package server")
		})
		return colourEncodings(x.Screen(true))
	}
	tty := encodings(`"$SCOUT" --query server`)
	pipe := encodings(`"$SCOUT" --query server | cat`)
	if !tty["256"] && !tty["24-bit"] {
		t.Fatalf("no 256-colour or 24-bit sequences with stdout on the terminal: %q", slices.Sorted(maps.Keys(tty)))
	}
	if !maps.Equal(tty, pipe) {
		t.Fatalf("the colour encodings differ: stdout a terminal %q, stdout a pipe %q", slices.Sorted(maps.Keys(tty)), slices.Sorted(maps.Keys(pipe)))
	}
}

// colourEncodings are the encodings of the colours the SGR sequences of
// screen set: "basic" (30–37, 40–47, 90–97, 100–107), "256" (38;5;N,
// 48;5;N) and "24-bit" (38;2;R;G;B, 48;2;R;G;B).
func colourEncodings(screen string) map[string]bool {
	kinds := map[string]bool{}
	for _, m := range regexp.MustCompile(`\x1b\[([0-9;]*)m`).FindAllStringSubmatch(screen, -1) {
		ps := strings.Split(m[1], ";")
		for i := 0; i < len(ps); i++ {
			n, _ := strconv.Atoi(ps[i])
			switch {
			case (n == 38 || n == 48) && i+1 < len(ps) && ps[i+1] == "5":
				kinds["256"] = true
				i += 2
			case (n == 38 || n == 48) && i+1 < len(ps) && ps[i+1] == "2":
				kinds["24-bit"] = true
				i += 4
			case 30 <= n && n <= 37, 40 <= n && n <= 47, 90 <= n && n <= 97, 100 <= n && n <= 107:
				kinds["basic"] = true
			}
		}
	}
	return kinds
}

func TestPreviewThroughTheRealBackend(t *testing.T) {
	t.Parallel()
	dir := fixture(t)
	if err := makefs.Make(dir, "internal/server/colors.go << package server // \x1b[31mred\x1b[0m"); err != nil {
		t.Fatal(err)
	}
	x := scouttest.StartTmux(t, dir, 100, 20, env(t), `"$SCOUT" --query colors`)
	screen := x.WaitScreen("the preview", func(s string) bool { return strings.Contains(s, "package server") })
	if !strings.Contains(screen, "// ^[[31mred^[[0m") {
		t.Fatalf("the escape in the file reached the terminal:\n%s", screen)
	}
	x.Keys("C-u") // empty query: the tree, README.md focused
	x.WaitScreen("README.md's preview", func(s string) bool { return strings.Contains(s, "│ 1 # demo") })
	x.Keys("Down") // cmd/: a folder's preview lists it
	x.WaitScreen("cmd's listing", func(s string) bool { return strings.Contains(s, "│ demo/") })
}

func TestEscExits130WithEmptyStdout(t *testing.T) {
	t.Parallel()
	x, _ := picker(t, 80, 20, "")
	x.Type("serv")
	x.Keys("Escape")
	if rc := x.WaitFile("rc"); rc != "130\n" {
		t.Fatalf("exit status %q, want 130", rc)
	}
	if out := x.ReadFile("out"); out != "" {
		t.Fatalf("stdout %q, want nothing", out)
	}
	checkRestored(t, x)
}

func TestCtrlCExits130(t *testing.T) {
	t.Parallel()
	x, _ := picker(t, 80, 20, "")
	x.Keys("C-c")
	if rc := x.WaitFile("rc"); rc != "130\n" {
		t.Fatalf("exit status %q, want 130", rc)
	}
}

func TestNoMatchExits1(t *testing.T) {
	t.Parallel()
	x, _ := picker(t, 80, 20, "--query zzzzz")
	x.WaitScreen("no match", func(s string) bool { return strings.Contains(s, "no match") })
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "1\n" {
		t.Fatalf("exit status %q, want 1", rc)
	}
}

func TestCommandSubstitutionCapturesOnlyThePath(t *testing.T) {
	t.Parallel()
	// vim "$(scout)": stdout is a pipe, the interface is on the terminal.
	x := scouttest.StartTmux(t, fixture(t), 80, 20, env(t),
		`f="$("$SCOUT" --query observer)"; echo $? > "$OUTDIR/rc"; printf '%s\n' "$f" > "$OUTDIR/out"`)
	x.WaitScreen("the ranking", func(s string) bool { return strings.Contains(s, "1/10") })
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "0\n" {
		t.Fatalf("exit status %q", rc)
	}
	if out := x.WaitFile("out"); out != "web/src/observer.ts\n" {
		t.Fatalf("captured %q, want the path alone", out)
	}
}

func TestMultiPrint0(t *testing.T) {
	t.Parallel()
	x, _ := picker(t, 80, 20, "--multi --print0 --query server")
	x.WaitScreen("the ranking", func(s string) bool { return strings.Contains(s, "/10") })
	x.Keys("Tab", "Tab")
	x.WaitScreen("two marks", func(s string) bool { return strings.Contains(s, "2 marked") })
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "0\n" {
		t.Fatalf("exit status %q", rc)
	}
	out := x.ReadFile("out")
	parts := strings.Split(out, "\x00")
	if len(parts) != 3 || parts[2] != "" || !strings.Contains(parts[0], "server") {
		t.Fatalf("stdout %q, want two NUL-terminated paths", out)
	}
}

func TestFilterEqualsWhatThePickerShows(t *testing.T) {
	t.Parallel()
	for _, q := range []string{"server", "srv", "sr", "e", "main"} {
		x, dir := picker(t, 79, 30, "--query "+q)
		screen := x.WaitScreen("the ranking of "+q, func(s string) bool { return regexp.MustCompile(`\d+/10`).MatchString(s) })
		shown := rowsOf(screen)
		cmd := exec.Command(scouttest.Binary(t), "filter", q)
		cmd.Dir = dir
		cmd.Env = append(scouttest.Environ(), env(t)...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("scout filter %s: %v", q, err)
		}
		want := strings.Split(strings.TrimSuffix(string(out), "\n"), "\n")
		if !slices.Equal(shown, want) {
			t.Fatalf("query %q: the picker shows\n%q\nscout filter prints\n%q", q, shown, want)
		}
		x.Keys("Escape")
		x.WaitFile("rc")
	}
}

func TestPanicRestoresTheTerminalAndStopsTheBackend(t *testing.T) {
	t.Parallel()
	x := scouttest.StartTmux(t, fixture(t), 80, 20, append(env(t), "SCOUT_DEBUG_PANIC=1"),
		`"$SCOUT" > "$OUTDIR/out" 2> "$OUTDIR/err"; rc=$?; stty -a > "$OUTDIR/stty"; echo shell-is-back; echo $rc > "$OUTDIR/rc"; sleep 30`)
	x.WaitScreen("the snapshot", func(s string) bool { return strings.Contains(s, "10 files") })
	backend := backendPID(t, x)
	x.Keys("C-]")
	if rc := x.WaitFile("rc"); rc != "2\n" {
		t.Fatalf("exit status %q, want 2", rc)
	}
	checkRestored(t, x)
	x.WaitScreen("the shell's screen", func(s string) bool {
		return strings.Contains(s, "shell-is-back") && !strings.Contains(s, "Files │ Sessions")
	})
	if err := syscall.Kill(backend, 0); err == nil {
		t.Fatalf("the backend %d outlived the panic", backend)
	}
	if msg := x.ReadFile("err"); !strings.Contains(msg, "scout: internal error: the picker panicked") {
		t.Fatalf("stderr %q", msg)
	}
}

func TestKilledBackendIsReportedAndRRestartsIt(t *testing.T) {
	t.Parallel()
	x, _ := picker(t, 100, 20, "")
	pid := backendPID(t, x)
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	x.WaitScreen("the crash report", func(s string) bool { return strings.Contains(s, "● down") && strings.Contains(s, "press R") })
	x.Type("R")
	x.WaitScreen("the restarted backend", func(s string) bool { return strings.Contains(s, "● ready") && strings.Contains(s, "10 files") })
	if backendPID(t, x) == pid {
		t.Fatal("the backend was not replaced")
	}
	chooseObserver(t, x)
}

// chooseObserver picks the fixture's web/src/observer.ts in the picker the
// script runs: the query, the one match, Enter, printed with status 0.
func chooseObserver(t *testing.T, x *scouttest.Tmux) {
	t.Helper()
	x.Type("observer")
	x.WaitScreen("the ranking", func(s string) bool { return strings.Contains(s, "1/10") })
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "0\n" {
		t.Fatalf("exit status %q", rc)
	}
	if out := x.ReadFile("out"); out != "web/src/observer.ts\n" {
		t.Fatalf("stdout %q", out)
	}
}

// backendPID finds the `scout backend` child of the scout the script runs:
// pane shell -> scout -> scout backend.
func backendPID(t *testing.T, x *scouttest.Tmux) int {
	t.Helper()
	scout := childOf(t, x.PanePID())
	return childOf(t, scout)
}

// childOf returns the one child process of pid (scanning /proc: a Go
// program starts children from any of its threads).
func childOf(t *testing.T, pid int) int {
	t.Helper()
	stats, _ := filepath.Glob("/proc/[0-9]*/stat")
	var kids []int
	for _, st := range stats {
		b, err := os.ReadFile(st)
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so parse after ')'.
		i := bytes.LastIndexByte(b, ')')
		f := strings.Fields(string(b[i+1:]))
		if len(f) > 1 && f[1] == strconv.Itoa(pid) {
			n, _ := strconv.Atoi(filepath.Base(filepath.Dir(st)))
			kids = append(kids, n)
		}
	}
	if len(kids) != 1 {
		t.Fatalf("process %d has children %v, want one", pid, kids)
	}
	return kids[0]
}

func TestFilterStdinAndExitStatus(t *testing.T) {
	t.Parallel()
	bin := scouttest.Binary(t)
	cmd := exec.Command(bin, "filter", "--stdin", "srv")
	cmd.Stdin = strings.NewReader("a/server.go\r\nnothing\n\nsrv/x\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(out)); !slices.Equal(got, []string{"srv/x", "a/server.go"}) && !slices.Equal(got, []string{"a/server.go", "srv/x"}) {
		t.Fatalf("filter --stdin printed %q", out)
	}
	cmd = exec.Command(bin, "filter", "--stdin", "qqq")
	cmd.Stdin = strings.NewReader("abc\n")
	if err := cmd.Run(); exitStatus(err) != 1 {
		t.Fatalf("no match: %v, want exit status 1", err)
	}
}

func TestStartupAndUsageErrorsExit2(t *testing.T) {
	t.Parallel()
	bin := scouttest.Binary(t)
	for _, tc := range []struct {
		name string
		args []string
		says string // a part of the one line on stderr
	}{
		{"unknown flag", []string{"--bogus"}, "unknown flag: --bogus (usage: scout [flags])"},
		{"flag without its value", []string{"--query"}, "flag needs an argument: --query (usage: scout [flags])"},
		{"unknown command", []string{"bogus"}, `unknown command "bogus"; scout --help lists the commands`},
		{"no generated completion command", []string{"completion", "bash"}, `unknown command "completion"`},
		{"help on no command", []string{"help", "bogus"}, `unknown help topic "bogus" (usage: scout help [command] [flags])`},
		{"argument to a command that takes none", []string{"files", "extra"}, `unexpected argument "extra" (usage: scout files [flags])`},
		{"filter without query", []string{"filter"}, "missing QUERY (usage: scout filter QUERY [flags])"},
		{"filter with two queries", []string{"filter", "a", "b"}, "one argument expected, got 2 (usage: scout filter QUERY [flags])"},
		{"limit not a number", []string{"filter", "--limit", "abc", "x"}, `invalid argument "abc" for "-n, --limit" flag: not a whole number (usage:`},
		{"bool flag not a bool", []string{"--multi=maybe"}, `invalid argument "maybe" for "-m, --multi" flag: want true or false (usage:`},
		{"negative limit", []string{"filter", "--limit", "-1", "x"}, "--limit must be 0"},
		{"shell without a name", []string{"shell"}, "missing bash|zsh|fish"},
		{"unknown shell", []string{"shell", "ksh"}, `unknown shell "ksh": want one of bash, zsh, fish`},
		{"no terminal", nil, "cannot open the terminal"},
		{"sessions without a terminal", []string{"sessions"}, "cannot open the terminal"},
		{"providers without a terminal", []string{"providers"}, "cannot open the terminal"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			cmd.Dir = fixture(t)
			cmd.Env = append(scouttest.Environ(), env(t)...)
			cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} // no controlling terminal
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if exitStatus(err) != 2 {
				t.Fatalf("exit status %d (%v), want 2", exitStatus(err), err)
			}
			msg := stderr.String()
			if stdout.Len() != 0 || strings.Count(msg, "\n") != 1 || !strings.HasPrefix(msg, "scout: ") || !strings.Contains(msg, tc.says) {
				t.Fatalf("stdout %q, stderr %q: want one line on stderr only, saying %q", stdout.String(), msg, tc.says)
			}
		})
	}
}

func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	return -1
}
