package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scoutdev/scout/backend/files"
	"github.com/scoutdev/scout/backend/wire"
)

// ListArgs are project_fs_list's arguments.
type ListArgs struct {
	Dir       string `json:"dir,omitempty" jsonschema:"folder to list, relative to the project root; omitted, empty or . is the root; a trailing / is fine"`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"walk the folder's subfolders too, within the project scan's bounds (10,000 entries, depth 12)"`
}

// ListEntry is one entry of a listing.
type ListEntry struct {
	Path string `json:"path" jsonschema:"path relative to the project root"`
	Type string `json:"type" jsonschema:"file or directory"`
	Size int64  `json:"size" jsonschema:"size in bytes (0 for a directory)"`
}

// ListResult is project_fs_list's structured result.
type ListResult struct {
	Dir       string      `json:"dir" jsonschema:"the folder listed, normalized (. for the root)"`
	Entries   []ListEntry `json:"entries" jsonschema:"entries sorted by path"`
	Count     int         `json:"count" jsonschema:"number of entries returned"`
	Truncated bool        `json:"truncated" jsonschema:"true when a bound left entries out"`
}

// Entry types in a listing.
const (
	typeFile      = "file"
	typeDirectory = "directory"
)

// listLimits are project.files's bounds, which listings obey.
var listLimits = files.DefaultLimits

// listDeadline is project.files's deadline; a walk that reaches it returns
// what it selected, truncated.
var listDeadline = time.Duration(wire.DefaultFilesExtension.DeadlineMS) * time.Millisecond

// maxResultBytes bounds the encoded structured result, like project.files's
// report; entries are dropped from the end of the selection order (so a
// folder is never dropped before what it holds) until it fits.
var maxResultBytes = wire.DefaultFilesExtension.ReportBytes

func (s *Server) list(ctx context.Context, _ *sdk.CallToolRequest, args ListArgs) (*sdk.CallToolResult, ListResult, error) {
	rel, err := Clean(args.Dir)
	if err != nil {
		return nil, ListResult{}, err
	}
	folder, err := files.OpenFolder(s.root, s.pol, rel)
	switch {
	case errors.Is(err, files.ErrNotDir):
		return nil, ListResult{}, errors.New("not a directory: project_fs_list needs a folder; use project_fs_read for a file")
	case err != nil:
		return nil, ListResult{}, errNoSuchFile
	}
	defer folder.Close()
	ctx, cancel := context.WithTimeout(ctx, listDeadline)
	defer cancel()
	walk := files.Walk(ctx, folder, listLimits, args.Recursive)
	return nil, result(shown(rel), walk), nil
}

// result fits the selection into maxResultBytes and sorts it by path. An
// entry whose path is longer than a path argument may be is left out, as
// unservable: neither tool could be given it back.
func result(dir string, walk files.WalkResult) ListResult {
	entries := make([]ListEntry, 0, len(walk.Entries))
	for _, e := range walk.Entries {
		switch {
		case len(e.Path) > maxPathBytes:
		case e.Dir:
			entries = append(entries, ListEntry{Path: e.Path, Type: typeDirectory})
		default:
			entries = append(entries, ListEntry{Path: e.Path, Type: typeFile, Size: e.Size})
		}
	}
	keep, truncated := fit(dir, entries)
	entries = entries[:keep]
	slices.SortFunc(entries, func(a, b ListEntry) int { return strings.Compare(a.Path, b.Path) })
	return ListResult{Dir: dir, Entries: entries, Count: len(entries), Truncated: walk.Truncated || truncated}
}

// fit returns how many entries, in selection order, fit in maxResultBytes
// of encoded result (encoding/json, as the SDK encodes it), and whether
// any had to be dropped.
func fit(dir string, entries []ListEntry) (int, bool) {
	empty, _ := json.Marshal(ListResult{Dir: dir, Entries: []ListEntry{}, Count: len(entries), Truncated: true})
	total := len(empty) - 1 // the comma the first entry does not need
	for i, e := range entries {
		b, _ := json.Marshal(e)
		total += len(b) + 1
		if total > maxResultBytes {
			return i, true
		}
	}
	return len(entries), false
}
