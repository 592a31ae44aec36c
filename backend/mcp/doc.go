// Package mcp is `scout mcp`: a Model Context Protocol server on stdio,
// built on the official Go SDK, that lets an agent list and read the
// project through the same visibility policy as the backend (docs/protocol.md §4,
// a trusted project configuration included) plus node_modules, .git and
// dist, which are always skipped.
//
// Two tools, with input and output schemas generated from the Go types of
// this package (plain types, the optional arguments not required) and
// results returned as structured content:
//
//   - project_fs_list {dir?, recursive?, limit?} lists one folder, or walks
//     it within project.files's bounds (2,000 entries unless limit says
//     otherwise), sorted by path, saying truncated and next when more
//     exist;
//   - project_fs_read {path, startLine?, endLine?} returns a slice of lines
//     of a text file, its middle cut out above 204,800 bytes.
//
// Paths are relative POSIX paths from the workspace root, or absolute
// ones lexically inside it. Every path the policy would not show
// (absolute outside the root, leaving the workspace, crossing a symlink,
// protected, skipped, unreadable, hard-linked or missing) gets one
// identical isError answer, "no such file or directory", so nothing can
// be learned about what is hidden. The arguments are decoded here
// (args.go), so that every argument error is a sentence naming the
// argument and the rule; every failure is an isError answer, never a
// JSON-RPC protocol error.
package mcp
