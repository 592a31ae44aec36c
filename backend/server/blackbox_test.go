package server_test

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// These tests drive the real `scout backend` binary over its real pipes and
// provoke every error of docs/protocol.md §2 that the protocol layer owns.

func startDebug(t *testing.T) *scouttest.Proc {
	t.Helper()
	return scouttest.Start(t, scouttest.Options{Debug: true, Env: []string{"SCOUT_HOME=" + t.TempDir()}})
}

var tsPattern = regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$`)

// checkTS fails unless m carries a valid "ts" where docs/protocol.md §1 puts it.
func checkTS(t *testing.T, m scouttest.Msg) {
	t.Helper()
	var holder struct {
		TS   string `json:"ts"`
		Data *struct {
			TS string `json:"ts"`
		} `json:"data"`
	}
	switch {
	case m.Error != nil:
		holder.TS = m.Error.Data.TS
	case m.Method != "":
		m.Decode(t, &holder)
	default:
		m.Decode(t, &holder)
	}
	if !tsPattern.MatchString(holder.TS) {
		t.Errorf("message without a valid ts: %s", m.Raw)
	}
}

func expectError(t *testing.T, m scouttest.Msg, code wire.Code, id *string) {
	t.Helper()
	if m.Error == nil {
		t.Fatalf("got %s, want error %s", m.Raw, code)
	}
	if m.Error.Data.Code != code || m.Error.Code != code.Number() {
		t.Fatalf("got %s, want %s (%d)", m.Raw, code, code.Number())
	}
	switch {
	case id == nil && m.ID != nil:
		t.Fatalf("id = %q, want null: %s", *m.ID, m.Raw)
	case id != nil && (m.ID == nil || *m.ID != *id):
		t.Fatalf("id wrong, want %q: %s", *id, m.Raw)
	}
	checkTS(t, m)
}

func ptr(s string) *string { return &s }

func TestMalformedFrames(t *testing.T) {
	t.Parallel()
	p := startDebug(t)
	cases := []struct {
		name  string
		frame string
		code  wire.Code
		id    *string
	}{
		{"invalid UTF-8", "{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"status\",\"params\":{\"x\":\"\xff\"}}", wire.CodeParseError, nil},
		{"duplicate keys", `{"jsonrpc":"2.0","id":"a","id":"b","method":"status"}`, wire.CodeParseError, nil},
		{"trailing data", `{"jsonrpc":"2.0","id":"a","method":"status"} {}`, wire.CodeParseError, nil},
		{"not json", `hello`, wire.CodeParseError, nil},
		{"truncated", `{"jsonrpc":"2.0","id":"a"`, wire.CodeParseError, nil},
		// Only JSON whitespace makes a blank line; these are not JSON.
		{"form feed line", "\f", wire.CodeParseError, nil},
		{"no-break space line", "\u00a0", wire.CodeParseError, nil},
		{"byte order mark", "\ufeff" + `{"jsonrpc":"2.0","id":"a","method":"status"}`, wire.CodeParseError, nil},
		{"malformed notification is still not JSON", `{"jsonrpc":"2.0","method":"status","params":{"a":1,"a":2}}`, wire.CodeParseError, nil},
		{"escaped lone surrogate", `{"jsonrpc":"2.0","id":"a","method":"status","params":{"x":"\ud800"}}`, wire.CodeParseError, nil},
		// §10.1: nesting deeper than 10,000 is not JSON; 10,000 is (the
		// request object and params are two of the levels).
		{"nesting 10,001", `{"jsonrpc":"2.0","id":"a","method":"status","params":{"x":` + strings.Repeat("[", 9999) + strings.Repeat("]", 9999) + `}}`, wire.CodeParseError, nil},
		{"nesting 10,000", `{"jsonrpc":"2.0","id":"a","method":"status","params":{"x":` + strings.Repeat("[", 9998) + strings.Repeat("]", 9998) + `}}`, wire.CodeInvalidParams, ptr("a")},
		{"numeric id", `{"jsonrpc":"2.0","id":1,"method":"status"}`, wire.CodeInvalidRequest, nil},
		{"null id", `{"jsonrpc":"2.0","id":null,"method":"status"}`, wire.CodeInvalidRequest, nil},
		{"empty id", `{"jsonrpc":"2.0","id":"","method":"status"}`, wire.CodeInvalidRequest, nil},
		{"65-byte id", `{"jsonrpc":"2.0","id":"` + strings.Repeat("a", 65) + `","method":"status"}`, wire.CodeInvalidRequest, nil},
		{"id with space", `{"jsonrpc":"2.0","id":"a b","method":"status"}`, wire.CodeInvalidRequest, nil},
		{"batch", `[{"jsonrpc":"2.0","id":"a","method":"status"}]`, wire.CodeInvalidRequest, nil},
		{"not an object", `"status"`, wire.CodeInvalidRequest, nil},
		{"a number", `7`, wire.CodeInvalidRequest, nil},
		{"null", `null`, wire.CodeInvalidRequest, nil},
		{"bad id and extra member", `{"jsonrpc":"2.0","id":7,"method":"status","x":1}`, wire.CodeInvalidRequest, nil},
		{"wrong version", `{"jsonrpc":"1.0","id":"a","method":"status"}`, wire.CodeInvalidRequest, ptr("a")},
		{"no method", `{"jsonrpc":"2.0","id":"a"}`, wire.CodeInvalidRequest, ptr("a")},
		{"method not a string", `{"jsonrpc":"2.0","id":"a","method":7}`, wire.CodeInvalidRequest, ptr("a")},
		{"extra member", `{"jsonrpc":"2.0","id":"a","method":"status","result":1}`, wire.CodeInvalidRequest, ptr("a")},
		{"unknown method", `{"jsonrpc":"2.0","id":"a","method":"files.everything"}`, wire.CodeMethodNotFound, ptr("a")},
		{"params unknown member", `{"jsonrpc":"2.0","id":"a","method":"status","params":{"verbose":true}}`, wire.CodeInvalidParams, ptr("a")},
		{"params not an object", `{"jsonrpc":"2.0","id":"a","method":"status","params":[1]}`, wire.CodeInvalidParams, ptr("a")},
		{"params null", `{"jsonrpc":"2.0","id":"a","method":"status","params":null}`, wire.CodeInvalidParams, ptr("a")},
		// §10.2: a known method comes before initialization, params after it.
		{"unknown method before initialize", `{"jsonrpc":"2.0","id":"a","method":"no.such","params":7}`, wire.CodeMethodNotFound, ptr("a")},
		{"bad params before initialize", `{"jsonrpc":"2.0","id":"a","method":"project.files","params":{"x":1}}`, wire.CodeNotInitialized, ptr("a")},
		{"before initialize", `{"jsonrpc":"2.0","id":"a","method":"operation.cancel","params":{"request_id":"x"}}`, wire.CodeNotInitialized, ptr("a")},
	}
	for _, c := range cases {
		p.Send(c.frame)
		m := p.Next(scouttest.DefaultTimeout)
		t.Run(c.name, func(t *testing.T) { expectError(t, m, c.code, c.id) })
	}
	// A notification, well formed or not, is never answered: the next message
	// is the answer to the status that follows.
	p.Send(`{"jsonrpc":"2.0","method":"status"}`)
	p.Send(`{"jsonrpc":"2.0","method":"no.such","params":7}`)
	p.Send(`{"jsonrpc":"1.0","method":["x"],"result":1}`)
	p.Send(`{}`)
	// Blank lines (JSON whitespace only) are not frames; CRLF ends a frame.
	p.Write([]byte("\n \t\r\n\r\n"))
	p.Write([]byte(`{"jsonrpc":"2.0","id":"after","method":"status"}` + "\r\n"))
	if m := p.Next(scouttest.DefaultTimeout); m.ID == nil || *m.ID != "after" || m.Error != nil {
		t.Fatalf("a notification or blank line was answered: %s", m.Raw)
	}
}

func TestOversizedFrames(t *testing.T) {
	t.Parallel()
	p := startDebug(t)
	p.MustCall(wire.MethodStatus, nil, nil)
	before := p.VmHWM()
	// Exactly at the bound: a 65,536-byte frame including its newline is
	// served.
	pad := wire.MaxFrameBytes - 1 - len(`{"jsonrpc":"2.0","id":"edge","method":"status","x":""}`)
	p.Send(`{"jsonrpc":"2.0","id":"edge","method":"status","x":"` + strings.Repeat("a", pad) + `"}`)
	m := p.Next(scouttest.DefaultTimeout)
	expectError(t, m, wire.CodeInvalidRequest, ptr("edge")) // read in full: "x" is not an envelope member
	// One byte over the bound.
	p.Send(`{"jsonrpc":"2.0","id":"over","method":"status","x":"` + strings.Repeat("a", pad+1) + `"}`)
	expectError(t, p.Next(scouttest.DefaultTimeout), wire.CodeInvalidRequest, nil)
	// §10.1: an oversized line is answered once its newline is read, not
	// when it passes the bound.
	p.Write(bytes.Repeat([]byte("x"), 2*wire.MaxFrameBytes))
	if m, ok := p.TryNext(300 * time.Millisecond); ok {
		t.Fatalf("answered before the newline: %s", m.Raw)
	}
	p.Write([]byte("\n"))
	expectError(t, p.Next(scouttest.DefaultTimeout), wire.CodeInvalidRequest, nil)
	// A 1 MiB line, then a 10 MiB line with no newline inside it.
	for _, size := range []int{1 << 20, 10 << 20} {
		chunk := bytes.Repeat([]byte("x"), 64<<10)
		for written := 0; written < size; written += len(chunk) {
			p.Write(chunk)
		}
		p.Write([]byte("\n"))
		expectError(t, p.Next(scouttest.DefaultTimeout), wire.CodeInvalidRequest, nil)
		var st wire.StatusResult
		p.MustCall(wire.MethodStatus, nil, &st) // the next valid request is answered
	}
	if grown := p.VmHWM() - before; grown > 8<<10 {
		t.Errorf("peak RSS grew by %d KiB reading 11 MiB of oversized lines: not bounded", grown)
	}
}

func TestInitializeNegotiation(t *testing.T) {
	t.Parallel()
	p := startDebug(t)
	m := p.Call(wire.MethodInitialize, map[string]any{"protocol_version": 2})
	expectError(t, m, wire.CodeUnsupportedProtocolVersion, m.ID)
	if len(m.Error.Data.Supported) != 1 || m.Error.Data.Supported[0] != 1 {
		t.Fatalf("data.supported = %v", m.Error.Data.Supported)
	}
	many := make([]string, 17)
	for i := range many {
		many[i] = fmt.Sprint("c", i)
	}
	for _, params := range []map[string]any{
		{},
		{"protocol_version": "1"},
		{"protocol_version": 1.5},
		{"protocol_version": 1, "required_capabilities": []string{"a", "a"}},
		{"protocol_version": 1, "required_capabilities": many},
		{"protocol_version": 1, "client": map[string]any{"name": 3}},
		{"protocol_version": 1, "trace": true},
		// Not integers, though numerically 1 (docs/protocol.md §10.3).
		{"protocol_version": jsontext.Value("1.0")},
		{"protocol_version": jsontext.Value("1e0")},
		// Non-strings among the names: null is not a name either.
		{"protocol_version": 1, "required_capabilities": []any{nil}},
		{"protocol_version": 1, "required_capabilities": []any{wire.MethodCancel, 7}},
		// client is {name, version}: both required, nothing else.
		{"protocol_version": 1, "client": map[string]any{}},
		{"protocol_version": 1, "client": map[string]any{"name": "t"}},
		{"protocol_version": 1, "client": map[string]any{"name": nil, "version": "1"}},
		{"protocol_version": 1, "client": map[string]any{"name": "t", "version": "1", "pid": 1}},
	} {
		m := p.Call(wire.MethodInitialize, params)
		expectError(t, m, wire.CodeInvalidParams, m.ID)
	}
	// Any other integer, however large, is a version this backend does not
	// speak.
	for _, v := range []string{"0", "-1", "99999999999999999999999"} {
		m := p.Call(wire.MethodInitialize, map[string]any{"protocol_version": jsontext.Value(v)})
		expectError(t, m, wire.CodeUnsupportedProtocolVersion, m.ID)
	}
	m = p.Call(wire.MethodInitialize, map[string]any{"protocol_version": 1, "required_capabilities": []string{wire.MethodCancel, "teleport", "files.everything"}})
	expectError(t, m, wire.CodeUnsupportedCapability, m.ID)
	if got := strings.Join(m.Error.Data.Capabilities, ","); got != "teleport,files.everything" {
		t.Fatalf("data.capabilities = %q", got)
	}
	// A failed initialize may be retried; the failures were not admitted.
	res := p.Initialize()
	if len(res.Negotiated) != 0 || res.Negotiated == nil || res.Limits != wire.DefaultLimits || res.Server.Name != "scout" {
		t.Fatalf("initialize = %+v", res)
	}
	if res.Workspace.Generation != 1 || res.Workspace.Trust != wire.TrustNoLocalConfig {
		t.Fatalf("workspace = %+v", res.Workspace)
	}
	if !contains(res.Capabilities, wire.MethodCancel) || contains(res.Capabilities, "debug.sleep") {
		t.Fatalf("capabilities = %v", res.Capabilities)
	}
	second := p.Call(wire.MethodInitialize, map[string]any{"protocol_version": 1})
	expectError(t, second, wire.CodeAlreadyInitialized, second.ID)
	// §10.2: initialization is checked before params, the capability too.
	second = p.Call(wire.MethodInitialize, map[string]any{"protocol_version": "x"})
	expectError(t, second, wire.CodeAlreadyInitialized, second.ID)
	m = p.Call(wire.MethodProjectFiles, map[string]any{"x": 1})
	expectError(t, m, wire.CodeUnsupportedCapability, m.ID)
	// operation.cancel was offered but not negotiated.
	m = p.Call(wire.MethodCancel, map[string]any{"request_id": "x"})
	expectError(t, m, wire.CodeUnsupportedCapability, m.ID)
	var st wire.StatusResult
	p.MustCall(wire.MethodStatus, nil, &st)
	if st.RequestsAdmitted != 1 {
		t.Fatalf("requests_admitted = %d, want 1 (the successful initialize)", st.RequestsAdmitted)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestDuplicateActiveID(t *testing.T) {
	t.Parallel()
	p := startDebug(t)
	p.Initialize(wire.MethodCancel)
	p.Request("dup", "debug.sleep", map[string]any{"ms": 400})
	started := p.Next(scouttest.DefaultTimeout)
	if started.Method != wire.NotifyCommandStarted {
		t.Fatalf("want rpc.command.started first, got %s", started.Raw)
	}
	p.Request("dup", wire.MethodStatus, nil)
	expectError(t, p.Next(scouttest.DefaultTimeout), wire.CodeDuplicateRequestID, ptr("dup"))
	// §10.2: the duplicate id is found before the method is looked up.
	p.Request("dup", "no.such", nil)
	expectError(t, p.Next(scouttest.DefaultTimeout), wire.CodeDuplicateRequestID, ptr("dup"))
	// The active one is unaffected and finishes normally; then the id is free.
	m := p.Next(scouttest.DefaultTimeout)
	if m.ID == nil || *m.ID != "dup" || m.Error != nil {
		t.Fatalf("active request disturbed: %s", m.Raw)
	}
	p.Request("dup", wire.MethodStatus, nil)
	if m := p.Next(scouttest.DefaultTimeout); m.Error != nil {
		t.Fatalf("a finished id could not be reused: %s", m.Raw)
	}
}

func TestAdmissionLimitAndStatusWhileStuck(t *testing.T) {
	t.Parallel()
	p := startDebug(t)
	p.Initialize(wire.MethodCancel)
	for i := 0; i < 8; i++ {
		p.Request(fmt.Sprint("s", i), "debug.sleep", map[string]any{"ms": 3000, "stuck": true})
	}
	for i := 0; i < 8; i++ {
		if m := p.Next(scouttest.DefaultTimeout); m.Method != wire.NotifyCommandStarted {
			t.Fatalf("want started, got %s", m.Raw)
		}
	}
	p.Request("ninth", "debug.sleep", map[string]any{"ms": 1})
	expectError(t, p.Next(scouttest.DefaultTimeout), wire.CodeBusy, ptr("ninth"))
	// status answers from the protocol loop while every worker is stuck.
	for i := 0; i < 5; i++ {
		began := time.Now()
		var st wire.StatusResult
		p.MustCall(wire.MethodStatus, nil, &st)
		if d := time.Since(began); d > 100*time.Millisecond {
			t.Errorf("status took %v while workers were stuck", d)
		}
		if len(st.Active) != 8 || st.Active[0].RequestID != "s0" || st.Active[0].Method != "debug.sleep" {
			t.Fatalf("active = %+v", st.Active)
		}
		if st.RequestsAdmitted != 9 { // initialize and the eight; busy is not admitted
			t.Fatalf("requests_admitted = %d, want 9", st.RequestsAdmitted)
		}
	}
	// Cancelling a stuck request answers it at once, but its worker keeps the
	// slot until it really returns.
	p.Request("c", wire.MethodCancel, map[string]any{"request_id": "s0"})
	ack := p.Next(scouttest.DefaultTimeout)
	if ack.ID == nil || *ack.ID != "c" || ack.Error != nil {
		t.Fatalf("want the acknowledgement first, got %s", ack.Raw)
	}
	expectError(t, p.Next(scouttest.DefaultTimeout), wire.CodeOperationCancelled, ptr("s0"))
	m := p.Call("debug.sleep", map[string]any{"ms": 1})
	expectError(t, m, wire.CodeBusy, m.ID)
}

func TestCancel(t *testing.T) {
	t.Parallel()
	p := startDebug(t)
	p.Initialize(wire.MethodCancel)
	m := p.Call(wire.MethodCancel, map[string]any{"request_id": "nobody"})
	expectError(t, m, wire.CodeOperationMissing, m.ID)
	m = p.Call(wire.MethodCancel, map[string]any{"request_id": "bad id!"})
	expectError(t, m, wire.CodeInvalidParams, m.ID)
	m = p.Call(wire.MethodCancel, map[string]any{"request_id": "x", "force": true})
	expectError(t, m, wire.CodeInvalidParams, m.ID)
	p.Request("long", "debug.sleep", map[string]any{"ms": 60000})
	p.Request("c1", wire.MethodCancel, map[string]any{"request_id": "long"})
	var order []string
	for len(order) < 3 {
		m := p.Next(scouttest.DefaultTimeout)
		checkTS(t, m)
		switch {
		case m.Method == wire.NotifyCommandStarted:
			order = append(order, "started")
		case *m.ID == "c1" && m.Error == nil:
			order = append(order, "ack")
		case *m.ID == "long" && m.Code() == wire.CodeOperationCancelled:
			order = append(order, "cancelled")
		default:
			t.Fatalf("unexpected %s", m.Raw)
		}
	}
	if strings.Join(order, ",") != "started,ack,cancelled" {
		t.Fatalf("order = %v", order)
	}
	// A finished request cannot be cancelled.
	m = p.Call(wire.MethodCancel, map[string]any{"request_id": "long"})
	expectError(t, m, wire.CodeOperationMissing, m.ID)
}

func TestRequestLimit(t *testing.T) {
	t.Parallel()
	p := startDebug(t)
	p.Initialize(wire.MethodCancel) // request 1
	// Requests 2..4088, written in bursts so at most a few are outstanding.
	const burst = 4
	for n := 2; n <= 4088; n += burst {
		var ids []string
		for i := n; i < n+burst && i <= 4088; i++ {
			id := fmt.Sprint("r", i)
			ids = append(ids, id)
			p.Request(id, "debug.sleep", map[string]any{"ms": 0})
		}
		for _, id := range ids {
			if m, _ := p.Await(id); m.Error != nil {
				t.Fatalf("request %s: %s", id, m.Raw)
			}
		}
	}
	// Requests 4089..4096 hold every auxiliary slot: the next one meets the
	// request limit before the kind's admission (docs/protocol.md §10.2), so it is not busy.
	for i := 4089; i <= 4096; i++ {
		p.Request(fmt.Sprint("r", i), "debug.sleep", map[string]any{"ms": 60000})
		if m := p.Next(scouttest.DefaultTimeout); m.Method != wire.NotifyCommandStarted {
			t.Fatalf("request %d: %s", i, m.Raw)
		}
	}
	m := p.Call("debug.sleep", map[string]any{"ms": 0})
	expectError(t, m, wire.CodeRequestLimit, m.ID)
	// §10.2: params are checked before the request limit.
	m = p.Call("debug.sleep", map[string]any{"ms": -1})
	expectError(t, m, wire.CodeInvalidParams, m.ID)
	// status, operation.cancel and shutdown keep working and never count.
	var st wire.StatusResult
	p.MustCall(wire.MethodStatus, nil, &st)
	if st.RequestsAdmitted != 4096 {
		t.Fatalf("requests_admitted = %d", st.RequestsAdmitted)
	}
	m = p.Call(wire.MethodCancel, map[string]any{"request_id": "x"})
	expectError(t, m, wire.CodeOperationMissing, m.ID)
	p.MustCall(wire.MethodShutdown, nil, nil)
	if code, _ := p.Wait(scouttest.DefaultTimeout); code != 0 {
		t.Fatalf("exit code %d", code)
	}
}

func TestShutdownWithWorkInFlight(t *testing.T) {
	t.Parallel()
	p := startDebug(t)
	p.Initialize(wire.MethodCancel)
	p.Request("a", "debug.sleep", map[string]any{"ms": 60000})
	p.Request("b", "debug.sleep", map[string]any{"ms": 60000, "stuck": true})
	p.Next(scouttest.DefaultTimeout)
	p.Next(scouttest.DefaultTimeout)
	began := time.Now()
	p.Request("bye", wire.MethodShutdown, nil)
	p.Request("ignored", wire.MethodStatus, nil) // requests after shutdown are not read
	code, rest := p.Wait(scouttest.DefaultTimeout)
	if code != 0 {
		t.Fatalf("exit code %d", code)
	}
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("shutdown took %v with a stuck worker; the bound is 2 s", d)
	}
	var got []string
	for _, m := range rest {
		checkTS(t, m)
		got = append(got, fmt.Sprintf("%s:%s", *m.ID, m.Code()))
	}
	if strings.Join(got, " ") != "a:operation_cancelled b:operation_cancelled bye:" {
		t.Fatalf("after shutdown: %v", got)
	}
	var res wire.ShutdownResult
	rest[2].Decode(t, &res)
	if res.State != wire.StateStopped {
		t.Fatalf("shutdown = %s", rest[2].Raw)
	}
}

func TestEOFWithWorkInFlight(t *testing.T) {
	t.Parallel()
	p := startDebug(t)
	p.Initialize(wire.MethodCancel)
	p.Request("a", "debug.sleep", map[string]any{"ms": 60000, "stuck": true})
	p.Request("b", "debug.sleep", map[string]any{"ms": 60000})
	p.Next(scouttest.DefaultTimeout)
	p.Next(scouttest.DefaultTimeout)
	began := time.Now()
	p.CloseStdin()
	code, rest := p.Wait(scouttest.DefaultTimeout)
	if d := time.Since(began); d > 2*time.Second {
		t.Errorf("exit took %v after EOF with a stuck worker; the bound is 2 s", d)
	}
	if code != 0 || len(rest) != 2 {
		t.Fatalf("exit %d, rest %d messages", code, len(rest))
	}
	for _, m := range rest {
		expectError(t, m, wire.CodeOperationCancelled, m.ID)
	}
}

func TestEOFInsideFrame(t *testing.T) {
	t.Parallel()
	p := startDebug(t)
	p.Write([]byte(`{"jsonrpc":"2.0","id":"half","meth`))
	p.CloseStdin()
	code, rest := p.Wait(scouttest.DefaultTimeout)
	if code != 0 || len(rest) != 1 {
		t.Fatalf("exit %d, rest %v", code, rest)
	}
	expectError(t, rest[0], wire.CodeParseError, nil)
}

func TestNoPathsInErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := scouttest.Start(t, scouttest.Options{Dir: dir, Debug: true})
	p.Send(`{"jsonrpc":"2.0","id":"a","method":"status","params":{"` + dir + `":1}}`)
	m := p.Next(scouttest.DefaultTimeout)
	expectError(t, m, wire.CodeInvalidParams, ptr("a"))
	if strings.Contains(string(m.Raw), dir) {
		t.Fatalf("error echoes a path: %s", m.Raw)
	}
	// A member of the method is named, never in a form that reads as a
	// path (a JSON pointer such as /etc/passwd); a member the client made
	// up (etc, id_rsa) is not named at all.
	p.Send(`{"jsonrpc":"2.0","id":"b","method":"initialize","params":{"protocol_version":1,"etc":{"passwd":1}}}`)
	p.Send(`{"jsonrpc":"2.0","id":"c","method":"initialize","params":{"protocol_version":1,"client":"home"}}`)
	p.Send(`{"jsonrpc":"2.0","id":"d","method":"initialize","params":{"protocol_version":1,"id_rsa":1}}`)
	for _, tc := range []struct{ want, not string }{{"params has an unknown member", "etc"}, {"params.client", "home"}, {"params has an unknown member", "id_rsa"}} {
		m := p.Next(scouttest.DefaultTimeout)
		expectError(t, m, wire.CodeInvalidParams, m.ID)
		if msg := m.Error.Message; strings.Contains(msg, "/") || !strings.Contains(msg, tc.want) || strings.Contains(msg, tc.not) {
			t.Errorf("message %q: want %q, without a slash or %q", msg, tc.want, tc.not)
		}
	}
}

// TestLastLineWithoutNewline (docs/protocol.md §10.1): a last line that ends at end of input
// without a newline is a frame, and the bound counts the newline it lacks.
func TestLastLineWithoutNewline(t *testing.T) {
	t.Parallel()
	frame := func(size int) string {
		head := `{"jsonrpc":"2.0","id":"last","method":"status"`
		return head + strings.Repeat(" ", size-len(head)-1) + "}"
	}
	for _, c := range []struct {
		size int
		code wire.Code
		id   *string
	}{{65535, "", ptr("last")}, {65536, wire.CodeInvalidRequest, nil}} {
		p := startDebug(t)
		p.Write([]byte(frame(c.size)))
		p.CloseStdin()
		code, rest := p.Wait(scouttest.DefaultTimeout)
		if code != 0 || len(rest) != 1 {
			t.Fatalf("%d bytes: exit %d, %d messages", c.size, code, len(rest))
		}
		if c.code == "" {
			if m := rest[0]; m.Error != nil || m.ID == nil || *m.ID != "last" {
				t.Errorf("%d bytes: %s", c.size, m.Raw)
			}
			continue
		}
		expectError(t, rest[0], c.code, c.id)
	}
}

// TestDebugMethodsNeedTheVariable (docs/protocol.md §10.5): without SCOUT_DEBUG_METHODS=1,
// debug.sleep does not exist.
func TestDebugMethodsNeedTheVariable(t *testing.T) {
	t.Parallel()
	for _, env := range [][]string{nil, {"SCOUT_DEBUG_METHODS=0"}, {"SCOUT_DEBUG_METHODS=true"}} {
		p := scouttest.Start(t, scouttest.Options{Env: append(env, "SCOUT_HOME="+t.TempDir())})
		p.Initialize()
		m := p.Call("debug.sleep", map[string]any{"ms": 0})
		expectError(t, m, wire.CodeMethodNotFound, m.ID)
	}
}
