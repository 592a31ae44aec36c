package files

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// BenchmarkSortChildren sorts a directory of 1,000 children named as
// bench/index.sh's trees name them (fileNNNNNNN.go), by the previous
// comparison of names (old) and by sortChildren's integer heads (keys).
func BenchmarkSortChildren(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	const prefix = "pkg05/mod09/part03/"
	var kids []child
	for range 1000 {
		kids = append(kids, child{path: fmt.Sprintf("%sfile%07d.go", prefix, rng.IntN(1_000_000))})
	}
	off := len(prefix)
	b.Run("old", func(b *testing.B) {
		room := make([]child, len(kids))
		for b.Loop() {
			copy(room, kids)
			slices.SortFunc(room, func(a, b child) int { return strings.Compare(a.path[off:], b.path[off:]) })
		}
	})
	b.Run("keys", func(b *testing.B) {
		var r reader
		room := make([]child, len(kids))
		for b.Loop() {
			copy(room, kids)
			r.sortChildren(room, off)
		}
	})
}
