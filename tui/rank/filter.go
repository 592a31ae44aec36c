package rank

import (
	"context"
	"unicode/utf8"
)

// Filter is New(paths).Order(ctx, query, k) for one query: the indices of
// the best k paths (all when k <= 0), best first, and how many match. It
// first drops, on every core, the ASCII paths that cannot match (the
// bytes of a term that alone makes up a set are not a subsequence of
// theirs, folded unless the term is case-sensitive), and prepares only
// the rest: a one-shot ranking (`scout filter`) otherwise spends most of
// its time preparing paths that the first comparison would reject. The
// result is Order's exactly, since a path that does not match takes no
// part in the order.
func Filter(ctx context.Context, paths []string, query string, k int) (int, []int, error) {
	var need []*pattern
	if q := compileQuery(query); q != nil {
		for _, set := range q.sets {
			if p := set[0]; len(set) == 1 && !p.Inverse && p.bytes != nil {
				need = append(need, p)
			}
		}
	}
	if len(need) == 0 {
		return New(paths).Order(ctx, query, k)
	}
	chunks := (len(paths) + indexChunk - 1) / indexChunk
	kept := make([][]int32, chunks)
	forChunks(chunks, func(c int) {
		for i := c * indexChunk; i < min((c+1)*indexChunk, len(paths)); i++ {
			if mayMatchAll(paths[i], need) {
				kept[c] = append(kept[c], int32(i))
			}
		}
	})
	var idx []int32
	for _, ks := range kept {
		idx = append(idx, ks...)
	}
	sub := make([]string, len(idx))
	for j, i := range idx {
		sub[j] = paths[i]
	}
	total, order, err := New(sub).Order(ctx, query, k)
	for j, o := range order {
		order[j] = int(idx[o])
	}
	return total, order, err
}

// mayMatchAll reports whether path p may match every term of ps (ASCII
// terms): false only for an ASCII path of which a term's bytes are not a
// subsequence. Other paths may hold runes that fold or normalize to
// ASCII (the Kelvin sign folds to k, é to e), so they are kept for the
// matcher to decide.
func mayMatchAll(p string, ps []*pattern) bool {
	for _, t := range ps {
		if !mayMatch(p, t.bytes, t.sensitive) {
			return false
		}
	}
	return true
}

// mayMatch reports whether path p may match the ASCII term q (folded
// unless sensitive).
func mayMatch(p string, q []byte, sensitive bool) bool {
	j := 0
	var high byte
	for i := 0; i < len(p); i++ {
		b := p[i]
		high |= b
		if !sensitive {
			b = foldOf[b]
		}
		if j < len(q) && b == q[j] {
			j++
		}
	}
	return j == len(q) || high >= utf8.RuneSelf
}
