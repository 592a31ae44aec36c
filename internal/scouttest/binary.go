// Package scouttest is the black-box harness shared by scout's tests: it
// builds the real scout binary once for all the test processes of a run
// and drives `scout backend` over its real stdin and stdout.
package scouttest

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
)

var (
	buildOnce sync.Once
	buildPath string
	buildErr  error
	// useLock is this process's hold on its build, open until it exits;
	// never read, only kept reachable so no finalizer closes it.
	//lint:ignore U1000 held, not read: see above
	useLock *os.File
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

// Binary returns the path of the real scout binary, built from ./cmd/scout
// (with -race when the tests run with -race, so the backend's races are
// caught too). The test processes of one `go test` run share one build
// (build.go): the first builds it, the others wait for that build.
func Binary(t testing.TB) string {
	t.Helper()
	root := ModuleRoot(t)
	buildOnce.Do(func() { buildPath, useLock, buildErr = sharedBuild(root) })
	if buildErr != nil {
		t.Fatalf("scouttest: building scout: %v", buildErr)
	}
	return buildPath
}
