package pathgen

import (
	"slices"
	"strings"
	"testing"
)

func TestPaths(t *testing.T) {
	a, b := Paths(5000, 1), Paths(5000, 1)
	if !slices.Equal(a, b) {
		t.Fatal("the same seed gave different paths")
	}
	if len(a) != 5000 || !slices.IsSorted(a) || len(slices.Compact(slices.Clone(a))) != 5000 {
		t.Fatalf("want 5000 distinct sorted paths, got %d", len(a))
	}
	if slices.Equal(a, Paths(5000, 2)) {
		t.Fatal("different seeds gave the same paths")
	}
	depth := 0
	for _, p := range a {
		if strings.HasPrefix(p, "/") || strings.Contains(p, "//") || strings.HasSuffix(p, "/") {
			t.Fatalf("malformed path %q", p)
		}
		depth = max(depth, strings.Count(p, "/"))
	}
	if depth < 4 {
		t.Fatalf("tree too shallow: depth %d", depth)
	}
}
