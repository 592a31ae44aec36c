package policy

import (
	"strings"
	"testing"
)

// FuzzIgnoreLines feeds arbitrary ignore files (.gitignore, .ignore,
// .git/info/exclude, deny globs) to the pattern compiler and matches the
// patterns against an arbitrary name. It never panics, and the shortcuts
// for simple patterns ("name", "*.ext") agree with go-git's own matcher,
// which the rest of the policy is checked against git with.
func FuzzIgnoreLines(f *testing.F) {
	f.Add([]byte("*.log\n!keep.log\nbuild/\n/top\nsecrets/**\n# c\n\\#x\nsp\\ \n"), "keep.log", false)
	f.Add([]byte("\ufeffnode_modules\r\n*.o \n"), "a.o", false)
	f.Add([]byte("a/**/b\n**/c\n[a-z]*.go\nd?\n"), "dx", true)
	f.Add([]byte("!\n/\n*\n**\n"), ".git", true)
	f.Fuzz(func(t *testing.T, data []byte, name string, isDir bool) {
		if name == "" || strings.ContainsRune(name, '/') {
			return
		}
		for _, p := range parseLines(data, []string{"d"}) {
			path := []string{"d", name}
			_ = p.match(path, isDir)
			if !p.simple {
				_ = mayMatchBelow(p, path)
				continue
			}
			_ = ancestorMatches(p, path)
			got := p.matchName(name, isDir)
			want := p.name.Match([]string{name}, isDir)
			if got != want {
				t.Fatalf("pattern %q on %q (dir %v): shortcut says %v, go-git %v", patternLine(data, p), name, isDir, got, want)
			}
		}
	})
}

// patternLine describes a pattern for a failure message.
func patternLine(data []byte, p *pattern) string {
	if p.lit != "" {
		return "lit " + p.lit
	}
	if p.suffix != "" {
		return "suffix " + p.suffix
	}
	return string(data)
}
