package mcp_test

import (
	"encoding/json"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/mcp"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// TestArgumentErrorsAreSentences: every argument the tools cannot take is
// an isError result whose text is a sentence naming the argument and the
// rule, not a schema validator's message. docs/protocol.md §10.9.5.
func TestArgumentErrorsAreSentences(t *testing.T) {
	t.Parallel()
	cs := connect(t, makefs.MustMake(t, fixture...))
	const integer = " must be an integer, such as 20"
	cases := []struct {
		tool string
		args any
		want string
	}{
		{mcp.ToolRead, map[string]any{"path": "README.md", "startLine": 0}, "startLine must be at least 1"},
		{mcp.ToolRead, map[string]any{"path": "README.md", "startLine": int64(math.MinInt64)}, "startLine must be at least 1"},
		{mcp.ToolRead, map[string]any{"path": "README.md", "endLine": -1}, "endLine must be at least 1"},
		{mcp.ToolRead, map[string]any{"path": "README.md", "startLine": "20"}, "startLine" + integer},
		{mcp.ToolRead, map[string]any{"path": "README.md", "startLine": "one"}, "startLine" + integer},
		{mcp.ToolRead, map[string]any{"path": "README.md", "endLine": 1.5}, "endLine" + integer},
		{mcp.ToolRead, map[string]any{"path": "README.md", "endLine": true}, "endLine" + integer},
		{mcp.ToolRead, map[string]any{"path": "README.md", "startLine": 3, "endLine": 2}, "endLine must not be before startLine"},
		{mcp.ToolRead, map[string]any{"path": "README.md", "startLine": 5}, "line range past the end: startLine must be at most 1, the file has 1 line (startLine is 5)"},
		{mcp.ToolRead, map[string]any{"path": "README.md", "startLine": int64(math.MaxInt64)}, "line range past the end: startLine must be at most 1, the file has 1 line"},
		{mcp.ToolRead, map[string]any{}, "path is required: name a file relative to the project root, such as README.md"},
		{mcp.ToolRead, map[string]any{"path": nil}, "path is required: name a file relative to the project root, such as README.md"},
		{mcp.ToolRead, map[string]any{"path": ""}, "path is empty: name a file relative to the project root, such as README.md"},
		{mcp.ToolRead, map[string]any{"path": 7}, "path must be a string"},
		{mcp.ToolRead, map[string]any{"path": "README.md", "extra": true}, `project_fs_read takes no argument "extra"; its arguments are path, startLine and endLine`},
		{mcp.ToolRead, json.RawMessage(`[1]`), `the arguments of project_fs_read must be a JSON object, such as {"path": "README.md"}`},
		{mcp.ToolList, map[string]any{"recursive": "yes"}, "recursive must be true or false"},
		{mcp.ToolList, map[string]any{"dir": []string{"src"}}, "dir must be a string"},
		{mcp.ToolList, map[string]any{"limit": 0}, "limit must be at least 1"},
		{mcp.ToolList, map[string]any{"limit": 10001}, "limit must be at most 10000"},
		{mcp.ToolList, map[string]any{"limit": json.RawMessage(`1e100`)}, "limit must be at most 10000"},
		{mcp.ToolList, map[string]any{"limit": "5"}, "limit" + integer},
		{mcp.ToolList, map[string]any{"path": "src"}, `project_fs_list takes no argument "path"; its arguments are dir, recursive and limit`},
		{mcp.ToolList, json.RawMessage(`"src"`), `the arguments of project_fs_list must be a JSON object, such as {"dir": "src", "recursive": true}`},
	}
	for _, tc := range cases {
		res := call(t, cs, tc.tool, tc.args)
		if !res.IsError || text(res) != tc.want || res.StructuredContent != nil {
			t.Errorf("%s %v: %s, want the error %q", tc.tool, tc.args, raw(t, res), tc.want)
		}
	}
	// Optional arguments given as null are absent, and 2.0 is the integer 2.
	var r mcp.ListResult
	structured(t, call(t, cs, mcp.ToolList, map[string]any{"dir": nil, "recursive": nil, "limit": json.RawMessage(`2.0`)}), &r)
	if r.Dir != "." || r.Count != 2 || !r.Truncated {
		t.Errorf("null dir and recursive, limit 2.0: %+v", r)
	}
}

// TestAbsolutePathsInsideTheRoot: an absolute path that lies lexically
// inside the workspace root, spelled as the server's working directory or
// with symlinks resolved, is the same relative path; the answer never
// shows the root. docs/protocol.md §10.9.5 "Path arguments".
func TestAbsolutePathsInsideTheRoot(t *testing.T) {
	t.Parallel()
	real := makefs.MustMake(t, fixture...)
	link := filepath.Join(t.TempDir(), "via-link")
	must(t, os.Symlink(real, link))
	// Started in the project through the link, as a shell that cd'ed
	// there would start it (PWD names the link).
	cmd := exec.Command(scouttest.Binary(t), "mcp")
	cs := connectCmd(t, cmd, link, "PWD="+link)
	for _, root := range []string{real, link} {
		for _, p := range []string{root + "/src/main.go", root + "//src/./main.go", root + "/./src/main.go/"} {
			res := call(t, cs, mcp.ToolRead, map[string]any{"path": p})
			var r mcp.ReadResult
			structured(t, res, &r)
			if r.Path != "src/main.go" || r.Content != "package main\n" || strings.Contains(raw(t, res), root) {
				t.Errorf("read %q: %s", p, raw(t, res))
			}
		}
		for _, d := range []string{root, root + "/", root + "/src"} {
			res := call(t, cs, mcp.ToolList, map[string]any{"dir": d})
			var r mcp.ListResult
			structured(t, res, &r)
			if want := map[bool]string{true: "src", false: "."}[strings.HasSuffix(d, "/src")]; r.Dir != want || r.Count == 0 || strings.Contains(raw(t, res), root) {
				t.Errorf("list %q: %s", d, raw(t, res))
			}
		}
		if res := call(t, cs, mcp.ToolRead, map[string]any{"path": root}); text(res) != "is a directory: project_fs_read needs a file; use project_fs_list for a folder" {
			t.Errorf("read of the root %q: %s", root, raw(t, res))
		}
		hidden := raw(t, call(t, cs, mcp.ToolRead, map[string]any{"path": "missing"}))
		for _, p := range []string{root + "/.env", root + "/link-dir/main.go", root + "/dist/bundle.js", root + "/../via-link/README.md", root + "-x/README.md"} {
			if got := raw(t, call(t, cs, mcp.ToolRead, map[string]any{"path": p})); got != hidden {
				t.Errorf("read %q: %s, want the hidden answer", p, got)
			}
		}
	}
}

// TestDefaultRecursiveListingOfTheGoTree: a recursive listing without
// limit of the Go distribution (some 15,000 entries, the shape the issue
// measured at 702,752 characters) answers 2,000 entries, truncated, in a
// response line under 256 KiB, as the server writes it.
func TestDefaultRecursiveListingOfTheGoTree(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	goroot := strings.TrimSpace(string(out))
	p := scouttest.Start(t, scouttest.Options{Dir: goroot, Args: []string{"mcp"}, Env: []string{"SCOUT_HOME=" + filepath.Join(t.TempDir(), "home")}})
	p.Send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"0"}}}`)
	p.Await("init")
	p.Send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	p.Send(`{"jsonrpc":"2.0","id":"list","method":"tools/call","params":{"name":"project_fs_list","arguments":{"recursive":true}}}`)
	m, _ := p.Await("list")
	var res struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			Structured mcp.ListResult `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(m.Raw, &res); err != nil {
		t.Fatal(err)
	}
	r := res.Result.Structured
	if r.Count != 2000 || len(r.Entries) != 2000 || !r.Truncated || !strings.Contains(r.Next, "list it with") {
		t.Fatalf("%d entries, truncated %v, next %q", r.Count, r.Truncated, r.Next)
	}
	if n := len(m.Raw) + 1; n >= 256<<10 {
		t.Errorf("the response line is %d bytes, want under 256 KiB", n)
	}
	if len(res.Result.Content) != 1 || !strings.Contains(res.Result.Content[0].Text, "\nsrc/\n") || strings.Contains(res.Result.Content[0].Text, `"path"`) {
		t.Errorf("the text is not the listing: %.200q", res.Result.Content)
	}
	lines := strings.Split(strings.TrimSuffix(res.Result.Content[0].Text, "\n"), "\n")
	if len(lines) != 2000+2 || !strings.HasPrefix(lines[len(lines)-1], "truncated: ") || !slices.Contains(lines, "VERSION\t"+sizeOf(t, goroot, "VERSION")) {
		t.Errorf("text: %d lines, last %q", len(lines), lines[len(lines)-1])
	}
}

func sizeOf(t *testing.T, dir, name string) string {
	t.Helper()
	fi, err := os.Stat(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return strconv.FormatInt(fi.Size(), 10)
}
