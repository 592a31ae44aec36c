package rank

import (
	"context"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestFilterIsOrder: the one-shot Filter gives New(paths).Order's result
// for every query and k, also with non-ASCII paths and runes that fold to
// ASCII (the Kelvin sign, U+212A, folds to k), queries of several terms
// and of inverse terms only.
func TestFilterIsOrder(t *testing.T) {
	t.Parallel()
	paths := append(slices.Clone(gen10k()[:6000]), "dir/\u212aelvin.go", "ünï/kode.go", "Kk/kK", "README", "x/Readme.md", "café/x.go")
	prepared := New(paths)
	for _, q := range []string{"", "s", "k", "K", "srv", "Read", "readme", "internalhttp", "ünï", "zzzz", "a b",
		"srv !test", "'kode | readme", "^dir/ go$", "!s", "!^x !go", "kode ünï", "cafe"} {
		for _, k := range []int{0, 1, 50} {
			wantTotal, want, err := uncached(prepared).Order(context.Background(), q, k)
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

// TestMayMatch holds the prefilter to a plain subsequence test: it keeps
// every ASCII path whose folded bytes hold the term's in order, drops the
// others, and keeps every non-ASCII path.
func TestMayMatch(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 9))
	for range 20000 {
		p := randomString(rng, []rune("aAbBsS/._é"), rng.IntN(16))
		term := randomString(rng, []rune("abAB/._s"), 1+rng.IntN(4))
		sensitive := strings.ToLower(term) != term
		want := !isASCII(p) || subsequence(foldIf(p, !sensitive), []byte(term))
		if got := mayMatch(p, []byte(term), sensitive); got != want {
			t.Fatalf("%q in %q (sensitive %v): %v, want %v", term, p, sensitive, got, want)
		}
	}
}

func foldIf(p string, fold bool) []byte {
	if fold {
		return []byte(strings.ToLower(p))
	}
	return []byte(p)
}
