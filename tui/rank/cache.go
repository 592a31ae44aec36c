package rank

import "strings"

// cacheEntries bounds how many queries' match sets are kept: enough for
// typing and deleting back through a long query and for a few recent
// queries, while a lookup (a linear scan) stays trivial.
const cacheEntries = 64

// cacheBudget bounds the hits kept over all entries, as a multiple of the
// snapshot's path count. Typing narrows quickly (a one-rune query matches
// most paths, three runes a small share), so a few snapshots' worth keeps a
// whole typing session while memory stays linear in the snapshot.
const cacheBudget = 4

// queryCache keeps the complete match sets (index order, with scores) of
// recent queries. A query that extends a cached one only needs to rescan
// that one's matches: whatever matches "serv" also matches "ser", in either
// case mode, since a prefix of a case-sensitive query is no more strict.
// Deleting a rune finds the shorter query's set itself.
type queryCache struct {
	entries []cacheEntry // least recently used first
	held    int          // hits held over all entries
	budget  int
}

type cacheEntry struct {
	query string
	hits  []hit
}

func newQueryCache(paths int) *queryCache {
	return &queryCache{budget: cacheBudget * max(paths, 1)}
}

// lookup returns the match set of query, if cached, and marks it recent.
func (c *queryCache) lookup(query string) ([]hit, bool) {
	for i, e := range c.entries {
		if e.query == query {
			c.entries = append(append(c.entries[:i], c.entries[i+1:]...), e)
			return e.hits, true
		}
	}
	return nil, false
}

// narrowest returns the match set of the longest cached proper prefix of
// query, or nil (meaning every path) when there is none.
func (c *queryCache) narrowest(query string) []hit {
	var best *cacheEntry
	for i, e := range c.entries {
		if len(e.query) < len(query) && strings.HasPrefix(query, e.query) &&
			(best == nil || len(e.query) > len(best.query)) {
			best = &c.entries[i]
		}
	}
	if best == nil {
		return nil
	}
	return best.hits
}

// add caches query's match set, evicting the least recently used entries
// beyond the bounds. A set larger than the whole budget is not kept.
func (c *queryCache) add(query string, hits []hit) {
	if len(hits) > c.budget {
		return
	}
	c.entries = append(c.entries, cacheEntry{query, hits})
	c.held += len(hits)
	for len(c.entries) > cacheEntries || c.held > c.budget {
		c.held -= len(c.entries[0].hits)
		c.entries = c.entries[1:]
	}
}
