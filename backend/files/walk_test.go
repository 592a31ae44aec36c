package files

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/internal/makefs"
)

func walkPaths(t *testing.T, dir, rel string, lim Limits, recursive bool) ([]string, bool) {
	t.Helper()
	root, pol := openView(t, dir, policy.Rules{RespectIgnore: true})
	f, err := OpenFolder(root, pol, rel)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	res := Walk(context.Background(), f, lim, recursive)
	var out []string
	for _, e := range res.Entries {
		p := e.Path
		if e.Dir {
			p += "/"
		}
		out = append(out, p)
	}
	return out, res.Truncated
}

func TestWalk(t *testing.T) {
	dir := makefs.MustMake(t, "a/b/c/d", "a/x", "b", "z/y", "link => a", ".git/config", "a/.gitignore << x\n")
	big := Limits{MaxEntries: 100, MaxDepth: 12, MaxExamined: 100}
	cases := []struct {
		name      string
		rel       string
		lim       Limits
		recursive bool
		want      []string
		truncated bool
	}{
		{"flat", "", big, false, []string{"a/", "z/", "b"}, false},
		{"recursive, breadth first", "", big, true, []string{"a/", "z/", "b", "a/b/", "a/.gitignore", "z/y", "a/b/c/", "a/b/c/d"}, false},
		{"below a folder", "a", big, true, []string{"a/b/", "a/.gitignore", "a/b/c/", "a/b/c/d"}, false},
		{"entry bound", "", Limits{MaxEntries: 4, MaxDepth: 12, MaxExamined: 100}, true, []string{"a/", "z/", "b", "a/b/"}, true},
		{"depth bound", "", Limits{MaxEntries: 100, MaxDepth: 2, MaxExamined: 100}, true, []string{"a/", "z/", "b", "a/b/", "a/.gitignore", "z/y"}, true},
		{"depth bound without subfolders", "z", Limits{MaxEntries: 100, MaxDepth: 1, MaxExamined: 100}, true, []string{"z/y"}, false},
		{"examine bound", "", Limits{MaxEntries: 100, MaxDepth: 12, MaxExamined: 7}, true, []string{"a/", "z/", "b"}, true},
		{"flat with an entry bound", "", Limits{MaxEntries: 2, MaxDepth: 12, MaxExamined: 100}, false, []string{"a/", "z/"}, true},
	}
	for _, tc := range cases {
		got, truncated := walkPaths(t, dir, tc.rel, tc.lim, tc.recursive)
		if !slices.Equal(got, tc.want) || truncated != tc.truncated {
			t.Errorf("%s: %q truncated %v, want %q truncated %v", tc.name, got, truncated, tc.want, tc.truncated)
		}
	}
}

func TestWalkDeadline(t *testing.T) {
	var fx []string
	for i := range 50 {
		fx = append(fx, fmt.Sprintf("d%d/f", i))
	}
	dir := makefs.MustMake(t, fx...)
	root, pol := openView(t, dir, policy.Rules{})
	f, err := OpenFolder(root, pol, "")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res := Walk(ctx, f, DefaultLimits, true); !res.Truncated || len(res.Entries) != 0 {
		t.Errorf("an ended context: %d entries, truncated %v", len(res.Entries), res.Truncated)
	}
}

func TestWalkExactBudget(t *testing.T) {
	dir := makefs.MustMake(t, "a/", "b")
	// The root's two names spend the budget exactly; a is empty.
	got, truncated := walkPaths(t, dir, "", Limits{MaxEntries: 10, MaxDepth: 12, MaxExamined: 2}, true)
	if !slices.Equal(got, []string{"a/", "b"}) || truncated {
		t.Errorf("%q truncated %v", got, truncated)
	}
	if err := makefs.Make(dir, "a/c"); err != nil {
		t.Fatal(err)
	}
	if got, truncated := walkPaths(t, dir, "", Limits{MaxEntries: 10, MaxDepth: 12, MaxExamined: 2}, true); !slices.Equal(got, []string{"a/", "b"}) || !truncated {
		t.Errorf("one name over: %q truncated %v", got, truncated)
	}
}
