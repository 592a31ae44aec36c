package files

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// A picker following the whole index holds, past a few thousand entries,
// a heap that is mostly the ranker's arenas (tui/rank): live for the
// session, growing page by page, and free of pointers, so a collection
// marks little of it. Under the collector's default (GOGC=100) the heap
// may grow to twice what the last collection found live before the next
// one runs, and the garbage of decoding pages (each page's line, entries
// and candidates) fills that room: a million-entry index peaked at about
// twice its live heap (docs/performance.md, "The whole tree"). So once the
// picker follows an index, a soft memory limit (runtime/debug) keeps the
// room to a sixteenth of the live heap, at least limitSlack, refitted after
// every collection from what it found live: the room never shrinks below
// limitSlack, so the collector cannot be driven to run back to back, and a
// heap that grows (the tree built, another query's results) raises the
// limit at its next collection. Small heaps keep GOGC's own pace (the
// limit is above its goal). GOGC or GOMEMLIMIT in the environment leave
// the collector as the user set it.

// limitSlack is the least room the soft limit leaves above the live heap.
const limitSlack = 16 << 20

var (
	limitOnce  sync.Once
	liveSample = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
)

// limitMemory starts the soft memory limit that follows the live heap,
// once per process, unless GOGC or GOMEMLIMIT is set.
func limitMemory() {
	limitOnce.Do(func() {
		if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
			return
		}
		fitLimit()
		armLimit()
	})
}

// limitFor is the soft limit for a live heap of live bytes.
func limitFor(live uint64) int64 {
	room := max(live/16, limitSlack)
	return int64(min(live+room, math.MaxInt64))
}

// fitLimit sets the limit for the live heap the last collection found.
func fitLimit() {
	metrics.Read(liveSample)
	if liveSample[0].Value.Kind() == metrics.KindUint64 {
		debug.SetMemoryLimit(limitFor(liveSample[0].Value.Uint64()))
	}
}

// gcSentinel is an object made only to become garbage: its cleanup runs
// after the collection that finds it unreachable. It is large enough to
// have an allocation of its own (the tiny allocator batches smaller ones).
type gcSentinel struct{ _ [16]uint64 }

// armLimit refits the limit after the next collection, and so after
// every one.
func armLimit() {
	runtime.AddCleanup(new(gcSentinel), func(struct{}) {
		fitLimit()
		armLimit()
	}, struct{}{})
}
