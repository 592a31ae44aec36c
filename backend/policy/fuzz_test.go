package policy

import (
	"strings"
	"testing"
)

// FuzzIgnoreLines feeds arbitrary ignore files (.gitignore, .ignore,
// .git/info/exclude, deny globs) to the pattern compiler and matches the
// patterns against an arbitrary name. It never panics, and the shortcuts
// for simple patterns ("name", "*.ext") agree with matchGlob.
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
			want := noMatch
			if (!p.dirOnly || isDir) && matchGlob(p.glob, name) {
				want = p.result
			}
			if got != want {
				t.Fatalf("pattern %q on %q (dir %v): shortcut says %v, matchGlob %v", patternLine(data, p), name, isDir, got, want)
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
		{"[a/b]", "a", true}, {"[a/b]", "b", true}, {"[a/b]", "a/b", false}, {"[x/]/y", "x/y", true},
		{"a\\/b", "a/b", true}, {"a[/]b", "a/b", false}, {"[a/b", "a", false},
	}
	for _, tc := range cases {
		p := compile("/"+tc.pat, nil)
		if got := matchComps(p.comps, strings.Split(tc.path, "/")); got != tc.want {
			t.Errorf("%q on %q: %v, want %v", tc.pat, tc.path, got, tc.want)
		}
	}
}

// TestMatchGlob: one component as git's wildmatch matches it; every case
// was checked with git check-ignore.
func TestMatchGlob(t *testing.T) {
	cases := []struct {
		pat string
		yes []string
		no  []string
	}{
		{"x.l[!o]g", []string{"x.lag"}, []string{"x.log"}},
		{"[!a]", []string{"b", "-", "]"}, []string{"a", "ab"}},
		{"[^a]", []string{"b"}, []string{"a"}},
		{"[a-]", []string{"a", "-"}, []string{"b"}},
		{"[]a]", []string{"]", "a"}, []string{"b"}},
		{"[!]a]", []string{"b"}, []string{"]", "a"}},
		{"[z-a]", []string{"z"}, []string{"a", "m"}},
		{"[a-c]", []string{"a", "b", "c"}, []string{"d", "-"}},
		{"[\\]]", []string{"]"}, []string{"\\"}},
		{"[a\\-z]", []string{"a", "-", "z"}, []string{"b"}},
		{"[[:alpha:]]", []string{"a", "Z"}, []string{"1", "-", "["}},
		{"[[:digit:][:upper:]]x", []string{"1x", "Ax"}, []string{"ax"}},
		{"[[:nope:]]", nil, []string{"a", "n"}},
		{"[[:a]", []string{"a", "[", ":"}, []string{"b"}},
		{"[", nil, []string{"["}},
		{"a[", nil, []string{"a["}},
		{"a\\", nil, []string{"a", "a\\"}},
		{"\\#h", []string{"#h"}, []string{"h"}},
		{"*", []string{"a", ".x"}, nil},
		{"a**b", []string{"ab", "axyb"}, []string{"a"}},
		{"*a*a*b", []string{"aab", "xaxaxb"}, []string{"aaaa", "ab"}},
		{"?", []string{"a"}, []string{"ab", "é"}},
		{"??", []string{"é", "ab"}, []string{"a"}},
	}
	for _, c := range cases {
		for _, n := range c.yes {
			if !matchGlob(c.pat, n) {
				t.Errorf("%q does not match %q", c.pat, n)
			}
		}
		for _, n := range c.no {
			if matchGlob(c.pat, n) {
				t.Errorf("%q matches %q", c.pat, n)
			}
		}
	}
}

func TestTrimTrailingSpaces(t *testing.T) {
	for in, want := range map[string]string{
		"a": "a", "a  ": "a", "a\\ ": "a\\ ", "a\\  ": "a\\ ", "a\\ \\ ": "a\\ \\ ", "a\\": "a\\", "a b ": "a b", "   ": "",
	} {
		if got := trimTrailingSpaces(in); got != want {
			t.Errorf("%q: %q, want %q", in, got, want)
		}
	}
}
