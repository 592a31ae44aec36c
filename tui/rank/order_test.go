package rank

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestOrderIsRank: Order lists Rank's matches, in Rank's order, for every
// k, on a list with many ties (equal scores, equal lengths, duplicate
// paths), so the keyed parallel sort is held to compare's order.
func TestOrderIsRank(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	var paths []string
	for range 3*parallelMin + 17 {
		paths = append(paths, fmt.Sprintf("d%d/s%d/file%d.go", rng.IntN(4), rng.IntN(3), rng.IntN(50)))
	}
	paths = append(paths, gen10k()[:4000]...)
	prepared := New(paths)
	for _, q := range []string{"", "s", "f", "go", "d1s", "file1", "zzz"} {
		for _, k := range []int{0, 1, 50, 5000} {
			r := uncached(prepared)
			total, order, err := r.Order(context.Background(), q, k)
			if err != nil {
				t.Fatal(err)
			}
			res, err := uncached(prepared).Rank(context.Background(), q, k)
			if err != nil {
				t.Fatal(err)
			}
			want := make([]int, len(res.Matches))
			for i, m := range res.Matches {
				want[i] = m.Index
			}
			if total != res.Total || !slices.Equal(order, want) {
				t.Fatalf("%q k=%d: Order gives %d matches %v..., Rank %d %v...", q, k, total, order[:min(5, len(order))], res.Total, want[:min(5, len(want))])
			}
			if q == "" || k > 0 {
				continue
			}
			ref := reference(r, q)
			if !sameHits(res.Matches, ref) {
				t.Fatalf("%q: the full order differs from compare's", q)
			}
		}
	}
}

// TestOneRuneIsReference holds the first keystroke's fused loop to the
// reference scorer (score, one path at a time, then compare's order) on
// paths of every short length, in both case modes, with a few non-ASCII
// paths among them, for every rune of the alphabet.
func TestOneRuneIsReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(11, 12))
	var paths []string
	for range 3 * chunkSize {
		paths = append(paths, randomString(rng, []rune("aAsS/._-bzZ"), rng.IntN(20)))
	}
	paths = append(paths, "é/s", "sé", "Ss/\u212a", strings.Repeat("s", 40), strings.Repeat("aS", 33))
	for _, q := range []string{"a", "A", "s", "S", "/", ".", "_", "z", "Z", "-"} {
		r := New(paths)
		res, err := r.Rank(context.Background(), q, 0)
		if err != nil {
			t.Fatal(err)
		}
		ref := reference(r, q)
		if res.Total != len(ref) || !sameHits(res.Matches, ref) {
			t.Fatalf("%q: %d matches, reference %d, or scores differ", q, res.Total, len(ref))
		}
		for _, next := range []string{"a", "s", "S", "/"} { // continuing the rows
			got, _ := r.Rank(context.Background(), q+next, 0)
			want, _ := uncached(r).Rank(context.Background(), q+next, 0)
			if !sameResult(got, want) {
				t.Fatalf("%q then %q: typed and fresh differ", q, next)
			}
		}
	}
}
