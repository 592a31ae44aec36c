package mcp

import "testing"

func TestClean(t *testing.T) {
	ok := map[string]string{
		"": "", ".": "", "./": "", "/" + "": "!", "src": "src", "src/": "src", "./src//main.go": "src/main.go",
		"a/./b/": "a/b", "é/ü": "é/ü", ".env": ".env", "...": "...", "a b": "a b",
	}
	for in, want := range ok {
		got, err := Clean(in)
		if want == "!" {
			if err != errNoSuchFile {
				t.Errorf("Clean(%q) = %q, %v; want the hidden answer", in, got, err)
			}
			continue
		}
		if err != nil || got != want {
			t.Errorf("Clean(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{
		"/", "/etc/passwd", "..", "../x", "a/../b", "a/..", "x/../../y", "a\\b", "bad\nname",
		"rlo\u202e", "a/\x00", "\xff", string(make([]byte, 5000)),
	} {
		if got, err := Clean(in); err != errNoSuchFile {
			t.Errorf("Clean(%q) = %q, %v; want the hidden answer", in, got, err)
		}
	}
	if shown("") != "." || shown("a/b") != "a/b" {
		t.Error("shown")
	}
}
