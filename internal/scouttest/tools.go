package scouttest

import (
	"os"
	"os/exec"
	"testing"
)

// NeedCommand returns the path of command. When it is not installed the
// test fails under CI (.ci/run installs every command the tests need) and
// is skipped elsewhere, the way StartTmux treats tmux, so a newcomer's
// `go test ./...` on a machine without, say, fish says what it did not
// check instead of failing.
func NeedCommand(t testing.TB, command string) string {
	t.Helper()
	p, err := exec.LookPath(command)
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not installed (CI installs it: .ci/run)", command)
	}
	t.Skipf("%s is not installed", command)
	return ""
}
