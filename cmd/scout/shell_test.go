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
)

// printScript runs `scout shell name` and returns the script.
func printScript(t *testing.T, name string) string {
	t.Helper()
	cmd := exec.Command(scouttest.Binary(t), "shell", name)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil || stderr.Len() != 0 {
		t.Fatalf("scout shell %s: %v, stderr %q", name, err, stderr.String())
	}
	return string(out)
}

// shells are the shells `scout shell` prints bindings for, each with how
// to check a script's syntax without running it and how to load it the way
// its README line does.
var shells = []struct {
	name         string
	syntax, load []string
}{
	{"bash", []string{"bash", "-n"}, []string{"bash", "-c", `eval "$("$SCOUT" shell bash)" && echo "$__scout_bin"`}},
	{"zsh", []string{"zsh", "-n"}, []string{"zsh", "-c", `eval "$("$SCOUT" shell zsh)" && echo "$__scout_bin"`}},
	{"fish", []string{"fish", "--no-execute"}, []string{"fish", "-c", `"$SCOUT" shell fish | source; and echo $__scout_bin`}},
}

func TestShellScriptsParseAndLoad(t *testing.T) {
	t.Parallel()
	bin := scouttest.Binary(t)
	for _, sh := range shells {
		t.Run(sh.name, func(t *testing.T) {
			scouttest.NeedCommand(t, sh.name)
			file := filepath.Join(t.TempDir(), "bindings."+sh.name)
			if err := os.WriteFile(file, []byte(printScript(t, sh.name)), 0o600); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command(sh.syntax[0], append(sh.syntax[1:], file)...).CombinedOutput(); err != nil {
				t.Fatalf("%v rejects the script: %v\n%s", sh.syntax, err, out)
			}
			// Loaded by a non-interactive shell: no binding, no error, and
			// the binary the script runs is the one that printed it.
			load := exec.Command(sh.load[0], sh.load[1:]...)
			load.Env = append(os.Environ(), "SCOUT="+bin, "XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
			var stderr bytes.Buffer
			load.Stderr = &stderr
			out, err := load.Output()
			if err != nil || stderr.Len() != 0 || strings.TrimSpace(string(out)) != bin {
				t.Fatalf("loading the script: %v, stdout %q, stderr %q; want the binary %s", err, out, stderr.String(), bin)
			}
		})
	}
}

func TestShellUnknownExits2(t *testing.T) {
	t.Parallel()
	cmd := exec.Command(scouttest.Binary(t), "shell", "tcsh")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); exitStatus(err) != 2 || stdout.Len() != 0 || !strings.Contains(stderr.String(), "bash, zsh, fish") {
		t.Fatalf("exit %v, stdout %q, stderr %q", err, stdout.String(), stderr.String())
	}
}

// interactive says how each shell starts in tmux with the bindings loaded
// from a startup file written in $OUTDIR (history and configuration kept
// there too), a "$ " prompt and emacs keys. fish's generated_completions
// folder exists beforehand, or its first interactive start would leave a
// process behind that writes man page completions there.
var interactive = map[string]string{
	"bash": `cat > "$OUTDIR/rc" <<'RC'
PS1='$ '
HISTFILE=/dev/null
eval "$("$SCOUT" shell bash)"
RC
exec bash --noprofile --rcfile "$OUTDIR/rc" -i`,
	"zsh": `cat > "$OUTDIR/.zshrc" <<'RC'
PS1='$ '
bindkey -e
eval "$("$SCOUT" shell zsh)"
RC
ZDOTDIR="$OUTDIR" exec zsh -i`,
	"fish": `mkdir -p "$OUTDIR/fish/generated_completions" && cat > "$OUTDIR/fish/config.fish" <<'RC'
function fish_prompt; echo -n '$ '; end
set -g fish_greeting
"$SCOUT" shell fish | source
RC
XDG_CONFIG_HOME="$OUTDIR" XDG_DATA_HOME="$OUTDIR" exec fish -i`,
}

// quoted is how each shell's bindings quote the two picked paths.
var quoted = map[string]string{
	"bash": `notes/meeting\ notes.md it\'s\ here.txt`,
	"zsh":  `notes/meeting\ notes.md it\'s\ here.txt`,
	"fish": `'notes/meeting notes.md' it\'s\ here.txt`,
}

// TestCtrlTInsertsQuotedPathsAtTheCursor types a command around the
// cursor, picks two files with Ctrl-T (one name with a space, one with a
// quote), sees them quoted on the command line, and runs it: the command
// receives the names exactly.
func TestCtrlTInsertsQuotedPathsAtTheCursor(t *testing.T) {
	t.Parallel()
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			scouttest.NeedCommand(t, sh)
			dir := t.TempDir()
			if err := makefs.Make(dir, "notes/meeting notes.md << x", "it's here.txt << y", "plain.go << z"); err != nil {
				t.Fatal(err)
			}
			x := scouttest.StartTmux(t, dir, 100, 20, env(t), interactive[sh])
			x.WaitScreen("the prompt", func(s string) bool { return strings.HasPrefix(s, "$") })
			x.Type(`END > "$OUTDIR/out"`)
			x.Keys("C-a")
			x.Type(`printf '<%s>\n' `)
			x.Keys("C-t")
			x.WaitScreen("the picker", func(s string) bool { return strings.Contains(s, "3 files") })
			pick(x, "meeting", "1 marked")
			x.Keys("C-u")
			pick(x, "here", "2 marked")
			x.Keys("Enter")
			line := `$ printf '<%s>\n' ` + quoted[sh] + ` END > "$OUTDIR/out"`
			x.WaitScreen("the quoted paths on the command line", func(s string) bool { return strings.Contains(s, line) })
			x.Keys("Enter")
			if out := x.WaitFile("out"); out != "<notes/meeting notes.md>\n<it's here.txt>\n<END>\n" {
				t.Fatalf("the command received %q", out)
			}
		})
	}
}

// pick types query, waits for its one match and marks it.
func pick(x *scouttest.Tmux, query, marked string) {
	x.Type(query)
	x.WaitScreen(query+"'s match", func(s string) bool { return strings.Contains(s, "1/3") })
	x.Keys("Tab")
	x.WaitScreen(marked, func(s string) bool { return strings.Contains(s, marked) })
}

// TestAltSInsertsTheSessionID presses Alt-S in each shell, with a home
// holding sessions of the shell's directory: the real `scout sessions`
// opens, a session is picked by its title, its id lands on the command
// line followed by a space, and the command runs with it.
func TestAltSInsertsTheSessionID(t *testing.T) {
	t.Parallel()
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			scouttest.NeedCommand(t, sh)
			dir := t.TempDir()
			x := scouttest.StartTmux(t, dir, 100, 20, homeEnv(t, sessionsHome(t, dir)), interactive[sh])
			x.WaitScreen("the prompt", func(s string) bool { return strings.HasPrefix(s, "$") })
			x.Type("echo ")
			x.Keys("M-s")
			x.WaitScreen("the session picker", func(s string) bool { return strings.Contains(s, "3 sessions here") })
			x.Type("refactor")
			x.WaitScreen("the filter", func(s string) bool { return strings.Contains(s, "1/3") })
			x.Keys("Enter")
			x.WaitScreen("the picker gone, the id on the command line", func(s string) bool {
				return strings.HasPrefix(s, "$ echo s-tree") && !strings.Contains(s, "sessions here")
			})
			x.Type(`> "$OUTDIR/out"`) // after the space that follows the id
			line := `$ echo s-tree > "$OUTDIR/out"`
			x.WaitScreen("the command line", func(s string) bool { return strings.Contains(s, line) })
			x.Keys("Enter")
			if out := x.WaitFile("out"); out != "s-tree\n" {
				t.Fatalf("the command received %q, want the picked session's id", out)
			}
		})
	}
}
