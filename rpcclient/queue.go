package rpcclient

import (
	"sync"

	"github.com/go-json-experiment/json/jsontext"
)

// Event is something the backend said outside a response: a notification,
// or the unexpected exit of the child.
type Event struct {
	// Child numbers the child process that produced the event (1 for the
	// first, incremented by each Restart), so a consumer can ignore events of
	// a child it has replaced.
	Child uint64
	// Method and Params are the notification's.
	Method string
	Params jsontext.Value
	// Exit is set when the child exited without Close or Restart.
	Exit *ExitError
}

// queue is an unbounded FIFO between the reader goroutines and the consumer of
// Events: a slow consumer never blocks the reader (which would stall every
// response) and no notification is dropped.
type queue struct {
	mu     sync.Mutex
	items  []Event
	signal chan struct{}
	out    chan Event
	closed chan struct{}
	once   sync.Once
}

func newQueue() *queue {
	q := &queue{signal: make(chan struct{}, 1), out: make(chan Event), closed: make(chan struct{})}
	go q.run()
	return q
}

func (q *queue) push(e Event) {
	q.mu.Lock()
	q.items = append(q.items, e)
	q.mu.Unlock()
	select {
	case q.signal <- struct{}{}:
	default:
	}
}

func (q *queue) close() { q.once.Do(func() { close(q.closed) }) }

func (q *queue) run() {
	defer close(q.out)
	for {
		q.mu.Lock()
		if len(q.items) == 0 {
			q.mu.Unlock()
			select {
			case <-q.signal:
				continue
			case <-q.closed:
				return
			}
		}
		e := q.items[0]
		q.items[0] = Event{}
		q.items = q.items[1:]
		q.mu.Unlock()
		select {
		case q.out <- e:
		case <-q.closed:
			return
		}
	}
}
