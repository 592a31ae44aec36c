package mcp

import (
	"context"

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
	// Policy is the backend's settled visibility policy.
	Policy *policy.Policy
	// Version is reported in the MCP handshake.
	Version string
}

// Server serves the two tools over one workspace view.
type Server struct {
	root *fsguard.Root
	pol  *policy.Policy
	mcp  *sdk.Server
}

// New returns a Server for opts.
func New(opts Options) *Server {
	s := &Server{root: opts.Root, pol: opts.Policy.WithNoise(SkippedNames...)}
	s.mcp = sdk.NewServer(&sdk.Implementation{Name: "scout", Version: opts.Version}, nil)
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:         ToolList,
		Description:  "List a folder of the project (or walk it with recursive), sorted by path. Hidden, protected and ignored entries never appear.",
		Annotations:  readOnly(),
		OutputSchema: listOutputSchema(),
	}, s.list)
	sdk.AddTool(s.mcp, &sdk.Tool{
		Name:        ToolRead,
		Description: "Read lines of a text file of the project (1-based, endLine inclusive). Above 204,800 bytes the middle of the slice is cut out.",
		Annotations: readOnly(),
		InputSchema: readSchema(),
	}, s.read)
	return s
}

// readOnly describes both tools: they only read, and only the project.
func readOnly() *sdk.ToolAnnotations {
	closed := false
	return &sdk.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &closed}
}

// readSchema is the schema generated from ReadArgs, with line numbers
// constrained to be at least 1.
func readSchema() *jsonschema.Schema {
	sch, err := jsonschema.For[ReadArgs](nil)
	if err != nil {
		panic(err) // a programming error in ReadArgs
	}
	one := 1.0
	for _, name := range []string{"startLine", "endLine"} {
		sch.Properties[name].Minimum = &one
	}
	return sch
}

// listOutputSchema is the schema generated from ListResult, with entries
// an array: the tool never answers null for it (a Go slice alone would
// make the generated type "null or array").
func listOutputSchema() *jsonschema.Schema {
	sch, err := jsonschema.For[ListResult](nil)
	if err != nil {
		panic(err) // a programming error in ListResult
	}
	sch.Properties["entries"].Types = nil
	sch.Properties["entries"].Type = "array"
	return sch
}

// Run serves the tools on t until the client disconnects or ctx ends.
func (s *Server) Run(ctx context.Context, t sdk.Transport) error {
	return s.mcp.Run(ctx, t)
}

// MCP returns the SDK server (for in-process tests and custom transports).
func (s *Server) MCP() *sdk.Server { return s.mcp }
