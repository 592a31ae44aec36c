package files

import (
	"context"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/rank"
	"github.com/scoutdev/scout/tui/tree"
)

// Candidates returns what a query ranks in a snapshot: its files, in
// snapshot order. Folders are browsed in the tree, not ranked (like fzf fed
// by `fd --type f`).
func Candidates(entries []wire.FileEntry) []string {
	out := make([]string, 0, len(entries))
	for _, e := range entries {
		if e.Kind == wire.KindFile {
			out = append(out, e.Path)
		}
	}
	return out
}

// Filter ranks candidates for query and returns the best limit of them
// (all when limit <= 0), best first. It is exactly what the Files page
// lists for query: the same candidates, the same Ranker, the same order.
// `scout filter` prints it.
func Filter(ctx context.Context, candidates []string, query string, limit int) ([]string, error) {
	_, order, err := rank.Filter(ctx, candidates, query, limit)
	if err != nil {
		return nil, err
	}
	out := make([]string, len(order))
	for i, j := range order {
		out[i] = candidates[j]
	}
	return out, nil
}

// snapshot is one accepted project.files report and what is derived from
// it.
type snapshot struct {
	gen       int64
	entries   []wire.FileEntry
	tree      []tree.Entry // entries for tui/tree
	truncated bool
	ranker    *rank.Ranker // over Candidates(entries)
	files     int
}

// newSnapshot makes a report a snapshot of its files, or of its folders
// only when dirs.
func newSnapshot(res wire.ProjectFilesResult, dirs bool) *snapshot {
	c := Candidates(res.Entries)
	if dirs {
		res.Entries = onlyFolders(res.Entries)
		c = Folders(res.Entries)
	}
	return &snapshot{gen: res.Generation, entries: res.Entries, tree: treeEntries(res.Entries), truncated: res.Truncated, ranker: rank.New(c), files: len(c)}
}
