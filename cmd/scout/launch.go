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
// frontend draws its first frame (docs/performance.md, issue 17).

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
// is initialized.
func launchBackend(required, optional []string, diags *bridge.Diagnostics, files bool) *launch {
	l := &launch{done: make(chan struct{})}
	go func() {
		defer close(l.done)
		l.client, l.stop, l.err = startBackend(required, optional, diags)
		if l.err == nil && files {
			l.files = prefetchFiles(l.client)
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

// prefetch is the backend with one project.files call already in flight:
// the first ProjectFiles gets its answer; every other call is the
// client's own.
type prefetch struct {
	*rpcclient.Client
	child  uint64 // the child it was sent to
	reply  chan filesReply
	cancel context.CancelFunc
	taken  sync.Once
}

// filesReply is project.files' answer.
type filesReply struct {
	res wire.ProjectFilesResult
	err error
}

// prefetchFiles sends project.files to c's child now, bounded as the
// Files page bounds its own scans.
func prefetchFiles(c *rpcclient.Client) *prefetch {
	ctx, cancel := context.WithTimeout(context.Background(), prefetchTimeout)
	p := &prefetch{Client: c, child: c.Child(), reply: make(chan filesReply, 1), cancel: cancel}
	go func() {
		defer cancel()
		res, err := c.ProjectFiles(ctx)
		p.reply <- filesReply{res, err}
	}()
	return p
}

// prefetchTimeout bounds the early project.files on our side, as
// tui/files bounds a scan (the backend gives up at its own deadline).
const prefetchTimeout = startTimeout * 2

// ProjectFiles is the early call's answer the first time (for the child
// it was sent to), the client's own call after.
func (p *prefetch) ProjectFiles(ctx context.Context) (wire.ProjectFilesResult, error) {
	first := false
	p.taken.Do(func() { first = true })
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

// abandon cancels the early call if nobody took its answer.
func (p *prefetch) abandon() { p.cancel() }
