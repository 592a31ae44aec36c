package main

import (
	"errors"
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/backend"
)

// exitCode is an error that carries the process's exit code and has already
// said whatever it had to say.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit %d", int(e)) }

func asExitCode(err error, ec *exitCode) bool { return errors.As(err, ec) }

func newRootCmd() *cobra.Command {
	var f pickFlags
	root := &cobra.Command{
		Use:   "scout",
		Short: "A keyboard-first picker for files, agent sessions and model providers",
		Long: "scout picks the project's files (the default), the agent's sessions and model\n" +
			"providers. The interface is drawn on the terminal; Enter prints the chosen\n" +
			"paths on stdout, so vim \"$(scout)\" works. Exit status: 0 chosen, 1 nothing\n" +
			"chosen or no match, 130 Esc/Ctrl-C, 2 usage or startup error.",
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE:          func(cmd *cobra.Command, _ []string) error { return runFiles(cmd, f) },
	}
	root.AddCommand(newDemoCmd(), newShellCmd())
	f.register(root)
	root.AddCommand(newFilesCmd(), newSessionsCmd(), newResumeCmd(), newProvidersCmd(), newFilterCmd(), newBackendCmd(), newMCPCmd(), newTrustCmd(), newConfigCmd(), newVersionCmd())
	// The commands are the ones docs/design.md lists; no generated completion.
	root.CompletionOptions.DisableDefaultCmd = true
	checkUsage(root)
	return root
}

func newBackendCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "backend",
		Short: "Run the discovery backend on stdin/stdout (spawned by the picker)",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			wd, err := os.Getwd()
			if err != nil {
				return errors.New("cannot determine the working directory")
			}
			return backend.Run(backend.Options{Workspace: wd, Stderr: os.Stderr}, os.Stdin, os.Stdout)
		},
	}
}

func newVersionCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print scout's version",
		Args:  cobra.NoArgs,
		Run: func(cmd *cobra.Command, _ []string) {
			fmt.Fprintf(cmd.OutOrStdout(), "scout %s (protocol 1)\n", backend.Version)
		},
	}
}
