// Package files implements project.files (docs/protocol.md §5): a bounded,
// deterministic snapshot of the visible workspace; project.index's walk of
// the whole tree (index.go); and the folder and file access behind
// project.list, project.read and the MCP tools (folder.go, walk.go,
// read.go, listpage.go).
//
// # Selection
//
// Directories are expanded breadth-first: in order of depth, and within a
// depth in the sorted order of their paths. That order is simply the order
// of one FIFO queue, because the root's children are sorted and every
// directory appends its own sorted child directories when it is expanded.
// A directory is read in full (materialized), filtered by the policy and
// sorted before any of its entries is selected; names are read up to the
// examine budget still remaining, and a directory with more names than that
// contributes no children, spends the budget and ends expansion. Entries are
// selected in that order until the entry bound; the byte bound (Fit) later
// drops entries from the end of the selection order, so a parent, always
// selected before its children, is never dropped without them.
//
// # Reading directories
//
// Directories are read one at a time, in queue order (dirs.go, shared by
// Scan and Index). A directory is opened with openat relative to its
// parent's descriptor (fsguard.Dir.OpenDir), which is held until all its
// queued child directories have been opened; past maxHeldDirs held
// descriptors, or for a parent whose descriptor was let go, a child is
// opened from the root, component by component (still through fsguard),
// or its parent is opened again when more of its children follow. Reading
// ahead on other goroutines was tried and dropped: on this project's
// shared two-core machines it cost CPU time without a steady gain in wall
// time (docs/performance.md).
//
// # The whole tree, page by page
//
// Index is project.index's walk: the same breadth-first order without
// project.files's bounds on the whole (depth 64 and 4,096-byte paths
// aside), one bounded step at a time. A directory is still read in full
// and sorted before its entries are emitted, but its names may be read
// over several steps (the step's examine budget) and its entries emitted
// over several pages. Between steps the walk holds its queue of unread
// directories and at most that one directory; descriptors held for
// children are closed at the end of every step.
//
// # Output
//
// The report lists the selected entries sorted by path components: a
// pre-order walk of the selected tree, whose children lists are already
// sorted by name, yields that order without sorting paths.
//
// # Folders and files served by path
//
// project.list, project.read and `scout mcp` name single entries, so they
// resolve a path from the root one component at a time through the policy
// (OpenFolder, OpenFile) and serve only what they could really hand out:
// regular files with exactly one link and directories, readable by the
// process, besides what the policy shows. A folder is listed in its own
// order (directories first, then names in code point order) a page at a
// time: each page scans the folder again and keeps the first entries after
// the previous page's last one, so memory stays bounded by the page size
// whatever the folder's size, and entries that appear or vanish between
// pages cause neither duplicates nor gaps among the others. Walk is the
// MCP tools' bounded breadth-first walk built on the same pages.
package files
