package rank

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"sync/atomic"
)

// chunkSize is how many candidates one worker takes at a time. Large
// enough that handing out a chunk (one atomic add, one context check) is
// noise next to scoring it, small enough that two cores share a 10,000-path
// scan evenly and a cancelled scan stops within a few microseconds.
const chunkSize = 1024

// parallelMin is the candidate count below which a scan stays on the
// calling goroutine: starting workers costs more than it saves there.
const parallelMin = 2 * chunkSize

// hit is one matching path and its score.
type hit struct {
	idx   int32
	score int32
}

// scan scores candidates (from, or every path when from is nil) for p on
// all workers and returns the matches in ascending index order. It returns
// ctx's error, and no hits, if ctx is done before the scan completes.
func (r *Ranker) scan(ctx context.Context, p *pattern, from []hit) ([]hit, error) {
	n := len(r.x.paths)
	if from != nil {
		n = len(from)
	}
	out := make([]hit, n)
	counts := make([]int, (n+chunkSize-1)/chunkSize)
	var next atomic.Int32
	work := func(s *scratch) {
		for c := int(next.Add(1) - 1); c < len(counts); c = int(next.Add(1) - 1) {
			if ctx.Err() != nil {
				return
			}
			lo := c * chunkSize
			counts[c] = r.scanChunk(s, p, from, lo, min(lo+chunkSize, n), out[lo:])
		}
	}
	r.parallel(n, work)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return compact(out, counts), nil
}

// scanChunk scores candidates lo..hi and writes the matches to out,
// returning how many there were.
func (r *Ranker) scanChunk(s *scratch, p *pattern, from []hit, lo, hi int, out []hit) int {
	k := 0
	for c := lo; c < hi; c++ {
		i := c
		if from != nil {
			i = int(from[c].idx)
		}
		if v := r.x.score(s, p, i, false); v != noMatch {
			out[k] = hit{int32(i), v}
			k++
		}
	}
	return k
}

// parallel runs work on every worker's scratch when n candidates are worth
// it, else on the caller's.
func (r *Ranker) parallel(n int, work func(*scratch)) {
	if n < parallelMin || len(r.scratch) == 1 {
		work(r.scratch[0])
		return
	}
	var wg sync.WaitGroup
	for _, s := range r.scratch {
		wg.Go(func() { work(s) })
	}
	wg.Wait()
}

// compact moves every chunk's matches to the front, in chunk order.
func compact(out []hit, counts []int) []hit {
	k := 0
	for c, n := range counts {
		k += copy(out[k:], out[c*chunkSize:c*chunkSize+n])
	}
	return out[:k:k]
}

// compare orders hits best first: higher score, then shorter path, then
// path bytes, then index. It is a total order, so every ranking is
// deterministic.
func (r *Ranker) compare(a, b hit) int {
	if a.score != b.score {
		return cmp.Compare(b.score, a.score)
	}
	pa, pb := r.x.paths[a.idx], r.x.paths[b.idx]
	if len(pa) != len(pb) {
		return cmp.Compare(len(pa), len(pb))
	}
	if c := cmp.Compare(pa, pb); c != 0 {
		return c
	}
	return cmp.Compare(a.idx, b.idx)
}

// best returns the k best hits (all when k <= 0), best first. For k > 0
// each worker keeps a bounded heap over its share and the heaps are merged,
// so the cost is O(n log k) spread over the cores.
func (r *Ranker) best(hits []hit, k int) []hit {
	if k <= 0 || k >= len(hits) {
		all := slices.Clone(hits)
		slices.SortFunc(all, r.compare)
		return all
	}
	heaps := make([]topK, len(r.scratch))
	var next atomic.Int32
	r.parallel(len(hits), func(s *scratch) {
		h := &heaps[r.worker(s)]
		h.init(r, k)
		for c := int(next.Add(1) - 1); c*chunkSize < len(hits); c = int(next.Add(1) - 1) {
			for _, x := range hits[c*chunkSize : min((c+1)*chunkSize, len(hits))] {
				h.offer(x)
			}
		}
	})
	var merged []hit
	for _, h := range heaps {
		merged = append(merged, h.items...)
	}
	slices.SortFunc(merged, r.compare)
	return merged[:min(k, len(merged))]
}

// worker is the number of a worker's scratch.
func (r *Ranker) worker(s *scratch) int {
	return slices.Index(r.scratch, s)
}

// topK is a bounded heap keeping the k best hits offered, worst on top.
type topK struct {
	r     *Ranker
	k     int
	items []hit
}

func (h *topK) init(r *Ranker, k int) {
	h.r, h.k, h.items = r, k, make([]hit, 0, k)
}

// offer adds x if it is among the k best seen.
func (h *topK) offer(x hit) {
	if len(h.items) < h.k {
		h.items = append(h.items, x)
		h.up(len(h.items) - 1)
		return
	}
	if h.r.compare(x, h.items[0]) < 0 {
		h.items[0] = x
		h.down(0)
	}
}

// worse reports whether item i ranks below item j (heap order: worst first).
func (h *topK) worse(i, j int) bool {
	return h.r.compare(h.items[i], h.items[j]) > 0
}

func (h *topK) up(i int) {
	for i > 0 {
		p := (i - 1) / 2
		if !h.worse(i, p) {
			return
		}
		h.items[i], h.items[p] = h.items[p], h.items[i]
		i = p
	}
}

func (h *topK) down(i int) {
	for {
		w := i
		for _, c := range [2]int{2*i + 1, 2*i + 2} {
			if c < len(h.items) && h.worse(c, w) {
				w = c
			}
		}
		if w == i {
			return
		}
		h.items[i], h.items[w] = h.items[w], h.items[i]
		i = w
	}
}
