// Package asuser runs test programs as an unprivileged user. Tests here run
// as root, and root reads a mode-0000 directory anyway, so permission
// behaviour can only be observed from a process without privileges.
package asuser

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Nobody is the uid and gid unprivileged runs use.
const Nobody = 65534

// Command returns a command running exe with args. When the test runs as
// root, exe is first linked (or copied) into a world-readable temporary
// directory and the command runs as uid/gid Nobody; otherwise it runs as
// is.
func Command(t testing.TB, exe string, args ...string) *exec.Cmd {
	t.Helper()
	if os.Geteuid() != 0 {
		return exec.Command(exe, args...)
	}
	dir := t.TempDir()
	Share(dir)
	copy := filepath.Join(dir, filepath.Base(exe))
	// A hard link, when it can be made, is never open for writing: a copy
	// is, and a process forked meanwhile by a parallel test inherits that
	// descriptor until it execs, which makes exec of the copy fail with
	// ETXTBSY ("text file busy").
	if err := os.Link(exe, copy); err != nil {
		if err := copyFile(exe, copy); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(copy, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: Nobody, Gid: Nobody}}
	return cmd
}

// Share makes dir and its parents up to the temporary directory traversable
// by everyone (t.TempDir creates them with mode 0700). A dir outside the
// temporary directory (makefs.ScratchDir's, on /dev/shm) is the only one
// changed: the directories above it are not the test's.
func Share(dir string) {
	tmp := os.TempDir()
	if rel, err := filepath.Rel(tmp, dir); err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		os.Chmod(dir, 0o755)
		return
	}
	for p := dir; p != filepath.Dir(p) && p != tmp; p = filepath.Dir(p) {
		os.Chmod(p, 0o755)
	}
}

// Chown hands dir and everything below it to Nobody, for directories an
// unprivileged run must write to (a backend home).
func Chown(dir string) error {
	if os.Geteuid() != 0 {
		return nil
	}
	return filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Lchown(p, Nobody, Nobody)
	})
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
