package main

import (
	"flag"
	"os"
	"strconv"
	"testing"

	"github.com/scoutdev/scout/internal/testhome"
)

// waitingParallel is how many of this package's tests run at once unless
// -parallel says otherwise. They spend their time waiting (for a terminal
// in tmux to show something, for a child process to end), not computing,
// so more of them than processors (go test's default) share the machine
// well.
const waitingParallel = 6

// TestMain runs the package's tests in a home of their own (testhome),
// and removes the fixtures its tests share (testhome.AtExit).
func TestMain(m *testing.M) {
	testhome.Isolate()
	flag.Parse()
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "test.parallel" })
	if !given {
		_ = flag.Set("test.parallel", strconv.Itoa(waitingParallel))
	}
	os.Exit(testhome.Wrap(m).Run())
}
