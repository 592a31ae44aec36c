package main

import (
	"bytes"
	"context"
	"sync"

	"github.com/charmbracelet/x/ansi"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient"
	"github.com/scoutdev/scout/tui/bridge"
)

// The picker's launch is one path from the process start to the first
// frame that shows the files: the backend child is spawned before
// anything else the frontend does (opening the terminal, detecting its
// colours, building the pages), so its process start and initialize
// overlap those; and the Files page's first snapshot (project.files) is
// asked for the moment initialize is answered, not when Bubble Tea has
// started and run the page's Init, so the backend scans while the
// frontend draws its first frame; when that snapshot is truncated, the
// first steps of project.index follow it at once, each as soon as the
// page before it is in, while the frontend adopts and draws the snapshot
// (docs/performance.md, issue 17).

// warmWidths measures one character outside Latin-1 so that the table
// of character widths behind every frame (go-runewidth's, built on the
// first such character: 2 MiB filled, about 5 ms, 20 under load) is built
// while the backend child starts, not inside the first frame, which
// draws the spinner and the tree's lines with such characters.
func warmWidths() { ansi.StringWidthWc("⠋") }

// launchCalls are the calls sent to the backend child as soon as it is
// initialized, before the pages ask.
type launchCalls int

const (
	// launchFiles: the Files page's first project.files (the pages
	// include the Files page).
	launchFiles launchCalls = 1 << iota
	// launchIndex: the first project.index steps after a truncated
	// snapshot (the page follows the index at once).
	launchIndex
)

// launch is a backend child being started in the background.
type launch struct {
	done   chan struct{}
	client *rpcclient.Client
	stop   func()
	err    error
	files  *prefetch // nil unless asked for
}

// launchBackend starts the backend child (startBackend) in the
// background; with files, its first project.files is sent as soon as it
// is initialized, and with index too, the first project.index step after
// a truncated snapshot.
func launchBackend(required, optional []string, diags *bridge.Diagnostics, files, index bool) *launch {
	l := &launch{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		l.client, l.stop, l.err = startBackend(required, optional, diags)
		if l.err == nil && files {
			l.files = prefetchFiles(l.client, index)
		}
	}()
	return l
}

// wait returns the started backend, as the pages should call it, and
// what stops it.
func (l *launch) wait() (bridge.Backend, func(), error) {
	<-l.done
	if l.err != nil {
		return nil, nil, l.err
	}
	stop := l.stop
	if l.files == nil {
		return l.client, stop, nil
	}
	return l.files, func() { l.files.abandon(); stop() }, nil
}

// prefetch is the backend with one project.files call already in flight,
// and maybe the first steps of project.index after it: the first
// ProjectFiles gets the one's answer, the first ProjectIndex of a fresh
// walk (when no other scan came between) and the steps that continue it
// get the others'; every other call is the client's own. The early steps
// follow each other as soon as each page is in, up to prefetchSteps,
// while the page is still adopting the snapshot; the page's first call
// for a cursor no early step has claimed ends them, so each cursor is
// sent exactly once, by one of the two.
type prefetch struct {
	*rpcclient.Client
	child  uint64 // the child it was sent to
	reply  chan filesReply
	idle   chan struct{} // closed when no early call is in flight or to come
	index  bool          // the first steps are to be asked for
	cancel context.CancelFunc

	mu         sync.Mutex
	filesCalls int                        // ProjectFiles calls made through p
	stepTaken  bool                       // the first fresh ProjectIndex came
	steps      map[string]chan indexReply // the early steps by cursor ("" for none), claimed and not yet taken
	ended      bool                       // no more early steps are claimed
}

// prefetchSteps bounds the early steps: the pages held until the page
// takes them.
const prefetchSteps = 4

// indexReply is project.index's answer.
type indexReply struct {
	res wire.ProjectIndexResult
	err error
}

// filesReply is project.files' answer.
type filesReply struct {
	res wire.ProjectFilesResult
	err error
}

// prefetchFiles sends project.files to c's child now, bounded as the
// Files page bounds its own scans; with index, a truncated answer is
// followed by the first steps of project.index when it was negotiated.
func prefetchFiles(c *rpcclient.Client, index bool) *prefetch {
	ctx, cancel := context.WithTimeout(context.Background(), prefetchTimeout)
	p := &prefetch{Client: c, child: c.Child(), reply: make(chan filesReply, 1), idle: make(chan struct{}), cancel: cancel, steps: map[string]chan indexReply{}}
	p.index = index && bridge.Negotiated(c, wire.MethodProjectIndex)
	p.ended = !p.index
	go func() {
		defer close(p.idle)
		defer cancel()
		var walking sync.WaitGroup
		defer walking.Wait()
		var once sync.Once
		start := func() {
			once.Do(func() {
				if ch := p.claim(nil); ch != nil { // claimed before the page can ask
					walking.Go(func() { p.walk(ctx, ch) })
				}
			})
		}
		rep := &earlyReport{start: start}
		err := c.Call(ctx, wire.MethodProjectFiles, struct{}{}, rep)
		if err == nil && rep.res.Truncated {
			start()
		} else {
			p.end()
		}
		p.reply <- filesReply{rep.res, err}
	}()
	return p
}

// earlyReport is the early snapshot, decoded in the client's reader
// (wire.ProjectFilesResult.DecodeValid); when its line says it is
// truncated, the early steps start before it is decoded, so the
// backend's first step overlaps the decoding of 10,000 entries.
type earlyReport struct {
	res   wire.ProjectFilesResult
	start func()
}

// DecodeValid implements wire.ValidDecoder.
func (r *earlyReport) DecodeValid(data []byte) error {
	if saysTruncated(data) {
		r.start()
	}
	return r.res.DecodeValid(data)
}

// saysTruncated reports whether a report's line ends its "truncated"
// member with true: the last `"truncated":` in the line is a member
// name (inside a JSON string every quote is escaped). A hint only: the
// decoded report decides, and a step started on a wrong hint is one the
// page never takes.
func saysTruncated(line []byte) bool {
	i := bytes.LastIndex(line, []byte(`"truncated":`))
	return i >= 0 && bytes.HasPrefix(line[i+len(`"truncated":`):], []byte("true"))
}

// walk asks for the early steps, the first into ch, each as soon as the
// one before is in, until the walk is complete, a step fails,
// prefetchSteps are asked for, or the page has asked for a step itself.
func (p *prefetch) walk(ctx context.Context, ch chan indexReply) {
	defer p.end()
	var cursor *string
	for i := range prefetchSteps {
		if i > 0 {
			if ch = p.claim(cursor); ch == nil {
				return
			}
		}
		page, err := p.Client.ProjectIndex(ctx, cursor)
		ch <- indexReply{page, err}
		if err != nil || page.Complete {
			return
		}
		cursor = page.Cursor
	}
}

// claim makes the step for cursor an early one, unless they have ended.
func (p *prefetch) claim(cursor *string) chan indexReply {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.ended {
		return nil
	}
	ch := make(chan indexReply, 1)
	p.steps[stepKey(cursor)] = ch
	return ch
}

// end claims no more early steps.
func (p *prefetch) end() {
	p.mu.Lock()
	p.ended = true
	p.mu.Unlock()
}

func stepKey(cursor *string) string {
	if cursor == nil {
		return ""
	}
	return *cursor
}

// prefetchTimeout bounds the early calls on our side, as tui/files
// bounds a scan (the backend gives up at its own deadline).
const prefetchTimeout = startTimeout * 2

// ProjectFiles is the early call's answer the first time (for the child
// it was sent to), the client's own call after.
func (p *prefetch) ProjectFiles(ctx context.Context) (wire.ProjectFilesResult, error) {
	p.mu.Lock()
	p.filesCalls++
	first := p.filesCalls == 1
	if !first {
		p.ended = true
	}
	p.mu.Unlock()
	if !first || p.Child() != p.child {
		p.cancel()
		return p.Client.ProjectFiles(ctx)
	}
	select {
	case r := <-p.reply:
		return r.res, r.err
	case <-ctx.Done():
		p.cancel() // the page gave up on its first scan: so does the backend
		return wire.ProjectFilesResult{}, ctx.Err()
	}
}

// ProjectIndex is an early step's answer: for the first fresh walk, when
// the early snapshot was the only one taken, and for the cursors of its
// pages that an early step has claimed; the client's own call otherwise,
// which ends the early steps.
func (p *prefetch) ProjectIndex(ctx context.Context, cursor *string) (wire.ProjectIndexResult, error) {
	ch := p.early(cursor)
	if ch == nil {
		if cursor == nil {
			// A walk of the page's own abandons the early one: a step of
			// that one answered after it (stale_revision) would abandon
			// the page's in turn, so the early calls end first.
			select {
			case <-p.idle:
			case <-ctx.Done():
				return wire.ProjectIndexResult{}, ctx.Err()
			}
		}
		return p.Client.ProjectIndex(ctx, cursor)
	}
	select {
	case r := <-ch:
		return r.res, r.err
	case <-ctx.Done():
		p.cancel()
		return wire.ProjectIndexResult{}, ctx.Err()
	}
}

// early takes the early step for cursor, or returns nil (and ends the
// early steps) when there is none to take.
func (p *prefetch) early(cursor *string) chan indexReply {
	p.mu.Lock()
	defer p.mu.Unlock()
	fresh := cursor == nil
	ok := p.filesCalls == 1 && p.Child() == p.child && (!fresh || !p.stepTaken)
	if fresh {
		p.stepTaken = true
	}
	ch := p.steps[stepKey(cursor)]
	delete(p.steps, stepKey(cursor))
	if !ok || ch == nil {
		p.ended = true
		return nil
	}
	return ch
}

// abandon cancels the early calls if nobody took their answers.
func (p *prefetch) abandon() { p.cancel() }
