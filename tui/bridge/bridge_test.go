package bridge_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/bridge/bridgetest"
)

func TestDescribeSaysWhatToDo(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want string
	}{
		{nil, ""},
		{wire.NewError(wire.CodeBusy), "busy"},
		{fmt.Errorf("scan: %w", wire.NewError(wire.CodeScanTimeout)), "Ctrl-R tries again"},
		{wire.NewError(wire.CodeRequestLimit), "restarting it"},
		{&rpcclient.ExitError{State: "signal: killed"}, "the backend stopped (signal: killed); press R to restart it"},
		{&rpcclient.ProtocolError{Reason: "x"}, "press R"},
		{context.DeadlineExceeded, "did not answer in time"},
		{wire.NewError(wire.CodeNotFound), "no longer available"},
		{wire.NewError(wire.CodeSelectionStale), "reload it and select again"},
		{bridge.Explain(wire.NewError(wire.CodeNotFound), "that session no longer exists"), "that session no longer exists"},
	} {
		got := bridge.Describe(tc.err)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("Describe(%v) = %q, want it to say %q", tc.err, got, tc.want)
		}
	}
}

func TestListenDecodesInvalidationAndExit(t *testing.T) {
	f := bridgetest.New(bridgetest.Options{Files: []string{"a"}})
	listen := bridge.Listen(f)
	gen := f.Invalidate()
	msg := listen().(bridge.EventMsg)
	if msg.Invalidated == nil || msg.Invalidated.Generation != gen || msg.Child != 1 {
		t.Fatalf("got %+v, want invalidation of generation %d", msg, gen)
	}
	f.Crash()
	if msg := listen().(bridge.EventMsg); msg.Exit == nil {
		t.Fatalf("got %+v, want the exit", msg)
	}
	f.Close()
	if msg := listen().(bridge.EventMsg); !msg.Closed {
		t.Fatalf("got %+v, want closed", msg)
	}
}

func TestRestartReportsTheNewChild(t *testing.T) {
	f := bridgetest.New(bridgetest.Options{Files: []string{"a"}})
	f.Invalidate()
	msg := bridge.Restart(f)().(bridge.RestartedMsg)
	if msg.Err != nil || msg.Child != 2 || msg.Init.Workspace.Generation != 1 {
		t.Fatalf("got %+v, want child 2 at generation 1", msg)
	}
}

func TestNegotiated(t *testing.T) {
	with := bridgetest.New(bridgetest.Options{Preview: true})
	without := bridgetest.New(bridgetest.Options{})
	if !bridge.Negotiated(with, wire.MethodProjectList, wire.MethodProjectRead) {
		t.Error("preview capabilities not seen")
	}
	if bridge.Negotiated(without, wire.MethodProjectRead) {
		t.Error("project.read seen on a backend without it")
	}
	if bridge.Code(errors.New("x")) != "" || bridge.Code(wire.NewError(wire.CodeBusy)) != wire.CodeBusy {
		t.Error("Code")
	}
}

func TestNegotiationRequiresTheTabsCapabilities(t *testing.T) {
	req, opt := bridge.Negotiation(bridge.Sessions)
	if strings.Join(req, ",") != "project.files,session.discover,session.open" {
		t.Fatalf("required %q", req)
	}
	for _, c := range req {
		if slices.Contains(opt, c) {
			t.Fatalf("%s is both required and optional", c)
		}
	}
	if !slices.Contains(opt, wire.MethodModelRefresh) || !slices.Contains(opt, wire.MethodCancel) {
		t.Fatalf("optional %q", opt)
	}
	if len(req)+len(opt) > wire.MaxRequiredCapabilities {
		t.Fatalf("%d capabilities, more than initialize takes", len(req)+len(opt))
	}
	if code := bridge.Code(bridge.Explain(wire.NewError(wire.CodeRequestLimit), "x")); code != wire.CodeRequestLimit {
		t.Fatalf("Code of an explained error = %q", code)
	}
}
