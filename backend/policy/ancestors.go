package policy

import (
	"os"
	"path/filepath"
)

// repository is the git repository a workspace lies inside, below its top:
// the ignore files of the directories from the repository's top down to the
// workspace's parent apply inside the workspace, as git, fd and ripgrep
// apply them to a subdirectory (`cd pkg && scout` hides what the
// repository's .gitignore hides).
type repository struct {
	top string // absolute, symlinks resolved
	// base are the components from top down to the workspace root.
	base []string
}

// findRepository looks upward from the workspace root for the nearest
// directory holding .git (a directory, or a file for worktrees and
// submodules). A workspace that holds .git itself, or lies in no
// repository, has no ancestors' rules.
func findRepository(root string) *repository {
	if hasGit(root) {
		return nil
	}
	var base []string
	for dir := root; ; {
		parent := filepath.Dir(dir)
		if parent == dir {
			return nil
		}
		base = append([]string{filepath.Base(dir)}, base...)
		if hasGit(parent) {
			return &repository{top: parent, base: base}
		}
		dir = parent
	}
}

func hasGit(dir string) bool {
	_, err := os.Lstat(filepath.Join(dir, ".git"))
	return err == nil
}

// rules reads the repository's .git/info/exclude and the .gitignore and
// .ignore files of every directory from the top down to the workspace's
// parent, in increasing precedence. Each pattern keeps the components from
// its own directory down to the workspace root as its base, so it is
// matched on the entry's path from that directory, as git matches it.
// Directories are opened through fsguard (no symlink below the top); an
// ignore file or directory that cannot be read contributes nothing. These
// rules can only hide entries, never show one that a workspace rule hides:
// they come first, and deeper files override them.
func (r *repository) rules() []*pattern {
	d := openAbsDir(r.top)
	if d == nil {
		return nil
	}
	out := withBase(gitRules(parseLines(readExclude(d, r.top), nil)), r.base)
	for i := 0; ; i++ {
		out = append(out, withBase(gitRules(parseLines(readIgnoreFile(d, GitignoreFile), nil)), r.base[i:])...)
		out = append(out, withBase(parseLines(readIgnoreFile(d, IgnoreFile), nil), r.base[i:])...)
		if i == len(r.base)-1 {
			d.Close()
			return out
		}
		next, err := d.OpenDir(r.base[i])
		d.Close()
		if err != nil {
			return out
		}
		d = next
	}
}

func withBase(ps []*pattern, base []string) []*pattern {
	for _, p := range ps {
		p.base = base
	}
	return ps
}
