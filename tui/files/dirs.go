package files

import (
	"fmt"

	"github.com/scoutdev/scout/backend/wire"
)

// With Options.Dirs (the shell's Alt-C) the page picks folders: the
// snapshot keeps only its folders, which are ranked and make the tree,
// and the counts say folders.

// Folders returns what a query ranks when folders are picked: the
// snapshot's folders, in snapshot order.
func Folders(entries []wire.FileEntry) []string {
	out := make([]string, 0, len(entries)/4)
	for _, e := range entries {
		if e.Kind == wire.KindDirectory {
			out = append(out, e.Path)
		}
	}
	return out
}

// onlyFolders returns the folders among entries.
func onlyFolders(entries []wire.FileEntry) []wire.FileEntry {
	out := make([]wire.FileEntry, 0, len(entries)/4)
	for _, e := range entries {
		if e.Kind == wire.KindDirectory {
			out = append(out, e)
		}
	}
	return out
}

// counted is n of what the page counts: "1 file", "12 folders".
func (m *Model) counted(n int) string {
	if m.dirs {
		return plural(n, "folder")
	}
	return plural(n, "file")
}

// plural is n and noun, in the plural unless n is 1.
func plural(n int, noun string) string {
	if n != 1 {
		noun += "s"
	}
	return fmt.Sprintf("%d %s", n, noun)
}
