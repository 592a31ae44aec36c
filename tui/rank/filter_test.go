package rank

import (
	"context"
	"slices"
	"testing"
)

// TestFilterIsOrder: the one-shot Filter gives New(paths).Order's result
// for every query and k, also with non-ASCII paths and runes that fold to
// ASCII (the Kelvin sign, U+212A, folds to k), queries of several terms
// and of inverse terms only.
func TestFilterIsOrder(t *testing.T) {
	paths := append(slices.Clone(gen10k()[:6000]), "dir/\u212aelvin.go", "ünï/kode.go", "Kk/kK", "README", "x/Readme.md", "café/x.go")
	for _, q := range []string{"", "s", "k", "K", "srv", "Read", "readme", "internalhttp", "ünï", "zzzz", "a b",
		"srv !test", "'kode | readme", "^dir/ go$", "!s", "!^x !go", "kode ünï", "cafe"} {
		for _, k := range []int{0, 1, 50} {
			wantTotal, want, err := New(paths).Order(context.Background(), q, k)
			if err != nil {
				t.Fatal(err)
			}
			total, got, err := Filter(context.Background(), paths, q, k)
			if err != nil || total != wantTotal || !slices.Equal(got, want) {
				t.Fatalf("%q k=%d: Filter %d %v, Order %d %v (%v)", q, k, total, got[:min(5, len(got))], wantTotal, want[:min(5, len(want))], err)
			}
		}
	}
}
