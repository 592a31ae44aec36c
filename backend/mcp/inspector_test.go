package mcp_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/mcp"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/internal/testhome"
)

// The MCP Inspector's CLI is a client nobody here wrote: npx installs it
// from the npm registry (0.15.0 is the newest that runs on Node 20). Its
// --tool-arg values are strings it converts by the tool's input schema,
// only when a property's type is exactly "integer", "number" or
// "boolean"; and its SDK client checks structuredContent against the
// output schema.
const inspectorPackage = "@modelcontextprotocol/inspector@0.15.0"

// inspectorTimeout bounds one run: the first run on a machine downloads
// the inspector (about 40 s on a shared machine), later ones find it in
// the shared npm cache.
const inspectorTimeout = 5 * time.Minute

// inspector runs the inspector's CLI against `scout mcp` started in dir
// and returns the result it prints (a JSON object). The first run of a
// test process goes through npx, as a user would start it: npx (one Node
// process) finds or installs the package and runs its `mcp-inspector`
// command, cli/build/cli.js (a second), which runs the CLI client,
// cli/build/index.js (a third). Later runs start that client from the
// same installed package directly: the same code speaks MCP to scout,
// without two Node processes that only forward the arguments (about
// 2.4 s of CPU a run here).
func inspector(t *testing.T, dir string, args ...string) map[string]any {
	t.Helper()
	npx := scouttest.NeedCommand(t, "npx")
	node := scouttest.NeedCommand(t, "node")
	ctx, cancel := context.WithTimeout(context.Background(), inspectorTimeout)
	defer cancel()
	cacheDir := filepath.Join(os.TempDir(), "scout-test-npm-cache")
	var cmd *exec.Cmd
	if client := inspectorClient.Load(); client != nil {
		cmd = exec.CommandContext(ctx, node, append([]string{*client, scouttest.Binary(t), "mcp"}, args...)...)
	} else {
		cmd = exec.CommandContext(ctx, npx, append([]string{"-y", inspectorPackage, "--cli", scouttest.Binary(t), "mcp"}, args...)...)
	}
	cmd.Dir = dir
	// npm's configuration stays in the test home (testhome); its cache is
	// one directory under the system's temporary directory shared by every
	// run on this machine (never the real home), so the inspector's 240 MB
	// are downloaded once per machine, not once per test process.
	cmd.Env = append(scouttest.Environ(),
		"SCOUT_HOME="+filepath.Join(t.TempDir(), "home"),
		"npm_config_cache="+cacheDir,
		"npm_config_userconfig="+filepath.Join(testhome.Dir, "npmrc"),
		// Once the cache has the inspector, npx asks the registry nothing.
		"npm_config_prefer_offline=true",
		"npm_config_update_notifier=false", "npm_config_fund=false", "npm_config_audit=false", "npm_config_loglevel=error")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("inspector %q: %v\n%s\n%s", args, err, out, stderr.String())
	}
	if inspectorClient.Load() == nil {
		if client := installedClient(cacheDir); client != "" {
			inspectorClient.Store(&client)
		}
	}
	var res map[string]any
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("inspector %q printed %s: %v", args, out, err)
	}
	return res
}

// inspectorClient is the path of the inspector's CLI client once npx has
// run it (nil before).
var inspectorClient atomic.Pointer[string]

// installedClient finds cli/build/index.js of the inspector package npx
// installed in the npm cache at cacheDir, of exactly inspectorPackage's
// version, or returns "".
func installedClient(cacheDir string) string {
	_, version, _ := strings.Cut(strings.TrimPrefix(inspectorPackage, "@"), "@")
	dirs, _ := filepath.Glob(filepath.Join(cacheDir, "_npx", "*", "node_modules", "@modelcontextprotocol", "inspector"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "package.json"))
		if err != nil {
			continue
		}
		var pkg struct {
			Version string            `json:"version"`
			Bin     map[string]string `json:"bin"`
		}
		client := filepath.Join(d, "cli", "build", "index.js")
		if json.Unmarshal(b, &pkg) == nil && pkg.Version == version && pkg.Bin["mcp-inspector"] == "cli/build/cli.js" {
			if _, err := os.Stat(client); err == nil {
				return client
			}
		}
	}
	return ""
}

// callTool runs tools/call of tool with --tool-arg pairs.
func callTool(t *testing.T, dir, tool string, pairs ...string) (map[string]any, string) {
	t.Helper()
	args := []string{"--method", "tools/call", "--tool-name", tool}
	for _, p := range pairs {
		args = append(args, "--tool-arg", p)
	}
	res := inspector(t, dir, args...)
	b, _ := json.Marshal(res)
	return res, string(b)
}

// firstText is the first text content of a printed tool result.
func firstText(res map[string]any) string {
	content, _ := res["content"].([]any)
	if len(content) == 0 {
		return ""
	}
	c, _ := content[0].(map[string]any)
	s, _ := c["text"].(string)
	return s
}

// decodeInto re-decodes a printed value into v.
func decodeInto(t *testing.T, from any, v any) {
	t.Helper()
	b, _ := json.Marshal(from)
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// TestInspectorCLI drives `scout mcp` with the MCP Inspector's CLI:
// tools/list, a recursive listing with a limit, a line range, an absolute
// path inside the project, the refusals and an argument error. The runs
// are sequential: they share one npm cache; the first costs three Node
// processes, the others one (inspector). The SDK-client tests cover every
// case; these prove a plain client gets them.
func TestInspectorCLI(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, fixture...)
	var lines strings.Builder
	for i := 1; i <= 30; i++ {
		lines.WriteString(strings.Repeat("x", i) + "\n")
	}
	must(t, os.WriteFile(filepath.Join(dir, "lines.txt"), []byte(lines.String()), 0o644))

	var tools struct {
		Tools []struct {
			Name        string `json:"name"`
			InputSchema struct {
				Properties map[string]struct {
					Type string `json:"type"`
				} `json:"properties"`
			} `json:"inputSchema"`
		} `json:"tools"`
	}
	decodeInto(t, inspector(t, dir, "--method", "tools/list"), &tools)
	types := map[string]string{}
	for _, tool := range tools.Tools {
		for name, p := range tool.InputSchema.Properties {
			types[tool.Name+"."+name] = p.Type
		}
	}
	want := map[string]string{"project_fs_list.dir": "string", "project_fs_list.recursive": "boolean", "project_fs_list.limit": "integer",
		"project_fs_read.path": "string", "project_fs_read.startLine": "integer", "project_fs_read.endLine": "integer"}
	if len(tools.Tools) != 2 || len(types) != len(want) {
		t.Errorf("tools/list: %v", types)
	}
	for k, v := range want {
		if types[k] != v {
			t.Errorf("tools/list: %s has type %q, want %q", k, types[k], v)
		}
	}

	res, all := callTool(t, dir, mcp.ToolList, "recursive=true", "limit=5")
	var list mcp.ListResult
	decodeInto(t, res["structuredContent"], &list)
	if res["isError"] == true || list.Count != 5 || len(list.Entries) != 5 || !list.Truncated || list.Next == "" || !strings.Contains(firstText(res), "truncated: "+list.Next) {
		t.Errorf("recursive, limit 5: %s", all)
	}

	res, all = callTool(t, dir, mcp.ToolRead, "path=lines.txt", "startLine=20", "endLine=22")
	var read mcp.ReadResult
	decodeInto(t, res["structuredContent"], &read)
	if read.Content != strings.Repeat("x", 20)+"\n"+strings.Repeat("x", 21)+"\n"+strings.Repeat("x", 22)+"\n" || read.ReturnedLines != 3 || read.TotalLines != 30 {
		t.Errorf("lines 20..22: %s", all)
	}

	res, all = callTool(t, dir, mcp.ToolRead, "path="+dir+"/src/main.go")
	decodeInto(t, res["structuredContent"], &read)
	if read.Path != "src/main.go" || read.Content != "package main\n" || strings.Contains(all, dir) {
		t.Errorf("absolute path inside the project: %s", all)
	}

	var refusal string
	for _, args := range [][]string{
		{mcp.ToolRead, "path=.env"}, {mcp.ToolRead, "path=/etc/passwd"}, {mcp.ToolList, "dir=node_modules"},
	} {
		_, all := callTool(t, dir, args[0], args[1:]...)
		if refusal == "" {
			refusal = all
		}
		if all != refusal || !strings.Contains(all, `"isError":true`) || !strings.Contains(all, `"text":"no such file or directory"`) {
			t.Errorf("%q: %s, want the one refusal %s", args, all, refusal)
		}
	}

	res, all = callTool(t, dir, mcp.ToolRead, "path=lines.txt", "startLine=0")
	if res["isError"] != true || firstText(res) != "startLine must be at least 1" {
		t.Errorf("startLine=0: %s", all)
	}
}
