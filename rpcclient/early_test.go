package rpcclient_test

import (
	"context"
	"io"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/rpcclient"
	"github.com/scoutdev/scout/rpcclient/spawn"
)

// TestStartTakesTheEarlyChild: a child started already (as the picker's
// init starts one) is the one Start initializes and the client calls. A
// restart starts a child of its own.
func TestStartTakesTheEarlyChild(t *testing.T) {
	t.Parallel()
	exe := scouttest.Binary(t)
	dir := t.TempDir()
	env := append(scouttest.Environ(), "SCOUT_DEBUG_METHODS=1", "SCOUT_HOME="+t.TempDir())
	early, err := spawn.Start(exe, []string{"backend"}, dir, env, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	defer cancel()
	c, err := rpcclient.Start(ctx, rpcclient.Options{Exe: exe, Dir: dir, Env: env, Capabilities: []string{wire.MethodCancel}, Stderr: io.Discard, Early: early})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	defer c.Close()
	if got, want := c.PID(), early.Cmd.Process.Pid; got != want {
		t.Fatalf("the client drives child %d, not the early one %d", got, want)
	}
	if _, err := c.Status(ctx); err != nil {
		t.Fatalf("status through the early child: %v", err)
	}
	if err := c.Restart(ctx); err != nil {
		t.Fatalf("Restart: %v", err)
	}
	if c.PID() == early.Cmd.Process.Pid {
		t.Fatal("the restart reused the early child")
	}
	if _, err := c.Status(ctx); err != nil {
		t.Fatalf("status after the restart: %v", err)
	}
}

// TestThePipeHoldsAPage: the room spawn asks for in the child's output
// pipe holds the longest result line whole (a report or an index page).
func TestThePipeHoldsAPage(t *testing.T) {
	t.Parallel()
	if spawn.PipeBytes < rpcclient.MaxResultLine {
		t.Fatalf("spawn.PipeBytes %d < the longest result line %d", spawn.PipeBytes, rpcclient.MaxResultLine)
	}
}
