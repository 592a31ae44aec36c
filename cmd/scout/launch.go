package main

import (
	"context"
	"sync"

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
// first step of project.index follows it at once, while the frontend
// decodes and ranks the snapshot (docs/performance.md, issue 17).

// launchCalls are the calls sent to the backend child as soon as it is
// initialized, before the pages ask.
type launchCalls int

const (
	// launchFiles: the Files page's first project.files (the pages
	// include the Files page).
	launchFiles launchCalls = 1 << iota
	// launchIndex: the first project.index step after a truncated
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
// and maybe the first project.index step after it: the first ProjectFiles
// gets the one's answer, the first ProjectIndex of a fresh walk the
// other's (when no other scan came between); every other call is the
// client's own.
type prefetch struct {
	*rpcclient.Client
	child  uint64 // the child it was sent to
	reply  chan filesReply
	step   chan indexReply // nil: no step was asked for
	cancel context.CancelFunc

	mu         sync.Mutex
	filesCalls int  // ProjectFiles calls made through p
	stepTaken  bool // the first fresh ProjectIndex came
}

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
// followed by the first step of project.index when it was negotiated.
func prefetchFiles(c *rpcclient.Client, index bool) *prefetch {
	ctx, cancel := context.WithTimeout(context.Background(), prefetchTimeout)
	p := &prefetch{Client: c, child: c.Child(), reply: make(chan filesReply, 1), cancel: cancel}
	if index && bridge.Negotiated(c, wire.MethodProjectIndex) {
		p.step = make(chan indexReply, 1)
	}
	go func() {
		defer cancel()
		res, err := c.ProjectFiles(ctx)
		p.reply <- filesReply{res, err}
		switch {
		case p.step == nil:
		case err != nil || !res.Truncated:
			close(p.step)
		default:
			page, err := c.ProjectIndex(ctx, nil)
			p.step <- indexReply{page, err}
		}
	}()
	return p
}

// prefetchTimeout bounds the early project.files on our side, as
// tui/files bounds a scan (the backend gives up at its own deadline).
const prefetchTimeout = startTimeout * 2

// ProjectFiles is the early call's answer the first time (for the child
// it was sent to), the client's own call after.
func (p *prefetch) ProjectFiles(ctx context.Context) (wire.ProjectFilesResult, error) {
	p.mu.Lock()
	p.filesCalls++
	first := p.filesCalls == 1
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

// ProjectIndex is the early step's answer for the first fresh walk, when
// it was asked for and the early snapshot was the only one taken; the
// client's own call otherwise.
func (p *prefetch) ProjectIndex(ctx context.Context, cursor *string) (wire.ProjectIndexResult, error) {
	p.mu.Lock()
	early := p.step != nil && cursor == nil && !p.stepTaken && p.filesCalls == 1 && p.Child() == p.child
	if cursor == nil {
		p.stepTaken = true
	}
	p.mu.Unlock()
	if !early {
		return p.Client.ProjectIndex(ctx, cursor)
	}
	select {
	case r, ok := <-p.step:
		if !ok { // the snapshot was whole or failed: no step was sent
			return p.Client.ProjectIndex(ctx, cursor)
		}
		return r.res, r.err
	case <-ctx.Done():
		p.cancel()
		return wire.ProjectIndexResult{}, ctx.Err()
	}
}

// abandon cancels the early calls if nobody took their answers.
func (p *prefetch) abandon() { p.cancel() }
