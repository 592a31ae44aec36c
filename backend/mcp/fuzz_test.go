package mcp

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
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

// FuzzWithin: an absolute path inside the root is relative to it, with
// no empty, "." or ".." component, and naming it from the root again
// gives the same path; a path not below the root's components is not
// inside it.
func FuzzWithin(f *testing.F) {
	for _, s := range []string{"/w/s/src/main.go", "/w/s", "/w/s/", "//w/./s//a/", "/w/s/../x", "/w/sx/a", "/w/s/a/../b", "/w", "w/s/a", "/w/s/.../a"} {
		f.Add(s)
	}
	const root = "/w/s"
	f.Fuzz(func(t *testing.T, p string) {
		rel, ok := within(p, root)
		c := comps(p)
		below := len(c) >= 2 && c[0] == "w" && c[1] == "s" && strings.HasPrefix(p, "/")
		if !ok {
			if below && len(p) <= len(root)+1+maxPathBytes && !slices.Contains(c, "..") {
				t.Fatalf("within(%q) refused a path below the root", p)
			}
			return
		}
		if !below || rel != strings.Join(c[2:], "/") {
			t.Fatalf("within(%q) = %q", p, rel)
		}
		if again, ok := within(root+"/"+rel, root); !ok || again != rel {
			t.Fatalf("within(%q) = %q, but within(root/%q) = %q, %v", p, rel, rel, again, ok)
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
		`{"dir":"","recursive":true,"limit":2}`, `{"limit":1e400}`, `{"startLine":2.0,"endLine":null,"path":"a.txt"}`,
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
	f.Add([]byte(`{"path":"`+dir+`/sub/ok.txt"}`), true)
	f.Add([]byte(`{"dir":"`+dir+`","recursive":true}`), false)
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
		if !res.IsError && strings.Contains(string(out), base) {
			t.Fatalf("%s %s: the answer shows where the workspace lies: %s", tool, args, out)
		}
		for _, leak := range []string{secret, "id_rsa", ".env", "x.log", "dist/", "node_modules", ".git/", base} {
			if strings.Contains(string(out), leak) && !strings.Contains(string(args), leak) {
				t.Fatalf("%s %s: the answer shows %q: %s", tool, args, leak, out)
			}
		}
	})
}

// testServer is a Server on dir with ignore rules on, its root closed
// when the test ends.
func testServer(tb testing.TB, dir string) *Server {
	tb.Helper()
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { root.Close() })
	pol, err := policy.New(1, dir, policy.Rules{RespectIgnore: true})
	if err != nil {
		tb.Fatal(err)
	}
	return New(Options{Root: root, RootPaths: []string{dir}, Policy: pol, Version: "test"})
}

// inMemory connects an SDK client to a Server on dir in this process.
func inMemory(tb testing.TB, dir string) *sdk.ClientSession {
	s := testServer(tb, dir)
	ct, st := sdk.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := s.MCP().Connect(ctx, st, nil); err != nil {
		tb.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "fuzz", Version: "0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { cs.Close(); os.RemoveAll(dir) })
	return cs
}
