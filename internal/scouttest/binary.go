// Package scouttest is the black-box harness shared by scout's tests: it
// builds the real scout binary once per test process and drives `scout
// backend` over its real stdin and stdout.
package scouttest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

var (
	buildOnce sync.Once
	buildPath string
	buildErr  error
	buildOut  []byte
)

// ModuleRoot returns the directory holding go.mod, found from the working
// directory upwards.
func ModuleRoot(t testing.TB) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("scouttest: no go.mod above the working directory")
		}
		dir = parent
	}
}

// removeStaleBuilds removes the binaries built by test processes that have
// exited (a test binary cannot clean up after itself at exit: the build is
// shared by every test of the process).
func removeStaleBuilds() {
	dirs, _ := filepath.Glob(filepath.Join(os.TempDir(), "scouttest-bin-*"))
	for _, dir := range dirs {
		pid, err := strconv.Atoi(strings.TrimPrefix(filepath.Base(dir), "scouttest-bin-"))
		if err != nil || pid == os.Getpid() {
			continue
		}
		if syscall.Kill(pid, 0) == syscall.ESRCH {
			os.RemoveAll(dir)
		}
	}
}

// Binary builds ./cmd/scout once per test process (with -race when the tests
// run with -race, so the backend's races are caught too) and returns its path.
func Binary(t testing.TB) string {
	t.Helper()
	root := ModuleRoot(t)
	buildOnce.Do(func() {
		removeStaleBuilds()
		dir := filepath.Join(os.TempDir(), fmt.Sprintf("scouttest-bin-%d", os.Getpid()))
		if err := os.MkdirAll(dir, 0o700); err != nil {
			buildErr = err
			return
		}
		buildPath = filepath.Join(dir, "scout")
		args := []string{"build", "-o", buildPath}
		if raceEnabled {
			args = append(args, "-race")
		}
		cmd := exec.Command("go", append(args, "./cmd/scout")...)
		cmd.Dir = root
		buildOut, buildErr = cmd.CombinedOutput()
	})
	if buildErr != nil {
		t.Fatalf("scouttest: building scout: %v\n%s", buildErr, buildOut)
	}
	return buildPath
}
