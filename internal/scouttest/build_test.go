package scouttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// tinyModule writes a module whose ./cmd/scout prints the embedded file of
// a package it imports, next to a package it does not import, and returns
// its root.
func tinyModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	files := map[string]string{
		"go.mod":             "module example.com/m\n\ngo 1.26\n",
		"go.sum":             "",
		"cmd/scout/main.go":  "package main\n\nimport \"example.com/m/say\"\n\nfunc main() { print(say.Msg) }\n",
		"say/say.go":         "package say\n\nimport _ \"embed\"\n\n//go:embed msg.txt\nvar Msg string\n",
		"say/msg.txt":        "hello",
		"say/say_test.go":    "package say\n",
		"unused/unused.go":   "package unused\n",
		"say/testdata/x.txt": "fixture",
	}
	for name, body := range files {
		write(t, filepath.Join(root, name), body)
	}
	return root
}

func write(t *testing.T, p, body string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

func key(t *testing.T, root string) string {
	t.Helper()
	k, err := buildKey(root)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// TestBuildKeyFollowsWhatGoesIntoTheBinary: the key changes with a source
// file, an embedded file and go.mod, and not with tests, test data or a
// package the binary does not import.
func TestBuildKeyFollowsWhatGoesIntoTheBinary(t *testing.T) {
	root := tinyModule(t)
	base := key(t, root)
	if again := key(t, root); again != base {
		t.Fatalf("the key of unchanged sources changed: %s then %s", base, again)
	}
	for name, body := range map[string]string{
		"say/say_test.go":    "package say\n\n// changed\n",
		"say/testdata/x.txt": "changed",
		"unused/unused.go":   "package unused\n\n// changed\n",
	} {
		write(t, filepath.Join(root, name), body)
		if k := key(t, root); k != base {
			t.Errorf("changing %s, which is not in the binary, changed the key", name)
		}
	}
	for name, body := range map[string]string{
		"say/msg.txt":       "changed",
		"cmd/scout/main.go": "package main\n\nimport \"example.com/m/say\"\n\nfunc main() { println(say.Msg) }\n",
		"go.mod":            "module example.com/m\n\ngo 1.26.0\n",
	} {
		write(t, filepath.Join(root, name), body)
		k := key(t, root)
		if k == base {
			t.Errorf("changing %s did not change the key", name)
		}
		base = k
	}
}

// TestABuildIsSharedAndRemovedOnlyWhenUnused builds the tiny module, checks
// the binary runs and nothing half-written is left, then changes a source:
// the new build leaves the old one while a process holds it, and removes
// it once none does.
func TestABuildIsSharedAndRemovedOnlyWhenUnused(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	root := tinyModule(t)
	oldBin, oldUse, err := sharedBuild(root)
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(oldBin).CombinedOutput()
	if err != nil || string(out) != "hello" {
		t.Fatalf("the built binary printed %q (%v), want hello", out, err)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(oldBin), "*.part")); len(left) > 0 {
		t.Fatalf("a partial build was left: %v", left)
	}

	write(t, filepath.Join(root, "say/msg.txt"), "changed")
	newBin, newUse, err := sharedBuild(root)
	if err != nil {
		t.Fatal(err)
	}
	defer newUse.Close()
	if filepath.Dir(newBin) == filepath.Dir(oldBin) {
		t.Fatal("changed sources reused the old build")
	}
	if _, err := os.Stat(oldBin); err != nil {
		t.Fatalf("a build still held by a process was removed: %v", err)
	}
	oldUse.Close()
	if _, _, err := sharedBuild(root); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Dir(oldBin)); !os.IsNotExist(err) {
		t.Fatalf("an unused old build was kept (%v)", err)
	}
	if _, err := os.Stat(newBin); err != nil {
		t.Fatalf("the build in use was removed: %v", err)
	}
}

// TestWaitersUseTheBuildTheyWaitedFor: while one process holds the build
// lock, the others wait, and when it has put a binary in place they use it
// instead of building again (the stand-in binary here is a text file, which
// a second build would replace).
func TestWaitersUseTheBuildTheyWaitedFor(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	root := tinyModule(t)
	dir := filepath.Join(buildsDir(), key(t, root))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	builder, err := lockFile(filepath.Join(dir, "build.lock"), syscall.LOCK_EX)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 3)
	for range 3 {
		wg.Go(func() {
			_, use, err := sharedBuild(root)
			if err == nil {
				use.Close()
			}
			errs <- err
		})
	}
	write(t, filepath.Join(dir, "scout"), "built by another process")
	builder.Close()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "scout")); string(b) != "built by another process" {
		t.Fatal("a process that waited for the build built it again")
	}
}

// TestALockOnARemovedFileStartsOver: a process waiting for a use.lock that
// a remover holds finds, once it gets it, that the file was removed with
// its build, and starts over with a new directory and lock.
func TestALockOnARemovedFileStartsOver(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "build")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "use.lock")
	remover, err := lockFile(p, syscall.LOCK_EX)
	if err != nil {
		t.Fatal(err)
	}
	got := make(chan *os.File, 1)
	go func() {
		f, err := holdUse(dir)
		if err != nil {
			t.Error(err)
		}
		got <- f
	}()
	// Once the waiter has the file open, its lock waits for the remover's.
	for openCount(t, p) < 2 {
		time.Sleep(time.Millisecond)
	}
	os.RemoveAll(dir)
	remover.Close()
	f := <-got
	if f == nil {
		t.FailNow()
	}
	defer f.Close()
	held, err1 := f.Stat()
	now, err2 := os.Stat(p)
	if err1 != nil || err2 != nil || !os.SameFile(held, now) {
		t.Fatalf("the lock held is not the file at its path (%v, %v)", err1, err2)
	}
}

// openCount counts this process's descriptors open on p.
func openCount(t *testing.T, p string) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.TrimSuffix(target, " (deleted)") == p {
			n++
		}
	}
	return n
}
