package testhome

import (
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func TestMain(m *testing.M) {
	os.Setenv("CODEX_HOME", "/nonexistent-real-store")
	os.Setenv("OPENAI_API_KEY", "sk-real")
	Isolate()
	os.Exit(Wrap(m).Run())
}

// TestIsolateMovesEveryHome checks the variables Isolate promises: each home
// lies in Dir, and the store and key variables are gone.
func TestIsolateMovesEveryHome(t *testing.T) {
	for _, k := range []string{"HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "XDG_CACHE_HOME", "SCOUT_HOME"} {
		v := os.Getenv(k)
		if !strings.HasPrefix(v, Dir+string(filepath.Separator)) {
			t.Errorf("%s = %q, not inside %q", k, v, Dir)
		}
		if st, err := os.Stat(v); err != nil || !st.IsDir() {
			t.Errorf("%s: %v", k, err)
		}
	}
	for _, k := range unset {
		if v, ok := os.LookupEnv(k); ok {
			t.Errorf("%s is still set (%q)", k, v)
		}
	}
	for _, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if v := os.Getenv(k); v == "" || strings.HasPrefix(v, Dir) {
			t.Errorf("%s = %q: not pinned outside the temporary home", k, v)
		}
	}
}

// TestRaceChildrenExitAtOnce: under -race, the children's GORACE has
// atexit_sleep_ms=0 (so a race binary exiting with status 0 does not
// sleep the race runtime's default second first), added to what GORACE
// held and not over a sleep the caller chose; without -race, GORACE is
// left alone.
func TestRaceChildrenExitAtOnce(t *testing.T) {
	if raceEnabled && !strings.Contains(os.Getenv("GORACE"), "atexit_sleep_ms=0") {
		t.Fatalf("after Isolate GORACE = %q: children of a race build would sleep 1 s at exit", os.Getenv("GORACE"))
	}
	for _, tc := range []struct{ before, race, plain string }{
		{"", "atexit_sleep_ms=0", ""},
		{"halt_on_error=1", "halt_on_error=1 atexit_sleep_ms=0", "halt_on_error=1"},
		{"atexit_sleep_ms=50", "atexit_sleep_ms=50", "atexit_sleep_ms=50"},
	} {
		t.Setenv("GORACE", tc.before)
		quickRaceExit()
		want := tc.plain
		if raceEnabled {
			want = tc.race
		}
		if got := os.Getenv("GORACE"); got != want {
			t.Errorf("GORACE %q: quickRaceExit made it %q, want %q", tc.before, got, want)
		}
	}
}

// TestRaceProcessExitsAtOnce: under -race, this very process was started
// with atexit_sleep_ms in GORACE (Isolate executed the binary again with
// it), as its environment at exec time shows (/proc/self/environ: what the
// race runtime read). go test starts it without GORACE, so without the
// exec the process would sleep a second before exiting.
func TestRaceProcessExitsAtOnce(t *testing.T) {
	if !raceEnabled {
		return // nothing sleeps at exit without the race runtime
	}
	environ, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		t.Fatal(err)
	}
	for _, kv := range strings.Split(string(environ), "\x00") {
		if v, ok := strings.CutPrefix(kv, "GORACE="); ok && strings.Contains(v, "atexit_sleep_ms") {
			return
		}
	}
	t.Fatalf("the race runtime started without atexit_sleep_ms in GORACE: the test binary sleeps 1 s before it exits")
}

// TestEveryTestPackageIsolates walks the module: every directory with tests
// must call Isolate from its TestMain, so a new package cannot write into
// the real home by forgetting to, and run its tests through Wrap, so its
// temporary home is removed when they end.
func TestEveryTestPackageIsolates(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("module root not found: %v", err)
	}
	dirs := map[string]bool{} // dir -> some test file calls Isolate
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != root && (name == "testdata" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		dir := filepath.Dir(path)
		dirs[dir] = dirs[dir] || mainCalls(f, "Isolate") && mainCalls(f, "Wrap")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 10 {
		t.Fatalf("found only %d test packages: the walk is wrong", len(dirs))
	}
	for dir, ok := range dirs {
		if !ok {
			rel, _ := filepath.Rel(root, dir)
			t.Errorf("%s: no TestMain calls testhome.Isolate() and runs its tests through testhome.Wrap(m)", rel)
		}
	}
}

// mainCalls reports whether f declares a TestMain that calls name
// (testhome.name, or name itself in this package).
func mainCalls(f *ast.File, name string) bool {
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Name.Name != "TestMain" || fn.Body == nil {
			continue
		}
		found := false
		ast.Inspect(fn.Body, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			switch f := call.Fun.(type) {
			case *ast.SelectorExpr:
				found = found || f.Sel.Name == name && isIdent(f.X, "testhome")
			case *ast.Ident:
				found = found || f.Name == name
			}
			return true
		})
		if found {
			return true
		}
	}
	return false
}

func isIdent(e ast.Expr, name string) bool {
	id, ok := e.(*ast.Ident)
	return ok && id.Name == name
}

// TestWrapRemovesTheHome runs this package's tests again in a child
// process (only TestIsolateMovesEveryHome, through the same TestMain) and
// checks that the child's temporary home is gone once it has exited.
func TestWrapRemovesTheHome(t *testing.T) {
	if os.Getenv("TESTHOME_CHILD") != "" {
		return
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^TestIsolateMovesEveryHome$")
	cmd.Env = append(os.Environ(), "TESTHOME_CHILD=1")
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := cmd.Process.Pid
	if err := cmd.Wait(); err != nil {
		t.Fatalf("child: %v\n%s", err, out.String())
	}
	dir := filepath.Join(os.TempDir(), prefix+strconv.Itoa(pid))
	if _, err := os.Lstat(dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the child's home is still there after it exited (%v)", err)
	}
}
