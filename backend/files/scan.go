package files

import (
	"context"
	"io/fs"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
)

// Limits are project.files's bounds (PROTOCOL §5).
type Limits struct {
	MaxEntries  int // entries selected, files plus directories
	MaxDepth    int // a top-level entry has depth 1; deeper ones are listed, never expanded
	MaxExamined int // raw directory entries read, rejected ones included
}

// DefaultLimits are the protocol's bounds.
var DefaultLimits = Limits{
	MaxEntries:  wire.DefaultFilesExtension.MaxEntries,
	MaxDepth:    wire.DefaultFilesExtension.MaxDepth,
	MaxExamined: wire.DefaultFilesExtension.MaxExamined,
}

const (
	// readAhead bounds how many queued directories readers may have claimed
	// beyond the one the selector waits for: enough to keep the readers
	// busy, small enough that work wasted past a bound stays small.
	readAhead = 64
	// maxHeldDirs bounds the directory descriptors held for children not
	// yet opened (well under the usual 1,024 soft limit).
	maxHeldDirs = 256
	// checkEvery is how many names a reader reads between deadline checks.
	checkEvery = 1024
)

// Selected is one selected entry.
type Selected struct {
	Path string
	Dir  bool
	// first and count locate a directory's children in the selection.
	first, count int32
}

// Result is a scan's selection, in selection order.
type Result struct {
	Selected  []Selected
	Truncated bool
	// Examined is the number of raw names the selection accounted for.
	Examined int

	rootCount int32 // the root's children are Selected[:rootCount]
}

// node is a directory queued for expansion.
type node struct {
	parent *node
	path   string // workspace-relative; "" for the root
	name   string
	depth  int // the root is 0
	sel    int32

	// state is unclaimed, claimed (by the selector or a reader) or read.
	// A reader closes ready when done; the selector, reading a node itself,
	// needs no signal.
	state    atomic.Int32
	ready    chan struct{}
	frame    *policy.Frame
	children []child
	examined int
	overflow bool                        // more names than the budget the reader was given
	dir      atomic.Pointer[fsguard.Dir] // held for the children, or nil
	pending  atomic.Int32                // queued child directories not yet opened
}

type child struct {
	path string
	dir  bool
}

// scanner is one scan's shared state.
type scanner struct {
	ctx       context.Context
	root      *fsguard.Root
	pol       *policy.Policy
	lim       Limits
	remaining atomic.Int64 // examine budget left at the selector's position
	held      atomic.Int32
	stop      chan struct{}

	// The queue is shared with the readers: the selector appends to it and
	// raises limit as it advances; readers claim unclaimed nodes from next
	// up to limit and sleep on more when there are none.
	mu      sync.Mutex
	more    *sync.Cond
	queue   []*node
	next    int
	limit   int
	waiting int
	done    bool
}

const (
	unclaimed int32 = iota
	claimed
)

// Scan selects the visible workspace under root with pol within lim. It
// returns ctx's error if ctx ends first (no partial result), and returns
// only after every goroutine it started has finished.
func Scan(ctx context.Context, root *fsguard.Root, pol *policy.Policy, lim Limits) (*Result, error) {
	s := &scanner{ctx: ctx, root: root, pol: pol, lim: lim, stop: make(chan struct{})}
	s.more = sync.NewCond(&s.mu)
	s.remaining.Store(int64(lim.MaxExamined))
	var wg sync.WaitGroup
	for range readers() {
		wg.Add(1)
		go func() { defer wg.Done(); s.reader() }()
	}
	res, err := s.selectAll(&node{sel: -1, ready: make(chan struct{})})
	close(s.stop)
	s.mu.Lock()
	s.done = true
	s.more.Broadcast()
	s.mu.Unlock()
	wg.Wait()
	for _, n := range s.queue {
		s.release(n)
	}
	if err != nil {
		return nil, err
	}
	return res, nil
}

// readers is the number of reader goroutines besides the selector, which
// reads too. Readers spend most of their time in system calls, which
// release the processor, so one more than the spare processors pays off
// even on two cores (measured: BenchmarkScanGoroot).
func readers() int {
	if readersForTest >= 0 {
		return readersForTest
	}
	return min(max(runtime.GOMAXPROCS(0), 2), 4)
}

// readersForTest, when not negative, sets the number of readers (the
// benchmarks measure the read-ahead with it).
var readersForTest = -1

// selectAll is the selector: it applies the bounds to the queued
// directories strictly in queue order, reading each itself unless a reader
// already claimed it.
func (s *scanner) selectAll(rootNode *node) (*Result, error) {
	res := &Result{}
	s.publish(0, []*node{rootNode})
	examined := 0
	for i := 0; i < s.queued(); i++ {
		n := s.at(i)
		if len(res.Selected) >= s.lim.MaxEntries {
			res.Truncated = true
			break
		}
		s.remaining.Store(int64(s.lim.MaxExamined - examined))
		s.publish(i, nil)
		if err := s.await(n); err != nil {
			return nil, err
		}
		if n.overflow || examined+n.examined > s.lim.MaxExamined {
			examined = s.lim.MaxExamined
			res.Truncated = true
			break
		}
		examined += n.examined
		s.publish(i, s.expand(res, n))
	}
	res.Examined = examined
	return res, nil
}

func (s *scanner) queued() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

func (s *scanner) at(i int) *node {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.queue[i]
}

// publish appends nodes and lets readers claim up to readAhead past pos,
// waking them only when there is someone to wake and something new.
func (s *scanner) publish(pos int, nodes []*node) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, nodes...)
	limit := pos + 1 + readAhead
	if limit > s.limit || len(nodes) > 0 {
		s.limit = max(s.limit, limit)
		if s.waiting > 0 {
			s.more.Broadcast()
		}
	}
}

// await makes sure n has been read: by the selector itself when no reader
// claimed it, else by waiting for that reader.
func (s *scanner) await(n *node) error {
	if n.state.CompareAndSwap(unclaimed, claimed) {
		s.read(n)
	} else {
		select {
		case <-n.ready:
		case <-s.ctx.Done():
		}
	}
	if err := s.ctx.Err(); err != nil {
		return err // n may have been read only in part
	}
	return nil
}

// reader claims and reads queued directories ahead of the selector until
// the scan is done.
func (s *scanner) reader() {
	for {
		n := s.claim()
		if n == nil {
			return
		}
		if !s.stopped() {
			s.read(n)
		}
		close(n.ready)
	}
}

// claim returns the next unclaimed node within the read-ahead window,
// sleeping while there is none; nil when the scan is done.
func (s *scanner) claim() *node {
	s.mu.Lock()
	defer s.mu.Unlock()
	for {
		for s.next < len(s.queue) && s.next < s.limit {
			n := s.queue[s.next]
			s.next++
			if n.state.CompareAndSwap(unclaimed, claimed) {
				return n
			}
		}
		if s.done {
			return nil
		}
		s.waiting++
		s.more.Wait()
		s.waiting--
	}
}

// expand selects n's children and queues its child directories.
func (s *scanner) expand(res *Result, n *node) []*node {
	first := int32(len(res.Selected))
	childDepth := n.depth + 1
	var queued []*node
	for _, c := range n.children {
		if len(res.Selected) >= s.lim.MaxEntries {
			res.Truncated = true
			break
		}
		res.Selected = append(res.Selected, Selected{Path: c.path, Dir: c.dir})
		if !c.dir {
			continue
		}
		if childDepth >= s.lim.MaxDepth {
			res.Truncated = true // listed, never expanded
			continue
		}
		queued = append(queued, &node{
			parent: n, path: c.path, name: c.path[len(c.path)-nameLen(c.path):],
			depth: childDepth, sel: int32(len(res.Selected) - 1), ready: make(chan struct{}),
		})
	}
	if n.sel >= 0 {
		res.Selected[n.sel].first = first
		res.Selected[n.sel].count = int32(len(res.Selected)) - first
	} else {
		res.rootCount = int32(len(res.Selected))
	}
	n.pending.Store(int32(len(queued)))
	if len(queued) == 0 {
		s.release(n)
	}
	return queued
}

func nameLen(path string) int { return len(path) - strings.LastIndexByte(path, '/') - 1 }

// read opens, reads, filters and sorts one directory. A directory that
// cannot be opened or read keeps no children (and is not an error).
func (s *scanner) read(n *node) {
	d, err := s.open(n)
	if err != nil {
		return
	}
	defer s.keepOrClose(n, d)
	raw, has, ok := s.readNames(n, d)
	if !ok {
		return
	}
	if n.parent == nil {
		n.frame = s.pol.RootFrame(d, has)
	} else {
		n.frame = s.pol.Enter(n.parent.frame, n.name, d, has)
	}
	// Every child's path is the directory's prefix and its name, so names
	// are compared, not whole paths (which share the prefix).
	off := len(n.path) + 1
	if n.parent == nil {
		off = 0
	}
	kept := raw[:0]
	for _, c := range raw {
		if s.pol.Check(n.frame, c.path[off:], typeOf(c.dir)) == policy.Visible {
			kept = append(kept, c)
		}
	}
	slices.SortFunc(kept, func(a, b child) int { return strings.Compare(a.path[off:], b.path[off:]) })
	n.children = kept
}

// keepOrClose holds d for n's children when it may have some and not too
// many descriptors are held already; otherwise it closes d.
func (s *scanner) keepOrClose(n *node, d *fsguard.Dir) {
	if n.depth+1 < s.lim.MaxDepth && hasDir(n.children) {
		if s.held.Add(1) <= maxHeldDirs {
			n.dir.Store(d)
			return
		}
		s.held.Add(-1)
	}
	d.Close()
}

func typeOf(dir bool) fs.FileMode {
	if dir {
		return fs.ModeDir
	}
	return 0
}

func hasDir(cs []child) bool {
	for _, c := range cs {
		if c.dir {
			return true
		}
	}
	return false
}

// open opens n relative to its parent's held descriptor, or from the root
// when the parent was not held.
func (s *scanner) open(n *node) (*fsguard.Dir, error) {
	if n.parent == nil {
		return s.root.OpenDir(".")
	}
	p := n.parent
	defer func() {
		if p.pending.Add(-1) == 0 {
			s.release(p)
		}
	}()
	if pd := p.dir.Load(); pd != nil {
		return pd.OpenDir(n.name)
	}
	return s.root.OpenDir(n.path)
}

// readNames reads every name of d within the budget, keeping regular files
// and directories with safe names (the rest can never be visible) and
// noting which ignore files the listing holds. The kept paths share one
// string per directory: one allocation instead of one per name, and far
// fewer objects for the collector.
func (s *scanner) readNames(n *node, d *fsguard.Dir) ([]child, policy.IgnoreFiles, bool) {
	bound := int(s.remaining.Load())
	prefix := n.path
	if prefix != "" {
		prefix += "/"
	}
	sc := namePool.Get().(*nameScratch)
	defer namePool.Put(sc)
	sc.buf, sc.ends, sc.dirs = sc.buf[:0], sc.ends[:0], sc.dirs[:0]
	count := 0
	err := d.Scan(func(name []byte, typ fs.FileMode) bool {
		count++
		if count > bound {
			n.overflow = true
			return false
		}
		if count%checkEvery == 0 && s.stopped() {
			return false
		}
		isDir := typ.IsDir()
		if (!isDir && !typ.IsRegular()) || !fsguard.SafeNameBytes(name) {
			return true
		}
		sc.buf = append(append(sc.buf, prefix...), name...)
		sc.ends, sc.dirs = append(sc.ends, len(sc.buf)), append(sc.dirs, isDir)
		return true
	})
	n.examined = count
	if n.overflow {
		return nil, 0, false
	}
	all := string(sc.buf)
	raw := make([]child, len(sc.ends))
	var has policy.IgnoreFiles
	start := 0
	for i, end := range sc.ends {
		p := all[start:end]
		has |= policy.IgnoreFileKind(p[len(prefix):], sc.dirs[i])
		raw[i] = child{path: p, dir: sc.dirs[i]}
		start = end
	}
	return raw, has, err == nil && !s.stopped()
}

// nameScratch is a reader's reusable memory for one directory's names.
type nameScratch struct {
	buf  []byte
	ends []int
	dirs []bool
}

var namePool = sync.Pool{New: func() any { return new(nameScratch) }}

func (s *scanner) stopped() bool {
	select {
	case <-s.stop:
		return true
	case <-s.ctx.Done():
		return true
	default:
		return false
	}
}

// release closes n's held descriptor, once.
func (s *scanner) release(n *node) {
	if d := n.dir.Swap(nil); d != nil {
		d.Close()
		s.held.Add(-1)
	}
}
