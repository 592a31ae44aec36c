package rpcclient

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient/spawn"
)

// maxInboundLine bounds one line from the child. The protocol's largest
// message is a 1 MiB report; anything far beyond is a broken child.
const maxInboundLine = 4 << 20

// response is one terminal response as the reader hands it to a caller:
// the error, or the result decoded into the pending call's into, or a copy
// of the result.
type response struct {
	result    jsontext.Value
	decoded   bool
	decodeErr error
	err       *wire.Error
}

// pending is a call waiting for its response. Its flags are cn.mu's.
type pending struct {
	ch chan response // buffered: the reader never blocks on it
	// into receives the result, decoded by the reader (the large results:
	// project.files, project.index), or nil.
	into      wire.ValidDecoder
	ahead     bool // project.index asking ahead: the reader asks for the next page (ahead.go)
	abandoned bool // the caller gave up; drop the response
	taken     bool // the reader has it: the caller's into is the reader's until ch says
}

// conn is one child process and its pipes.
type conn struct {
	child   uint64
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	events  *queue
	cancels bool // operation.cancel was negotiated
	// indexAhead: project.index calls ask ahead for the next page
	// (Options.IndexAhead, ahead.go).
	indexAhead bool

	writeMu sync.Mutex

	mu       sync.Mutex
	pending  map[string]*pending
	seq      uint64
	ahead    *ahead // the request made ahead, not yet asked for
	err      error  // why the connection ended
	expected bool   // the end follows Close
	done     chan struct{}
}

// startConn starts a child (or takes early, one started already) and
// reads its output.
func startConn(opts Options, child uint64, events *queue, early *spawn.Process) (*conn, error) {
	p := early
	if p == nil {
		var err error
		if p, err = spawn.Start(opts.Exe, opts.Args, opts.Dir, opts.Env, opts.Stderr); err != nil {
			return nil, err
		}
	}
	cn := &conn{child: child, cmd: p.Cmd, stdin: p.Stdin, events: events, indexAhead: opts.IndexAhead, pending: map[string]*pending{}, done: make(chan struct{})}
	go cn.read(p.Stdout)
	return cn, nil
}

// read delivers responses to their callers and notifications to the event
// queue until the child's output ends or breaks the protocol.
func (cn *conn) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 64<<10)
	var fault error
	// One line's room, reused: dispatch keeps nothing of it. Made for the
	// longest result line at once (a snapshot or an index page, 1 MiB):
	// grown from nothing, the first snapshot was copied five times over.
	buf := make([]byte, 0, maxResultLine)
	for fault == nil {
		line, err := readLine(r, buf[:0])
		buf = line
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fault = err
			}
			break
		}
		if cn.indexAhead {
			cn.askAhead(line)
		}
		fault = cn.dispatch(line)
	}
	if fault != nil {
		cn.kill()
	}
	waitErr := cn.cmd.Wait()
	cn.finish(fault, waitErr)
}

// maxResultLine is the longest line a report or an index page makes,
// newline included (docs/protocol.md §5): their bounds, as wire has them.
var maxResultLine = max(wire.DefaultFilesExtension.ReportBytes, wire.DefaultIndexExtension.PageBytes)

// readLine reads one line into line's room (a page of project.index is a
// megabyte: growing a fresh slice for each cost as much as decoding it).
func readLine(r *bufio.Reader, line []byte) ([]byte, error) {
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxInboundLine {
			return nil, &ProtocolError{Reason: "a line longer than 4 MiB"}
		}
		switch {
		case err == nil:
			return line[:len(line)-1], nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return nil, &ProtocolError{Reason: "output ended inside a message"}
		default:
			return nil, err
		}
	}
}

func (cn *conn) dispatch(line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return &ProtocolError{Reason: "an empty line"}
	}
	m, err := readEnvelope(line)
	if err != nil || m.JSONRPC != wire.Version {
		return &ProtocolError{Reason: "a line that is not a JSON-RPC 2.0 message"}
	}
	if m.ID == nil {
		if m.Method == "" {
			return &ProtocolError{Reason: "a message that is neither a response nor a notification"}
		}
		cn.events.push(Event{Child: cn.child, Method: m.Method, Params: bytes.Clone(m.Params)})
		return nil
	}
	if (m.Result == nil) == (m.Error == nil) {
		return &ProtocolError{Reason: "a response without exactly one of result and error"}
	}
	var id string
	if m.ID.Kind() != '"' || wire.Unmarshal(m.ID, &id) != nil {
		return nil // an answer to a frame whose id could not be read; not ours
	}
	cn.deliver(id, m.Result, errorOf(m.Error))
	return nil
}

func errorOf(o *wire.ErrorObject) *wire.Error {
	if o == nil {
		return nil
	}
	return o.AsError()
}

// deliver hands a response to its caller. result is a slice of the line
// and lives only until the next line is read: a result with a decoder of
// its own (the call's into) is decoded here, from the line; any other is
// copied for the caller to decode.
func (cn *conn) deliver(id string, result jsontext.Value, err *wire.Error) {
	cn.mu.Lock()
	p := cn.pending[id]
	delete(cn.pending, id)
	if p != nil {
		p.taken = !p.abandoned
	}
	cn.mu.Unlock()
	if p == nil || !p.taken {
		return
	}
	r := response{err: err}
	switch {
	case err != nil:
	case p.into != nil:
		r.decoded, r.decodeErr = true, p.into.DecodeValid(result)
	default:
		r.result = bytes.Clone(result)
	}
	p.ch <- r
}

// finish records why the connection ended and fails every pending call.
func (cn *conn) finish(fault, waitErr error) {
	cn.mu.Lock()
	switch {
	case fault != nil && !cn.expected:
		cn.err = fault
	default:
		cn.err = &ExitError{State: exitState(waitErr), Expected: cn.expected}
	}
	expected := cn.expected
	cn.pending = map[string]*pending{}
	cn.mu.Unlock()
	close(cn.done)
	if !expected {
		ee, ok := cn.err.(*ExitError)
		if !ok {
			ee = &ExitError{State: cn.err.Error()}
		}
		cn.events.push(Event{Child: cn.child, Exit: ee})
	}
}

func exitState(err error) string {
	if err == nil {
		return "exit status 0"
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ProcessState.String()
	}
	return "wait failed"
}

// call sends one request and waits for its terminal response. When ctx ends
// first it returns ctx's error at once; if operation.cancel was negotiated it
// also asks the backend to cancel, and the late responses are consumed.
func (cn *conn) call(ctx context.Context, method string, params any, result any) error {
	p := newPending(result)
	id, err := cn.begin(method, params, p)
	if err != nil {
		return err
	}
	return cn.await(ctx, method, id, p, result)
}

// newPending is a pending call whose result goes to result.
func newPending(result any) *pending {
	p := &pending{ch: make(chan response, 1)}
	p.into, _ = result.(wire.ValidDecoder)
	return p
}

// begin registers p under a new id and sends the request.
func (cn *conn) begin(method string, params any, p *pending) (string, error) {
	cn.mu.Lock()
	if cn.err != nil {
		cn.mu.Unlock()
		return "", cn.err
	}
	id := cn.nextID()
	cn.pending[id] = p
	cn.mu.Unlock()
	if err := cn.send(id, method, params); err != nil {
		cn.forget(id)
		return "", err
	}
	return id, nil
}

// nextID is a fresh request id; cn.mu is held.
func (cn *conn) nextID() string {
	cn.seq++
	return "c" + strconv.FormatUint(cn.seq, 10)
}

// await waits for the response to the call id, registered as p.
func (cn *conn) await(ctx context.Context, method, id string, p *pending, result any) error {
	select {
	case r := <-p.ch:
		if r.err != nil {
			return r.err
		}
		if result == nil {
			return nil
		}
		err := r.decodeErr
		if !r.decoded {
			err = wire.Unmarshal(r.result, result)
		}
		if err != nil {
			return &ProtocolError{Reason: "a " + method + " result of the wrong shape"}
		}
		return nil
	case <-ctx.Done():
		if cn.abandon(p) {
			<-p.ch // the reader is decoding into result: wait for it to let go
		}
		if cn.cancels && cancellable(method) {
			go cn.cancel(id)
		}
		return ctx.Err()
	case <-cn.done:
		return cn.err
	}
}

func cancellable(method string) bool {
	switch method {
	case wire.MethodInitialize, wire.MethodStatus, wire.MethodShutdown, wire.MethodCancel:
		return false
	}
	return true
}

// cancel sends operation.cancel for id; its acknowledgement (or
// operation_missing, when the response won the race) is consumed here.
func (cn *conn) cancel(id string) {
	ctx, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	_ = cn.call(ctx, wire.MethodCancel, map[string]string{"request_id": id}, nil)
}

// abandon makes the reader drop p's response; true when the reader has
// taken it already and is decoding it (p.ch will have it).
func (cn *conn) abandon(p *pending) bool {
	cn.mu.Lock()
	defer cn.mu.Unlock()
	if p.taken {
		return true
	}
	p.abandoned = true
	return false
}

func (cn *conn) forget(id string) {
	cn.mu.Lock()
	delete(cn.pending, id)
	cn.mu.Unlock()
}

func (cn *conn) send(id, method string, params any) error {
	err := cn.sendNow(id, method, params)
	if !errors.Is(err, errInputClosed) {
		return err
	}
	<-cn.doneOrTimeout(2 * time.Second)
	cn.mu.Lock()
	defer cn.mu.Unlock()
	if cn.err != nil {
		return cn.err
	}
	return &ExitError{State: "its input is closed"}
}

// errInputClosed is a write to the child that failed.
var errInputClosed = errors.New("rpcclient: the child's input is closed")

// sendNow writes the request, failing with errInputClosed at once when
// the child's input is closed (send waits to say why).
func (cn *conn) sendNow(id, method string, params any) error {
	req := wire.Request{JSONRPC: wire.Version, ID: id, Method: method}
	if params != nil {
		raw, err := wire.Marshal(params)
		if err != nil {
			return err
		}
		req.Params = raw
	}
	b, err := wire.Marshal(req)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if len(b) > wire.MaxFrameBytes {
		return ErrFrameTooLarge
	}
	cn.writeMu.Lock()
	defer cn.writeMu.Unlock()
	if _, err := cn.stdin.Write(b); err != nil {
		return errInputClosed
	}
	return nil
}

func (cn *conn) doneOrTimeout(d time.Duration) <-chan struct{} {
	ch := make(chan struct{})
	go func() {
		defer close(ch)
		select {
		case <-cn.done:
		case <-time.After(d):
		}
	}()
	return ch
}

// close asks the child to shut down, then kills it if it has not exited
// within timeout.
func (cn *conn) close(timeout time.Duration) {
	cn.mu.Lock()
	cn.expected = true
	alive := cn.err == nil
	cn.mu.Unlock()
	if alive {
		ctx, stop := context.WithTimeout(context.Background(), timeout)
		_ = cn.call(ctx, wire.MethodShutdown, nil, nil)
		stop()
	}
	_ = cn.stdin.Close()
	select {
	case <-cn.done:
	case <-time.After(timeout):
		cn.kill()
		<-cn.done
	}
}

// kill ends the child's whole process group.
func (cn *conn) kill() {
	_ = syscall.Kill(-cn.cmd.Process.Pid, syscall.SIGKILL)
	_ = cn.cmd.Process.Kill()
}
