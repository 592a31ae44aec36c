package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"

	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/files"
	"github.com/scoutdev/scout/tui/providers"
	"github.com/scoutdev/scout/tui/sessions"
)

// The README opens with the two commands a newcomer needs. This file
// checks them the way a newcomer meets them: in a fresh clone.
//
// The demo command is run for real, in tmux, and every tab is checked.
// The test command is not run from inside `go test` (that would be the
// suite running itself); instead the test requires it to be exactly the
// command .ci/run runs, and .ci/run runs on a clean clone. Together: both
// of the README's commands succeed on a fresh clone whenever CI is green.

// Exactly what README.md must open with.
const (
	readmeDemo = "go run ./cmd/scout demo"
	readmeTest = "go test -race ./..."
)

// firstBlock returns the commands of the first ```sh block of a README,
// comments and blank lines left out, and the lines that come before it.
func firstBlock(t *testing.T, readme string) (cmds []string, before []string) {
	t.Helper()
	lines := strings.Split(readme, "\n")
	for i, l := range lines {
		if l != "```sh" {
			continue
		}
		for _, c := range lines[i+1:] {
			if c == "```" {
				return cmds, lines[:i]
			}
			if c, _, _ = strings.Cut(c, "#"); strings.TrimSpace(c) != "" {
				cmds = append(cmds, strings.Join(strings.Fields(c), " "))
			}
		}
	}
	t.Fatal("README.md has no ```sh block")
	return nil, nil
}

func TestReadmeOpensWithTheTwoCommandsAndCIRunsTheSecond(t *testing.T) {
	t.Parallel()
	root := scouttest.ModuleRoot(t)
	readme, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	cmds, before := firstBlock(t, string(readme))
	if len(cmds) != 2 || cmds[0] != readmeDemo || cmds[1] != readmeTest {
		t.Fatalf("README.md's first commands are %q, want %q and %q", cmds, readmeDemo, readmeTest)
	}
	if strings.TrimSpace(strings.Join(before, "\n")) != "# scout" {
		t.Fatalf("README.md has %q before its commands, want only the title", before)
	}
	ci, err := os.ReadFile(filepath.Join(root, ".ci", "run"))
	if err != nil {
		t.Fatal(err)
	}
	var runs []string
	for _, l := range strings.Split(string(ci), "\n") {
		if l = strings.TrimSpace(l); strings.HasPrefix(l, "go test") {
			runs = append(runs, l)
		}
	}
	if len(runs) != 1 || runs[0] != readmeTest {
		t.Fatalf(".ci/run runs %q, want exactly README.md's %q", runs, readmeTest)
	}
}

// firstBuild bounds the wait for the demo's first frame: `go run` may
// compile every package first.
const firstBuild = 10 * time.Minute

func TestReadmeDemoCommandInAFreshClone(t *testing.T) {
	t.Parallel()
	root := scouttest.ModuleRoot(t)
	clone := filepath.Join(t.TempDir(), "scout")
	head := gitOut(t, root, "rev-parse", "HEAD")
	if dirty := gitOut(t, root, "status", "--porcelain", "--untracked-files=no"); dirty != "" {
		t.Logf("uncommitted changes are not in the clone (it checks out %s):\n%s", head, dirty)
	}
	gitOut(t, "", "clone", "--quiet", root, clone)
	gitOut(t, clone, "checkout", "--quiet", "--detach", head)

	e := newDemoEnv(t)
	// The README's command, built like this run's test binaries (with
	// -race under go test -race): its dependencies are then compiled
	// already. The build without -race is .ci/run's go build ./...
	run, vars := readmeDemo, append(e.vars(t), "GOFLAGS="+scouttest.GoFlags())
	if inPlace(t, clone, root) {
		// The clone is seen at the checkout's own path: the go command
		// keys a package by its directory and its files, so the module's
		// packages are found compiled too wherever the clone holds what
		// the checkout does (17 s of CPU for the clone's build at its
		// own path, 3 s here).
		run = `unshare -rm sh -c 'mount --bind "$1" "$2" && cd "$2" && exec ` + readmeDemo + `' sh "$CLONE" "$CHECKOUT"`
		vars = append(vars, "CLONE="+clone, "CHECKOUT="+root)
	}
	x := scouttest.StartTmux(t, clone, 120, 30, vars,
		run+` > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
	deadline := time.Now().Add(firstBuild)
	for !strings.Contains(x.Screen(false), "DEMO on synthetic data") {
		if x.ReadFile("rc") != "" || time.Now().After(deadline) {
			t.Fatalf("no demo after %s (exit %q):\n%s\nstderr: %s", firstBuild, x.ReadFile("rc"), x.Screen(false), x.ReadFile("err"))
		}
		time.Sleep(200 * time.Millisecond)
	}
	checkDemoTabs(t, x)
	x.Keys("M-1", "Escape")
	if rc := x.WaitFile("rc"); rc != "0\n" {
		t.Fatalf("%s: exit status %q, stderr %q", readmeDemo, rc, x.ReadFile("err"))
	}
	for _, dir := range []string{e.tmp, e.userHome, e.userState} {
		if left, _ := os.ReadDir(dir); len(left) != 0 {
			t.Errorf("left in %s: %v", dir, left)
		}
	}
}

// inPlace reports whether a mount namespace of this user's own can show
// clone at root's path (unshare -rm, a bind mount), and says why not when
// it cannot: the clone is then built where it is.
func inPlace(t *testing.T, clone, root string) bool {
	t.Helper()
	if _, err := exec.LookPath("unshare"); err != nil {
		t.Log("no unshare: the clone is built at its own path")
		return false
	}
	// Inside, the checkout's path must be the clone's directory itself.
	const id = `stat -c %d:%i "$1"`
	want, err := exec.Command("sh", "-c", id, "sh", clone).Output()
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("unshare", "-rm", "sh", "-c", `mount --bind "$1" "$2" && `+id, "sh", clone, root).CombinedOutput()
	if err != nil || string(out) != string(want) {
		t.Logf("cannot show the clone at the checkout's path (unshare -rm: %v %s): it is built at its own", err, out)
		return false
	}
	return true
}

// gitOut runs git in dir and returns its trimmed output.
func gitOut(t *testing.T, dir string, args ...string) string {
	t.Helper()
	scouttest.NeedCommand(t, "git")
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}

// TestReadmeListsEveryKey keeps README.md's key tables in step with the
// key maps: the table of the root's keys and the table of each page list
// every binding of its key map, its help key in backticks.
func TestReadmeListsEveryKey(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join(scouttest.ModuleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		heading string
		keys    any // a KeyMap struct
	}{
		{"On every tab:", tui.DefaultKeyMap()},
		{"Files:", files.DefaultKeyMap(true)},
		{"Sessions (`scout sessions`, Alt-2):", sessions.DefaultKeyMap()},
		{"Providers (`scout providers`, Alt-3):", providers.DefaultKeyMap()},
	} {
		table := keyTable(t, string(readme), tc.heading)
		for _, b := range bindings(tc.keys) {
			if k := b.Help().Key; !strings.Contains(table, "`"+k+"`") {
				t.Errorf("README.md's table under %q does not list the key %q (%s)", tc.heading, k, b.Help().Desc)
			}
		}
	}
}

// keyTable returns the table that follows the line heading in README.md's
// Keys section.
func keyTable(t *testing.T, readme, heading string) string {
	t.Helper()
	_, keys, _ := strings.Cut(readme, "\n## Keys\n")
	keys, _, _ = strings.Cut(keys, "\n## ")
	_, after, found := strings.Cut(keys, "\n"+heading+"\n\n")
	table, _, _ := strings.Cut(after, "\n\n")
	if !found || !strings.HasPrefix(table, "| Key |") {
		t.Fatalf("README.md's Keys section has no table under %q", heading)
	}
	return table
}

// bindings returns every key.Binding field of a KeyMap struct.
func bindings(keyMap any) []key.Binding {
	var out []key.Binding
	v := reflect.ValueOf(keyMap)
	for i := range v.NumField() {
		if b, ok := v.Field(i).Interface().(key.Binding); ok {
			out = append(out, b)
		}
	}
	return out
}

// TestReadmeConfigurationIsValid parses README.md's config.toml example
// the way the backend parses config.toml.
func TestReadmeConfigurationIsValid(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile(filepath.Join(scouttest.ModuleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(readme), "```toml\n")
	example, _, closed := strings.Cut(rest, "```")
	if !ok || !closed {
		t.Fatal("README.md has no ```toml block")
	}
	u, err := config.ParseUser([]byte(example), config.Dirs{Home: t.TempDir()})
	if err != nil {
		t.Fatalf("README.md's config.toml: %v", err)
	}
	if len(u.Providers) == 0 || len(u.Files.Deny) == 0 {
		t.Fatalf("the example shows no provider or no deny glob: %+v", u)
	}
}
