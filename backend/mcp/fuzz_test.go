package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/internal/makefs"
)

// FuzzClean: a cleaned path is relative, has no empty, "." or ".."
// component, only safe names, and cleaning it again changes nothing.
func FuzzClean(f *testing.F) {
	for _, s := range []string{"", ".", "./src//main.go/", "../x", "/etc/passwd", "a/../b", "a\\b", "é/ü", "bad\nname", ".../x", "a/./b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, p string) {
		rel, err := Clean(p)
		if err != nil {
			if err != errNoSuchFile || rel != "" {
				t.Fatalf("Clean(%q) = %q, %v", p, rel, err)
			}
			return
		}
		if rel == "" {
			return
		}
		for _, c := range strings.Split(rel, "/") {
			if !fsguard.SafeName(c) {
				t.Fatalf("Clean(%q) = %q has component %q", p, rel, c)
			}
		}
		if again, err := Clean(rel); err != nil || again != rel {
			t.Fatalf("Clean(Clean(%q)) = %q, %v", p, again, err)
		}
	})
}

// secret is content that no tool answer may ever contain.
const secret = "TOP-SECRET-CONTENT"

// FuzzToolArguments sends arbitrary JSON arguments to both tools through
// the SDK (in memory): the answer is never a protocol error, and never
// shows the content or the name of anything hidden, wherever the fuzzer
// points (symlinks out of the workspace, protected, skipped files). A name
// the arguments themselves hold may be echoed in an argument error.
func FuzzToolArguments(f *testing.F) {
	for _, s := range []string{
		`{"path":"README.md"}`, `{"path":"link","startLine":1}`, `{"path":"../outside/secret.txt"}`,
		`{"path":".env"}`, `{"dir":"sub","recursive":true}`, `{"dir":"out"}`, `{"path":"a.txt","startLine":2,"endLine":1}`,
		`{}`, `null`, `[1]`, `"x"`, `{"path":7}`, `{"path":"dist/x.js"}`, `{"dir":"../"}`,
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	base := f.TempDir()
	dir := filepath.Join(base, "ws")
	for _, fx := range [][]string{
		{"outside/secret.txt << " + secret},
		{"ws/README.md << readme", "ws/a.txt << a\nb\n", "ws/.env << " + secret, "ws/sub/id_rsa << " + secret,
			"ws/dist/x.js << " + secret, "ws/node_modules/m/i.js << " + secret, "ws/.git/config << " + secret,
			"ws/link => ../outside/secret.txt", "ws/out => ../outside", "ws/.gitignore << *.log\n", "ws/x.log << " + secret,
			"ws/sub/ok.txt << fine"},
	} {
		if err := makefs.Make(base, fx...); err != nil {
			f.Fatal(err)
		}
	}
	cs := inMemory(f, dir)
	f.Fuzz(func(t *testing.T, args []byte, read bool) {
		if !json.Valid(args) {
			return
		}
		tool := ToolList
		if read {
			tool = ToolRead
		}
		res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: tool, Arguments: json.RawMessage(args)})
		if err != nil {
			t.Fatalf("%s %s: protocol error %v", tool, args, err)
		}
		out, _ := json.Marshal(res)
		for _, leak := range []string{secret, "id_rsa", ".env", "x.log", "dist/", "node_modules", ".git/", base} {
			if strings.Contains(string(out), leak) && !strings.Contains(string(args), leak) {
				t.Fatalf("%s %s: the answer shows %q: %s", tool, args, leak, out)
			}
		}
	})
}

// inMemory connects an SDK client to a Server on dir in this process.
func inMemory(tb testing.TB, dir string) *sdk.ClientSession {
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		tb.Fatal(err)
	}
	pol, err := policy.New(1, dir, policy.Rules{RespectIgnore: true})
	if err != nil {
		tb.Fatal(err)
	}
	s := New(Options{Root: root, Policy: pol, Version: "test"})
	ct, st := sdk.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.MCP().Connect(ctx, st, nil); err != nil {
		tb.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "fuzz", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close(); root.Close(); os.RemoveAll(dir) })
	return cs
}
