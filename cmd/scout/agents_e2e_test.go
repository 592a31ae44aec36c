package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// agentsWorkspace is a workspace (its path free of symlinks, as the agents
// record it) with every agent's store around it.
func agentsWorkspace(t *testing.T) (string, *sessionstest.Agents) {
	t.Helper()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return ws, sessionstest.NewAgents(t, ws, false)
}

// TestSessionsJSON: `scout sessions --json` prints, with no interface,
// one JSON row per session of every agent once discovery completed —
// exactly the fixture's rows, each with its agent, title and busy hint —
// and exits 0; with scout's own store unsafe it exits 2 with one line on
// stderr and prints nothing.
func TestSessionsJSON(t *testing.T) {
	t.Parallel()
	ws, a := agentsWorkspace(t)
	cmd := exec.Command(scouttest.Binary(t), "sessions", "--json")
	cmd.Dir, cmd.Env = ws, append(scouttest.Environ(), a.Env()...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() != 0 {
		t.Fatalf("%v, stderr %q", err, stderr.String())
	}
	got := map[sessionstest.Key]sessionstest.Want{}
	var prev wire.SessionRow
	for i, line := range strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
		var r wire.SessionRow
		if err := wire.UnmarshalStrict([]byte(line), &r); err != nil {
			t.Fatalf("line %q: %v", line, err)
		}
		got[sessionstest.Key{Agent: r.Agent, ID: r.ID}] = sessionstest.Want{Title: r.Title, Busy: r.Busy}
		if i > 0 && (r.UpdatedAt > prev.UpdatedAt || r.UpdatedAt == prev.UpdatedAt && r.Agent < prev.Agent) {
			t.Errorf("not newest first: %s %s (%s) after %s %s (%s)", r.Agent, r.ID, r.UpdatedAt, prev.Agent, prev.ID, prev.UpdatedAt)
		}
		prev = r
	}
	if len(got) != len(a.Rows) {
		t.Errorf("%d rows, want %d:\n%s", len(got), len(a.Rows), stdout.String())
	}
	for k, w := range a.Rows {
		if got[k] != w {
			t.Errorf("%s/%s: %+v, want %+v", k.Agent, k.ID, got[k], w)
		}
	}

	// scout's own store unsafe: discovery_unavailable, said on one line.
	if err := os.RemoveAll(filepath.Join(a.Scout, "sessions")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(t.TempDir(), filepath.Join(a.Scout, "sessions")); err != nil {
		t.Fatal(err)
	}
	cmd = exec.Command(scouttest.Binary(t), "sessions", "--json")
	cmd.Dir, cmd.Env = ws, append(scouttest.Environ(), a.Env()...)
	stdout.Reset()
	stderr.Reset()
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if exitStatus(err) != 2 || stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), "scout: session discovery failed") {
		t.Fatalf("exit %v, stdout %q, stderr %q", err, stdout.String(), stderr.String())
	}
}

// TestSessionsJSONBrokenConfig: a config.toml that cannot be used (here a
// misspelt agent in [sessions] sources) reads no store at all, not every
// store, and `scout sessions --json` exits 2 with one line that names the
// key; so does a relative SCOUT_HOME, naming the variable.
func TestSessionsJSONBrokenConfig(t *testing.T) {
	t.Parallel()
	ws, a := agentsWorkspace(t)
	if err := os.WriteFile(filepath.Join(a.Scout, "config.toml"), []byte("[sessions]\nsources = [\"scout\", \"claud-code\"]\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		env  []string
		want string
	}{
		{a.Env(), "sessions.sources"},
		{append(a.Env(), "SCOUT_HOME=relative/home"), "SCOUT_HOME must be an absolute path"},
	} {
		cmd := exec.Command(scouttest.Binary(t), "sessions", "--json")
		cmd.Dir, cmd.Env = ws, append(scouttest.Environ(), tc.env...)
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		line := stderr.String()
		if exitStatus(err) != 2 || stdout.Len() != 0 || strings.Count(line, "\n") != 1 || !strings.HasPrefix(line, "scout: session discovery failed: ") || !strings.Contains(line, tc.want) {
			t.Errorf("%s: exit %v, stdout %q, stderr %q", tc.want, err, stdout.String(), line)
		}
	}
}

// fakeAgents writes claude, codex, gemini, crush and opencode executables
// into a new directory: each records its argv and working directory in
// $OUTDIR/<name>.argv and exits 0. The record is written aside and renamed
// into place, so a test waiting for the file never reads it half-written
// (the argv without the directory).
func fakeAgents(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	for _, name := range []string{"claude", "codex", "gemini", "crush", "opencode"} {
		argv, tmp := `"$OUTDIR/`+name+`.argv"`, `"$OUTDIR/`+name+`.argv.tmp"`
		script := "#!/bin/sh\n{ printf '%s\\n' \"$(basename \"$0\")\" \"$@\"; pwd; } > " + tmp + " && mv " + tmp + " " + argv + "\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

// agentsEnv is the environment of a tmux test over the stores, with bin
// first on PATH.
func agentsEnv(t *testing.T, a *sessionstest.Agents, bin string) []string {
	env := append(homeEnv(t, a.Scout), a.Env()...)
	return append(env, "PATH="+bin+":"+os.Getenv("PATH"))
}

// pickByTitle waits for the finished list of n sessions, narrows it to
// one by query and presses Enter.
func pickByTitle(t *testing.T, x *scouttest.Tmux, n int, query string) {
	t.Helper()
	x.WaitScreen("the finished list", func(s string) bool { return strings.Contains(s, fmt.Sprintf("%d sessions here", n)) })
	x.Type(query)
	x.WaitScreen(query+"'s one match", func(s string) bool { return strings.Contains(s, fmt.Sprintf("1/%d", n)) })
	x.Keys("Enter")
}

// TestResumeExecsTheAgentsCommand: `scout resume` picks a session and
// replaces itself with its agent's resume command, run in the workspace
// root (fake claude, codex and gemini first on PATH record their argv and
// cwd); for one of scout's own sessions it prints the id; an agent that
// is not on PATH is an error that says the command to run (exit 2).
func TestResumeExecsTheAgentsCommand(t *testing.T) {
	t.Parallel()
	ws, a := agentsWorkspace(t)
	bin := fakeAgents(t)
	x := scouttest.StartTmux(t, ws, 120, 30, agentsEnv(t, a, bin),
		`for i in 1 2 3 4 5; do "$SCOUT" resume > "$OUTDIR/out$i" 2> "$OUTDIR/err$i"; echo $? > "$OUTDIR/rc$i"; done`)
	n := len(a.Rows)
	for i, tc := range []struct{ query, agent, want string }{
		{"flaky parser", "claude", "claude\n--resume\n" + sessionstest.ID("cc-here") + "\n" + ws + "\n"},
		{"json flag", "codex", "codex\nresume\n" + sessionstest.ID("cx-here") + "\n" + ws + "\n"},
		{"Explain this", "gemini", "gemini\n--resume\n" + sessionstest.ID("gm-here") + "\n" + ws + "\n"},
	} {
		pickByTitle(t, x, n, tc.query)
		if got := x.WaitFile(tc.agent + ".argv"); got != tc.want {
			t.Errorf("%s ran as %q, want %q", tc.agent, got, tc.want)
		}
		if rc := x.WaitFile(fmt.Sprintf("rc%d", i+1)); rc != "0\n" {
			t.Errorf("resume %d: exit %q, stderr %q", i+1, rc, x.ReadFile(fmt.Sprintf("err%d", i+1)))
		}
	}
	pickByTitle(t, x, n, "scout's own")
	if rc := x.WaitFile("rc4"); rc != "0\n" || x.ReadFile("out4") != "scout-chat\n" {
		t.Errorf("scout's own session: exit %q, stdout %q", rc, x.ReadFile("out4"))
	}
	if err := os.Remove(filepath.Join(bin, "gemini")); err != nil {
		t.Fatal(err)
	}
	pickByTitle(t, x, n, "Explain this")
	want := "scout: gemini is not on PATH; to resume this session, run in this directory: gemini --resume " + sessionstest.ID("gm-here") + "\n"
	if rc := x.WaitFile("rc5"); rc != "2\n" || x.ReadFile("err5") != want {
		t.Errorf("without gemini: exit %q, stderr %q, want %q", rc, x.ReadFile("err5"), want)
	}
}

// TestAltSInsertsTheResumeCommand presses Alt-S in bash, zsh and fish
// with agents' stores around the shell's directory: a picker of sessions
// alone opens (no other tab), a Codex session is picked by its title, its
// resume command lands on the command line followed by a space, and runs
// (a fake codex records it).
func TestAltSInsertsTheResumeCommand(t *testing.T) {
	t.Parallel()
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			scouttest.NeedCommand(t, sh)
			ws, a := agentsWorkspace(t)
			x := scouttest.StartTmux(t, ws, 120, 30, agentsEnv(t, a, fakeAgents(t)), interactive[sh])
			x.WaitScreen("the prompt", func(s string) bool { return strings.HasPrefix(s, "$") })
			x.Keys("M-s")
			screen := x.WaitScreen("the session picker", func(s string) bool { return strings.Contains(s, "sessions here") })
			if strings.Contains(screen, "Files") || strings.Contains(screen, "Providers") {
				t.Errorf("Alt-S's picker shows other tabs:\n%s", screen)
			}
			pickByTitle(t, x, len(a.Rows), "Renamed twice")
			line := "$ codex resume " + sessionstest.ID("cx-named")
			x.WaitScreen("the resume command on the command line", func(s string) bool {
				return strings.HasPrefix(s, line) && !strings.Contains(s, "sessions here")
			})
			x.Type("yes") // after the space that follows the command
			x.WaitScreen("the command line", func(s string) bool { return strings.HasPrefix(s, line+" yes") })
			x.Keys("Enter")
			if got, want := x.WaitFile("codex.argv"), "codex\nresume\n"+sessionstest.ID("cx-named")+"\nyes\n"+ws+"\n"; got != want {
				t.Fatalf("codex ran as %q, want %q", got, want)
			}
		})
	}
}

// TestResumeCrushAndOpenCode: `scout resume` on a session of crush's
// database (the workspace's .crush/crush.db) or of opencode's ($OPENCODE_DB)
// execs `crush --session ID` or `opencode --session ID` in the workspace
// root; `scout sessions --json` lists both; the databases stay byte for
// byte as they were.
func TestResumeCrushAndOpenCode(t *testing.T) {
	t.Parallel()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, _ := sessionstest.Home(t)
	crushDB := filepath.Join(ws, ".crush", "crush.db")
	opencodeDB := filepath.Join(t.TempDir(), "opencode.db")
	chat := []string{"user", "assistant"}
	if err := sessionstest.WriteCrush(crushDB, sessionstest.DBSession{ID: "c1a2b3c4-0001-4000-8000-000000000001", Title: "Crush sidebar work", Roles: chat}); err != nil {
		t.Fatal(err)
	}
	if err := sessionstest.WriteOpenCode(opencodeDB, sessionstest.DBSession{ID: "ses_fixbuild", Dir: ws, Title: "opencode build fix", Roles: chat}); err != nil {
		t.Fatal(err)
	}
	sums := func() string {
		var out []string
		for _, p := range []string{crushDB, opencodeDB} {
			data, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, fmt.Sprintf("%x", data))
		}
		entries, _ := os.ReadDir(filepath.Dir(crushDB))
		for _, e := range entries {
			out = append(out, e.Name())
		}
		return strings.Join(out, "\n")
	}
	before := sums()
	env := []string{"SCOUT_HOME=" + home, "OPENCODE_DB=" + opencodeDB, "CRUSH_GLOBAL_DATA=" + t.TempDir()}

	cmd := exec.Command(scouttest.Binary(t), "sessions", "--json")
	cmd.Dir, cmd.Env = ws, append(scouttest.Environ(), env...)
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), `"id":"ses_fixbuild","agent":"opencode","title":"opencode build fix"`) ||
		!strings.Contains(string(out), `"id":"c1a2b3c4-0001-4000-8000-000000000001","agent":"crush","title":"Crush sidebar work"`) {
		t.Fatalf("scout sessions --json: %v\n%s", err, out)
	}

	x := scouttest.StartTmux(t, ws, 120, 30, append(append(homeEnv(t, home), env...), "PATH="+fakeAgents(t)+":"+os.Getenv("PATH")),
		`for i in 1 2; do "$SCOUT" resume > "$OUTDIR/out$i" 2> "$OUTDIR/err$i"; echo $? > "$OUTDIR/rc$i"; done`)
	for i, tc := range []struct{ query, agent, want string }{
		{"Crush sidebar", "crush", "crush\n--session\nc1a2b3c4-0001-4000-8000-000000000001\n" + ws + "\n"},
		{"build fix", "opencode", "opencode\n--session\nses_fixbuild\n" + ws + "\n"},
	} {
		pickByTitle(t, x, 2, tc.query)
		if got := x.WaitFile(tc.agent + ".argv"); got != tc.want {
			t.Errorf("%s ran as %q, want %q", tc.agent, got, tc.want)
		}
		if rc := x.WaitFile(fmt.Sprintf("rc%d", i+1)); rc != "0\n" {
			t.Errorf("resume %d: exit %q, stderr %q", i+1, rc, x.ReadFile(fmt.Sprintf("err%d", i+1)))
		}
	}
	if after := sums(); after != before {
		t.Error("a database or its directory changed")
	}
}
