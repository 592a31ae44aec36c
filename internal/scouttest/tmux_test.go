package scouttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestTmuxLeavesNothingBehind: a server started for a test writes nothing
// where tmux keeps its sockets by default (TMUX_TMPDIR, here a directory
// of the test's), captures its screen, and is gone, socket and all, once
// the test ends.
func TestTmuxLeavesNothingBehind(t *testing.T) {
	defaultDir := t.TempDir()
	t.Setenv("TMUX_TMPDIR", defaultDir)
	var socket string
	t.Run("server", func(t *testing.T) {
		x := StartTmux(t, t.TempDir(), 40, 5, nil, "echo ready; read line")
		socket = x.socket
		x.WaitScreen("the script's output", func(s string) bool { return strings.Contains(s, "ready") })
	})
	if err := exec.Command("tmux", "-S", socket, "list-sessions").Run(); err == nil {
		t.Error("the server still runs after its test ended")
	}
	if _, err := os.Stat(filepath.Dir(socket)); !os.IsNotExist(err) {
		t.Errorf("the socket's directory is still there (%v)", err)
	}
	if left, _ := os.ReadDir(defaultDir); len(left) > 0 {
		t.Errorf("tmux wrote into TMUX_TMPDIR: %v", left)
	}
}
