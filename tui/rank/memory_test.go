package rank

import (
	"context"
	"strings"
	"testing"
	"unsafe"
)

// What a Ranker keeps (docs/performance.md, "The whole tree"): its own
// copy of the paths, and cached match sets no larger than their matches.

// TestRankerOwnsItsPaths gives New and Add strings over a buffer that is
// then overwritten: the Ranker holds copies, so its paths and rankings
// are those of the strings as they were.
func TestRankerOwnsItsPaths(t *testing.T) {
	t.Parallel()
	paths := addPaths()
	buf := []byte(strings.Join(paths, "\n"))
	shared := make([]string, len(paths))
	for i, at := 0, 0; i < len(paths); i++ {
		shared[i] = unsafe.String(unsafe.SliceData(buf[at:]), len(paths[i]))
		at += len(paths[i]) + 1
	}
	r := New(shared[:1500])
	r.Add(shared[1500:])
	for i := range buf {
		buf[i] = 'x'
	}
	for i, p := range paths {
		if got := r.Path(i); got != p {
			t.Fatalf("Path(%d) = %q, want %q", i, got, p)
		}
	}
	for _, q := range []string{"srv", "SeR", "kode", "ünï", "x"} {
		checkRanker(t, r, paths, q, 0)
	}
}

// TestCachedSetsFit ranks a selective query over many blocks: each
// segment of its cached match set holds about its matches, not the room
// of every path of its block that the scan set aside.
func TestCachedSetsFit(t *testing.T) {
	t.Parallel()
	paths := gen10k()
	r := New(paths[:100])
	for len(paths) > 0 {
		n := min(len(paths), 3000)
		r.Add(paths[:n])
		paths = paths[n:]
	}
	for _, q := range []string{"zq", "srvhttp", "internalhttp"} { // "zq": a tail of two runes, its rows kept
		if _, err := r.Rank(context.Background(), q, 10); err != nil {
			t.Fatal(err)
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, set := range r.cache.sets {
		for i, g := range set.segs {
			for name, c := range map[string][2]int{
				"hits": {len(g.hits), cap(g.hits)}, "pos": {len(g.pos), cap(g.pos)},
				"v0": {len(g.v0), cap(g.v0)}, "v1": {len(g.v1), cap(g.v1)},
			} {
				if c[1] > 2*c[0]+fitSlack {
					t.Errorf("%q, segment %d: %s holds %d with room for %d", set.q.key, i, name, c[0], c[1])
				}
			}
		}
	}
}
