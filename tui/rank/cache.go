package rank

import (
	"strings"
	"unicode/utf8"
)

// cacheEntries bounds how many queries' match sets are kept: enough for
// typing and deleting back through a long query and for a few recent
// queries, while a lookup (a linear scan) stays trivial.
const cacheEntries = 64

// cacheBudget bounds what the cache holds, hits plus row cells, as a
// multiple of the snapshot's path count (about 14 bytes each, so at most
// about 170 bytes per path). Typing narrows quickly, so a few snapshots'
// worth keeps a whole typing session while memory stays linear in the
// snapshot. Rows, needed only to continue typing, go before match sets.
const cacheBudget = 12

// queryCache keeps recent queries' match sets. A query that extends a
// cached one need only rescan that one's matches: whatever matches "serv"
// matches "ser", in either case mode, since a prefix of a case-sensitive
// query is no more strict; and while the case mode agrees, each match's
// alignment continues from its cached last row. Deleting a rune finds the
// shorter query's set itself.
type queryCache struct {
	sets   []*matchSet // least recently used first
	held   int         // hits and row cells over all sets
	budget int
}

func newQueryCache() *queryCache {
	return &queryCache{budget: cacheBudget}
}

// fit sets the budget for a snapshot of n paths (which Add grows).
func (c *queryCache) fit(n int) {
	c.budget = cacheBudget * max(n, 1)
}

// lookup returns query's match set, if cached, and marks it recent.
func (c *queryCache) lookup(query string) *matchSet {
	for i, set := range c.sets {
		if set.query == query {
			c.sets = append(append(c.sets[:i], c.sets[i+1:]...), set)
			return set
		}
	}
	return nil
}

// narrowest returns the match set of the longest cached query that is a
// proper prefix of query ending on a rune boundary, or nil.
func (c *queryCache) narrowest(query string) *matchSet {
	var best *matchSet
	for _, set := range c.sets {
		n := len(set.query)
		if n < len(query) && strings.HasPrefix(query, set.query) && utf8.RuneStart(query[n]) &&
			(best == nil || n > len(best.query)) {
			best = set
		}
	}
	return best
}

// add caches set, then trims the cache.
func (c *queryCache) add(set *matchSet) {
	c.sets = append(c.sets, set)
	c.held += set.size()
	c.trim()
}

// grew accounts for n more hits and row cells in the most recently used
// set (extend's), then trims the cache.
func (c *queryCache) grew(n int) {
	c.held += n
	c.trim()
}

// trim drops the rows of older sets, older sets themselves and at last
// the most recent set's own rows, least recently used first, until the
// cache is within its bounds.
func (c *queryCache) trim() {
	set := c.sets[len(c.sets)-1]
	for _, old := range c.sets[:len(c.sets)-1] {
		if c.held <= c.budget {
			break
		}
		c.held -= old.dropRows()
	}
	for len(c.sets) > 1 && (len(c.sets) > cacheEntries || c.held > c.budget) {
		c.held -= c.sets[0].size()
		c.sets[0].recycle()
		c.sets = c.sets[1:]
	}
	if c.held > c.budget {
		c.held -= set.dropRows()
	}
}

// size is what set holds: hits and row cells.
func (set *matchSet) size() int {
	n := 0
	for i := range set.segs {
		n += set.segs[i].size()
	}
	return n
}

// rows is the number of row cells set holds.
func (set *matchSet) rows() int {
	n := 0
	for _, g := range set.segs {
		n += len(g.pos)
	}
	return n
}

// dropRows recycles set's rows and returns how many cells they were.
func (set *matchSet) dropRows() int {
	n := set.rows()
	for i := range set.segs {
		g := &set.segs[i]
		putInts(g.pos)
		putInts(g.v0)
		putInts(g.v1)
		g.pos, g.v0, g.v1 = nil, nil, nil
	}
	return n
}

// recycle gives set's buffers back; set must not be used afterwards.
func (set *matchSet) recycle() {
	set.dropRows()
	for i := range set.segs {
		putHits(set.segs[i].hits)
	}
	set.segs = nil
}
