package files

import (
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/tree"
)

// The empty-query view is the snapshot's folder tree (tui/tree): entries
// in component order, expansion kept by path across a rescan of the same
// generation, the visible rows listed for rendering.

// treeEntries converts a snapshot's entries for tui/tree.
func treeEntries(entries []wire.FileEntry) []tree.Entry {
	out := make([]tree.Entry, len(entries))
	for i, e := range entries {
		out[i] = tree.Entry{Path: e.Path, Kind: tree.File}
		if e.Kind == wire.KindDirectory {
			out[i].Kind = tree.Dir
		}
	}
	return out
}
