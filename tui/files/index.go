package files

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/rank"
)

// The snapshot (project.files) is at most 10,000 entries; when it is
// truncated the rest of the tree comes from project.index, page by page.
// This file holds what the picker and `scout filter` share: the client's
// ceiling on what it holds, and the merge of a page into what is already
// known (the snapshot's paths are the only ones a walk can repeat: the
// walk lists every entry once).

// DefaultMaxIndexed is the client ceiling on the entries held (snapshot
// and index together) when neither --max-indexed nor SCOUT_MAX_INDEXED
// says otherwise.
const DefaultMaxIndexed = 2_000_000

// MaxIndexedEnv names the environment variable of the ceiling.
const MaxIndexedEnv = "SCOUT_MAX_INDEXED"

// MaxIndexed returns the ceiling: flag when it was given (flagSet), else
// SCOUT_MAX_INDEXED when set, else DefaultMaxIndexed. 0 means the
// snapshot alone: the index is not followed.
func MaxIndexed(flag int, flagSet bool) (int, error) {
	if flagSet {
		if flag < 0 {
			return 0, errors.New("--max-indexed must be 0 or more")
		}
		return flag, nil
	}
	v, ok := os.LookupEnv(MaxIndexedEnv)
	if !ok || v == "" {
		return DefaultMaxIndexed, nil
	}
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s must be a whole number, 0 or more", MaxIndexedEnv)
	}
	return n, nil
}

// CeilingNote is what the picker and `scout filter` say when the ceiling
// stopped the index: one line.
func CeilingNote(ceiling int) string {
	return fmt.Sprintf("stopped indexing at the --max-indexed ceiling of %s entries: files beyond it are not searched", groupDigits(ceiling))
}

// groupDigits writes n with commas between groups of three digits.
func groupDigits(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// merger merges index pages into what a snapshot holds, under the
// ceiling.
type merger struct {
	snapshot map[string]bool // the snapshot's paths: whether the walk listed them
	held     int             // entries held: the snapshot's and merged
	ceiling  int
	stopped  bool // the ceiling was reached
}

func newMerger(snapshot []wire.FileEntry, ceiling int) *merger {
	m := &merger{snapshot: make(map[string]bool, len(snapshot)), held: len(snapshot), ceiling: ceiling}
	for _, e := range snapshot {
		m.snapshot[e.Path] = false
	}
	m.stopped = m.held >= ceiling
	return m
}

// merge returns the entries of page that the snapshot does not hold, cut
// at the ceiling (stopped then says so), in page's own room: page is the
// caller's, decoded for this.
func (m *merger) merge(page []wire.FileEntry) []wire.FileEntry {
	fresh := page[:0]
	for _, e := range page {
		if listed, dup := m.snapshot[e.Path]; dup {
			if !listed {
				m.snapshot[e.Path] = true
			}
			continue
		}
		if m.held >= m.ceiling {
			m.stopped = true
			break
		}
		fresh = append(fresh, e)
		m.held++
	}
	return fresh
}

// unlisted returns the snapshot's paths the walk did not list: after a
// complete walk, those gone since the snapshot was taken (nil: none).
func (m *merger) unlisted() map[string]bool {
	var gone map[string]bool
	for p, listed := range m.snapshot {
		if !listed {
			if gone == nil {
				gone = map[string]bool{}
			}
			gone[p] = true
		}
	}
	return gone
}

// without returns a ranker of r's paths but those of gone, in r's order,
// and the indexes in r of the paths it left out, ascending.
func without(r *rank.Ranker, gone map[string]bool) (*rank.Ranker, []int) {
	var keep []string
	var dropped []int
	for i := range r.Len() {
		if p := r.Path(i); gone[p] {
			dropped = append(dropped, i)
		} else {
			keep = append(keep, p)
		}
	}
	return rank.New(keep), dropped
}

// Complete is what `scout filter` searches: every file of the tree that
// keep passes (nil: every file), in the order they were found, up to
// ceiling entries held (stopped says that the ceiling cut the walk short;
// the ceiling counts every entry, kept or not, so what keep drops changes
// nothing of where the walk stops). It is the snapshot and the rest of
// the index the picker would show, but with nothing to show first it
// walks project.index from the start, which lists every entry once, so
// the snapshot's part is not read twice; a backend without project.index
// gives its snapshot. The ranking is the same either way (its order never
// depends on where a path stands in the list). The next page is asked for
// as soon as a page is in, so the backend walks on while this process
// sieves.
//
// With keep = Sieve(query), ranking what Complete returns gives exactly
// what ranking every file gives (Filter), but each page is sieved as it
// comes, while the backend walks the next, and what is kept of a page
// that is mostly dropped is copied out of it, so the page's memory is
// garbage at once: a selective query holds its matches, not the tree.
// When nine in ten of the first sieveProbe paths pass, it stops sieving.
func Complete(ctx context.Context, b bridge.Backend, ceiling int, keep func(string) bool) (cands []string, stopped bool, err error) {
	if !bridge.Negotiated(b, wire.MethodProjectIndex) || ceiling == 0 {
		snap, err := b.ProjectFiles(ctx)
		if err != nil {
			return nil, false, err
		}
		return sieve(Candidates(snap.Entries), keep, nil), snap.Truncated && ceiling == 0, nil
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel() // a page asked for past the ceiling
	m := newMerger(nil, ceiling)
	next := fetchPage(ctx, b, nil, 0)
	var pages [][]string // joined once at the end: a million paths appended one page at a time were copied over and over
	var room arena
	seen, held := 0, 0 // paths of the walk's pages, and how many keep passed
	gen := int64(-1)
	for !m.stopped {
		got := <-next
		if got.err != nil {
			return nil, false, got.err
		}
		if gen >= 0 && got.page.Generation != gen {
			return nil, false, errors.New("the workspace policy changed while the project was indexed")
		}
		gen = got.page.Generation
		if !got.page.Complete {
			next = fetchPage(ctx, b, got.page.Cursor, 0)
		}
		page := Candidates(m.merge(got.page.Entries))
		kept := sieve(page, keep, &room)
		if len(kept) > 0 {
			pages = append(pages, kept)
		}
		if keep != nil {
			seen, held = seen+len(page), held+len(kept)
			if seen >= sieveProbe && 10*held >= 9*seen {
				keep = nil // a query (nearly) every path passes: the ranking drops the rest anyway
			}
		}
		if got.page.Complete {
			break
		}
	}
	return slices.Concat(pages...), m.stopped, nil
}

// sieveProbe is how many paths Complete sieves before it judges the
// sieve: when nine in ten of them passed, it stops sieving (the sieve
// keeps a superset of the matches, so keeping every path instead changes
// nothing of the ranking, only spares a test the ranking repeats).
var sieveProbe = 30_000

// Sieve is rank.Sieve: the paths worth keeping for query (Complete's
// keep).
func Sieve(query string) func(string) bool { return rank.Sieve(query) }

// sieve keeps the paths keep passes, in their order, in paths' own room.
// When room is set and fewer than half of the paths' bytes are kept, the
// kept paths are copied into room: the page they are slices of is then
// garbage, not held for a few paths.
func sieve(paths []string, keep func(string) bool, room *arena) []string {
	if keep == nil {
		return paths
	}
	kept := paths[:0]
	all, n := 0, 0
	for _, p := range paths {
		all += len(p)
		if keep(p) {
			kept = append(kept, p)
			n += len(p)
		}
	}
	if room != nil && 2*n < all {
		for i, p := range kept {
			kept[i] = room.clone(p)
		}
		kept = slices.Clip(kept)
		if 2*len(kept) < cap(paths) {
			kept = slices.Clone(kept) // nor the page's list
		}
	}
	return kept
}

// arena holds copies of strings in large chunks, never written again
// once a string is in them.
type arena struct{ chunk []byte }

const arenaChunk = 64 << 10

// clone returns a copy of s in the arena.
func (a *arena) clone(s string) string {
	if len(s) == 0 {
		return ""
	}
	if cap(a.chunk)-len(a.chunk) < len(s) {
		a.chunk = make([]byte, 0, max(arenaChunk, len(s)))
	}
	a.chunk = append(a.chunk, s...)
	c := a.chunk[len(a.chunk)-len(s):]
	return unsafe.String(unsafe.SliceData(c), len(c))
}

// fetched is one project.index answer.
type fetched struct {
	page wire.ProjectIndexResult
	err  error
}

// fetchPage asks for the page after cursor on its own goroutine, giving
// up after timeout (when above 0).
func fetchPage(ctx context.Context, b bridge.Backend, cursor *string, timeout time.Duration) <-chan fetched {
	ch := make(chan fetched, 1)
	go func() {
		if timeout > 0 {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, timeout)
			defer cancel()
		}
		page, err := b.ProjectIndex(ctx, cursor)
		ch <- fetched{page, err}
	}()
	return ch
}
