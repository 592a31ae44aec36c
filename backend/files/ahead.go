package files

import (
	"context"
	"time"
)

// This file is the index step's read-ahead: while the walk filters, sorts
// and emits one directory, a helper goroutine reads the names of the next
// queued one (getdents, the largest part of a walk's work), so a step
// uses two cores. Only the reading of names is concurrent: the walk opens
// the directory (relative to its parent's held descriptor, as always),
// and applies the policy and the order itself, one directory at a time,
// so the sequence of entries, the pages and the cursors are those of a
// walk that reads one directory after the other.
//
// At most one directory is read ahead, within the step: its names count
// against the step's examine budget (the helper reads at most what is
// left of it, and the walk reads nothing else meanwhile), it is read
// ahead only when the page can take more than the directory being
// finished (so the page does not end before it is taken), and what a step
// read ahead but did not take is dropped when the step ends: the
// directory stays queued, to be read again by the next step. Nothing read
// ahead is kept between requests.

// readAhead starts reading the next queued directory, if the step may:
// called once the current directory is read to its end, before it is
// finished and emitted.
func (s *step) readAhead() {
	x, l := s.x, s.x.cur
	if x.ahead != nil || x.head == len(x.queue) || s.examine == 0 || s.stopped() {
		return
	}
	// len(l.ends) bounds the entries l will add, and each adds at least
	// the encoding of an empty path: when they may fill the page, the
	// step is likely to end within l, and what was read ahead would be
	// dropped.
	if len(s.page)+len(l.ends) >= s.x.lim.PageEntries || len(l.buf)+len(l.ends)*entrySize("", false) >= s.bytes {
		return
	}
	a := x.r.open(x.queue[x.head])
	done := make(chan struct{})
	x.ahead, x.aheadDone = a, done
	if a.eof { // it could not be opened: nothing to read
		close(done)
		return
	}
	limit := s.examine
	stop := helperStop(s.ctx, s.deadline)
	go func() {
		defer close(done)
		readNames(a, limit, stop)
	}()
}

// helperStop is the read-ahead's stop: the step's context or its
// deadline (the helper cannot see whether the step has worked yet; the
// walk itself has, by the time it reads ahead).
func helperStop(ctx context.Context, deadline time.Time) func() bool {
	return func() bool { return ctx.Err() != nil || !time.Now().Before(deadline) }
}

// takeAhead waits for the directory read ahead and makes it the current
// one: the queue's next, which it is. Its names are charged to the step.
func (s *step) takeAhead() {
	x := s.x
	<-x.aheadDone
	a := x.ahead
	x.ahead, x.aheadDone = nil, nil
	s.examine -= a.count
	x.pop()
	x.cur = a
	x.aheadTaken++
}

// dropAhead ends the step's read-ahead when the step ends before taking
// it: it waits for the helper (which stops on the step's context or
// deadline) and closes the directory, which stays queued. Its names were
// read by this step all the same.
func (s *step) dropAhead() {
	x := s.x
	if x.ahead == nil {
		return
	}
	<-x.aheadDone
	a := x.ahead
	x.ahead, x.aheadDone = nil, nil
	s.examine -= a.count
	if p := a.n.parent; p != nil {
		p.pending++ // it will be opened again
	}
	x.r.abandon(a)
	x.aheadDropped++
}
