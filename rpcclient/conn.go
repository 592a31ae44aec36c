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
)

// maxInboundLine bounds one line from the child. The protocol's largest
// message is a 1 MiB report; anything far beyond is a broken child.
const maxInboundLine = 4 << 20

// response is one terminal response as the reader hands it to a caller.
type response struct {
	result jsontext.Value
	err    *wire.Error
}

type pending struct {
	ch        chan response // buffered: the reader never blocks on it
	abandoned bool          // the caller gave up; drop the response
}

// conn is one child process and its pipes.
type conn struct {
	child   uint64
	cmd     *exec.Cmd
	stdin   io.WriteCloser
	events  *queue
	cancels bool // operation.cancel was negotiated

	writeMu sync.Mutex

	mu       sync.Mutex
	pending  map[string]*pending
	seq      uint64
	err      error // why the connection ended
	expected bool  // the end follows Close
	done     chan struct{}
}

func startConn(opts Options, child uint64, events *queue) (*conn, error) {
	cmd := exec.Command(opts.Exe, opts.Args...)
	cmd.Dir = opts.Dir
	cmd.Env = opts.Env
	cmd.Stderr = opts.Stderr
	// Its own process group: the terminal's signals (Ctrl-C) go to the
	// frontend only, and a kill reaches anything the child started.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// After the child exits, stop waiting for pipes a leftover process may
	// still hold.
	cmd.WaitDelay = time.Second
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, errors.New("cannot start the scout backend: " + describeStartError(err))
	}
	cn := &conn{child: child, cmd: cmd, stdin: stdin, events: events, pending: map[string]*pending{}, done: make(chan struct{})}
	go cn.read(stdout)
	return cn, nil
}

func describeStartError(err error) string {
	var ee *exec.Error
	if errors.As(err, &ee) {
		return ee.Err.Error()
	}
	return "the process could not be started"
}

// read delivers responses to their callers and notifications to the event
// queue until the child's output ends or breaks the protocol.
func (cn *conn) read(stdout io.Reader) {
	r := bufio.NewReaderSize(stdout, 64<<10)
	var fault error
	var buf []byte // one line's room, reused: dispatch keeps nothing of it
	for fault == nil {
		line, err := readLine(r, buf[:0])
		buf = line
		if err != nil {
			if !errors.Is(err, io.EOF) {
				fault = err
			}
			break
		}
		fault = cn.dispatch(line)
	}
	if fault != nil {
		cn.kill()
	}
	waitErr := cn.cmd.Wait()
	cn.finish(fault, waitErr)
}

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

// inbound is any message from the child.
type inbound struct {
	JSONRPC string            `json:"jsonrpc"`
	ID      jsontext.Value    `json:"id"`
	Method  string            `json:"method"`
	Result  jsontext.Value    `json:"result"`
	Error   *wire.ErrorObject `json:"error"`
	Params  jsontext.Value    `json:"params"`
}

func (cn *conn) dispatch(line []byte) error {
	if len(bytes.TrimSpace(line)) == 0 {
		return &ProtocolError{Reason: "an empty line"}
	}
	var m inbound
	if err := wire.Unmarshal(line, &m); err != nil || m.JSONRPC != wire.Version {
		return &ProtocolError{Reason: "a line that is not a JSON-RPC 2.0 message"}
	}
	if m.ID == nil {
		if m.Method == "" {
			return &ProtocolError{Reason: "a message that is neither a response nor a notification"}
		}
		cn.events.push(Event{Child: cn.child, Method: m.Method, Params: m.Params})
		return nil
	}
	if (m.Result == nil) == (m.Error == nil) {
		return &ProtocolError{Reason: "a response without exactly one of result and error"}
	}
	var id string
	if m.ID.Kind() != '"' || wire.Unmarshal(m.ID, &id) != nil {
		return nil // an answer to a frame whose id could not be read; not ours
	}
	cn.deliver(id, response{result: m.Result, err: errorOf(m.Error)})
	return nil
}

// decodeResult decodes a result that the read of its line has already
// checked, skipping a second check where the type can (the report).
func decodeResult(raw jsontext.Value, result any) error {
	if d, ok := result.(wire.ValidDecoder); ok {
		return d.DecodeValid(raw)
	}
	return wire.Unmarshal(raw, result)
}

func errorOf(o *wire.ErrorObject) *wire.Error {
	if o == nil {
		return nil
	}
	return o.AsError()
}

func (cn *conn) deliver(id string, r response) {
	cn.mu.Lock()
	p := cn.pending[id]
	delete(cn.pending, id)
	cn.mu.Unlock()
	if p != nil && !p.abandoned {
		p.ch <- r
	}
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
	p := &pending{ch: make(chan response, 1)}
	cn.mu.Lock()
	if cn.err != nil {
		cn.mu.Unlock()
		return cn.err
	}
	cn.seq++
	id := "c" + strconv.FormatUint(cn.seq, 10)
	cn.pending[id] = p
	cn.mu.Unlock()
	if err := cn.send(id, method, params); err != nil {
		cn.forget(id)
		return err
	}
	select {
	case r := <-p.ch:
		if r.err != nil {
			return r.err
		}
		if result == nil {
			return nil
		}
		if err := decodeResult(r.result, result); err != nil {
			return &ProtocolError{Reason: "a " + method + " result of the wrong shape"}
		}
		return nil
	case <-ctx.Done():
		cn.abandon(id)
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

func (cn *conn) abandon(id string) {
	cn.mu.Lock()
	if p := cn.pending[id]; p != nil {
		p.abandoned = true
	}
	cn.mu.Unlock()
}

func (cn *conn) forget(id string) {
	cn.mu.Lock()
	delete(cn.pending, id)
	cn.mu.Unlock()
}

func (cn *conn) send(id, method string, params any) error {
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
		<-cn.doneOrTimeout(2 * time.Second)
		cn.mu.Lock()
		defer cn.mu.Unlock()
		if cn.err != nil {
			return cn.err
		}
		return &ExitError{State: "its input is closed"}
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
