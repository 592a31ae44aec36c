package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/scoutdev/scout/backend/files"
	"github.com/scoutdev/scout/backend/wire"
)

// ListArgs are project_fs_list's arguments. Their schema (schemaFor)
// declares every optional one as a plain type, not required.
type ListArgs struct {
	Dir       string `json:"dir,omitempty" jsonschema:"folder to list, relative to the project root (an absolute path inside the project is taken as the same relative path); omitted, empty or . is the root; a trailing / is fine"`
	Recursive bool   `json:"recursive,omitempty" jsonschema:"walk the folder's subfolders too, breadth first (at most 10000 entries, depth 12)"`
	Limit     int    `json:"limit,omitempty" jsonschema:"at most this many entries, 1 to 10000 (default 2000 with recursive, else 10000); truncated and next say when more exist"`
}

// listArgNames are ListArgs's members, in their schema's order.
var listArgNames = []string{"dir", "recursive", "limit"}

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
	Truncated bool        `json:"truncated" jsonschema:"true when more entries exist than were returned (limit or a bound left some out)"`
	Next      string      `json:"next,omitempty" jsonschema:"present when truncated: how to list what was left out"`
}

// Entry types in a listing.
const (
	typeFile      = "file"
	typeDirectory = "directory"
)

// The listing bounds. maxLimit and the walk's other bounds are
// project.files's; a recursive listing without limit stops at
// defaultRecursiveLimit entries and defaultRecursiveBytes, so that its
// answer stays a size an agent can read (about 60,000 tokens).
const (
	maxLimit              = 10000
	defaultRecursiveLimit = 2000
	defaultRecursiveBytes = 256 << 10
	// maxNamedDir bounds the folder path a next hint names.
	maxNamedDir = 256
)

// listLimits are project.files's bounds, which listings obey.
var listLimits = files.DefaultLimits

// listDeadline is project.files's deadline; a walk that reaches it returns
// what it selected, truncated.
var listDeadline = time.Duration(wire.DefaultFilesExtension.DeadlineMS) * time.Millisecond

// maxResultBytes bounds an answer, its structured result and its text
// together, like project.files's report.
var maxResultBytes = wire.DefaultFilesExtension.ReportBytes

// parseListArgs decodes project_fs_list's arguments.
func parseListArgs(raw json.RawMessage) (args ListArgs, err error) {
	a, err := decodeArguments(ToolList, raw, listArgNames)
	if err != nil {
		return args, err
	}
	if args.Dir, err = a.str("dir"); err != nil {
		return args, err
	}
	if args.Recursive, err = a.boolean("recursive"); err != nil {
		return args, err
	}
	if args.Limit, err = a.integer("limit", 1); err != nil {
		return args, err
	}
	if args.Limit > maxLimit {
		return args, argError(fmt.Sprintf("limit must be at most %d", maxLimit))
	}
	return args, nil
}

func (s *Server) list(ctx context.Context, raw json.RawMessage) (any, string, error) {
	args, err := parseListArgs(raw)
	if err != nil {
		return nil, "", err
	}
	rel, err := s.relative(args.Dir)
	if err != nil {
		return nil, "", err
	}
	folder, err := files.OpenFolder(s.root, s.pol, rel)
	switch {
	case errors.Is(err, files.ErrNotDir):
		return nil, "", errors.New("not a directory: project_fs_list needs a folder; use project_fs_read for a file")
	case err != nil:
		return nil, "", errNoSuchFile
	}
	defer folder.Close()
	limit, budget := args.Limit, maxResultBytes
	switch {
	case limit > 0:
	case args.Recursive:
		limit, budget = defaultRecursiveLimit, defaultRecursiveBytes
	default:
		limit = maxLimit
	}
	walkCtx, cancel := context.WithTimeout(ctx, listDeadline)
	defer cancel()
	lim := listLimits
	lim.MaxEntries = limit + 1 // one more than asked: whether more exist
	walk := files.Walk(walkCtx, folder, lim, args.Recursive)
	if err := ctx.Err(); err != nil {
		// Cancelled (notifications/cancelled), not the deadline: no
		// partial listing passed off as one the bounds cut.
		return nil, "", err
	}
	res := result(shown(rel), walk, limit, budget, args.Recursive)
	text := listText(res, args.Recursive)
	// fit counts the entries; the folder's name in the result, the text's
	// header and the next hint repeat it, escaped twice in the text (a
	// name of "<" is \u003c, six bytes): the answer is measured as
	// written, and entries dropped until it fits.
	for cut := budget; res.Count > 0; {
		over := answerBytes(res, text) - budget
		if over <= 0 {
			break
		}
		cut -= over
		res = result(shown(rel), walk, limit, cut, args.Recursive)
		text = listText(res, args.Recursive)
	}
	return res, text, nil
}

// answerBytes is the size of the answer of res and text as the SDK writes
// it: the structured result's JSON, the text as a JSON string, and
// answerReserve for the envelope and the request id.
func answerBytes(res ListResult, text string) int {
	b, _ := json.Marshal(res)
	return len(b) + quotedLen(text) + answerReserve
}

// result keeps at most limit entries of the selection, in selection
// order (so a folder is never dropped before what it holds), within
// budget bytes of answer, and sorts them by path. An entry whose path is
// longer than a path argument may be is left out, as unservable: neither
// tool could be given it back.
func result(dir string, walk files.WalkResult, limit, budget int, recursive bool) ListResult {
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
	keep := fit(entries[:min(limit, len(entries))], budget)
	res := ListResult{Dir: dir, Truncated: walk.Truncated || keep < len(entries)}
	if res.Truncated {
		var omitted *ListEntry
		if keep < len(entries) {
			omitted = &entries[keep]
		}
		// A larger limit helps when the limit cut the listing, or the
		// smaller budget of a listing without one.
		raise := (keep == limit && limit < maxLimit) || budget < maxResultBytes
		res.Next = nextHint(dir, omitted, raise, recursive)
	}
	res.Entries = entries[:keep]
	slices.SortFunc(res.Entries, func(a, b ListEntry) int { return strings.Compare(a.Path, b.Path) })
	res.Count = len(res.Entries)
	return res
}

// answerReserve is what an answer needs besides its entries: the
// envelope, the result's other members, the text's header and next line
// (a next hint names a folder of at most maxNamedDir bytes).
const answerReserve = 4 << 10

// fit returns how many entries, in selection order, fit in budget bytes of
// answer: each entry costs its JSON in the structured result and its line
// in the text, as encoding/json writes them (as the SDK does).
func fit(entries []ListEntry, budget int) int {
	total := answerReserve
	for i, e := range entries {
		q := quotedLen(e.Path)
		if e.Type == typeDirectory {
			total += len(`{"path":,"type":"directory","size":0},`) + q + (q - 2 + len(`/\n`))
		} else {
			size := len(fmt.Sprint(e.Size))
			total += len(`{"path":,"type":"file","size":},`) + q + size + (q - 2 + len(`\t\n`) + size)
		}
		if total > budget {
			return i
		}
	}
	return len(entries)
}

// quotedLen is the length of s as a JSON string, quotes included.
func quotedLen(s string) int {
	b, _ := json.Marshal(s)
	return len(b)
}

// nextHint says how to see what a truncated listing of dir left out.
// omitted, when known, is the first entry of the selection left out: the
// walk stopped inside its folder, the first one not listed in full. raise
// says whether a larger limit would return more. A flat listing cut in
// dir itself cannot be continued (no tool pages a folder): then it says
// so rather than send the agent to subfolders that do not hold the rest.
func nextHint(dir string, omitted *ListEntry, raise, recursive bool) string {
	if omitted == nil {
		return "The walk reached its bounds (10,000 entries, 50,000 names, depth 12 or 2.5 seconds) before it saw every entry: " +
			"list a subdirectory on its own, with its path as dir, to see what it holds."
	}
	larger := ""
	if raise {
		larger = fmt.Sprintf("ask again with a larger limit (at most %d)", maxLimit)
	}
	parent := path.Dir(omitted.Path)
	if parent == dir && !recursive && larger == "" {
		return fmt.Sprintf("More entries exist than one answer holds (%d entries, 1 MiB): the rest of this folder cannot be listed; project_fs_read still reads any file of it by its path.", maxLimit)
	}
	if parent == dir || len(parent) > maxNamedDir {
		if larger != "" {
			larger += ", or "
		}
		return "More entries exist than were returned: " + larger + "list a subdirectory on its own."
	}
	call, _ := json.Marshal(ListArgs{Dir: parent, Recursive: true})
	if larger != "" {
		larger = ", or " + larger
	}
	return fmt.Sprintf("More entries exist than were returned: the listing stopped inside %s; list it with %s (and then the folders after it)%s.", quote(parent), call, larger)
}

// quote is a path as the texts show it.
func quote(p string) string {
	b, _ := json.Marshal(p)
	return string(b)
}

// listText is the text content of a listing, what a model reads: a
// header, one line per entry (a folder ends in "/", a file is followed by
// a tab and its size) and the next hint. The structured content holds
// the same entries as JSON; the text is not that JSON again.
func listText(r ListResult, recursive bool) string {
	var b strings.Builder
	how := ""
	if recursive {
		how = " (recursive)"
	}
	entries := "entries"
	if r.Count == 1 {
		entries = "entry"
	}
	fmt.Fprintf(&b, "Folder %s%s: %d %s, sorted by path; a folder ends in /, a file is followed by a tab and its size in bytes.\n", quote(r.Dir), how, r.Count, entries)
	for _, e := range r.Entries {
		if e.Type == typeDirectory {
			b.WriteString(e.Path + "/\n")
		} else {
			fmt.Fprintf(&b, "%s\t%d\n", e.Path, e.Size)
		}
	}
	if r.Truncated {
		b.WriteString("truncated: " + r.Next + "\n")
	}
	return b.String()
}
