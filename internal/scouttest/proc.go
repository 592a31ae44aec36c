package scouttest

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/asuser"
)

// DefaultTimeout bounds every wait of the harness; generous because the
// machines running the tests are shared and the binary may be built with -race.
const DefaultTimeout = 20 * time.Second

// Msg is one line the backend wrote, decoded.
type Msg struct {
	Raw    []byte
	ID     *string
	Method string
	Result jsontext.Value
	Error  *wire.ErrorObject
	Params jsontext.Value
	At     time.Time
}

// IsResponse reports whether m is a response (it has an id member).
func (m Msg) IsResponse() bool { return m.Method == "" }

// Code is the error's data.code, or "" for a success.
func (m Msg) Code() wire.Code {
	if m.Error == nil {
		return ""
	}
	return m.Error.Data.Code
}

// Decode decodes the result (or notification params) into v.
func (m Msg) Decode(t testing.TB, v any) {
	t.Helper()
	raw := m.Result
	if m.Method != "" {
		raw = m.Params
	}
	if err := wire.Unmarshal(raw, v); err != nil {
		t.Fatalf("decoding %s: %v", m.Raw, err)
	}
}

// Options configure a backend process.
type Options struct {
	Dir   string   // working directory (the workspace); a temp dir when empty
	Env   []string // extra environment, appended to the parent's
	Debug bool     // sets SCOUT_DEBUG_METHODS=1
	Args  []string // defaults to ["backend"]
	// Unprivileged runs the backend as uid/gid 65534 when the tests run as
	// root (root reads a mode-0000 file anyway); Dir and the files the
	// backend must reach have to be accessible to that user (asuser.Share).
	Unprivileged bool
	// Observe, when set, sees every line the backend writes (without its
	// newline), in order, before the test reads it: the leak scan of the
	// adversarial suite hooks in here. It runs on the harness's reader
	// goroutine and must not block.
	Observe func(line []byte)
}

// Proc is a running `scout backend` with its real pipes.
type Proc struct {
	t       testing.TB
	Cmd     *exec.Cmd
	stdin   io.WriteCloser
	msgs    *queue
	stderr  *lockedBuffer
	done    chan struct{}
	exit    error
	seq     int
	observe func([]byte)
	stash   map[string]Msg // responses read while awaiting another id
}

// lockedBuffer collects stderr; grew holds a token once it has grown since
// the token was last taken.
type lockedBuffer struct {
	mu   sync.Mutex
	b    bytes.Buffer
	grew chan struct{}
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case l.grew <- struct{}{}:
	default:
	}
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// Environ is the environment for a child scout in tests: ours, which
// testhome.Isolate made (a home of the test process's own and, when the
// binary is built with -race, GORACE=atexit_sleep_ms=0: the race runtime
// otherwise sleeps 1 s at exit, which would also hide whether the backend
// honours its own exit bounds).
func Environ() []string { return os.Environ() }

// GoFlags is the GOFLAGS for a go command a test runs (the go run of the
// README's demo in a fresh clone): the caller's GOFLAGS, and -race when
// this test binary is built with -race. Such a build then finds every
// dependency compiled already in the build cache, by this run's race test
// binaries; without -race it compiles the whole dependency graph a second
// time (from an empty build cache, over a minute of CPU: chroma, the MCP
// SDK, the charm stack).
func GoFlags() string {
	flags := os.Getenv("GOFLAGS")
	if raceEnabled {
		flags = strings.TrimSpace(flags + " -race")
	}
	return flags
}

// Start spawns the backend. The process is killed at the end of the test if
// it is still running.
func Start(t testing.TB, opts Options) *Proc {
	t.Helper()
	bin := Binary(t)
	if opts.Dir == "" {
		opts.Dir = t.TempDir()
	}
	if opts.Args == nil {
		opts.Args = []string{"backend"}
	}
	cmd := exec.Command(bin, opts.Args...)
	if opts.Unprivileged {
		cmd = asuser.Command(t, bin, opts.Args...)
	}
	cmd.Dir = opts.Dir
	cmd.Env = append(Environ(), opts.Env...)
	if opts.Debug {
		cmd.Env = append(cmd.Env, "SCOUT_DEBUG_METHODS=1")
	}
	p := &Proc{t: t, Cmd: cmd, msgs: newQueue(), stderr: &lockedBuffer{grew: make(chan struct{}, 1)}, done: make(chan struct{}), observe: opts.Observe}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	p.stdin = stdin
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go p.read(stdout)
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-p.done
	})
	return p
}

func (p *Proc) read(stdout io.Reader) {
	defer close(p.done)
	defer p.msgs.close()
	r := bufio.NewReaderSize(stdout, 1<<20)
	for {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 {
			m := decodeMsg(line)
			if p.observe != nil {
				p.observe(m.Raw)
			}
			p.msgs.put(m)
		}
		if err != nil {
			p.exit = p.Cmd.Wait()
			return
		}
	}
}

// DecodeLine decodes one line the backend wrote, as the harness does (for
// tests of test oracles).
func DecodeLine(line []byte) Msg { return decodeMsg(line) }

func decodeMsg(line []byte) Msg {
	m := Msg{Raw: bytes.TrimRight(line, "\n"), At: time.Now()}
	var env struct {
		ID     *string           `json:"id"`
		Method string            `json:"method"`
		Result jsontext.Value    `json:"result"`
		Error  *wire.ErrorObject `json:"error"`
		Params jsontext.Value    `json:"params"`
	}
	if err := wire.Unmarshal(m.Raw, &env); err != nil {
		m.Method = "<undecodable>"
		return m
	}
	m.ID, m.Method, m.Result, m.Error, m.Params = env.ID, env.Method, env.Result, env.Error, env.Params
	return m
}

// Stderr returns what the backend wrote to stderr so far.
func (p *Proc) Stderr() string { return p.stderr.String() }

// AwaitStderr returns the backend's stderr once it holds want, or what it
// holds when the backend has exited or DefaultTimeout has passed: stderr
// is read on its own pipe, so a line written before a response may reach
// the test after it.
func (p *Proc) AwaitStderr(want string) string {
	timeout := time.After(DefaultTimeout)
	for {
		stderr := p.Stderr()
		if strings.Contains(stderr, want) {
			return stderr
		}
		select {
		case <-p.stderr.grew:
		case <-p.done: // everything it wrote has been read
			return p.Stderr()
		case <-timeout:
			return p.Stderr()
		}
	}
}

// Write writes raw bytes to the backend's stdin.
func (p *Proc) Write(b []byte) {
	p.t.Helper()
	if _, err := p.stdin.Write(b); err != nil {
		p.t.Fatalf("writing to the backend: %v", err)
	}
}

// TryWrite writes raw bytes to the backend's stdin and returns the error
// instead of failing the test, for writers on their own goroutine.
func (p *Proc) TryWrite(b []byte) error {
	_, err := p.stdin.Write(b)
	return err
}

// Send writes one frame (a newline is added).
func (p *Proc) Send(frame string) { p.t.Helper(); p.Write([]byte(frame + "\n")) }

// Request writes a request with id, method and params (nil: no params member).
func (p *Proc) Request(id, method string, params any) {
	p.t.Helper()
	req := map[string]any{"jsonrpc": "2.0", "id": id, "method": method}
	if params != nil {
		req["params"] = params
	}
	b, err := wire.Marshal(req)
	if err != nil {
		p.t.Fatal(err)
	}
	p.Write(append(b, '\n'))
}

// NextID returns a fresh request id.
func (p *Proc) NextID() string { p.seq++; return fmt.Sprintf("t%d", p.seq) }

// Next returns the next message, failing the test after timeout.
func (p *Proc) Next(timeout time.Duration) Msg {
	p.t.Helper()
	m, ok, timedOut := p.msgs.take(time.After(timeout))
	switch {
	case timedOut:
		p.t.Fatalf("no message from the backend within %v; stderr:\n%s", timeout, p.Stderr())
	case !ok:
		p.t.Fatalf("backend closed its output (exit: %v); stderr:\n%s", p.exit, p.Stderr())
	}
	return m
}

// TryNext returns the next message or false after timeout or at EOF.
func (p *Proc) TryNext(timeout time.Duration) (Msg, bool) {
	m, ok, _ := p.msgs.take(time.After(timeout))
	return m, ok
}

// Await reads messages until the response to id, returning it and every
// message read before it (notifications and other responses). Responses to
// other ids are also kept for their own Await.
func (p *Proc) Await(id string) (Msg, []Msg) {
	p.t.Helper()
	if m, ok := p.stash[id]; ok {
		delete(p.stash, id)
		return m, nil
	}
	var before []Msg
	deadline := time.Now().Add(DefaultTimeout)
	for {
		m := p.Next(time.Until(deadline))
		if m.IsResponse() && m.ID != nil && *m.ID == id {
			return m, before
		}
		if m.IsResponse() && m.ID != nil {
			if p.stash == nil {
				p.stash = map[string]Msg{}
			}
			p.stash[*m.ID] = m
		}
		before = append(before, m)
	}
}

// Call sends a request and waits for its response.
func (p *Proc) Call(method string, params any) Msg {
	p.t.Helper()
	id := p.NextID()
	p.Request(id, method, params)
	m, _ := p.Await(id)
	return m
}

// MustCall is Call that fails the test on an error response and decodes the
// result into v (when v is not nil).
func (p *Proc) MustCall(method string, params any, v any) Msg {
	p.t.Helper()
	m := p.Call(method, params)
	if m.Error != nil {
		p.t.Fatalf("%s: error %s: %s", method, m.Error.Data.Code, m.Error.Message)
	}
	if v != nil {
		m.Decode(p.t, v)
	}
	return m
}

// Initialize negotiates caps and returns the result.
func (p *Proc) Initialize(caps ...string) wire.InitializeResult {
	p.t.Helper()
	if caps == nil {
		caps = []string{}
	}
	var res wire.InitializeResult
	p.MustCall(wire.MethodInitialize, map[string]any{"protocol_version": 1, "client": map[string]string{"name": "scouttest", "version": "0"}, "required_capabilities": caps}, &res)
	return res
}

// CloseStdin closes the backend's stdin (end of input).
func (p *Proc) CloseStdin() { _ = p.stdin.Close() }

// Wait waits for the process to exit and returns its exit code, failing the
// test after timeout. Remaining output is drained into the returned slice.
func (p *Proc) Wait(timeout time.Duration) (int, []Msg) {
	p.t.Helper()
	var rest []Msg
	deadline := time.After(timeout)
	for {
		m, ok, timedOut := p.msgs.take(deadline)
		switch {
		case timedOut:
			p.t.Fatalf("backend did not exit within %v", timeout)
		case !ok:
			return exitCodeOf(p.exit), rest
		}
		rest = append(rest, m)
	}
}

func exitCodeOf(err error) int {
	if err == nil {
		return 0
	}
	if ee, ok := err.(*exec.ExitError); ok {
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal())
		}
		return ee.ExitCode()
	}
	return -1
}

// VmHWM returns the backend's peak resident set size in KiB, from
// /proc/PID/status.
func (p *Proc) VmHWM() int {
	p.t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", p.Cmd.Process.Pid))
	if err != nil {
		p.t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(line, "VmHWM:") {
			var kb int
			fmt.Sscanf(strings.TrimSpace(strings.TrimPrefix(line, "VmHWM:")), "%d", &kb)
			return kb
		}
	}
	p.t.Fatal("no VmHWM in /proc status")
	return 0
}
