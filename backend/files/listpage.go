package files

import (
	"strings"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// placeholderID stands for an id while a page is measured: every id has
// the same length and needs no escaping, so the measured line is the
// written one.
var placeholderID = strings.Repeat("A", wire.RefLength)

// ListEntry is the wire form of an item, with a placeholder id until the
// real one is minted.
func ListEntry(it Item) wire.ListEntry {
	typ := wire.TypeFile
	if it.Dir {
		typ = wire.TypeDir
	}
	return wire.ListEntry{ID: placeholderID, Name: it.Name, Type: typ, Size: it.Size, Mtime: Mtime(it.ModTime)}
}

// The times RFC 3339 can write: four-digit years.
var (
	minMtime = time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	maxMtime = time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
)

// Mtime is a modification time as project.list writes it: UTC, RFC 3339,
// whole seconds. A time RFC 3339 cannot write (tmpfs keeps a file stamped
// in year -249 or 11476 as it is) is clamped to the nearest one it can.
func Mtime(t time.Time) string {
	t = t.UTC()
	switch {
	case t.Before(minMtime):
		t = minMtime
	case t.After(maxMtime):
		t = maxMtime
	}
	return t.Format(time.RFC3339)
}

// FitList returns how many of entries (a page in listing order, more
// telling whether servable entries follow them) fit in a project.list
// response line of at most maxBytes, newline included, as the server
// writes it for request id at generation gen. next_ref is counted exactly
// when the page will carry one. At least one entry is kept when any is
// given, so paging always advances.
func FitList(id string, gen int64, entries []wire.ListEntry, more bool, maxBytes int) (int, error) {
	bases := [2]int{}
	for i, next := range []bool{false, true} {
		n, err := listLineSize(id, gen, nil, next)
		if err != nil {
			return 0, err
		}
		bases[i] = n
	}
	sizes := make([]int, len(entries))
	sum := 0
	for i, e := range entries {
		b, err := wire.Marshal(e)
		if err != nil {
			return 0, err
		}
		sizes[i] = len(b) + 1 // with its comma
		sum += sizes[i]
	}
	keep := len(entries)
	for keep > 1 {
		base := bases[0]
		if more || keep < len(entries) {
			base = bases[1]
		}
		if base+sum-1 <= maxBytes {
			break
		}
		keep--
		sum -= sizes[keep]
	}
	return keep, nil
}

// listLineSize is the length of the response line carrying entries,
// newline included, with a "ts" of the real length.
func listLineSize(id string, gen int64, entries []wire.ListEntry, next bool) (int, error) {
	if entries == nil {
		entries = []wire.ListEntry{}
	}
	res := &wire.ListResult{Generation: gen, Entries: entries}
	if next {
		res.NextRef = placeholderID
	}
	return responseLineSize(id, res)
}

// ListLineSize is the exact length of the response line of a page (for
// tests and for the final check of a fitted page).
func ListLineSize(id string, gen int64, entries []wire.ListEntry, next bool) (int, error) {
	return listLineSize(id, gen, entries, next)
}
