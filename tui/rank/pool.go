package rank

import "sync"

// Segment buffers are recycled. When the cache drops a set's rows, or the
// set, its buffers return to these pools and later scans build their
// segments from them, so a Ranker in steady use (its cache full) allocates
// little. Garbage collection otherwise cost a keystroke about a quarter of
// its CPU time (BenchmarkRank at GOGC=100 against 400): the collections
// themselves, and the write barriers they switch on in the hot loop.
var (
	intPool sync.Pool // *[]int32, empty
	hitPool sync.Pool // *[]hit, empty
)

// getInts returns an empty slice with room for n.
func getInts(n int) []int32 {
	if b, ok := intPool.Get().(*[]int32); ok && cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]int32, 0, n)
}

// getHits returns an empty slice with room for n.
func getHits(n int) []hit {
	if b, ok := hitPool.Get().(*[]hit); ok && cap(*b) >= n {
		return (*b)[:0]
	}
	return make([]hit, 0, n)
}

// putInts recycles b, which nothing may use afterwards.
func putInts(b []int32) {
	if cap(b) > 0 {
		b = b[:0]
		intPool.Put(&b)
	}
}

// putHits recycles b, which nothing may use afterwards.
func putHits(b []hit) {
	if cap(b) > 0 {
		b = b[:0]
		hitPool.Put(&b)
	}
}
