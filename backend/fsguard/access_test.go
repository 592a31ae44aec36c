package fsguard

import (
	"slices"
	"testing"

	"github.com/scoutdev/scout/internal/makefs"
)

func TestRewind(t *testing.T) {
	dir := makefs.MustMake(t, "a", "b", "c/")
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	d, err := root.OpenDir(".")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	names := func() []string {
		es, err := d.ReadEntries(-1)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.Name)
		}
		slices.Sort(out)
		return out
	}
	first := names()
	if rest := names(); len(rest) != 0 {
		t.Fatalf("a second read without Rewind returned %q", rest)
	}
	if err := d.Rewind(); err != nil {
		t.Fatal(err)
	}
	if again := names(); !slices.Equal(first, again) || len(again) != 3 {
		t.Fatalf("after Rewind: %q, first read %q", again, first)
	}
}

func TestReadable(t *testing.T) {
	dir := makefs.MustMake(t, "file << x", "sub/", "link => file", "bad\nname << x")
	root, err := OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	d, err := root.OpenDir(".")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, tc := range []struct {
		name string
		dir  bool
		want bool
	}{
		{"file", false, true}, {"sub", true, true}, {"missing", false, false},
		{"bad\nname", false, false}, {"..", true, false},
	} {
		if got := d.Readable(tc.name, tc.dir); got != tc.want {
			t.Errorf("Readable(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
	// A mode-0000 file is readable to root; the unprivileged case is
	// checked black-box (backend/list_blackbox_test.go).
}
