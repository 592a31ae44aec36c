package rank

import (
	"math/bits"
	"sync"
)

// Segment buffers are recycled. When the cache drops a set's rows, or the
// set, its buffers return to these pools and later scans build their
// segments from them, so a Ranker in steady use (its cache full) allocates
// little. Garbage collection otherwise cost a keystroke about a quarter of
// its CPU time (BenchmarkRank at GOGC=100 against 400): the collections
// themselves, and the write barriers they switch on in the hot loop.
//
// The pools are by size class (a power of two of the capacity), so a
// request is served by a buffer large enough: one pool of all sizes
// handed out small buffers to large requests, which dropped them and
// allocated anew.
var (
	intPools [poolClasses]sync.Pool // *[]int32, empty, cap in [2^c, 2^(c+1))
	hitPools [poolClasses]sync.Pool // *[]hit, likewise
)

const poolClasses = 40

// sizeClassFor is the class whose buffers all hold at least n: ceil(log2 n).
func sizeClassFor(n int) int { return bits.Len(uint(max(n, 1) - 1)) }

// sizeClassOf is the class of a buffer of capacity c: floor(log2 c).
func sizeClassOf(c int) int { return bits.Len(uint(c)) - 1 }

// poolReach is how many classes above the one asked for a request may
// take its buffer from: rows grow past their first size class often.
const poolReach = 3

// getInts returns an empty slice with room for n.
func getInts(n int) []int32 {
	c := sizeClassFor(n)
	for k := c; k < min(c+poolReach, poolClasses); k++ {
		if b, ok := intPools[k].Get().(*[]int32); ok {
			return (*b)[:0]
		}
	}
	return make([]int32, 0, 1<<min(c, 62))
}

// getHits returns an empty slice with room for n.
func getHits(n int) []hit {
	c := sizeClassFor(n)
	for k := c; k < min(c+poolReach, poolClasses); k++ {
		if b, ok := hitPools[k].Get().(*[]hit); ok {
			return (*b)[:0]
		}
	}
	return make([]hit, 0, 1<<min(c, 62))
}

// fitSlack is how much room beyond twice its length a kept buffer may
// have before fit gives it back for a smaller one.
const fitSlack = 64

// fit gives g's buffers back for ones of their size when they are mostly
// empty. A scan sizes a segment for every path of its block to match;
// a selective query keeps a few, and its cached set would hold the room
// of all: 64 KiB a block, 64 MB for a million paths, for each query.
func (g *segment) fit() {
	g.hits = fitBuffer(g.hits, putHits)
	g.pos, g.v0, g.v1 = fitBuffer(g.pos, putInts), fitBuffer(g.v0, putInts), fitBuffer(g.v1, putInts)
	g.rest, g.gain = fitBuffer(g.rest, putInts), fitBuffer(g.gain, putInts)
}

// fitBuffer returns b, or a copy of it of its own size when b's room is
// more than twice its length and fitSlack, giving b back with put. A nil
// b stays nil (rows dropped); an empty one becomes empty, not nil.
func fitBuffer[E any](b []E, put func([]E)) []E {
	if b == nil || cap(b) <= 2*len(b)+fitSlack {
		return b
	}
	c := make([]E, len(b))
	copy(c, b)
	put(b)
	return c
}

// putInts recycles b, which nothing may use afterwards.
func putInts(b []int32) {
	if c := sizeClassOf(cap(b)); c >= 0 && c < poolClasses {
		b = b[:0]
		intPools[c].Put(&b)
	}
}

// putHits recycles b, which nothing may use afterwards.
func putHits(b []hit) {
	if c := sizeClassOf(cap(b)); c >= 0 && c < poolClasses {
		b = b[:0]
		hitPools[c].Put(&b)
	}
}
