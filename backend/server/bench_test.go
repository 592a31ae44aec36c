package server_test

import (
	"sort"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// BenchmarkStatusRoundTrip measures one status request and its response over
// the real pipes of a real `scout backend`, reporting the median and the 99th
// percentile of the round trips.
func BenchmarkStatusRoundTrip(b *testing.B) {
	p := scouttest.Start(b, scouttest.Options{})
	p.Initialize()
	lat := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		began := time.Now()
		p.Request("s", wire.MethodStatus, nil)
		p.Next(scouttest.DefaultTimeout)
		lat = append(lat, time.Since(began))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds()), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds()), "p99-µs")
}
