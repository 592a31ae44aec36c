package scouttest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// The test processes of one `go test ./...` run share one build of
// ./cmd/scout instead of linking a binary each. Builds live in
// buildsDir, one directory per build key:
//
//	<key>/scout       the binary, renamed into place once complete
//	<key>/use.lock    held shared by every process using the binary, for
//	                  the rest of its life (the kernel drops it at exit)
//	<key>/build.lock  held exclusive by the one process building it; the
//	                  others wait for it here instead of building again
//
// The key is a hash of everything that goes into the binary, so a build is
// reused exactly while nothing it was made from changed. A process removes
// the builds of other keys that no process uses (it takes their use.lock
// exclusive, without waiting); one that has just created a directory or is
// waiting for its lock finds its lock file gone afterwards and starts over.

func buildsDir() string { return filepath.Join(os.TempDir(), "scouttest-builds") }

// buildFlags are the flags of both the build and the `go list` that names
// its inputs (-race selects other files and adds runtime/race). VCS
// stamping is off: the binary then depends on nothing but the key's inputs.
func buildFlags() []string {
	if raceEnabled {
		return []string{"-race", "-buildvcs=false"}
	}
	return []string{"-buildvcs=false"}
}

// sharedBuild returns the path of a binary built from ./cmd/scout in the
// module at root, building it unless a build with the same key exists, and
// the build's use.lock, held shared: the caller keeps it open (and
// reachable, so no finalizer closes it) for as long as it uses the binary.
func sharedBuild(root string) (string, *os.File, error) {
	key, err := buildKey(root)
	if err != nil {
		return "", nil, err
	}
	dir := filepath.Join(buildsDir(), key)
	use, err := holdUse(dir)
	if err != nil {
		return "", nil, err
	}
	bin := filepath.Join(dir, "scout")
	if err := buildIfMissing(root, dir, bin); err != nil {
		use.Close()
		return "", nil, err
	}
	removeUnused(key)
	return bin, use, nil
}

// holdUse creates dir when needed and returns its use.lock, held shared.
func holdUse(dir string) (*os.File, error) {
	for {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
		f, err := lockFile(filepath.Join(dir, "use.lock"), syscall.LOCK_SH)
		if errors.Is(err, os.ErrNotExist) {
			continue // removed as unused between MkdirAll and the lock
		}
		return f, err
	}
}

// lockFile opens (creating) the lock file at p and locks it with how. It
// reports os.ErrNotExist when the file was removed before the lock was
// taken: the lock then guards nothing and the caller must start over.
func lockFile(p string, how int) (*os.File, error) {
	f, err := os.OpenFile(p, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), how); err != nil {
		f.Close()
		return nil, err
	}
	held, err1 := f.Stat()
	now, err2 := os.Stat(p)
	if err1 != nil || err2 != nil || !os.SameFile(held, now) {
		f.Close()
		return nil, os.ErrNotExist
	}
	return f, nil
}

// buildIfMissing builds bin unless it exists, under dir's build.lock. The binary
// is built beside bin and renamed into place, so no one ever sees it half
// written.
func buildIfMissing(root, dir, bin string) error {
	lock, err := lockFile(filepath.Join(dir, "build.lock"), syscall.LOCK_EX)
	if err != nil {
		return err
	}
	defer lock.Close()
	if _, err := os.Stat(bin); err == nil {
		return nil
	}
	part := bin + ".part"
	args := append(append([]string{"build", "-o", part}, buildFlags()...), "./cmd/scout")
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		os.Remove(part)
		return fmt.Errorf("%v\n%s", err, out)
	}
	return os.Rename(part, bin)
}

// removeUnused removes the builds of keys other than keep that no process
// holds.
func removeUnused(keep string) {
	entries, _ := os.ReadDir(buildsDir())
	for _, e := range entries {
		if e.Name() == keep || !e.IsDir() {
			continue
		}
		dir := filepath.Join(buildsDir(), e.Name())
		f, err := lockFile(filepath.Join(dir, "use.lock"), syscall.LOCK_EX|syscall.LOCK_NB)
		if err != nil {
			continue // in use, or already gone
		}
		os.RemoveAll(dir)
		f.Close()
	}
}

// goEnv are the settings of the go command that change the binary beyond
// its sources.
var goEnv = []string{
	"GOVERSION", "GOROOT", "GOOS", "GOARCH", "GOAMD64", "GOARM64", "GOEXPERIMENT",
	"GOFLAGS", "CGO_ENABLED", "CC", "CGO_CFLAGS", "CGO_LDFLAGS",
}

// listedPackage is what `go list -json` says of one package the binary is
// built from.
type listedPackage struct {
	Dir      string
	Standard bool
	Module   *struct {
		Path, Version string
		Main          bool
		Replace       *struct{ Path, Version string }
	}
	GoFiles, CgoFiles, CFiles, CXXFiles, HFiles, SFiles, SysoFiles, EmbedFiles []string
}

// buildKey hashes what goes into the binary: the module's place, the build
// flags, the go command's settings, go.mod and go.sum, every source and
// embedded file of the module's own packages (and of directory
// replacements), and the path and version of every other module's.
// Standard packages come with GOVERSION.
func buildKey(root string) (string, error) {
	h := sha256.New()
	fmt.Fprintf(h, "scouttest build 1\n%s\n%q\n", root, buildFlags())
	env, err := goOutput(root, append([]string{"env"}, goEnv...)...)
	if err != nil {
		return "", err
	}
	h.Write(env)
	for _, name := range []string{"go.mod", "go.sum"} {
		if err := hashFile(h, filepath.Join(root, name)); err != nil {
			return "", err
		}
	}
	list, err := goOutput(root, append(append([]string{"list", "-deps",
		"-json=Dir,Standard,Module,GoFiles,CgoFiles,CFiles,CXXFiles,HFiles,SFiles,SysoFiles,EmbedFiles"},
		buildFlags()...), "./cmd/scout")...)
	if err != nil {
		return "", err
	}
	for dec := json.NewDecoder(bytes.NewReader(list)); dec.More(); {
		var p listedPackage
		if err := dec.Decode(&p); err != nil {
			return "", fmt.Errorf("go list: %v", err)
		}
		if err := hashPackage(h, p); err != nil {
			return "", err
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:12]), nil
}

func hashPackage(h io.Writer, p listedPackage) error {
	if p.Standard || p.Module == nil {
		return nil
	}
	m := p.Module
	if !m.Main && (m.Replace == nil || m.Replace.Version != "") {
		fmt.Fprintf(h, "module %s@%s\n", m.Path, m.Version)
		if m.Replace != nil {
			fmt.Fprintf(h, "=> %s@%s\n", m.Replace.Path, m.Replace.Version)
		}
		return nil
	}
	for _, files := range [][]string{p.GoFiles, p.CgoFiles, p.CFiles, p.CXXFiles, p.HFiles, p.SFiles, p.SysoFiles, p.EmbedFiles} {
		for _, name := range files {
			if err := hashFile(h, filepath.Join(p.Dir, name)); err != nil {
				return err
			}
		}
	}
	return nil
}

// hashFile writes p's name and the hash of its content to h.
func hashFile(h io.Writer, p string) error {
	b, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	sum := sha256.Sum256(b)
	fmt.Fprintf(h, "%s %x\n", p, sum)
	return nil
}

func goOutput(root string, args ...string) ([]byte, error) {
	cmd := exec.Command("go", args...)
	cmd.Dir = root
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %v\n%s", args[0], err, stderr.Bytes())
	}
	return out, nil
}
