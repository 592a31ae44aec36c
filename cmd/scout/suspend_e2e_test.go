package main_test

import (
	"strings"
	"syscall"
	"testing"

	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// TestSuspendAndResume: in an interactive bash, Ctrl-Z suspends the
// picker as it does any program (the shell says Stopped and shows its
// prompt: the terminal was given back), fg brings it back drawn as it was
// with the query kept and the keys working; a SIGTSTP from outside
// (kill -TSTP) does the same; and Enter then prints the pick. Before,
// Ctrl-Z was a key the picker ignored, and a SIGTSTP stopped it with the
// terminal raw and on the alternate screen, so that fg left it unusable.
func TestSuspendAndResume(t *testing.T) {
	t.Parallel()
	scouttest.NeedCommand(t, "bash")
	dir := t.TempDir()
	if err := makefs.Make(dir, "prev.go << p", "a.txt << a", "b.txt << b"); err != nil {
		t.Fatal(err)
	}
	x := scouttest.StartTmux(t, dir, 100, 20, env(t), `cat > "$OUTDIR/rc" <<'RC'
PS1='$ '
HISTFILE=/dev/null
RC
exec bash --noprofile --rcfile "$OUTDIR/rc" -i`)
	x.WaitScreen("the prompt", func(s string) bool { return strings.HasPrefix(s, "$") })
	x.Type(`"$SCOUT" > "$OUTDIR/out"`)
	x.Keys("Enter")
	x.WaitScreen("the picker", func(s string) bool { return strings.Contains(s, "3 files") })
	x.Type("pre")
	x.WaitScreen("the query", func(s string) bool { return strings.Contains(s, "> pre") && strings.Contains(s, "1/3") })
	x.Keys("C-z")
	x.WaitScreen("the shell after Ctrl-Z", func(s string) bool { return strings.Contains(s, "Stopped") && !strings.Contains(s, "> pre") })
	x.Type("fg")
	x.Keys("Enter")
	x.WaitScreen("the picker again", func(s string) bool { return strings.Contains(s, "> pre") && strings.Contains(s, "1/3") })
	x.Type("v")
	x.WaitScreen("a key after fg", func(s string) bool { return strings.Contains(s, "> prev") })

	if err := syscall.Kill(childOf(t, x.PanePID()), syscall.SIGTSTP); err != nil { // bash's one child
		t.Fatal(err)
	}
	x.WaitScreen("the shell after SIGTSTP", func(s string) bool { return strings.Count(s, "Stopped") >= 2 && !strings.Contains(s, "> prev") })
	x.Type("fg")
	x.Keys("Enter")
	x.WaitScreen("the picker after SIGTSTP", func(s string) bool { return strings.Contains(s, "> prev") })
	x.Keys("Enter")
	if out := x.WaitFile("out"); out != "prev.go\n" {
		t.Fatalf("the pick after two suspensions: %q", out)
	}
}
