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

func TestMatchComps(t *testing.T) {
	cases := []struct {
		pat, path string
		want      bool
	}{
		{"a/b", "a/b", true}, {"a/b", "a/b/c", false}, {"a/b", "x/a/b", false},
		{"a/*", "a/b", true}, {"a/*", "a/b/c", false}, {"*/b", "a/b", true},
		{"a/**", "a", false}, {"a/**", "a/b", true}, {"a/**", "a/b/c", true},
		{"**/a", "a", true}, {"**/a", "x/y/a", true}, {"**/a", "a/x", false},
		{"**/t/**", "t", false}, {"**/t/**", "t/x", true}, {"**/t/**", "w/t/x/y", true}, {"**/t/**", "w/t", false},
		{"a/**/b", "a/b", true}, {"a/**/b", "a/x/y/b", true}, {"a/**/b", "a/x/y/b/c", false}, {"a/**/b", "a/bb", false},
		{"**/a/**/a/b", "a/a/a/b", true}, {"**/a/**/a/b", "a/b", false},
		{"x**y/z", "xaby/z", true}, {"x**y/z", "xa/by/z", false}, {"a/[bc]", "a/c", true}, {"a/[", "a/[", false},
	}
	for _, tc := range cases {
		p := compile("/"+tc.pat, nil)
		if got := matchComps(p.comps, strings.Split(tc.path, "/")); got != tc.want {
			t.Errorf("%q on %q: %v, want %v", tc.pat, tc.path, got, tc.want)
		}
	}
}
