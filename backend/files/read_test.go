package files

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/internal/makefs"
)

func TestReadHead(t *testing.T) {
	cases := []struct {
		name, content string
		max           int
		want          Head
	}{
		{"text", "hello\n", 100, Head{Size: 6, Text: "hello\n"}},
		{"exact", "hello", 5, Head{Size: 5, Text: "hello"}},
		{"truncated", "hello", 4, Head{Size: 5, Truncated: true, Text: "hell"}},
		{"binary", "ab\x00cd", 100, Head{Size: 5, Binary: true}},
		{"NUL past the head", "abcd\x00", 4, Head{Size: 5, Truncated: true, Text: "abcd"}},
		{"invalid bytes", "a\xffb\xc3", 100, Head{Size: 4, Text: "a\uFFFDb\uFFFD"}},
		{"character cut by the bound", "ab\u00e9", 3, Head{Size: 4, Truncated: true, Text: "ab"}},
		{"euro cut after two bytes", "\u20ac\u20ac", 5, Head{Size: 6, Truncated: true, Text: "\u20ac"}},
		{"empty", "", 10, Head{}},
	}
	for _, tc := range cases {
		dir := makefs.MustMake(t, "f << "+tc.content)
		root, pol := openView(t, dir, policy.Rules{})
		f, info, err := OpenFile(root, pol, "f")
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		got, err := ReadHead(f, info, tc.max)
		f.Close()
		if err != nil || got != tc.want {
			t.Errorf("%s: %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
}

func TestOpenFileRefusals(t *testing.T) {
	dir := makefs.MustMake(t, "src/a.go << a", "link => src/a.go", "fifo|", ".env << secret", "dir/", "sub/.gitignore << x\n", "sub/x", "h")
	if err := os.Link(filepath.Join(dir, "h"), filepath.Join(dir, "h2")); err != nil {
		t.Fatal(err)
	}
	root, pol := openView(t, dir, policy.Rules{RespectIgnore: true})
	for rel, want := range map[string]error{
		"link": ErrHidden, "fifo": ErrHidden, ".env": ErrHidden, "dir": ErrIsDir, "": ErrIsDir,
		"sub/x": ErrHidden, "h": ErrHidden, "h2": ErrHidden, "missing": ErrHidden, "src/a.go/x": ErrHidden,
	} {
		f, _, err := OpenFile(root, pol, rel)
		if err != want {
			t.Errorf("OpenFile(%q) = %v, want %v", rel, err, want)
		}
		if f != nil {
			f.Close()
		}
	}
	f, _, err := OpenFile(root, pol, "src/a.go")
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if _, _, err := OpenFile(root, policy.Closed(1), "src/a.go"); err != ErrHidden {
		t.Errorf("a closed policy opens files: %v", err)
	}
}

func TestValidText(t *testing.T) {
	for in, want := range map[string]string{
		"plain": "plain", "\xff\xfe": "\uFFFD\uFFFD", "a\xe2\x82": "a\uFFFD\uFFFD", "\u2028": "\u2028",
	} {
		if got := ValidText([]byte(in)); got != want {
			t.Errorf("ValidText(%q) = %q, want %q", in, got, want)
		}
	}
	if got := ValidText([]byte(strings.Repeat("\xc0", 3))); got != strings.Repeat("\uFFFD", 3) {
		t.Errorf("overlong lead bytes: %q", got)
	}
}
