package files_test

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/scoutdev/scout/tui/bridge/bridgetest"
	"github.com/scoutdev/scout/tui/files"
)

// sieveTree is a tree for the streamed filter: many ASCII paths, some with
// capitals, and paths whose runes fold or normalize to ASCII letters (the
// Kelvin sign to k, é to e) that an ASCII-only sieve would wrongly drop.
func sieveTree() []string {
	var out []string
	for i := range 1500 {
		out = append(out, fmt.Sprintf("pkg%d/mod%d/part%02d/file%04d.go", i%3, i%7, i%11, i))
	}
	return append(out,
		"docs/README.md", "docs/Makefile", "src/File12.go", "src/fi/le/1/2.go",
		"\u212aelvin/notes.txt", "caf\u00e9/menu.txt", "cafe\u0301/menu.txt", "x/kel.go",
		"deep/a/b/c/d/e/f/g/needle.go", "needle", "n/e/e/d/l/e.txt",
	)
}

// TestCompleteSieveRanksAsAll: ranking what Complete keeps with
// Sieve(query) — each page sieved as it comes, the few kept paths of a
// page copied out of it — gives exactly what ranking every file gives:
// the same paths in the same order, with and without a limit, with the
// ceiling cutting the walk at the same entry. Queries cover fuzzy terms a
// substring test would miss, smart case, anchors, exact and inverse
// terms, alternatives, paths that are not ASCII, and no match at all.
func TestCompleteSieveRanksAsAll(t *testing.T) {
	tree := sieveTree()
	queries := []string{
		"", "file12", "part05file12", "FILE", "File12", "kelvin", "k", "cafe", "café",
		"^pkg1 go$", "'mod3/part", "!pkg1 file00", "!go", "needle | kel", "zz | part1",
		"needle", "e", "nothing-matches-this", "fi le 1 2", "\u212a",
	}
	ctx := context.Background()
	// A probe of 50 paths: a query most paths pass stops the sieve after
	// the first page, and the rest of the walk is kept unsieved.
	for _, probe := range []int{0, 50} {
		if probe > 0 {
			defer files.SetSieveProbe(probe)()
		}
		completeSievedAsAll(t, ctx, tree, queries, probe)
	}
}

func completeSievedAsAll(t *testing.T, ctx context.Context, tree, queries []string, probe int) {
	for _, ceiling := range []int{files.DefaultMaxIndexed, 700} {
		// A fake a walk: a walk the ceiling stopped may still have a page
		// asked for, whose stale cursor would end the next walk.
		fake := func() *bridgetest.Fake {
			return bridgetest.New(bridgetest.Options{Files: tree, Snapshot: 100, IndexPage: 97})
		}
		all, allStopped, err := files.Complete(ctx, fake(), ceiling, nil)
		if err != nil {
			t.Fatal(err)
		}
		if ceiling < len(tree) != allStopped || len(all) < 300 {
			t.Fatalf("ceiling %d: %d files, stopped %v", ceiling, len(all), allStopped)
		}
		dropped := false
		for _, q := range queries {
			kept, stopped, err := files.Complete(ctx, fake(), ceiling, files.Sieve(q))
			if err != nil {
				t.Fatal(err)
			}
			if stopped != allStopped {
				t.Errorf("probe %d, ceiling %d, %q: stopped %v, without the sieve %v", probe, ceiling, q, stopped, allStopped)
			}
			dropped = dropped || len(kept) < len(all)
			for _, limit := range []int{0, 1, 5} {
				want, err := files.Filter(ctx, all, q, limit)
				if err != nil {
					t.Fatal(err)
				}
				got, err := files.Filter(ctx, kept, q, limit)
				if err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("probe %d, ceiling %d, %q, limit %d: sieved ranking (%d of %d kept)\n%q\nranking of all\n%q",
						probe, ceiling, q, limit, len(kept), len(all), head(got), head(want))
				}
			}
		}
		if !dropped {
			t.Errorf("ceiling %d: the sieve kept every path for every query: nothing streamed was tested", ceiling)
		}
	}
}

func head(s []string) []string { return s[:min(len(s), 12)] }
