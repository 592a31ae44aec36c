package files

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/internal/makefs"
)

// continued scans dir with lim and returns the walk that continues the
// scan (nil when none does), the scan and the root to close.
func continued(t *testing.T, dir string, lim Limits, ilim IndexLimits, rules policy.Rules) (*Index, *Result, *fsguard.Root) {
	t.Helper()
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	pol, err := policy.New(1, dir, rules)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Scan(context.Background(), root, pol, lim)
	if err != nil {
		t.Fatal(err)
	}
	return res.Continue(ilim), res, root
}

// TestContinueIsAFreshWalk: the walk that continues a scan cut by its
// entry bound (anywhere: between directories, inside one, at the last
// child of one) lists exactly the reference's entries in its order, under
// any step bounds; a scan that was not truncated, or that a depth or
// examine bound cut, is continued by no walk.
func TestContinueIsAFreshWalk(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(5, 6))
	ilims := []IndexLimits{
		DefaultIndexLimits,
		{MaxDepth: 64, PathBytes: 4096, PageEntries: 1, StepExamined: 1},
		{MaxDepth: 64, PathBytes: 4096, PageEntries: 3, StepExamined: 7},
	}
	bounds := []Bounds{forever(), {Deadline: time.Now().Add(time.Hour), PageBytes: 60}}
	continuedSome := 0
	for i := range 40 {
		tree := randomTree(r)
		dir := makefs.MustMake(t, tree...)
		for entries := 1; entries <= 30; entries += 1 + entries/4 {
			lim := Limits{MaxEntries: entries, MaxDepth: 12, MaxExamined: 1000}
			for _, ilim := range ilims {
				for _, b := range bounds {
					rules := policy.Rules{RespectIgnore: true, Deny: []string{"a-b1"}}
					x, res, root := continued(t, dir, lim, ilim, rules)
					if x == nil {
						root.Close()
						if res.Truncated {
							t.Fatalf("tree %d %+v: a scan cut by its entry bound alone is not continued\ntree %q", i, lim, tree)
						}
						continue
					}
					continuedSome++
					got := stepAll(t, x, ilim, b)
					x.Close()
					root.Close()
					if want := indexReference(t, dir, ilim, rules); !slices.Equal(got, want) {
						t.Fatalf("tree %d %+v %+v %+v:\n got %q\nwant %q\ntree %q", i, lim, ilim, b, got, want, tree)
					}
				}
			}
		}
	}
	if continuedSome == 0 {
		t.Fatal("no scan was continued")
	}
}

// TestContinueOnlyAfterTheEntryBound: a scan cut by its depth or examine
// bound, or not truncated at all, leaves nothing to continue; one whose
// selection the walk would not keep (a path over the walk's path bound, a
// directory at its depth bound) neither.
func TestContinueOnlyAfterTheEntryBound(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "a/b/c/d/e", "f", "g/h", "i/longer-name/x")
	rules := policy.Rules{}
	tests := []struct {
		name string
		lim  Limits
		ilim IndexLimits
		want bool
	}{
		{"entry bound", Limits{MaxEntries: 4, MaxDepth: 12, MaxExamined: 100}, DefaultIndexLimits, true},
		{"whole", DefaultLimits, DefaultIndexLimits, false},
		{"depth bound", Limits{MaxEntries: 100, MaxDepth: 2, MaxExamined: 100}, DefaultIndexLimits, false},
		{"depth bound and entry bound", Limits{MaxEntries: 9, MaxDepth: 2, MaxExamined: 100}, DefaultIndexLimits, false},
		{"examine bound", Limits{MaxEntries: 100, MaxDepth: 12, MaxExamined: 6}, DefaultIndexLimits, false},
		{"walk's path bound", Limits{MaxEntries: 9, MaxDepth: 12, MaxExamined: 100}, IndexLimits{MaxDepth: 64, PathBytes: 8, PageEntries: 10, StepExamined: 10}, false},
		{"walk's depth bound", Limits{MaxEntries: 9, MaxDepth: 12, MaxExamined: 100}, IndexLimits{MaxDepth: 2, PathBytes: 4096, PageEntries: 10, StepExamined: 10}, false},
	}
	for _, tt := range tests {
		x, res, root := continued(t, dir, tt.lim, tt.ilim, rules)
		if got := x != nil; got != tt.want {
			t.Errorf("%s: continued %v (truncated %v), want %v", tt.name, got, res.Truncated, tt.want)
		}
		if x != nil {
			if got, want := stepAll(t, x, tt.ilim, forever()), indexReference(t, dir, tt.ilim, rules); !slices.Equal(got, want) {
				t.Errorf("%s:\n got %q\nwant %q", tt.name, got, want)
			}
			x.Close()
		}
		root.Close()
	}
}
