package files

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSortChildrenOrdersByName: sortChildren orders a directory's
// children exactly as sorting their names does, for names that tie on
// their first eight bytes, are shorter than eight, are prefixes of each
// other or carry bytes above 0x7f, with the directory flag kept with its
// name.
func TestSortChildrenOrdersByName(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("ab.Z_\x7f\x80\xff")
	const prefix = "some/dir/"
	var r reader
	for round := range 300 {
		n := rng.IntN(60)
		seen := map[string]bool{}
		var kids []child
		for len(kids) < n {
			name := []byte("samehead")[:rng.IntN(9)]
			for range rng.IntN(5) {
				name = append(name, alphabet[rng.IntN(len(alphabet))])
			}
			if len(name) == 0 || seen[string(name)] {
				continue
			}
			seen[string(name)] = true
			kids = append(kids, child{path: prefix + string(name), dir: rng.IntN(3) == 0})
		}
		want := slices.Clone(kids)
		slices.SortFunc(want, func(a, b child) int {
			return strings.Compare(a.path[len(prefix):], b.path[len(prefix):])
		})
		got := r.sortChildren(slices.Clone(kids), len(prefix))
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: sorted\n%v\nwant\n%v", round, got, want)
		}
	}
}
