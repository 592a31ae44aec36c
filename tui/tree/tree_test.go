package tree

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/tui/internal/pathgen"
)

// entries describes entries in a tiny language: "dir/" is a directory,
// anything else a file.
func entries(spec ...string) []Entry {
	var es []Entry
	for _, s := range spec {
		if p, ok := strings.CutSuffix(s, "/"); ok {
			es = append(es, Entry{p, Dir})
		} else {
			es = append(es, Entry{s, File})
		}
	}
	return es
}

// show renders rows one per line: indentation by depth, "+"/"-" for
// collapsed/expanded directories, "'" on the last entry of a directory.
func show(rows []Row) string {
	var b strings.Builder
	for _, r := range rows {
		mark := " "
		if r.Dir {
			mark = map[bool]string{false: "+", true: "-"}[r.Expanded]
		}
		last := map[bool]string{false: "", true: "'"}[r.Last]
		fmt.Fprintf(&b, "%s%s%s%s\n", strings.Repeat("  ", r.Depth), mark, r.Name, last)
	}
	return b.String()
}

var sample = entries("a/", "a/b/", "a/b/c.go", "a/b/d.go", "a/e.go", "a-x.go", "f/", "g.go")

func mustNew(t *testing.T, es []Entry) *Tree {
	t.Helper()
	tr, err := New(es)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func TestRows(t *testing.T) {
	tr := mustNew(t, sample)
	steps := []struct {
		op   func() bool
		want string
	}{
		{func() bool { return true }, "+a\n a-x.go\n+f\n g.go'\n"},
		{func() bool { return tr.Expand("a") }, "-a\n  +b\n   e.go'\n a-x.go\n+f\n g.go'\n"},
		{func() bool { return tr.Expand("a/b") }, "-a\n  -b\n     c.go\n     d.go'\n   e.go'\n a-x.go\n+f\n g.go'\n"},
		{func() bool { return tr.Collapse("a") }, "+a\n a-x.go\n+f\n g.go'\n"},
		{func() bool { return tr.Toggle("a") }, "-a\n  -b\n     c.go\n     d.go'\n   e.go'\n a-x.go\n+f\n g.go'\n"},
		{func() bool { return tr.Expand("f") }, "-a\n  -b\n     c.go\n     d.go'\n   e.go'\n a-x.go\n-f\n g.go'\n"},
	}
	for i, s := range steps {
		if !s.op() {
			t.Fatalf("step %d changed nothing", i)
		}
		if got := show(tr.Rows()); got != s.want {
			t.Fatalf("step %d:\n%s\nwant:\n%s", i, got, s.want)
		}
	}
}

func TestNoChange(t *testing.T) {
	tr := mustNew(t, sample)
	for name, changed := range map[string]bool{
		"expand a file":       tr.Expand("g.go"),
		"expand unknown":      tr.Expand("zz"),
		"collapse collapsed":  tr.Collapse("a"),
		"toggle a file":       tr.Toggle("a/e.go"),
		"reveal a top entry":  tr.Reveal("g.go"),
		"collapse a file":     tr.Collapse("a-x.go"),
		"reveal unknown path": tr.Reveal("q/r"),
	} {
		if changed {
			t.Errorf("%s reported a change", name)
		}
	}
	if got := show(tr.Rows()); got != "+a\n a-x.go\n+f\n g.go'\n" {
		t.Errorf("rows changed:\n%s", got)
	}
}

func TestFindParentReveal(t *testing.T) {
	tr := mustNew(t, sample)
	if got := tr.Find("a/b/c.go"); got != 0 {
		t.Errorf("hidden a/b/c.go found at row %d, want its ancestor a at 0", got)
	}
	if got := tr.Find("nope/x"); got != -1 {
		t.Errorf("unknown path at row %d", got)
	}
	if p, ok := tr.Parent("a/b/c.go"); !ok || p != "a/b" {
		t.Errorf("parent %q %v", p, ok)
	}
	if _, ok := tr.Parent("g.go"); ok {
		t.Error("a top-level entry has a parent")
	}
	if !tr.Reveal("a/b/d.go") || !tr.Expanded("a") || !tr.Expanded("a/b") {
		t.Fatal("reveal did not expand the ancestors")
	}
	if got := tr.Find("a/b/d.go"); got != 3 || tr.Rows()[got].Path != "a/b/d.go" {
		t.Errorf("revealed a/b/d.go at row %d", got)
	}
	if got := tr.Find("g.go"); tr.Rows()[got].Path != "g.go" {
		t.Errorf("g.go at row %d", got)
	}
}

func TestRebuildKeepsSurvivors(t *testing.T) {
	tr := mustNew(t, sample)
	tr.Expand("a")
	tr.Expand("a/b")
	tr.Expand("f")
	// a/b is gone, f became a file, h/ is new.
	if err := tr.Rebuild(entries("a/", "a/e.go", "f", "h/", "h/i.go")); err != nil {
		t.Fatal(err)
	}
	if got, want := show(tr.Rows()), "-a\n   e.go'\n f\n+h'\n"; got != want {
		t.Errorf("after rebuild:\n%s\nwant:\n%s", got, want)
	}
	if tr.Expanded("a/b") || tr.Expanded("f") {
		t.Error("state kept for a path that did not survive as a directory")
	}
	if err := tr.Reset(sample); err != nil {
		t.Fatal(err)
	}
	if got := show(tr.Rows()); got != "+a\n a-x.go\n+f\n g.go'\n" {
		t.Errorf("after reset:\n%s", got)
	}
}

func TestBadEntries(t *testing.T) {
	tests := map[string][]Entry{
		"out of order":        entries("b.go", "a.go"),
		"duplicate":           entries("a.go", "a.go"),
		"slash sorts first":   entries("a-x.go", "a/", "a/b.go"),
		"missing directory":   entries("a/b.go"),
		"directory is a file": entries("a", "a/b.go"),
		"skipped level":       entries("a/", "a/b/c.go"),
		"not inside":          entries("a/", "ab/c.go"),
		"empty path":          entries(""),
	}
	for name, es := range tests {
		tr := mustNew(t, sample)
		tr.Expand("a")
		before := show(tr.Rows())
		if err := tr.Rebuild(es); err == nil {
			t.Errorf("%s: no error", name)
		}
		if got := show(tr.Rows()); got != before || !tr.Expanded("a") {
			t.Errorf("%s: a failed rebuild changed the tree", name)
		}
	}
	if _, err := New(entries("b", "a")); !errors.Is(err, ErrOrder) {
		t.Errorf("New: %v, want ErrOrder", err)
	}
}

func TestCompare(t *testing.T) {
	ordered := []string{"a", "a/b", "a/b/c", "a-b", "a.go", "ab", "b"}
	for i := 1; i < len(ordered); i++ {
		if compare(ordered[i-1], ordered[i]) >= 0 || compare(ordered[i], ordered[i-1]) <= 0 {
			t.Errorf("%q and %q out of order", ordered[i-1], ordered[i])
		}
	}
	if compare("x/y", "x/y") != 0 {
		t.Error("a path differs from itself")
	}
}

// fromPaths lists the directories and files of file paths in component
// order, as a snapshot would.
func fromPaths(paths []string) []Entry {
	kinds := map[string]Kind{}
	for _, p := range paths {
		kinds[p] = File
		for d, _ := split(p); d != ""; d, _ = split(d) {
			kinds[d] = Dir
		}
	}
	es := make([]Entry, 0, len(kinds))
	for p, k := range kinds {
		es = append(es, Entry{p, k})
	}
	slices.SortFunc(es, func(a, b Entry) int { return compare(a.Path, b.Path) })
	return es
}

// TestRowsMatchReference expands random directories of a generated tree
// and checks the rows against the definition: every entry whose
// ancestors are all expanded, in entry order, found where it is listed.
func TestRowsMatchReference(t *testing.T) {
	es := fromPaths(pathgen.Paths(3000, 7))
	tr := mustNew(t, es)
	rng := rand.New(rand.NewPCG(7, 7))
	for round := range 50 {
		for range 20 {
			tr.Toggle(es[rng.IntN(len(es))].Path)
		}
		var want []string
		for _, e := range es {
			if visible(tr, e.Path) {
				want = append(want, e.Path)
			}
		}
		var got []string
		for i, r := range tr.Rows() {
			got = append(got, r.Path)
			if tr.Find(r.Path) != i {
				t.Fatalf("round %d: %s listed at %d, found at %d", round, r.Path, i, tr.Find(r.Path))
			}
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: %d rows, want %d", round, len(got), len(want))
		}
	}
}

func visible(tr *Tree, path string) bool {
	for d, ok := tr.Parent(path); ok; d, ok = tr.Parent(d) {
		if !tr.Expanded(d) {
			return false
		}
	}
	return true
}

// BenchmarkNew builds the tree of a 10,000-file snapshot (with its
// directories), rebuilds it keeping state, and lists it fully expanded.
func BenchmarkNew(b *testing.B) {
	es := fromPaths(pathgen.Paths(10_000, 1))
	b.Run(fmt.Sprintf("build-%d-entries", len(es)), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := New(es); err != nil {
				b.Fatal(err)
			}
		}
	})
	tr, _ := New(es)
	for _, e := range es {
		tr.Expand(e.Path)
	}
	b.Run("rebuild-all-expanded", func(b *testing.B) {
		for b.Loop() {
			tr.Rebuild(es)
		}
	})
	b.Run("rows-all-expanded", func(b *testing.B) {
		for b.Loop() {
			tr.rows = nil
			tr.Rows()
		}
	})
}

// TestKeepExpansion: a tree built anew from more entries takes over the
// expansion of the one it replaces, for the directories it still has.
func TestKeepExpansion(t *testing.T) {
	old := mustNew(t, entries("a/", "a/x", "b/", "b/y", "c/"))
	old.Expand("a")
	old.Expand("c")
	grown := mustNew(t, entries("a/", "a/x", "a/z", "b/", "b/y", "d/", "d/w"))
	grown.KeepExpansion(old)
	if got, want := show(grown.Rows()), "-a\n   x\n   z'\n+b\n+d'\n"; got != want {
		t.Errorf("rows:\n%swant\n%s", got, want)
	}
	if grown.Expanded("c") || grown.Expanded("b") {
		t.Error("expansion of a directory the tree does not have, or was not expanded, was taken over")
	}
}
