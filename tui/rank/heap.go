package rank

// topK is a bounded heap keeping the k best hits offered, worst on top,
// by compare (best first). With k <= 0 it keeps nothing.
type topK struct {
	compare func(a, b hit) int
	k       int
	items   []hit
}

func (h *topK) init(compare func(a, b hit) int, k int) {
	h.compare, h.k, h.items = compare, k, make([]hit, 0, max(k, 0))
}

// offer adds x if it is among the k best offered.
func (h *topK) offer(x hit) {
	switch {
	case h.k <= 0:
	case len(h.items) == h.k && x.score < h.items[0].score:
		// worse than the worst kept: the common case, decided without
		// compare's call
	case len(h.items) < h.k:
		h.items = append(h.items, x)
		h.up(len(h.items) - 1)
	case h.compare(x, h.items[0]) < 0:
		h.items[0] = x
		h.down(0)
	}
}

// floor returns the score of the worst hit kept, when h holds its k: a
// hit scoring below it would not be kept.
func (h *topK) floor() (int32, bool) {
	if h.k <= 0 || len(h.items) < h.k {
		return 0, false
	}
	return h.items[0].score, true
}

// worse reports whether item i ranks below item j (heap order: worst first).
func (h *topK) worse(i, j int) bool {
	return h.compare(h.items[i], h.items[j]) > 0
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
