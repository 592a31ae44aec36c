package mcp

import (
	"context"
	"encoding/json"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
)

// SkippedNames are skipped by the tools in every folder, on top of the
// backend's policy.
var SkippedNames = []string{"node_modules", ".git", "dist"}

// Tool names.
const (
	ToolList = "project_fs_list"
	ToolRead = "project_fs_read"
)

// Options configure a Server.
type Options struct {
	// Root is the guarded workspace root; nil when it cannot be opened
	// (then nothing is visible).
	Root *fsguard.Root
	// RootPaths are the absolute, clean spellings of the workspace root
	// (the working directory as given, and with symlinks resolved): an
	// absolute path argument inside one of them is taken as the path
	// relative to it. None: every absolute path is refused.
	RootPaths []string
	// Policy is the backend's settled visibility policy.
	Policy *policy.Policy
	// Version is reported in the MCP handshake.
	Version string
}

// Server serves the two tools over one workspace view.
type Server struct {
	root  *fsguard.Root
	roots []string
	pol   *policy.Policy
	mcp   *sdk.Server
}

// New returns a Server for opts.
func New(opts Options) *Server {
	s := &Server{root: opts.Root, roots: opts.RootPaths, pol: opts.Policy.WithNoise(SkippedNames...)}
	// The tools never change and nothing is logged to the client: tools
	// without listChanged, and no logging capability (the SDK's defaults).
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: "scout", Version: opts.Version}, &sdk.ServerOptions{
		Capabilities: &sdk.ServerCapabilities{Tools: &sdk.ToolCapabilities{}},
	})
	s.addTool(&sdk.Tool{
		Name: ToolList,
		Description: "List a folder of the project (or walk it with recursive), sorted by path. " +
			"Hidden, protected and ignored entries never appear. A recursive listing returns at most 2000 entries unless limit says otherwise; truncated and next say how to see the rest.",
		Annotations:  readOnly(),
		InputSchema:  schemaFor[ListArgs](map[string]bounds{"limit": {1, maxLimit}}),
		OutputSchema: outputSchema[ListResult](),
	}, s.list)
	s.addTool(&sdk.Tool{
		Name:         ToolRead,
		Description:  "Read lines of a text file of the project (1-based, endLine inclusive). Above 204,800 bytes the middle of the slice is cut out.",
		Annotations:  readOnly(),
		InputSchema:  schemaFor[ReadArgs](map[string]bounds{"startLine": {1, 0}, "endLine": {1, 0}}),
		OutputSchema: outputSchema[ReadResult](),
	}, s.read)
	return s
}

// toolFunc does one tool's work on its raw arguments: a structured result
// and its text (empty: the result's JSON), or an error whose text is the
// answer.
type toolFunc func(ctx context.Context, args json.RawMessage) (result any, text string, err error)

// addTool registers a tool whose handler decodes its own arguments (see
// args.go): the SDK's typed tools would answer argument errors with its
// validator's messages. Every error is an isError result, never a
// JSON-RPC error.
func (s *Server) addTool(t *sdk.Tool, h toolFunc) {
	s.mcp.AddTool(t, func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
		var res sdk.CallToolResult
		out, text, err := h(ctx, req.Params.Arguments)
		if err != nil {
			res.SetError(err)
			return &res, nil
		}
		b, err := json.Marshal(out)
		if err != nil {
			res.SetError(err) // not reached: the results are plain data
			return &res, nil
		}
		if text == "" {
			text = string(b)
		}
		res.Content = []sdk.Content{&sdk.TextContent{Text: text}}
		res.StructuredContent = json.RawMessage(b)
		return &res, nil
	})
}

// readOnly describes both tools: they only read, and only the project.
func readOnly() *sdk.ToolAnnotations {
	closed := false
	return &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
}

// bounds are an integer argument's minimum and maximum (0: none).
type bounds struct{ min, max float64 }

// schemaFor is the input schema generated from the arguments type T:
// plain types ("integer", "boolean", "string"), the optional members not
// required, no other member allowed, with the integer bounds given.
func schemaFor[T any](ints map[string]bounds) *jsonschema.Schema {
	sch, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err) // a programming error in T
	}
	for name, b := range ints {
		p := sch.Properties[name]
		p.Minimum = &b.min
		if b.max > 0 {
			p.Maximum = &b.max
		}
	}
	return sch
}

// outputSchema is the schema generated from the result type T, its
// arrays declared as arrays: the tools never answer null for them (a Go
// slice alone would make the generated type "null or array").
func outputSchema[T any]() *jsonschema.Schema {
	sch, err := jsonschema.For[T](nil)
	if err != nil {
		panic(err) // a programming error in T
	}
	for _, p := range sch.Properties {
		if len(p.Types) == 2 && p.Types[0] == "null" && p.Types[1] == "array" {
			p.Types, p.Type = nil, "array"
		}
	}
	return sch
}

// Run serves the tools on t until the client disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.mcp.Run(ctx, t)
}

// MCP returns the SDK server (for in-process tests and custom transports).
func (s *Server) MCP() *sdk.Server { return s.mcp }
