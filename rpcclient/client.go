// Package rpcclient is scout's Go client of the backend protocol: it starts
// `scout backend` as a child process (the running executable re-executed, the
// workspace as working directory, the environment passed through), negotiates
// capabilities, makes typed calls that take a context (cancelling the context
// sends operation.cancel and returns at once; the late terminal response is
// consumed), delivers notifications on a channel, detects the child's exit,
// and restarts or closes it.
//
// A Client is safe for concurrent use.
package rpcclient

import (
	"context"
	"errors"
	"io"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient/spawn"
)

// Options configure a Client.
type Options struct {
	// Exe is the scout executable (os.Executable when empty).
	Exe string
	// Args are the child's arguments (["backend"] when nil).
	Args []string
	// Dir is the workspace, the child's working directory ("" = ours).
	Dir string
	// Env is the child's environment (os.Environ when nil).
	Env []string
	// Capabilities are negotiated in initialize, exactly as given. Include
	// operation.cancel for context cancellation to reach the backend.
	Capabilities []string
	// Optional capabilities are negotiated too when the backend offers them:
	// if initialize fails with unsupported_capability naming only optional
	// ones, it is retried on the same child without those (docs/protocol.md §3:
	// a failed initialize may be retried). Init().Negotiated says which
	// were kept.
	Optional []string
	// Client names this client in initialize.
	Client wire.ClientInfo
	// Stderr receives the child's diagnostics (discarded when nil).
	Stderr io.Writer
	// IndexAhead makes project.index ask for each next page as soon as a
	// page's line is in, before it is checked and decoded, so that the
	// backend walks on meanwhile (ahead.go). For a caller that follows a
	// walk to its end: a page asked for ahead that no one takes still
	// runs its step in the backend (holding the scan slot while it runs),
	// and its answer is dropped.
	IndexAhead bool
	// Early is a child started already, by spawn.Start with this Options'
	// Exe, Args, Dir and Env (and its own stderr: Stderr is not used for
	// it): Start initializes it instead of starting one. A restart starts
	// a new child as usual.
	Early *spawn.Process
	// CloseTimeout bounds Close and Restart's wait for the old child before
	// it is killed (3 s when zero: the backend's own bound is 2 s).
	CloseTimeout time.Duration
}

// Client drives one backend child at a time.
type Client struct {
	opts   Options
	events *queue

	mu     sync.Mutex
	cn     *conn
	child  uint64
	init   wire.InitializeResult
	closed bool
}

// Start spawns the backend and initializes it. On failure nothing is left
// running.
func Start(ctx context.Context, opts Options) (*Client, error) {
	early := opts.Early
	opts.Early = nil
	if opts.Exe == "" {
		exe, err := os.Executable()
		if err != nil {
			if early != nil {
				early.Stop()
			}
			return nil, errors.New("cannot find the scout executable to start its backend")
		}
		opts.Exe = exe
	}
	if opts.Args == nil {
		opts.Args = []string{"backend"}
	}
	if opts.Env == nil {
		opts.Env = os.Environ()
	}
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.CloseTimeout == 0 {
		opts.CloseTimeout = 3 * time.Second
	}
	if opts.Client.Name == "" {
		opts.Client = wire.ClientInfo{Name: "scout", Version: "0.1.0"}
	}
	c := &Client{opts: opts, events: newQueue()}
	if err := c.spawn(ctx, early); err != nil {
		c.events.close()
		return nil, err
	}
	return c, nil
}

// spawn starts a new child (or takes early, started already) and
// initializes it; c.mu must not be held.
func (c *Client) spawn(ctx context.Context, early *spawn.Process) error {
	c.mu.Lock()
	c.child++
	child := c.child
	c.mu.Unlock()
	cn, err := startConn(c.opts, child, c.events, early)
	if err != nil {
		return err
	}
	res, err := c.initialize(ctx, cn)
	if err != nil {
		cn.close(c.opts.CloseTimeout)
		return err
	}
	for _, cap := range res.Negotiated {
		if cap == wire.MethodCancel {
			cn.cancels = true
		}
	}
	c.mu.Lock()
	c.cn, c.init = cn, res
	c.mu.Unlock()
	return nil
}

// initialize negotiates the required capabilities and as many optional ones
// as the backend offers.
func (c *Client) initialize(ctx context.Context, cn *conn) (wire.InitializeResult, error) {
	optional := append([]string{}, c.opts.Optional...)
	for {
		caps := append(append([]string{}, c.opts.Capabilities...), optional...)
		var res wire.InitializeResult
		params := map[string]any{"protocol_version": wire.ProtocolVersion, "client": c.opts.Client, "required_capabilities": caps}
		err := cn.call(ctx, wire.MethodInitialize, params, &res)
		var we *wire.Error
		if err == nil || !errors.As(err, &we) || we.Code != wire.CodeUnsupportedCapability {
			return res, err
		}
		kept := slices.DeleteFunc(slices.Clone(optional), func(s string) bool { return slices.Contains(we.Capabilities, s) })
		if len(kept) == len(optional) {
			return res, err // a required capability is missing
		}
		optional = kept
	}
}

// Init is the current child's initialize result.
func (c *Client) Init() wire.InitializeResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.init
}

// Child numbers the current child (see Event.Child).
func (c *Client) Child() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.child
}

// Events delivers notifications and unexpected exits of every child, in
// order, without ever blocking the readers. It is closed by Close.
func (c *Client) Events() <-chan Event { return c.events.out }

func (c *Client) conn() (*conn, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	return c.cn, nil
}

// Call sends method with params (nil: none) and decodes the result into
// result (nil: discard). A protocol error is returned as *wire.Error; the
// child's exit as *ExitError; a broken child as *ProtocolError.
func (c *Client) Call(ctx context.Context, method string, params any, result any) error {
	cn, err := c.conn()
	if err != nil {
		return err
	}
	return cn.call(ctx, method, params, result)
}

// Done is closed when the current child has ended.
func (c *Client) Done() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.cn.done
}

// Restart stops the current child (shutdown, then kill after the bound) and
// starts and initializes a new one with the same options.
func (c *Client) Restart(ctx context.Context) error {
	cn, err := c.conn()
	if err != nil {
		return err
	}
	cn.close(c.opts.CloseTimeout)
	return c.spawn(ctx, nil)
}

// Close shuts the child down (killing it after the bound) and closes Events.
func (c *Client) Close() error {
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return nil
	}
	c.closed = true
	cn := c.cn
	c.mu.Unlock()
	cn.close(c.opts.CloseTimeout)
	c.events.close()
	return nil
}

// Status calls status.
func (c *Client) Status(ctx context.Context) (wire.StatusResult, error) {
	var res wire.StatusResult
	err := c.Call(ctx, wire.MethodStatus, nil, &res)
	return res, err
}
