package rank

import (
	"context"
	"testing"
	"time"
)

// BenchmarkFilter1M is `scout filter`'s ranking of goTree1M (Filter, the
// one-shot path that prepares its chunks in a reused index): a
// selective query, one of many matches, and a query with a capital
// (case-sensitive: it reads the paths as given). It reports the CPU time
// of an op (cpu-ms/op), steadier than wall time on a shared machine.
func BenchmarkFilter1M(b *testing.B) {
	paths := goTree1M(b)
	for _, q := range []string{"ssagen", "srv", "Makefile"} {
		b.Run(q, func(b *testing.B) {
			cpu := cpuTime()
			for b.Loop() {
				if _, _, err := Filter(context.Background(), paths, q, 0); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
		})
	}
}
