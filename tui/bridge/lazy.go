package bridge

import (
	"context"
	"errors"
	"sync"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient"
)

// Starter starts a backend child: the Backend and how to stop it.
type Starter func(ctx context.Context) (Backend, func(), error)

// Lazy is a Backend whose child is started only when a page first needs
// it: the picker over standard input starts none unless a line names a
// file of the project to preview. Until then Child is 0, Init is the zero
// result (nothing negotiated) and the project calls fail with
// ErrNotStarted; a page that needs the backend asks for it with Restart
// (the bridge's Restart Cmd), whose RestartedMsg reaches the root and
// every page as after any restart. After that Lazy is the started
// Backend.
//
// The other methods are the started Backend's (embedded): they must not
// be called before the RestartedMsg of the start, which no page of the
// picker over standard input does (it has no other tab).
type Lazy struct {
	Backend // nil until started; set once, before RestartedMsg is sent

	start  Starter
	events chan rpcclient.Event

	mu     sync.Mutex
	b      Backend
	stop   func()
	closed bool
}

var _ Backend = (*Lazy)(nil)

// ErrNotStarted is the error of a call to a Lazy backend not started yet.
var ErrNotStarted = errors.New("the backend is not running")

// NewLazy returns a Lazy backend started by start.
func NewLazy(start Starter) *Lazy {
	return &Lazy{start: start, events: make(chan rpcclient.Event, 16)}
}

func (l *Lazy) current() Backend {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b
}

// Started reports whether the child was started.
func (l *Lazy) Started() bool { return l.current() != nil }

// Init implements Backend: the zero result until started.
func (l *Lazy) Init() wire.InitializeResult {
	if b := l.current(); b != nil {
		return b.Init()
	}
	return wire.InitializeResult{}
}

// Child implements Backend: 0 until started.
func (l *Lazy) Child() uint64 {
	if b := l.current(); b != nil {
		return b.Child()
	}
	return 0
}

// Events implements Backend: the started child's events, forwarded.
func (l *Lazy) Events() <-chan rpcclient.Event { return l.events }

// Restart implements Backend: it starts the child the first time, then
// restarts it.
func (l *Lazy) Restart(ctx context.Context) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return ErrNotStarted
	}
	if l.b != nil {
		return l.b.Restart(ctx)
	}
	b, stop, err := l.start(ctx)
	if err != nil {
		return err
	}
	l.b, l.stop, l.Backend = b, stop, b
	go forward(b.Events(), l.events)
	return nil
}

// forward copies a child's events until its stream ends, then ends the
// Lazy's.
func forward(from <-chan rpcclient.Event, to chan<- rpcclient.Event) {
	for e := range from {
		to <- e
	}
	close(to)
}

// Close stops the child if it was started; the event stream ends.
func (l *Lazy) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return
	}
	l.closed = true
	if l.stop != nil {
		l.stop() // the forwarder closes the stream
		return
	}
	close(l.events)
}

func (l *Lazy) started() (Backend, error) {
	if b := l.current(); b != nil {
		return b, nil
	}
	return nil, ErrNotStarted
}

// ProjectFiles implements Backend.
func (l *Lazy) ProjectFiles(ctx context.Context) (wire.ProjectFilesResult, error) {
	b, err := l.started()
	if err != nil {
		return wire.ProjectFilesResult{}, err
	}
	return b.ProjectFiles(ctx)
}

// ProjectList implements Backend.
func (l *Lazy) ProjectList(ctx context.Context, ref string, limit int) (wire.ListResult, error) {
	b, err := l.started()
	if err != nil {
		return wire.ListResult{}, err
	}
	return b.ProjectList(ctx, ref, limit)
}

// ProjectRead implements Backend.
func (l *Lazy) ProjectRead(ctx context.Context, ref string, maxBytes int) (wire.ReadResult, error) {
	b, err := l.started()
	if err != nil {
		return wire.ReadResult{}, err
	}
	return b.ProjectRead(ctx, ref, maxBytes)
}
