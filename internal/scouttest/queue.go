package scouttest

import (
	"sync"
	"time"
)

// queue holds the messages a backend wrote until the test reads them. It
// is unbounded: the harness's reader never waits for the test, so the
// backend never blocks on a full pipe because a test reads late, and
// nothing is allocated ahead of the messages (a buffered channel of 65,536
// messages was 8 MiB per process, cleared on allocation and scanned by
// every collection while the process lived).
type queue struct {
	mu     sync.Mutex
	items  []Msg
	head   int // items[head:] are unread
	closed bool
	ready  chan struct{} // holds a token when there may be something to take
}

func newQueue() *queue { return &queue{ready: make(chan struct{}, 1)} }

// put adds m at the end.
func (q *queue) put(m Msg) {
	q.mu.Lock()
	q.items = append(q.items, m)
	q.mu.Unlock()
	q.signal()
}

// close marks the end: once what was put has been taken, take reports it.
func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.signal()
}

func (q *queue) signal() {
	select {
	case q.ready <- struct{}{}:
	default:
	}
}

// take returns the next message (ok), or reports the end (ok false,
// timedOut false), or that timeout fired first (timedOut).
func (q *queue) take(timeout <-chan time.Time) (m Msg, ok, timedOut bool) {
	for {
		if m, ok, end := q.tryTake(); ok || end {
			return m, ok, false
		}
		select {
		case <-q.ready:
		case <-timeout:
			return Msg{}, false, true
		}
	}
}

// tryTake takes the next message if there is one; end reports that there
// never will be.
func (q *queue) tryTake() (m Msg, ok, end bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.head == len(q.items) {
		if q.closed {
			q.signal() // for any other reader waiting
		}
		return Msg{}, false, q.closed
	}
	m = q.items[q.head]
	q.items[q.head] = Msg{}
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	} else {
		q.signal() // more to take, maybe by another reader
	}
	return m, true, false
}
