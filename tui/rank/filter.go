package rank

import (
	"context"
	"unicode"
	"unicode/utf8"
)

// Filter is New(paths).Order(ctx, query, k) for one query: the indices of
// the best k paths (all when k <= 0), best first, and how many match. It
// first drops, on every core, the ASCII paths that cannot match (the
// query's bytes are not a subsequence of theirs, folded unless the query
// is case-sensitive), and prepares only the rest: a one-shot ranking
// (`scout filter`) otherwise spends most of its time preparing paths that
// the first comparison would reject. The result is Order's exactly, since
// a path that does not match takes no part in the order.
func Filter(ctx context.Context, paths []string, query string, k int) (int, []int, error) {
	if query == "" || !isASCIIString(query) {
		return New(paths).Order(ctx, query, k)
	}
	q := []byte(query)
	sensitive := false
	for _, c := range q {
		sensitive = sensitive || unicode.IsUpper(rune(c))
	}
	if !sensitive {
		for i, c := range q {
			q[i] = foldOf[c]
		}
	}
	chunks := (len(paths) + indexChunk - 1) / indexChunk
	kept := make([][]int32, chunks)
	forChunks(chunks, func(c int) {
		for i := c * indexChunk; i < min((c+1)*indexChunk, len(paths)); i++ {
			if mayMatch(paths[i], q, sensitive) {
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

// mayMatch reports whether path p may match the ASCII query q (folded
// unless sensitive): false only for an ASCII path of which q is not a
// subsequence. Other paths may hold runes that fold to ASCII (the Kelvin
// sign folds to k), so they are kept for the matcher to decide.
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

func isASCIIString(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
