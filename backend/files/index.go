package files

import (
	"context"
	"strings"
	"time"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
)

// IndexLimits are project.index's bounds (docs/protocol.md §5): the walk's depth
// and path length, and each step's bounds.
type IndexLimits struct {
	MaxDepth  int // directories at this depth are listed, never expanded
	PathBytes int // entries with longer paths are left out
	// PageEntries bounds the entries of one page.
	PageEntries int
	// StepExamined bounds the names read in one step.
	StepExamined int
}

// DefaultIndexLimits are the protocol's bounds.
var DefaultIndexLimits = IndexLimits{
	MaxDepth:     wire.DefaultIndexExtension.MaxDepth,
	PathBytes:    wire.DefaultIndexExtension.PathBytes,
	PageEntries:  wire.DefaultIndexExtension.PageEntries,
	StepExamined: wire.DefaultIndexExtension.StepExamined,
}

// Bounds are one step's bounds that depend on the request.
type Bounds struct {
	// Deadline ends the step's work (its 250 ms).
	Deadline time.Time
	// PageBytes bounds what the page's entries may add to the response
	// line: each entry's encoding and a comma, less one comma
	// (IndexPageBytes).
	PageBytes int
}

// Index is one project.index walk: the whole visible tree, breadth-first
// in project.files's selection order, one bounded step at a time. Between
// steps it holds only the queue of directories not yet read (their paths,
// depths and the policy frames of their parents) and at most one partly
// read or partly emitted directory, with its descriptor while it is being
// read; every entry it emits is forgotten. An Index is not safe for
// concurrent use: the backend runs one step at a time.
type Index struct {
	r     reader
	lim   IndexLimits
	queue []*node // directories not yet read; queue[head] is next
	head  int

	cur  *listing // the directory being read, or nil
	kids []child  // the children of the directory read last, not yet emitted
	from *node    // whose children kids are
	done bool

	examined int // names the last step read
}

// NewIndex starts a walk of root under pol.
func NewIndex(root *fsguard.Root, pol *policy.Policy, lim IndexLimits) *Index {
	return &Index{r: reader{root: root, pol: pol}, lim: lim, queue: []*node{{sel: -1}}}
}

// Step walks until a bound is met (the limits' and b's) and returns the
// entries found, in walk order, and the progress word of the bound: wire.ProgressPageEntries,
// ProgressPageBytes, ProgressExamineWork, ProgressDeadline, or
// ProgressComplete at the end of the walk. A step always does some work
// before it heeds the deadline. On ctx's end it returns ctx's error, and
// the walk must be closed.
func (x *Index) Step(ctx context.Context, b Bounds) ([]wire.FileEntry, string, error) {
	if x.done {
		return nil, wire.ProgressComplete, nil
	}
	s := step{x: x, ctx: ctx, deadline: b.Deadline, examine: x.lim.StepExamined, bytes: b.PageBytes + 1}
	x.r.stopped = s.stopped
	defer x.endStep()
	word := s.run()
	x.examined = x.lim.StepExamined - s.examine
	if err := ctx.Err(); err != nil {
		return nil, "", err
	}
	return s.page, word, nil
}

// Close releases the walk's descriptors. A closed walk cannot step again.
func (x *Index) Close() {
	if x.cur != nil {
		x.r.abandon(x.cur)
		x.cur = nil
	}
	x.r.releaseAll()
	x.queue, x.kids, x.from, x.done = nil, nil, nil, true
}

// endStep closes the descriptors held for children within the step; only
// a directory still being read keeps its own.
func (x *Index) endStep() {
	x.r.releaseAll()
	x.r.stopped = nil
}

// step is one Step's progress against its bounds.
type step struct {
	x        *Index
	ctx      context.Context
	deadline time.Time
	page     []wire.FileEntry
	examine  int  // names this step may still read
	bytes    int  // what the page may still add, counting a comma before each entry
	worked   bool // something was done: the deadline may end the step
}

func (s *step) stopped() bool {
	return s.ctx.Err() != nil || (s.worked && !time.Now().Before(s.deadline))
}

// run does the step's work and returns its progress word.
func (s *step) run() string {
	x := s.x
	for {
		if word := s.emit(); word != "" {
			return s.final(word)
		}
		if x.cur == nil {
			if len(s.page) >= x.lim.PageEntries {
				return s.final(wire.ProgressPageEntries)
			}
			if !x.next() {
				return wire.ProgressComplete
			}
			s.worked = true
		}
		if s.stopped() {
			return wire.ProgressDeadline
		}
		if word := s.read(); word != "" {
			return word
		}
	}
}

// final is word, or complete when the page holds the walk's last entries.
func (s *step) final(word string) string {
	x := s.x
	if len(x.kids) == 0 && x.cur == nil && x.head == len(x.queue) {
		x.done = true
		return wire.ProgressComplete
	}
	return word
}

// next takes the next queued directory and opens it; false at the end of
// the walk.
func (x *Index) next() bool {
	if x.head == len(x.queue) {
		x.done = true
		x.queue, x.head = nil, 0
		return false
	}
	n := x.queue[x.head]
	x.queue[x.head] = nil
	x.head++
	if x.head >= 1024 && x.head*2 >= len(x.queue) { // let the consumed part go
		x.queue = append([]*node(nil), x.queue[x.head:]...)
		x.head = 0
	}
	x.cur = x.r.open(n)
	return true
}

// read reads the current directory within the step's examine budget and,
// once it is read to its end, applies the policy and hands its children
// to emit. It returns the bound that ended the step, or "".
func (s *step) read() string {
	x, l := s.x, s.x.cur
	if !l.eof {
		if s.examine == 0 {
			return wire.ProgressExamineWork
		}
		s.worked = true
		before := l.count
		x.r.read(l, s.examine)
		s.examine -= l.count - before
		switch {
		case l.eof:
		case s.examine == 0:
			return wire.ProgressExamineWork
		default:
			return wire.ProgressDeadline // or cancelled: Step tells
		}
	}
	n := l.n
	kids := x.r.finish(l)
	x.r.settle(l, x.expandable(n, kids))
	x.cur, x.kids, x.from = nil, kids, n
	return ""
}

// expandable counts the child directories of n that will be queued.
func (x *Index) expandable(n *node, kids []child) int {
	if n.depth+1 >= x.lim.MaxDepth {
		return 0
	}
	k := 0
	for _, c := range kids {
		if c.dir && len(c.path) <= x.lim.PathBytes {
			k++
		}
	}
	return k
}

// emit adds the children of the directory read last to the page, within
// the page's bounds, queueing the directories among them; it returns the
// bound met, or "" once they are all emitted.
func (s *step) emit() string {
	x := s.x
	for len(x.kids) > 0 {
		if len(s.page) >= x.lim.PageEntries {
			return wire.ProgressPageEntries
		}
		c := x.kids[0]
		if len(c.path) > x.lim.PathBytes {
			x.kids = x.kids[1:] // left out (docs/protocol.md §5)
			continue
		}
		size := entrySize(c.path, c.dir)
		if size > s.bytes && len(s.page) > 0 {
			return wire.ProgressPageBytes
		}
		s.bytes -= size
		if s.page == nil {
			// The page's room at once: grown by append, a full page
			// allocated five times its size.
			s.page = make([]wire.FileEntry, 0, x.lim.PageEntries)
		}
		kind := wire.KindFile
		if c.dir {
			kind = wire.KindDirectory
		}
		s.page = append(s.page, wire.FileEntry{Path: c.path, Kind: kind})
		s.worked = true
		x.kids = x.kids[1:]
		if c.dir && x.from.depth+1 < x.lim.MaxDepth {
			x.queue = append(x.queue, &node{parent: x.from, path: c.path, depth: x.from.depth + 1})
		}
	}
	x.kids, x.from = nil, nil
	return ""
}

// IndexPageBytes is what the entries of a project.index page may add to
// its response line (1,048,576 bytes, newline included) for request id at
// generation gen: the bound less the line of an empty page with the
// longest cursor and progress word a page can carry and a "ts" of the
// real length.
func IndexPageBytes(id string, gen int64) (int, error) {
	longest := strings.Repeat("x", wire.MaxCursorBytes)
	n, err := responseLineSize(id, &wire.ProjectIndexResult{Generation: gen, Entries: []wire.FileEntry{}, Cursor: &longest, Progress: wire.ProgressExamineWork})
	return wire.DefaultIndexExtension.PageBytes - n, err
}
