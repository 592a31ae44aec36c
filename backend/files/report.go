package files

import (
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// Ordered returns the first keep entries of the selection sorted by path
// components (every parent before its descendants), by a pre-order walk of
// the selected tree.
func (r *Result) Ordered(keep int) []wire.FileEntry {
	out := make([]wire.FileEntry, 0, keep)
	var walk func(first, count int32)
	walk = func(first, count int32) {
		for i := first; i < first+count && int(i) < keep; i++ {
			e := &r.Selected[i]
			kind := wire.KindFile
			if e.Dir {
				kind = wire.KindDirectory
			}
			out = append(out, wire.FileEntry{Path: e.Path, Kind: kind})
			if e.Dir && e.count > 0 {
				walk(e.first, e.count)
			}
		}
	}
	walk(0, r.rootCount)
	return out
}

// Report builds the project.files result for request id at generation
// gen. When the whole response line (envelope, "ts" and newline included)
// would exceed maxBytes, entries are dropped from the end of the selection
// order until it fits, and truncated is set.
func Report(id string, gen int64, r *Result, maxBytes int) (*wire.ProjectFilesResult, error) {
	empty, err := lineSize(id, gen, nil, true)
	if err != nil {
		return nil, err
	}
	// A line with n entries is the empty line plus every entry's size
	// (each counted with a comma) minus one comma; "false" is one byte
	// longer than "true".
	base := empty - 1
	sizes := make([]int, len(r.Selected))
	sum := 0
	for i, e := range r.Selected {
		sizes[i] = entrySize(e.Path, e.Dir)
		sum += sizes[i]
	}
	keep, truncated := len(r.Selected), r.Truncated
	if !truncated && base+1+sum > maxBytes {
		truncated = true
	}
	for keep > 0 && base+sum > maxBytes {
		keep--
		sum -= sizes[keep]
	}
	for {
		res := &wire.ProjectFilesResult{CommandID: id, Generation: gen, Entries: r.Ordered(keep), Truncated: truncated}
		if base+sum+1 <= maxBytes-verifyMargin {
			return res, nil // clear of the bound: the estimate is exact anyway
		}
		n, err := lineSize(id, gen, res.Entries, truncated)
		if err != nil {
			return nil, err
		}
		if n <= maxBytes || keep == 0 {
			return res, nil
		}
		keep--
		sum -= sizes[keep]
		truncated = true // the estimate was short: trim and measure again
	}
}

// verifyMargin: a report whose estimated line comes this close to the byte
// bound is encoded once more to confirm it fits. The estimate is exact by
// construction; this is a guard against a change in the encoder.
const verifyMargin = 64 << 10

// entrySize is the encoded size of one entry plus its separating comma,
// computed without encoding in the usual case.
func entrySize(path string, dir bool) int {
	kind := len(`,{"path":"","kind":"file"}`)
	if dir {
		kind = len(`,{"path":"","kind":"directory"}`)
	}
	if needsEscape(path) {
		b, err := wire.Marshal(path)
		if err == nil {
			return kind + len(b) - 2
		}
	}
	return kind + len(path)
}

// needsEscape reports bytes the encoder might escape: quote, backslash,
// HTML-sensitive ASCII, and the lead bytes of U+2028/U+2029. It tests
// eight bytes at a time (every path of a report passes through here).
func needsEscape(s string) bool {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := s[i : i+8] // one bounds check, one load
		x := uint64(w[0]) | uint64(w[1])<<8 | uint64(w[2])<<16 | uint64(w[3])<<24 |
			uint64(w[4])<<32 | uint64(w[5])<<40 | uint64(w[6])<<48 | uint64(w[7])<<56
		if hasByte(x, '"')|hasByte(x, '\\')|hasByte(x, '<')|hasByte(x, '>')|hasByte(x, '&')|hasByte(x, 0xe2) != 0 {
			return true
		}
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case '"', '\\', '<', '>', '&', 0xe2:
			return true
		}
	}
	return false
}

const (
	lsbs  = 0x0101010101010101
	highs = 0x8080808080808080
)

// hasByte is non-zero exactly when one of x's bytes is c.
func hasByte(x uint64, c byte) uint64 {
	v := x ^ lsbs*uint64(c)
	return (v - lsbs) &^ v & highs
}

// LineSize is the length of the response line carrying these entries,
// newline included, encoded as the server encodes it with a "ts" of the
// real length.
func LineSize(id string, gen int64, entries []wire.FileEntry, truncated bool) (int, error) {
	return lineSize(id, gen, entries, truncated)
}

func lineSize(id string, gen int64, entries []wire.FileEntry, truncated bool) (int, error) {
	if entries == nil {
		entries = []wire.FileEntry{}
	}
	return responseLineSize(id, &wire.ProjectFilesResult{CommandID: id, Generation: gen, Entries: entries, Truncated: truncated})
}

// responseLineSize is the length of the response line to request id
// carrying res, newline included, encoded as the server encodes it, with
// a "ts" of the real length: the measure of every page's byte bound.
func responseLineSize(id string, res wire.Stamper) (int, error) {
	res.SetTS(wire.Timestamp(time.Now()))
	raw, err := wire.Marshal(res)
	if err != nil {
		return 0, err
	}
	line, err := wire.Marshal(wire.Response{JSONRPC: wire.Version, ID: &id, Result: raw})
	if err != nil {
		return 0, err
	}
	return len(line) + 1, nil
}
