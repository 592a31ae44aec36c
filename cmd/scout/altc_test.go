package main_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// promptShells are the interactive shells of shell_test.go with a prompt
// that names the current directory ("[name] $ "), so a redrawn prompt
// shows where Alt-C went.
var promptShells = map[string]string{
	"bash": strings.Replace(interactive["bash"], `PS1='$ '`, `PS1='[\W] $ '`, 1),
	"zsh":  strings.Replace(interactive["zsh"], `PS1='$ '`, `PS1='[%1~] $ '`, 1),
	"fish": strings.Replace(interactive["fish"], `echo -n '$ '`, `echo -n '['(basename $PWD)'] $ '`, 1),
}

// TestAltCChangesIntoAPickedFolder presses Alt-C in each shell with a
// command half typed: the folder picker opens under the prompt (inline,
// --height 40% by default) with folders only, the picked folder becomes
// the shell's directory (pwd says so), the prompt is drawn again in it,
// and the half-typed command is back on the line.
func TestAltCChangesIntoAPickedFolder(t *testing.T) {
	t.Parallel()
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			scouttest.NeedCommand(t, sh)
			dir := t.TempDir()
			if err := makefs.Make(dir, "deep/er/target/file.go << x", "deep/other/x.md << y", "top.txt << z"); err != nil {
				t.Fatal(err)
			}
			x := scouttest.StartTmux(t, dir, 100, 30, env(t), promptShells[sh])
			x.WaitScreen("the prompt", func(s string) bool { return strings.Contains(s, "] $") })
			x.Type("echo kept")
			x.Keys("M-c")
			screen := x.WaitScreen("the folder picker", func(s string) bool { return strings.Contains(s, "4 folders") })
			if strings.Contains(screen, "file.go") || strings.Contains(screen, "top.txt") {
				t.Fatalf("files in the folder picker:\n%s", screen)
			}
			if rows := strings.Split(screen, "\n"); len(rows) < 30 || strings.TrimSpace(strings.Join(rows[14:], "")) != "" {
				t.Fatalf("the picker is not 40%% of the screen under the prompt:\n%s", screen)
			}
			x.Type("target")
			x.WaitScreen("the match", func(s string) bool { return strings.Contains(s, "1/4") })
			x.Keys("Enter")
			x.WaitScreen("the prompt in the new folder with the line kept", func(s string) bool {
				return strings.Contains(s, "[target] $ echo kept") && !strings.Contains(s, "folders")
			})
			x.Keys("C-u")
			x.Type(`pwd > "$OUTDIR/pwd"`)
			x.Keys("Enter")
			want, _ := filepath.EvalSymlinks(filepath.Join(dir, "deep/er/target"))
			if got := strings.TrimSpace(x.WaitFile("pwd")); got != want && got != filepath.Join(dir, "deep/er/target") {
				t.Fatalf("pwd after Alt-C: %q, want %q", got, want)
			}
		})
	}
}

// TestShellPickerOptions: SCOUT_CTRL_T_OPTS replaces Ctrl-T's --height
// 40% (here with --height 8), and SCOUT_ALT_C_OPTS set empty gives Alt-C
// the full screen.
func TestShellPickerOptions(t *testing.T) {
	t.Parallel()
	for _, sh := range []string{"bash", "zsh", "fish"} {
		t.Run(sh, func(t *testing.T) {
			scouttest.NeedCommand(t, sh)
			dir := t.TempDir()
			if err := makefs.Make(dir, "a/b.go << x", "c.md << y"); err != nil {
				t.Fatal(err)
			}
			opts := append(env(t), "SCOUT_CTRL_T_OPTS=--height 8", "SCOUT_ALT_C_OPTS=")
			x := scouttest.StartTmux(t, dir, 100, 30, opts, promptShells[sh])
			x.WaitScreen("the prompt", func(s string) bool { return strings.Contains(s, "] $") })
			x.Keys("C-t")
			s := x.WaitScreen("the file picker", func(s string) bool { return strings.Contains(s, "2 files") })
			if used := usedRows(s); used > 9 {
				t.Fatalf("Ctrl-T's picker takes %d rows with --height 8:\n%s", used, s)
			}
			x.Keys("Escape")
			x.WaitScreen("the prompt again", func(s string) bool { return !strings.Contains(s, "2 files") })
			x.Keys("M-c")
			s = x.WaitScreen("the folder picker", func(s string) bool { return strings.Contains(s, "1 folder") })
			if used := usedRows(s); used < 25 {
				t.Fatalf("Alt-C's picker takes %d rows with SCOUT_ALT_C_OPTS empty, want the full screen:\n%s", used, s)
			}
			x.Keys("Escape")
		})
	}
}

// usedRows is the number of the screen's rows down to its last non-blank
// one.
func usedRows(screen string) int {
	rows := strings.Split(strings.TrimRight(screen, "\n "), "\n")
	return len(rows)
}
