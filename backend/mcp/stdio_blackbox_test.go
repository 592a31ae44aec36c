package mcp_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// startInitialized starts the real `scout mcp` in dir (the test's own
// directory when "") and goes through the handshake.
func startInitialized(t *testing.T, dir string) *scouttest.Proc {
	t.Helper()
	p := scouttest.Start(t, scouttest.Options{
		Dir:  dir,
		Args: []string{"mcp"},
		Env:  []string{"SCOUT_HOME=" + filepath.Join(t.TempDir(), "home")},
	})
	p.Send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	p.Await("init")
	p.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return p
}

// TestRequestIDsTheSDKCannotEcho: the real `scout mcp` answers a request
// whose id the SDK would not give back as sent with -32600 and id null,
// and keeps serving. The SDK reads ids as float64 and answers int64(id):
// 1.5 came back as 1 and 2^53+1 as 2^53, so a client correlated the
// answer with another request; "id":null was taken for a notification and
// never answered (MCP forbids a null id).
func TestRequestIDsTheSDKCannotEcho(t *testing.T) {
	t.Parallel()
	p := startInitialized(t, "")
	const invalid = `{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"Invalid Request"}}`
	for i, id := range []string{`1.5`, `1e0`, `-2.0`, `9007199254740993`, `-9007199254740993`, `1e300`, `null`} {
		p.Send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		ping := fmt.Sprintf("ping-%d", i)
		p.Send(`{"jsonrpc":"2.0","id":"` + ping + `","method":"ping"}`)
		_, before := p.Await(ping)
		if len(before) != 1 || string(before[0].Raw) != invalid {
			var got []string
			for _, m := range before {
				got = append(got, string(m.Raw))
			}
			t.Errorf("id %s: answered %q, want only %s", id, got, invalid)
		}
	}
	// Ids the SDK echoes exactly are served.
	for _, id := range []string{`7`, `-3`, `9007199254740992`, `"s"`} {
		p.Send(`{"jsonrpc":"2.0","id":` + id + `,"method":"ping"}`)
		want := `{"jsonrpc":"2.0","id":` + id + `,"result":{}}`
		if m := p.Next(scouttest.DefaultTimeout); string(m.Raw) != want {
			t.Errorf("id %s: answered %s, want %s", id, m.Raw, want)
		}
	}
}

// TestEndOfInputAnswersWhatWasRead: lines written in one go and followed
// at once by end of input (`printf ... | scout mcp`) are all answered
// before scout mcp exits 0; the SDK alone dropped every request still in
// flight when its input ended, so such a script usually got nothing. That
// it exits once they are answered, not when its wait for them runs out,
// is TestEndOfInputEndsOnceAnswered (in process, with an hour's wait).
func TestEndOfInputAnswersWhatWasRead(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "a.txt << hello")
	for i := range 3 {
		p := scouttest.Start(t, scouttest.Options{
			Dir:  dir,
			Args: []string{"mcp"},
			Env:  []string{"SCOUT_HOME=" + filepath.Join(t.TempDir(), "home")},
		})
		p.Write([]byte(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}` + "\n" +
			`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
			`{"jsonrpc":"2.0","id":"list","method":"tools/call","params":{"name":"project_fs_list","arguments":{"recursive":true}}}` + "\n" +
			`{"jsonrpc":"2.0","id":"read","method":"tools/call","params":{"name":"project_fs_read","arguments":{"path":"a.txt"}}}` + "\n" +
			`{"jsonrpc":"2.0","id":"ping","method":"ping"}`)) // the last line without its newline
		p.CloseStdin()
		code, msgs := p.Wait(scouttest.DefaultTimeout)
		answered := map[string]bool{}
		for _, m := range msgs {
			if m.ID != nil && m.Error == nil {
				answered[*m.ID] = true
			}
		}
		if code != 0 || len(answered) != 4 {
			t.Errorf("run %d: exit %d, answered %v, want init, list, read and ping, then exit 0", i, code, answered)
		}
	}
}

// TestWhiteSpaceAroundAMessage: white space before and after a message
// on its line is valid JSON; the real `scout mcp` answers such requests
// and keeps serving. The SDK's reader wanted the newline right after the
// value, and one trailing space or tab ended the session (exit 2) with
// every answer still owed lost.
func TestWhiteSpaceAroundAMessage(t *testing.T) {
	t.Parallel()
	p := scouttest.Start(t, scouttest.Options{
		Args: []string{"mcp"},
		Env:  []string{"SCOUT_HOME=" + filepath.Join(t.TempDir(), "home")},
	})
	p.Send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}} `)
	p.Await("init")
	p.Send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\t")
	for i, frame := range []string{"%s ", "%s\t", "  %s", "\t%s \t "} {
		id := fmt.Sprintf("p%d", i)
		p.Send(fmt.Sprintf(frame, `{"jsonrpc":"2.0","id":"`+id+`","method":"ping"}`))
		if m, _ := p.Await(id); m.Error != nil || string(m.Raw) != `{"jsonrpc":"2.0","id":"`+id+`","result":{}}` {
			t.Errorf("ping framed %q: %s", frame, m.Raw)
		}
	}
}

// TestListAnswerFitsWithLongEscapedNames: the response line of a listing
// stays within 1,048,576 bytes when the folder's own name is long and
// every character of it is escaped (a "<" is \u003c, six bytes): the
// result's dir, the text's header and its next hint repeat it, and the
// text escapes it twice; counting the entries alone let such an answer
// reach 1,076,192 bytes.
func TestListAnswerFitsWithLongEscapedNames(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var rel []string
	for range 15 {
		rel = append(rel, strings.Repeat("<", 255))
	}
	// The deepest paths are longer than PATH_MAX from /: made relative
	// to an os.Root, one component at a time.
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	deep := strings.Join(rel, "/")
	if err := root.MkdirAll(deep, 0o755); err != nil {
		t.Fatal("making the folders failed")
	}
	for i := range 40 {
		if err := root.WriteFile(deep+"/"+strings.Repeat("<", 240)+fmt.Sprintf("%04d", i), nil, 0o644); err != nil {
			t.Fatal("making a file failed")
		}
	}
	p := startInitialized(t, dir)
	args, _ := json.Marshal(map[string]any{"name": "project_fs_list", "arguments": map[string]any{"dir": deep}})
	p.Send(`{"jsonrpc":"2.0","id":"list","method":"tools/call","params":` + string(args) + `}`)
	m, _ := p.Await("list")
	var res struct {
		Result struct {
			StructuredContent struct {
				Count     int  `json:"count"`
				Truncated bool `json:"truncated"`
			} `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(m.Raw, &res); err != nil {
		t.Fatal(err)
	}
	if n := len(m.Raw) + 1; n > wire.DefaultFilesExtension.ReportBytes || res.Result.StructuredContent.Count == 0 || !res.Result.StructuredContent.Truncated {
		t.Errorf("a response line of %d bytes (bound %d), %d entries, truncated %v", n, wire.DefaultFilesExtension.ReportBytes, res.Result.StructuredContent.Count, res.Result.StructuredContent.Truncated)
	}
}
