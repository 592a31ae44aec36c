package files

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestLimitFor(t *testing.T) {
	for _, c := range []struct {
		live uint64
		want int64
	}{
		{0, limitSlack},
		{100 << 20, 100<<20 + limitSlack},
		{1 << 30, 1<<30 + 1<<26},
	} {
		if got := limitFor(c.live); got != c.want {
			t.Errorf("limitFor(%d) = %d, want %d", c.live, got, c.want)
		}
	}
}

// TestLimitFollowsLiveHeap starts the soft limit, holds 32 MiB more and
// waits for the collections that follow to raise the limit above it,
// then lets it go and waits for the limit to come down: it is refitted
// after every collection, not set once.
func TestLimitFollowsLiveHeap(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	limitMemory()
	const size = 32 << 20
	held := make([]byte, size)
	awaitLimit(t, "the live heap holds 32 MiB", func(limit int64) bool { return limit >= limitFor(size) })
	runtime.KeepAlive(held)
	held = nil
	awaitLimit(t, "the 32 MiB are garbage", func(limit int64) bool { return limit < limitFor(size) })
}

// awaitLimit collects until the soft limit satisfies ok.
func awaitLimit(t *testing.T, when string, ok func(int64) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok(debug.SetMemoryLimit(-1)) {
		if time.Now().After(deadline) {
			t.Fatalf("limit %d once %s", debug.SetMemoryLimit(-1), when)
		}
		runtime.GC()
		time.Sleep(time.Millisecond) // the cleanup runs on its own goroutine
	}
}
