package adversarial

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/internal/leakscan"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// mcpSession is `scout mcp` driven by hand over its real pipes (so every
// line it writes goes through the leak scan, MCP's designed answers
// allowed).
type mcpSession struct {
	t  *testing.T
	p  *scouttest.Proc
	id int
}

func startMCP(t *testing.T, opts scouttest.Options, c leakscan.Canaries) *mcpSession {
	t.Helper()
	c.Paths = append(c.Paths, opts.Dir)
	scan.Add(c)
	opts.Args = []string{"mcp"}
	opts.Observe = func(line []byte) {
		for _, f := range scan.ScanMCP(line) {
			t.Errorf("leak: %v", f)
		}
	}
	s := &mcpSession{t: t, p: scouttest.Start(t, opts)}
	s.rpc("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"adversarial","version":"0"}}`)
	s.p.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

// rpc sends one request and returns its raw result (failing on a
// JSON-RPC error: tools answer problems as results).
func (s *mcpSession) rpc(method, params string) json.RawMessage {
	s.t.Helper()
	s.id++
	id := fmt.Sprintf("m%d", s.id)
	s.p.Send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%q,"method":%q,"params":%s}`, id, method, params))
	m, _ := s.p.Await(id)
	var env struct {
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if err := json.Unmarshal(m.Raw, &env); err != nil || env.Error != nil {
		s.t.Fatalf("%s: %s", method, m.Raw)
	}
	return env.Result
}

// toolResult is a tools/call result.
type toolResult struct {
	IsError           bool `json:"isError"`
	Content           []struct{ Text string }
	StructuredContent json.RawMessage `json:"structuredContent"`
}

func (s *mcpSession) call(tool string, args any) toolResult {
	s.t.Helper()
	a, _ := json.Marshal(args)
	var r toolResult
	if err := json.Unmarshal(s.rpc("tools/call", fmt.Sprintf(`{"name":%q,"arguments":%s}`, tool, a)), &r); err != nil {
		s.t.Fatal(err)
	}
	return r
}

// mcpList is project_fs_list's structured result.
type mcpList struct {
	Dir     string `json:"dir"`
	Entries []struct {
		Path, Type string
		Size       int64
	} `json:"entries"`
	Count     int  `json:"count"`
	Truncated bool `json:"truncated"`
}

// checkMCPList checks a listing: count, sorted paths, the two types, safe
// relative paths within the depth bound, nothing hidden, nothing of the
// MCP's own noise (dist).
func checkMCPList(t *testing.T, r toolResult, tok string) mcpList {
	t.Helper()
	var l mcpList
	if err := json.Unmarshal(r.StructuredContent, &l); err != nil || l.Count != len(l.Entries) {
		t.Fatalf("listing %s (%v)", r.StructuredContent, err)
	}
	prev := ""
	for _, e := range l.Entries {
		if e.Path <= prev || strings.Contains(e.Path, tok) || (e.Type != "file" && e.Type != "directory") ||
			e.Type == "directory" && e.Size != 0 || len(strings.Split(e.Path, "/")) > 12 {
			t.Errorf("entry %+v after %q", e, prev)
		}
		prev = e.Path
		for _, c := range strings.Split(e.Path, "/") {
			if !fsguard.SafeName(c) || c == "dist" || c == ".git" || c == "node_modules" || c == ".ssh" {
				t.Errorf("entry %q", e.Path)
			}
		}
	}
	return l
}

// TestMCPUnderMutation drives `scout mcp` (as an unprivileged user) over
// the mutating workspace: recursive and flat listings, reads of listed
// files, and reads and listings of paths that must be hidden (behind
// symbolic links, protected, denied, ignored, the home, outside, absolute,
// upward). Listings obey the bounds and show nothing hidden; a read shows
// only a visible file's own text; every hidden path gets the one designed
// answer; and nothing the server writes carries a path, a hidden name or
// hidden content.
func TestMCPUnderMutation(t *testing.T) {
	t.Parallel()
	tok := token(t)
	ws, outside, home := mutatingWorkspace(t, tok)
	must(t, makeDist(ws, tok))
	s := startMCP(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home}, Unprivileged: true},
		leakscan.Canaries{Paths: []string{outside, home}, ProtectedNames: []string{tok}})
	m := newMutator(ws, outside, tok, uint64(time.Now().UnixNano()))
	m.dirs = []string{"", "a", "a/b", "c"}
	for range 300 {
		m.step()
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			m.step()
			if i%8 == 7 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	hiddenPaths := []string{
		"cred-" + tok + ".txt", "home-" + tok + "/config.toml", "vault/vault-" + tok + ".txt", ".git/config",
		"dist/bundle.js", "../outside-" + tok + "/outside-" + tok + ".txt", outside + "/outside-" + tok + ".txt", "/etc/passwd",
		"a/../cred-" + tok + ".txt", "bulk/k0/../../cred-" + tok + ".txt",
	}
	answers := map[string]int{}
	rng := rand.New(rand.NewPCG(5, 6))
	var files []string
	for i := range rounds(60, 20) {
		switch i % 4 {
		case 0:
			r := s.call("project_fs_list", map[string]any{"recursive": true})
			answers["list recursive"]++
			files = files[:0]
			for _, e := range checkMCPList(t, r, tok).Entries {
				if e.Type == "file" && !strings.HasPrefix(e.Path, "bulk/") {
					files = append(files, e.Path)
				}
			}
		case 1:
			r := s.call("project_fs_list", map[string]any{"dir": []string{"a", "a/b", "c", "vault", ".git", "dist", "../"}[rng.IntN(7)]})
			if r.IsError {
				answers["list error: "+r.Content[0].Text]++
			} else {
				checkMCPList(t, r, tok)
				answers["list flat"]++
			}
		case 2:
			if len(files) == 0 {
				continue
			}
			r := s.call("project_fs_read", map[string]any{"path": files[rng.IntN(len(files))]})
			if r.IsError {
				answers["read error: "+r.Content[0].Text]++ // gone, or became unservable, meanwhile
				continue
			}
			answers["read"]++
			var rd struct{ Content string }
			json.Unmarshal(r.StructuredContent, &rd)
			if strings.Contains(rd.Content, tok) {
				t.Errorf("read %q", rd.Content)
			}
		default:
			p := hiddenPaths[rng.IntN(len(hiddenPaths))]
			r := s.call("project_fs_read", map[string]any{"path": p})
			if !r.IsError || len(r.Content) != 1 || r.Content[0].Text != "no such file or directory" || r.StructuredContent != nil {
				t.Errorf("hidden %q answered %+v", p, r)
			}
			answers["hidden"]++
		}
	}
	close(stop)
	<-done
	m.unlockAll()
	t.Logf("answers %v", answers)
}

// makeDist adds dist/, which scout mcp alone skips.
func makeDist(ws, tok string) error {
	return writeFiles(ws, map[string]string{"dist/bundle.js": tok, "a/dist/x.js": tok})
}

// TestMCPHostileClient: `scout mcp` facing a client that sends malformed
// frames, writes one byte at a time, floods, and ends in the middle of a
// frame. Each malformed line gets one error with a null id and the server
// keeps serving; every flooded request is answered once; end of input
// ends it with status 0.
func TestMCPHostileClient(t *testing.T) {
	t.Parallel()
	ws := makefs.MustMake(t, "a.txt << hello\n")
	s := startMCP(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + t.TempDir()}}, leakscan.Canaries{})
	for _, line := range []string{`garbage{`, `{}`, `[]`, `123`, `{"jsonrpc":"1.0","id":5,"method":"ping"}`, `{"jsonrpc":"2.0","id":{},"method":"x"}`, "\xff"} {
		s.p.Send(line)
		if m := s.p.Next(scouttest.DefaultTimeout); !strings.Contains(string(m.Raw), `"id":null`) || !strings.Contains(string(m.Raw), `"error"`) {
			t.Errorf("%q answered %s", line, m.Raw)
		}
		s.rpc("ping", `{}`)
	}
	frame := []byte(`{"jsonrpc":"2.0","id":"slow","method":"tools/call","params":{"name":"project_fs_read","arguments":{"path":"a.txt"}}}` + "\n")
	for i := range frame {
		s.p.Write(frame[i : i+1])
	}
	if m, _ := s.p.Await("slow"); !strings.Contains(string(m.Raw), "hello") {
		t.Errorf("the byte-by-byte read answered %s", m.Raw)
	}
	var flood strings.Builder
	const n = 2000
	for i := range n {
		fmt.Fprintf(&flood, `{"jsonrpc":"2.0","id":"f%d","method":"ping"}`+"\n", i)
	}
	go s.p.TryWrite([]byte(flood.String()))
	seen := map[string]bool{}
	for len(seen) < n {
		m := s.p.Next(scouttest.DefaultTimeout)
		if m.ID == nil || seen[*m.ID] {
			t.Fatalf("unexpected %s", m.Raw)
		}
		seen[*m.ID] = true
	}
	s.p.Write([]byte(`{"jsonrpc":"2.0","id":"half","method":"to`))
	s.p.CloseStdin()
	if code, rest := s.p.Wait(scouttest.DefaultTimeout); code != 0 {
		t.Errorf("exit %d after %d more lines", code, len(rest))
	}
}
