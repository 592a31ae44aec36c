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

// TestLimitFollowsLiveHeap starts the soft limit, grows the live heap by
// 64 MiB and waits for the collections that follow to raise the limit
// above it: it is refitted after every collection, not set once.
func TestLimitFollowsLiveHeap(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	limitMemory()
	before := debug.SetMemoryLimit(-1)
	held := make([]byte, 64<<20)
	deadline := time.Now().Add(10 * time.Second)
	for debug.SetMemoryLimit(-1) < before+64<<20 {
		if time.Now().After(deadline) {
			t.Fatalf("limit %d after the live heap grew by 64 MiB from a limit of %d", debug.SetMemoryLimit(-1), before)
		}
		runtime.GC()
		time.Sleep(time.Millisecond) // the cleanup runs on its own goroutine
	}
	if got := debug.SetMemoryLimit(-1); got > limitFor(1<<30) {
		t.Errorf("limit %d, far above the live heap", got)
	}
	runtime.KeepAlive(held)
}
