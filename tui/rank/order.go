package rank

import (
	"cmp"
	"math"
	"slices"
)

// keyed is a hit with its sort key: the score (descending) and the path's
// length (ascending) packed so that one integer comparison settles most
// comparisons of compare's order without touching the paths.
type keyed struct {
	key        uint64
	idx, score int32
}

func (t *table) keyOf(h hit) keyed {
	d := uint64(math.MaxInt32 - int64(h.score)) // 0 for the best score
	return keyed{key: d<<32 | uint64(uint32(min(len(t.path(h.idx)), math.MaxUint32))), idx: h.idx, score: h.score}
}

// compareKeyed is compare over keyed hits.
func (t *table) compareKeyed(a, b keyed) int {
	if a.key != b.key {
		return cmp.Compare(a.key, b.key)
	}
	if c := cmp.Compare(t.path(a.idx), t.path(b.idx)); c != 0 {
		return c
	}
	return cmp.Compare(a.idx, b.idx)
}

// sortAll returns every hit of set best first (compare's order). The
// keys are sorted by radix, one pass per byte in which they differ (a
// score and a length vary in a byte or two each), which is stable, so
// hits of equal key stay in index order; each run of equal keys is then
// sorted by path bytes. `scout filter` prints every match, and at one
// rune that is a sort of nearly every path.
func sortAll(t *table, set *matchSet) []hit {
	ks := make([]keyed, 0, set.total)
	for _, g := range set.segs {
		for _, h := range g.hits {
			ks = append(ks, t.keyOf(h))
		}
	}
	ks = radixSort(ks)
	for lo := 0; lo < len(ks); {
		hi := lo + 1
		for hi < len(ks) && ks[hi].key == ks[lo].key {
			hi++
		}
		if hi-lo > 1 {
			slices.SortFunc(ks[lo:hi], t.compareKeyed)
		}
		lo = hi
	}
	out := make([]hit, len(ks))
	for i, k := range ks {
		out[i] = hit{idx: k.idx, score: k.score}
	}
	return out
}

// radixSort sorts ks by key, stably (least significant byte first), in
// passes over only the bytes in which some keys differ.
func radixSort(ks []keyed) []keyed {
	if len(ks) < 2 {
		return ks
	}
	var diff uint64
	for _, k := range ks[1:] {
		diff |= k.key ^ ks[0].key
	}
	buf := make([]keyed, len(ks))
	for shift := uint(0); shift < 64; shift += 8 {
		if (diff>>shift)&0xff == 0 {
			continue
		}
		var count [257]int
		for _, k := range ks {
			count[(k.key>>shift)&0xff+1]++
		}
		for i := 1; i < 257; i++ {
			count[i] += count[i-1]
		}
		for _, k := range ks {
			b := (k.key >> shift) & 0xff
			buf[count[b]] = k
			count[b]++
		}
		ks, buf = buf, ks
	}
	return ks
}
