package main

import (
	"errors"
	"io"
	"os"

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
			srv := mcp.New(mcp.Options{Root: root, Policy: pol, Version: backend.Version})
			if err := srv.Run(cmd.Context(), &sdk.StdioTransport{}); err != nil && !closedInput(err) {
				return err
			}
			return nil
		},
	}
}

// closedInput reports the end of a session that simply ended: the client
// closed our stdin.
func closedInput(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, sdk.ErrConnectionClosed)
}
