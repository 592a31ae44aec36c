package main

import (
	"errors"
	"io"
	"os"
	"path/filepath"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/backend"
	"github.com/scoutdev/scout/backend/mcp"
)

func newMCPCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve the project to an agent as an MCP server on stdin/stdout (project_fs_list, project_fs_read)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			wd, err := os.Getwd()
			if err != nil {
				return errors.New("cannot determine the working directory")
			}
			root, pol := backend.OpenView(wd, os.Getenv, os.Stderr)
			srv := mcp.New(mcp.Options{Root: root, RootPaths: rootPaths(wd), Policy: pol, Version: backend.Version})
			if err := srv.Run(cmd.Context(), mcp.Stdio(os.Stdin, os.Stdout)); err != nil && !closedInput(err) {
				return err
			}
			return nil
		},
	}
}

// rootPaths are the spellings of the workspace root an agent may put in
// front of a path: the working directory as the shell gave it (os.Getwd
// keeps a $PWD that names it, symlinks and all) and with symlinks
// resolved.
func rootPaths(wd string) []string {
	paths := []string{filepath.Clean(wd)}
	if real, err := filepath.EvalSymlinks(wd); err == nil && real != paths[0] {
		paths = append(paths, real)
	}
	return paths
}

// closedInput reports the end of a session that simply ended: the client
// closed our stdin.
func closedInput(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, sdk.ErrConnectionClosed)
}
