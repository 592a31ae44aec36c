package catalog

import (
	"context"
	"fmt"
	"strings"
	"syscall"
	"testing"
)

// BenchmarkStatus32x2048 is a fresh model.catalog.status (scan and first
// page) over 32 providers whose caches hold 2,048 entries each, 8 enabled
// models per provider, authentication from the environment.
func BenchmarkStatus32x2048(b *testing.B) {
	ids := make([]string, MaxModels)
	for j := range ids {
		ids[j] = fmt.Sprintf("vendor/model-%04d-%s", j, strings.Repeat("x", 24))
	}
	var providers []Provider
	for i := range 32 {
		providers = append(providers, Provider{
			ID: fmt.Sprintf("provider-%02d", i), Type: TypeOpenAICompatible,
			BaseURL: "http://127.0.0.1:9/v1", APIKeyEnv: "KEY", EnabledModels: ids[:8],
		})
	}
	s, home := newService(b, Options{}, providers...)
	size := 0
	for i := range s.providers {
		size += len(writeCache(b, home, &s.providers[i], ids...))
	}
	b.ReportAllocs()
	cpu0 := cpuTime()
	for b.Loop() {
		snap, err := s.scan(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		snap.rev, snap.revision = 1, "c1"
		if _, err := s.page("bench", snap, 0, true, tagStatus, true); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
	b.ReportMetric(float64(size)/32, "cache-bytes/provider")
}

// cpuTime is the process's user plus system CPU time in nanoseconds: on a
// shared machine it says more about the work than the wall clock does.
func cpuTime() int64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return ru.Utime.Nano() + ru.Stime.Nano()
}
