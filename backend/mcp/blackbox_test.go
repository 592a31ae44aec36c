package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scoutdev/scout/backend/mcp"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/asuser"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// Black-box tests: the SDK's client runs the real `scout mcp` over a
// command transport.

// connect starts `scout mcp` in dir and completes the MCP handshake.
func connect(t *testing.T, dir string, env ...string) *sdk.ClientSession {
	t.Helper()
	return connectCmd(t, exec.Command(scouttest.Binary(t), "mcp"), dir, env...)
}

// connectCmd is connect with a prepared command (an unprivileged one).
func connectCmd(t *testing.T, cmd *exec.Cmd, dir string, env ...string) *sdk.ClientSession {
	t.Helper()
	cmd.Dir = dir
	cmd.Env = append(scouttest.Environ(), env...)
	if !slices.ContainsFunc(env, func(e string) bool { return strings.HasPrefix(e, "SCOUT_HOME=") }) {
		cmd.Env = append(cmd.Env, "SCOUT_HOME="+filepath.Join(t.TempDir(), "home"))
	}
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	t.Cleanup(cancel)
	client := sdk.NewClient(&sdk.Implementation{Name: "scout-test", Version: "0"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatalf("MCP handshake: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// call calls a tool and returns its result.
func call(t *testing.T, cs *sdk.ClientSession, tool string, args any) *sdk.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	defer cancel()
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s %v: protocol error %v", tool, args, err)
	}
	return res
}

// structured decodes a successful result's structured content into v.
func structured(t *testing.T, res *sdk.CallToolResult, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

func text(res *sdk.CallToolResult) string {
	var out []string
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			out = append(out, tc.Text)
		}
	}
	return strings.Join(out, "\n")
}

// raw is the whole result as JSON, for comparing two answers.
func raw(t *testing.T, res *sdk.CallToolResult) string {
	t.Helper()
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func list(t *testing.T, cs *sdk.ClientSession, args map[string]any) mcp.ListResult {
	t.Helper()
	var r mcp.ListResult
	structured(t, call(t, cs, mcp.ToolList, args), &r)
	if r.Count != len(r.Entries) || !slices.IsSortedFunc(r.Entries, func(a, b mcp.ListEntry) int { return strings.Compare(a.Path, b.Path) }) {
		t.Errorf("count %d for %d entries, or not sorted by path", r.Count, len(r.Entries))
	}
	return r
}

func paths(r mcp.ListResult) []string {
	var out []string
	for _, e := range r.Entries {
		p := e.Path
		if e.Type == "directory" {
			p += "/"
		}
		out = append(out, p)
	}
	return out
}

var fixture = []string{
	"README.md << # demo\n", "src/main.go << package main\n", "src/lib/util.go << package lib\n",
	"src/.env << SECRET=1\n", ".env << SECRET=2\n", "id_rsa << key", "notes.pem << pem",
	"dist/bundle.js << x", "src/dist/y.js << y", "node_modules/left-pad/index.js << z", ".git/config << [core]",
	".gitignore << *.log\nbuild/\n", "debug.log << log", "build/out.o << o",
	"link-file => README.md", "link-dir => src", "link-out => /etc", "fifo|",
	"bin.dat << \x00\x01\x02", "dir-with-dash/", "dir-with-dash/a.txt << a", "dir.with.dot << f",
	".scout/config.toml << [files]\ndeny = [\"private/**\"]\n", "private/plan.txt << secret plan",
}

func TestHandshakeAndTools(t *testing.T) {
	t.Parallel()
	cs := connect(t, makefs.MustMake(t, fixture...))
	if got := cs.InitializeResult().ServerInfo; got.Name != "scout" || got.Version == "" {
		t.Errorf("server info %+v", got)
	}
	// Tools that never change, nothing logged: no listChanged, no logging.
	if b, _ := json.Marshal(cs.InitializeResult().Capabilities); string(b) != `{"tools":{}}` {
		t.Errorf("capabilities %s, want tools alone, without listChanged", b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), scouttest.DefaultTimeout)
	defer cancel()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	props := map[string][]string{}
	for _, tool := range tools.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		var sch struct {
			Type       string `json:"type"`
			Properties map[string]struct {
				Type             json.RawMessage `json:"type"`
				Minimum, Maximum *float64
			} `json:"properties"`
			Required             []string        `json:"required"`
			AdditionalProperties json.RawMessage `json:"additionalProperties"`
		}
		if err := json.Unmarshal(b, &sch); err != nil || sch.Type != "object" || string(sch.AdditionalProperties) != "false" {
			t.Errorf("%s: input schema %s", tool.Name, b)
		}
		// Plain types, as clients that convert arguments by the schema's
		// type (the MCP Inspector's CLI) need: never a union with null.
		for name, p := range sch.Properties {
			props[tool.Name] = append(props[tool.Name], name+":"+strings.Trim(string(p.Type), `"`))
			if p.Type[0] != '"' {
				t.Errorf("%s.%s: type %s, want one plain type", tool.Name, name, p.Type)
			}
			if bounds := fmt.Sprint(p.Minimum != nil, p.Maximum != nil); name == "limit" && (bounds != "true true" || *p.Minimum != 1 || *p.Maximum != 10000) ||
				(name == "startLine" || name == "endLine") && (bounds != "true false" || *p.Minimum != 1) {
				t.Errorf("%s.%s: bounds %s", tool.Name, name, b)
			}
		}
		slices.Sort(props[tool.Name])
		if want := map[string][]string{mcp.ToolRead: {"path"}}[tool.Name]; !slices.Equal(sch.Required, want) {
			t.Errorf("%s requires %v, want %v", tool.Name, sch.Required, want)
		}
		if tool.OutputSchema == nil {
			t.Errorf("%s has no output schema", tool.Name)
		}
		if tool.Name == mcp.ToolList {
			// docs/design.md: entries:[...], never null.
			b, _ := json.Marshal(tool.OutputSchema)
			var out struct {
				Properties map[string]struct {
					Type json.RawMessage `json:"type"`
				} `json:"properties"`
			}
			if err := json.Unmarshal(b, &out); err != nil || string(out.Properties["entries"].Type) != `"array"` {
				t.Errorf("list output schema: %s", b)
			}
		}
	}
	want := map[string][]string{
		mcp.ToolList: {"dir:string", "limit:integer", "recursive:boolean"},
		mcp.ToolRead: {"endLine:integer", "path:string", "startLine:integer"},
	}
	if len(props) != 2 || !slices.Equal(props[mcp.ToolList], want[mcp.ToolList]) || !slices.Equal(props[mcp.ToolRead], want[mcp.ToolRead]) {
		t.Errorf("tools and their input properties: %v", props)
	}
}

func TestList(t *testing.T) {
	t.Parallel()
	cs := connect(t, makefs.MustMake(t, fixture...))
	flat := list(t, cs, nil)
	wantFlat := []string{".gitignore", ".scout/", "README.md", "bin.dat", "dir-with-dash/", "dir.with.dot", "private/", "src/"}
	if flat.Dir != "." || !slices.Equal(paths(flat), wantFlat) || flat.Truncated {
		t.Errorf("flat root: dir %q %q truncated %v", flat.Dir, paths(flat), flat.Truncated)
	}
	for _, dir := range []any{"", ".", "./"} {
		if r := list(t, cs, map[string]any{"dir": dir}); r.Dir != "." || !slices.Equal(paths(r), wantFlat) {
			t.Errorf("dir %q: %q %q", dir, r.Dir, paths(r))
		}
	}
	sub := list(t, cs, map[string]any{"dir": "src/"})
	if sub.Dir != "src" || !slices.Equal(paths(sub), []string{"src/lib/", "src/main.go"}) {
		t.Errorf("src/: %q %q", sub.Dir, paths(sub))
	}
	rec := list(t, cs, map[string]any{"recursive": true})
	wantRec := []string{".gitignore", ".scout/", ".scout/config.toml", "README.md", "bin.dat", "dir-with-dash/",
		"dir-with-dash/a.txt", "dir.with.dot", "private/", "private/plan.txt", "src/", "src/lib/", "src/lib/util.go", "src/main.go"}
	if !slices.Equal(paths(rec), wantRec) || rec.Truncated || rec.Count != len(wantRec) {
		t.Errorf("recursive: %q truncated %v", paths(rec), rec.Truncated)
	}
	for _, e := range rec.Entries {
		if (e.Type != "directory" && e.Type != "file") || (e.Type == "directory" && e.Size != 0) {
			t.Errorf("entry %+v", e)
		}
		if e.Path == "README.md" && e.Size != int64(len("# demo\n")) {
			t.Errorf("README.md size %d", e.Size)
		}
	}
}

func TestListIsBounded(t *testing.T) {
	t.Parallel()
	// 12,000 empty files, made by makefs.Bulk on a RAM file system when
	// there is one (on disk, a write each and the removal cost more than
	// the listing under -race).
	dir := makefs.ScratchDir(t)
	var fx []string
	for d := range 12 {
		for f := range 1000 {
			fx = append(fx, fmt.Sprintf("d%02d/f%04d", d, f))
		}
	}
	if err := makefs.Bulk(dir, fx); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, dir)
	r := list(t, cs, map[string]any{"recursive": true, "limit": 10000})
	// Breadth first: the 12 folders, then 9,988 files in folder order.
	if r.Count != wire.DefaultFilesExtension.MaxEntries || !r.Truncated || r.Next == "" {
		t.Fatalf("%d entries, truncated %v, next %q", r.Count, r.Truncated, r.Next)
	}
	if p := paths(r); !slices.Contains(p, "d11/") || !slices.Contains(p, "d09/f0987") || slices.Contains(p, "d09/f0988") {
		t.Errorf("not the breadth-first selection: ... %q", p[len(p)-3:])
	}
	// Without limit a recursive listing stops at 2,000 entries, inside
	// d01, and says so.
	r = list(t, cs, map[string]any{"recursive": true})
	if p := paths(r); r.Count != 2000 || !r.Truncated || !slices.Contains(p, "d01/f0987") || slices.Contains(p, "d01/f0988") {
		t.Errorf("default: %d entries, truncated %v", r.Count, r.Truncated)
	}
	if want := `the listing stopped inside "d01"; list it with {"dir":"d01","recursive":true}`; !strings.Contains(r.Next, want) {
		t.Errorf("default: next %q, want it to say %s", r.Next, want)
	}
	if flat := list(t, cs, map[string]any{"dir": "d03"}); flat.Count != 1000 || flat.Truncated || flat.Next != "" {
		t.Errorf("flat: %d entries, truncated %v, next %q", flat.Count, flat.Truncated, flat.Next)
	}
	if flat := list(t, cs, map[string]any{"dir": "d03", "limit": 999}); flat.Count != 999 || !flat.Truncated || !strings.Contains(flat.Next, "larger limit") {
		t.Errorf("flat, limit 999: %d entries, truncated %v, next %q", flat.Count, flat.Truncated, flat.Next)
	}
	if flat := list(t, cs, map[string]any{"dir": "d03", "limit": 1000}); flat.Count != 1000 || flat.Truncated {
		t.Errorf("flat, limit 1000: %d entries, truncated %v", flat.Count, flat.Truncated)
	}
}

func TestRead(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, fixture...)
	var b strings.Builder
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&b, "line %04d %s\n", i, strings.Repeat("-", 90)) // 101 bytes a line
	}
	big := b.String()
	must(t, os.WriteFile(filepath.Join(dir, "big.txt"), []byte(big), 0o644))
	cs := connect(t, dir)
	read := func(args map[string]any) mcp.ReadResult {
		t.Helper()
		var r mcp.ReadResult
		structured(t, call(t, cs, mcp.ToolRead, args), &r)
		if r.Bytes != len(r.Content) {
			t.Errorf("bytes %d for %d bytes of content", r.Bytes, len(r.Content))
		}
		return r
	}
	if r := read(map[string]any{"path": "./src//main.go"}); r.Path != "src/main.go" || r.Content != "package main\n" || r.TotalLines != 1 || r.ReturnedLines != 1 || r.Truncated {
		t.Errorf("main.go: %+v", r)
	}
	r := read(map[string]any{"path": "big.txt", "startLine": 10, "endLine": 12})
	if r.Content != big[9*101:12*101] || r.ReturnedLines != 3 || r.TotalLines != 3000 || r.Truncated {
		t.Errorf("lines 10..12: %+v", r)
	}
	r = read(map[string]any{"path": "big.txt"}) // 303,000 bytes
	cut := len(big) - 204800
	want := big[:102400] + fmt.Sprintf("…[%d bytes truncated]…", cut) + big[len(big)-102400:]
	if r.Content != want || !r.Truncated || r.ReturnedLines != 3000 {
		t.Errorf("whole big.txt: truncated %v, %d bytes", r.Truncated, r.Bytes)
	}
	r = read(map[string]any{"path": "big.txt", "startLine": 1001, "endLine": 3000}) // 202,000 bytes
	if r.Content != big[1000*101:] || r.Truncated {
		t.Errorf("slice under the cap: truncated %v, %d bytes", r.Truncated, r.Bytes)
	}
	// An endLine past the end is the last line, however large: also the
	// largest int64 (which the SDK's float64 round trip turns into 2^63)
	// and an integer written with an exponent.
	for _, end := range []any{int64(math.MaxInt64), json.RawMessage("1e100")} {
		r = read(map[string]any{"path": "big.txt", "startLine": 2999, "endLine": end})
		if r.Content != big[2998*101:] || r.ReturnedLines != 2 {
			t.Errorf("endLine %v: %+v", end, r)
		}
	}
	// Line numbers are integers by value, and null is absent.
	r = read(map[string]any{"path": "big.txt", "startLine": json.RawMessage("2999.0"), "endLine": nil})
	if r.Content != big[2998*101:] || r.ReturnedLines != 2 {
		t.Errorf("startLine 2999.0, endLine null: %+v", r)
	}
	r = read(map[string]any{"path": "big.txt", "startLine": nil, "endLine": json.RawMessage("2e0")})
	if r.Content != big[:2*101] || r.ReturnedLines != 2 {
		t.Errorf("startLine null, endLine 2e0: %+v", r)
	}
}

// TestRefusalsAreIdentical: every path the policy does not show gets the
// same answer, byte for byte, from both tools; the trusted project
// configuration's deny glob counts.
func TestRefusalsAreIdentical(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, fixture...)
	home := filepath.Join(t.TempDir(), "home")
	trust(t, dir, home)
	cs := connect(t, dir, "SCOUT_HOME="+home)
	outside := filepath.Join(filepath.Dir(dir), "outside.txt")
	must(t, os.WriteFile(outside, []byte("outside"), 0o644))
	hiddenPaths := []string{
		"../outside.txt", "../" + filepath.Base(dir) + "/README.md", "src/../../outside.txt", "..", outside, "/etc/passwd",
		// Absolute paths that are not lexically inside the root.
		dir + "/../outside.txt", dir + "/../" + filepath.Base(dir) + "/README.md", dir + "x/README.md", dir[:len(dir)-1] + "/README.md",
		dir + "/.env", dir + "/src/../README.md", "/" + filepath.Base(dir) + "/README.md",
		"link-file", "link-dir/main.go", "link-out/passwd", "fifo", ".env", "src/.env", "id_rsa", "notes.pem",
		"dist/bundle.js", "src/dist/y.js", "node_modules/left-pad/index.js", ".git/config", "debug.log", "build/out.o",
		"private/plan.txt", "missing.txt", "src/missing/x.go", "README.md/x", "bad\nname", "a\\b",
	}
	var first string
	for _, p := range hiddenPaths {
		res := call(t, cs, mcp.ToolRead, map[string]any{"path": p})
		got := raw(t, res)
		if !res.IsError || text(res) != "no such file or directory" || res.StructuredContent != nil {
			t.Errorf("read %q: %s", p, got)
		}
		if first == "" {
			first = got
		} else if got != first {
			t.Errorf("read %q answered %s, not %s", p, got, first)
		}
		if lres := call(t, cs, mcp.ToolList, map[string]any{"dir": p}); raw(t, lres) != first {
			t.Errorf("list %q answered %s, not %s", p, raw(t, lres), first)
		}
	}
	for _, d := range []string{"../", "/", "link-dir", "dist", "node_modules", ".git", "private/../src", "build"} {
		if lres := call(t, cs, mcp.ToolList, map[string]any{"dir": d}); raw(t, lres) != first {
			t.Errorf("list %q answered %s", d, raw(t, lres))
		}
	}
}

// trust records the fixture's .scout/config.toml as trusted in home by
// calling workspace.trust on a backend, as a user would.
func trust(t *testing.T, dir, home string) {
	t.Helper()
	p := scouttest.Start(t, scouttest.Options{Dir: dir, Env: []string{"SCOUT_HOME=" + home}})
	p.Initialize(wire.MethodWorkspaceTrust)
	var tr wire.TrustResult
	p.MustCall(wire.MethodWorkspaceTrust, map[string]any{}, &tr)
	if tr.Trust != wire.TrustTrusted {
		t.Fatalf("trust: %+v", tr)
	}
}

func TestOtherFailuresNameTheProblem(t *testing.T) {
	t.Parallel()
	cs := connect(t, makefs.MustMake(t, fixture...))
	cases := []struct {
		tool string
		args any
		want string
	}{
		{mcp.ToolRead, map[string]any{"path": "src"}, "is a directory"},
		{mcp.ToolRead, map[string]any{"path": "."}, "is a directory"},
		{mcp.ToolRead, map[string]any{"path": "bin.dat"}, "binary file"},
		{mcp.ToolList, map[string]any{"dir": "README.md"}, "not a directory"},
	}
	for _, tc := range cases {
		res := call(t, cs, tc.tool, tc.args)
		if !res.IsError || !strings.HasPrefix(text(res), tc.want) {
			t.Errorf("%s %v: %s, want an error naming %q", tc.tool, tc.args, raw(t, res), tc.want)
		}
	}
}

// TestUnservableEntries: as uid 65534, an unreadable file, a folder
// without read or without search permission (and what is inside it) and
// both links of a hard-linked file are neither listed nor read, with the
// one hidden answer.
func TestUnservableEntries(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "ok.txt << ok", "locked.txt << secret", "locked/ mode 0000", "locked/x << secret", "hard << secret",
		"unsearchable/ mode 0644", "unsearchable/x << secret", // read, no search
		"unreadable/ mode 0711", "unreadable/x << secret") // search, no read
	must(t, os.Chmod(filepath.Join(dir, "locked.txt"), 0))
	must(t, os.Link(filepath.Join(dir, "hard"), filepath.Join(dir, "hard2")))
	asuser.Share(dir)
	home := filepath.Join(t.TempDir(), "home")
	asuser.Share(filepath.Dir(home))
	cs := connectCmd(t, asuser.Command(t, scouttest.Binary(t), "mcp"), dir, "SCOUT_HOME="+home)
	if r := list(t, cs, map[string]any{"recursive": true}); !slices.Equal(paths(r), []string{"ok.txt"}) {
		t.Errorf("listed %q", paths(r))
	}
	missing := raw(t, call(t, cs, mcp.ToolRead, map[string]any{"path": "missing"}))
	// Each tool, given the other tool's kind of entry, must not say "is a
	// directory" or "not a directory" either: that would tell that the
	// unservable entry exists.
	for _, p := range []string{"locked.txt", "locked", "locked/x", "hard", "hard2", "unsearchable", "unsearchable/x", "unreadable", "unreadable/x"} {
		if got := raw(t, call(t, cs, mcp.ToolRead, map[string]any{"path": p})); got != missing {
			t.Errorf("read %q: %s", p, got)
		}
		if got := raw(t, call(t, cs, mcp.ToolList, map[string]any{"dir": p})); got != missing {
			t.Errorf("list %q: %s", p, got)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestPolicyFollowsTheBackendsConfiguration: scout mcp applies
// .scout/config.toml only while the SHA-256 workspace.trust recorded
// matches (a changed file is untrusted again, until trusted anew), and a
// broken config.toml in the backend home hides everything.
// docs/protocol.md §10.9.5 "Policy".
func TestPolicyFollowsTheBackendsConfiguration(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, ".scout/config.toml << [files]\ndeny = [\"private/**\"]\n", "private/plan.txt << secret", "ok.txt << ok")
	home := filepath.Join(t.TempDir(), "home")
	served := func() []string {
		t.Helper()
		return paths(list(t, connect(t, dir, "SCOUT_HOME="+home), map[string]any{"recursive": true}))
	}
	all := []string{".scout/", ".scout/config.toml", "ok.txt", "private/", "private/plan.txt"}
	if got := served(); !slices.Equal(got, all) {
		t.Errorf("untrusted: %q", got)
	}
	trust(t, dir, home)
	if got := served(); !slices.Equal(got, []string{".scout/", ".scout/config.toml", "ok.txt", "private/"}) {
		t.Errorf("trusted: %q", got)
	}
	f, err := os.OpenFile(filepath.Join(dir, ".scout", "config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	must(t, err)
	_, err = f.WriteString("# edited\n")
	must(t, err)
	must(t, f.Close())
	if got := served(); !slices.Equal(got, all) {
		t.Errorf("changed after trust: %q", got)
	}
	must(t, os.WriteFile(filepath.Join(home, "config.toml"), []byte("[files\n"), 0o644))
	cs := connect(t, dir, "SCOUT_HOME="+home)
	if got := paths(list(t, cs, map[string]any{"recursive": true})); len(got) != 0 {
		t.Errorf("broken config.toml: listed %q", got)
	}
	missing := raw(t, call(t, cs, mcp.ToolRead, map[string]any{"path": "missing"}))
	if got := raw(t, call(t, cs, mcp.ToolRead, map[string]any{"path": "ok.txt"})); got != missing {
		t.Errorf("broken config.toml: read ok.txt %s", got)
	}
}

// TestListedPathsFitAPathArgument: project_fs_list leaves out an entry
// whose path is over 4,096 bytes, since no path argument can name it
// (project_fs_read would answer it hidden); it listed such entries.
func TestListedPathsFitAPathArgument(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	comp := strings.Repeat("a", 255)
	var rels []string // rels[i]: the folder i+1 levels deep, each holding f
	root, err := os.OpenRoot(dir)
	must(t, err)
	for rel := ""; len(rels) < 17; { // level by level: the whole path is over PATH_MAX
		must(t, root.Mkdir(comp, 0o755))
		next, err := root.OpenRoot(comp)
		must(t, err)
		root.Close()
		root = next
		must(t, root.WriteFile("f", []byte("x"), 0o644))
		rel = strings.TrimPrefix(rel+"/"+comp, "/")
		rels = append(rels, rel)
	}
	root.Close()
	cs := connect(t, dir)
	// 15 levels are 3,839 bytes: f (3,841) and the 16th folder (4,095) fit.
	if got := paths(list(t, cs, map[string]any{"dir": rels[14]})); !slices.Equal(got, []string{rels[15] + "/", rels[14] + "/f"}) {
		t.Errorf("15 levels deep: %d entries", len(got))
	}
	// 16 levels are 4,095 bytes: f (4,097) and the 17th folder do not.
	if got := paths(list(t, cs, map[string]any{"dir": rels[15]})); len(got) != 0 {
		t.Errorf("16 levels deep: listed %d entries", len(got))
	}
	if res := call(t, cs, mcp.ToolRead, map[string]any{"path": rels[15] + "/f"}); text(res) != "no such file or directory" {
		t.Errorf("read of a 4,097-byte path: %s", text(res))
	}
}

// TestListOfAFlatFolderPastTheBoundSaysItEnds: a folder of more files than
// one answer holds is listed up to the bound, and next says that the rest
// cannot be listed (no tool pages a folder) instead of sending the agent
// to subfolders, which do not hold it.
func TestListOfAFlatFolderPastTheBoundSaysItEnds(t *testing.T) {
	t.Parallel()
	dir := makefs.ScratchDir(t)
	var fx []string
	for f := range 10001 {
		fx = append(fx, fmt.Sprintf("big/f%05d", f))
	}
	if err := makefs.Bulk(dir, fx); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, dir)
	for _, args := range []map[string]any{{"dir": "big"}, {"dir": "big", "limit": 10000}} {
		r := list(t, cs, args)
		if r.Count != 10000 || !r.Truncated || !strings.Contains(r.Next, "the rest of this folder cannot be listed") || strings.Contains(r.Next, "subdirectory") {
			t.Errorf("%v: %d entries, truncated %v, next %q", args, r.Count, r.Truncated, r.Next)
		}
	}
}
