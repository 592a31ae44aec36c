// Package mcp is `scout mcp`: a Model Context Protocol server on stdio,
// built on the official Go SDK, that lets an agent list and read the
// project through the same visibility policy as the backend (PROTOCOL §4,
// a trusted project configuration included) plus node_modules, .git and
// dist, which are always skipped.
//
// Two tools, with input and output schemas generated from the Go types of
// this package and results returned as structured content:
//
//   - project_fs_list {dir?, recursive?} lists one folder, or walks it
//     within project.files's bounds, sorted by path;
//   - project_fs_read {path, startLine?, endLine?} returns a slice of lines
//     of a text file, its middle cut out above 204,800 bytes.
//
// Paths are relative POSIX paths from the workspace root. Every path the
// policy would not show (absolute, leaving the workspace, crossing a
// symlink, protected, skipped, unreadable, hard-linked or missing) gets one
// identical isError answer, "no such file or directory", so nothing can be
// learned about what is hidden. Every other failure is an isError answer
// that names the problem; arguments are never answered with a JSON-RPC
// protocol error.
package mcp
