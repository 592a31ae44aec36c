package scouttest

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

// VisibleFiles is a test's own walk of the workspace dir, to compare what
// the backend lists with: the files git lists there as untracked and not
// ignored (git applies the ignore rules: .gitignore at every level,
// .ignore is not git's and must not be in such a fixture), less what the
// visibility policy (docs/protocol.md §4) hides besides, written out here
// independently of backend/policy: symlinks and special files, unsafe
// names, built-in credential names, noise directories, paths over 4,096
// bytes or deeper than 64, and what lies in the directories named in
// unreadable (relative paths the backend cannot read). dir is made a git
// repository if it is not one; a .git directory of the fixture's (noise)
// is adopted. The result is sorted.
func VisibleFiles(t testing.TB, dir string, unreadable ...string) []string {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, ".git", "HEAD")); err != nil {
		git(t, dir, "init", "-q")
	}
	out := git(t, dir, "ls-files", "--others", "--exclude-standard", "-z")
	var files []string
	for _, f := range strings.Split(string(out), "\x00") {
		if f != "" && visibleByRules(dir, f, unreadable) {
			files = append(files, f)
		}
	}
	slices.Sort(files)
	return files
}

func git(t testing.TB, dir string, args ...string) []byte {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v", args[0], err)
	}
	return out
}

func visibleByRules(dir, path string, unreadable []string) bool {
	for _, u := range unreadable {
		if strings.HasPrefix(path, u+"/") {
			return false
		}
	}
	if len(path) > 4096 || strings.Count(path, "/") >= 64 {
		return false
	}
	for _, comp := range strings.Split(path, "/") {
		if !SafeName(comp) || CredentialName(comp) || NoiseName(comp) {
			return false
		}
	}
	st, err := os.Lstat(filepath.Join(dir, path))
	return err == nil && st.Mode().IsRegular()
}

// SafeName is §4.2 written out: valid UTF-8, 1 to 255 bytes, no C0, DEL
// or C1 control, no bidirectional formatting character, no backslash.
func SafeName(name string) bool {
	if !utf8.ValidString(name) || len(name) > 255 || name == "" {
		return false
	}
	for _, r := range name {
		switch {
		case r < 0x20, r >= 0x7f && r <= 0x9f, r == '\\', r == 0x061c, r == 0x200e, r == 0x200f,
			r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return false
		}
	}
	return true
}

// CredentialName is §4.3's built-in list, without regard to ASCII case.
func CredentialName(name string) bool {
	n := strings.ToLower(name)
	switch n {
	case ".env", ".netrc", ".npmrc", ".pypirc", ".git-credentials", ".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker":
		return true
	case ".env.example", ".env.sample", ".env.template":
		return false
	}
	for _, s := range []string{".pem", ".key", ".p12", ".pfx", ".keystore"} {
		if strings.HasSuffix(n, s) {
			return true
		}
	}
	for _, p := range []string{"id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".env."} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// NoiseName is §4.4's noise: version-control metadata and node_modules.
func NoiseName(name string) bool {
	return slices.Contains([]string{".git", ".hg", ".svn", ".jj", "node_modules"}, name)
}
