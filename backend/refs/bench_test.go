package refs

import (
	"testing"
	"time"
)

// BenchmarkMint20000 mints 20,000 ids (a full registry) per op, in a fresh
// registry each time.
func BenchmarkMint20000(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		r := New[string](Options{TTL: 15 * time.Minute, Max: 20000})
		for range 20000 {
			r.Mint(scope, File, "src/main.go")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/20000, "ns/id")
}

// BenchmarkMintEvicting20000 mints 20,000 ids per op into a registry that
// is already full, so every mint evicts the oldest.
func BenchmarkMintEvicting20000(b *testing.B) {
	r := New[string](Options{TTL: 15 * time.Minute, Max: 20000})
	for range 20000 {
		r.Mint(scope, File, "x")
	}
	b.ReportAllocs()
	for b.Loop() {
		for range 20000 {
			r.Mint(scope, File, "src/main.go")
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/20000, "ns/id")
}

// BenchmarkResolve20000 resolves each of 20,000 live ids once per op.
func BenchmarkResolve20000(b *testing.B) {
	r := New[string](Options{TTL: 15 * time.Minute, Max: 20000})
	ids := make([]string, 20000)
	for i := range ids {
		ids[i] = r.Mint(scope, File, "src/main.go")
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, id := range ids {
			if _, ok := r.Resolve(scope, File, id); !ok {
				b.Fatal("not found")
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/20000, "ns/id")
}
