package fsguard

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/scoutdev/scout/internal/asuser"
	"github.com/scoutdev/scout/internal/makefs"
)

// Permission checks need an unprivileged process: root reads a mode-0000
// directory anyway. When the tests run as root, the test binary runs this
// test again under uid/gid 65534 (nobody) with the fixture's path in the
// environment; otherwise it checks directly.
func TestPermissionErrors(t *testing.T) {
	if dir := os.Getenv("FSGUARD_PERM_FIXTURE"); dir != "" {
		checkPermissionErrors(t, dir)
		return
	}
	dir := makefs.MustMake(t, "locked/ mode 0000", "open/", "open/secret << x")
	if err := os.Chmod(filepath.Join(dir, "open/secret"), 0o000); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		checkPermissionErrors(t, dir)
		return
	}
	asuser.Share(dir)
	cmd := asuser.Command(t, os.Args[0], "-test.run=^TestPermissionErrors$", "-test.v")
	cmd.Env = append(os.Environ(), "FSGUARD_PERM_FIXTURE="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("unprivileged run failed: %v\n%s", err, out)
	}
	t.Logf("unprivileged run:\n%s", out)
}

func checkPermissionErrors(t *testing.T, dir string) {
	if os.Geteuid() == 0 {
		t.Fatal("still root")
	}
	r, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	_, err = r.OpenDir("locked")
	if !errors.Is(err, fs.ErrPermission) {
		t.Errorf("OpenDir(locked): %v, want permission", err)
	}
	checkErr(t, "OpenDir", "locked", err, fs.ErrPermission, dir)
	_, _, err = r.OpenFile("open/secret")
	checkErr(t, "OpenFile", "open/secret", err, fs.ErrPermission, dir)
	if _, err := r.Lstat("open/secret"); err != nil {
		t.Errorf("Lstat of an unreadable file: %v", err)
	}
}
