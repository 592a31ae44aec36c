package rpcclient_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/rpcclient"
)

func start(t *testing.T, caps ...string) *rpcclient.Client {
	t.Helper()
	exe := scouttest.Binary(t) // built first: the build is not the start's to wait for
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	defer cancel()
	c, err := rpcclient.Start(ctx, rpcclient.Options{
		Exe:          exe,
		Dir:          t.TempDir(),
		Env:          append(scouttest.Environ(), "SCOUT_DEBUG_METHODS=1", "SCOUT_HOME="+t.TempDir()),
		Capabilities: caps,
	})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

func sleep(ctx context.Context, c *rpcclient.Client, ms int) error {
	return c.Call(ctx, "debug.sleep", map[string]any{"ms": ms}, nil)
}

func TestStatusAndInit(t *testing.T) {
	t.Parallel()
	c := start(t, wire.MethodCancel)
	if got := c.Init().Negotiated; len(got) != 1 || got[0] != wire.MethodCancel {
		t.Fatalf("negotiated = %v", got)
	}
	st, err := c.Status(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if st.State != wire.StateReady || st.RequestsAdmitted != 1 {
		t.Fatalf("status = %+v, want ready with initialize counted", st)
	}
}

func TestContextCancelSendsOperationCancel(t *testing.T) {
	t.Parallel()
	c := start(t, wire.MethodCancel)
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() { errc <- sleep(ctx, c, 60000) }()
	waitActive(t, c, 1)
	began := time.Now()
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Call did not return after its context was cancelled")
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("Call returned %v after cancel", d)
	}
	// The backend saw operation.cancel: the sleep is no longer active, and
	// the client keeps working (the late responses were consumed).
	waitActive(t, c, 0)
	if err := sleep(context.Background(), c, 1); err != nil {
		t.Fatalf("next call: %v", err)
	}
}

func TestCancelWithoutNegotiationOnlyAbandons(t *testing.T) {
	t.Parallel()
	c := start(t) // operation.cancel not negotiated
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if err := sleep(ctx, c, 300); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v", err)
	}
	waitActive(t, c, 0) // the sleep finished on its own
	if err := sleep(context.Background(), c, 1); err != nil {
		t.Fatalf("next call: %v", err)
	}
}

func waitActive(t *testing.T, c *rpcclient.Client, n int) {
	t.Helper()
	deadline := time.Now().Add(scouttest.DefaultTimeout)
	for {
		st, err := c.Status(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		if len(st.Active) == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("active = %v, want %d", st.Active, n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestChildKilledMidCallThenRestart(t *testing.T) {
	t.Parallel()
	c := start(t, wire.MethodCancel)
	errc := make(chan error, 1)
	go func() { errc <- sleep(context.Background(), c, 60000) }()
	waitActive(t, c, 1)
	pid := childPID(t, c)
	if err := killPID(pid); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-errc:
	case <-time.After(scouttest.DefaultTimeout):
		t.Fatal("pending call did not fail after the child was killed")
	}
	var exit *rpcclient.ExitError
	if !errors.As(err, &exit) || exit.Expected || !strings.Contains(exit.Error(), "killed") {
		t.Fatalf("err = %v, want an unexpected exit naming the signal", err)
	}
	ev := nextEvent(t, c)
	if ev.Exit == nil || ev.Child != 1 {
		t.Fatalf("event = %+v, want the exit of child 1", ev)
	}
	if err := sleep(context.Background(), c, 1); !errors.As(err, &exit) {
		t.Fatalf("call on a dead child = %v, want ExitError", err)
	}
	if err := c.Restart(context.Background()); err != nil {
		t.Fatalf("Restart: %v", err)
	}
	if c.Child() != 2 {
		t.Fatalf("Child = %d after restart", c.Child())
	}
	if _, err := c.Status(context.Background()); err != nil {
		t.Fatalf("status after restart: %v", err)
	}
}

func nextEvent(t *testing.T, c *rpcclient.Client) rpcclient.Event {
	t.Helper()
	for {
		select {
		case ev, ok := <-c.Events():
			if !ok {
				t.Fatal("events closed")
			}
			if ev.Method == wire.NotifyCommandStarted {
				continue
			}
			return ev
		case <-time.After(scouttest.DefaultTimeout):
			t.Fatal("no event")
		}
	}
}

func TestNotificationsDelivered(t *testing.T) {
	t.Parallel()
	c := start(t)
	if err := sleep(context.Background(), c, 1); err != nil {
		t.Fatal(err)
	}
	select {
	case ev := <-c.Events():
		if ev.Method != wire.NotifyCommandStarted || ev.Child != 1 {
			t.Fatalf("event = %+v", ev)
		}
	case <-time.After(scouttest.DefaultTimeout):
		t.Fatal("no rpc.command.started event")
	}
}

func TestGarbageFromChild(t *testing.T) {
	t.Parallel()
	cases := map[string]string{
		"not json":       `echo garbage; sleep 30`,
		"not json-rpc":   `echo '{"hello":1}'; sleep 30`,
		"binary":         `printf '\001\002\377\n'; sleep 30`,
		"endless line":   `head -c 6000000 /dev/zero | tr '\0' 'x'; sleep 30`,
		"exits silently": `exit 3`,
	}
	for name, script := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
			defer cancel()
			began := time.Now()
			_, err := rpcclient.Start(ctx, rpcclient.Options{Exe: "/bin/sh", Args: []string{"-c", script}, CloseTimeout: time.Second})
			if err == nil {
				t.Fatal("Start succeeded against a broken child")
			}
			var pe *rpcclient.ProtocolError
			var ee *rpcclient.ExitError
			if !errors.As(err, &pe) && !errors.As(err, &ee) {
				t.Fatalf("err = %T %v, want ProtocolError or ExitError", err, err)
			}
			if d := time.Since(began); d > 10*time.Second {
				t.Fatalf("Start took %v: a broken child must not hang the client", d)
			}
		})
	}
}

func TestCloseKillsUnresponsiveChild(t *testing.T) {
	t.Parallel()
	// A child that answers initialize and then ignores everything.
	script := `read line; echo '{"jsonrpc":"2.0","id":"c1","result":{"protocol_version":1,"server":{"name":"fake","version":"0"},"capabilities":[],"negotiated":[],"limits":{},"extensions":{},"workspace":{"generation":1,"trust":"no_local_config"},"ts":"2026-01-01T00:00:00.000Z"}}'; exec sleep 60`
	c, err := rpcclient.Start(context.Background(), rpcclient.Options{Exe: "/bin/sh", Args: []string{"-c", script}, CloseTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { c.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Close did not kill an unresponsive child")
	}
	if err := c.Call(context.Background(), wire.MethodStatus, nil, nil); !errors.Is(err, rpcclient.ErrClosed) {
		t.Fatalf("call after Close = %v", err)
	}
}

func TestProtocolErrorsAreTyped(t *testing.T) {
	t.Parallel()
	c := start(t)
	err := c.Call(context.Background(), "no.such.method", nil, nil)
	var we *wire.Error
	if !errors.As(err, &we) || we.Code != wire.CodeMethodNotFound {
		t.Fatalf("err = %v, want method_not_found", err)
	}
}

func TestOptionalCapabilitiesKeepOnlyOffered(t *testing.T) {
	t.Parallel()
	exe := scouttest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	defer cancel()
	c, err := rpcclient.Start(ctx, rpcclient.Options{
		Exe:          exe,
		Dir:          t.TempDir(),
		Env:          append(scouttest.Environ(), "SCOUT_HOME="+t.TempDir()),
		Capabilities: []string{wire.MethodCancel},
		Optional:     []string{"no.such.capability", wire.MethodCancel + ".nope"},
	})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer c.Close()
	if got := c.Init().Negotiated; len(got) != 1 || got[0] != wire.MethodCancel {
		t.Fatalf("negotiated = %v, want only the required operation.cancel", got)
	}
	if _, err := c.Status(ctx); err != nil {
		t.Fatalf("status after a retried initialize: %v", err)
	}
}

func TestMissingRequiredCapabilityFailsStart(t *testing.T) {
	t.Parallel()
	exe := scouttest.Binary(t)
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	defer cancel()
	_, err := rpcclient.Start(ctx, rpcclient.Options{
		Exe:          exe,
		Dir:          t.TempDir(),
		Env:          append(scouttest.Environ(), "SCOUT_HOME="+t.TempDir()),
		Capabilities: []string{"no.such.capability"},
		Optional:     []string{wire.MethodCancel},
	})
	var we *wire.Error
	if !errors.As(err, &we) || we.Code != wire.CodeUnsupportedCapability {
		t.Fatalf("err = %v, want unsupported_capability", err)
	}
}
