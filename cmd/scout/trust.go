package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge"
)

// trustDiagnostic begins the backend's diagnostic of a failed
// workspace.trust (backend/files_methods.go).
const trustDiagnostic = "workspace.trust: "

// newTrustCmd is `scout trust`: the deliberate way to adopt the project's
// .scout/config.toml (its deny globs, ignore setting and providers). The
// decision is remembered with the file's SHA-256, so a changed file is
// untrusted again until trusted anew.
func newTrustCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "trust",
		Short: "Trust this project's .scout/config.toml (deny globs, ignore rules, providers)",
		Long: "Apply this directory's .scout/config.toml and remember that you trust it.\n" +
			"Until then scout ignores the file. If the file changes, it is untrusted again.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// The backend says why adoption failed on its stderr: that
			// is the reason this command's one line gives.
			child := &childStderr{}
			c, stop, err := startBackend([]string{wire.MethodWorkspaceTrust}, nil, child)
			if err != nil {
				return err
			}
			ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
			defer cancel()
			res, err := c.WorkspaceTrust(ctx)
			stop() // its stderr is complete once it has exited
			if err != nil {
				why := bridge.Describe(err)
				if d := bridge.Diagnostic(child.String(), trustDiagnostic); d != "" && bridge.Code(err) == wire.CodeTrustFailed {
					why = d
				}
				return fmt.Errorf("the project configuration was not trusted: %s", why)
			}
			out := cmd.OutOrStdout()
			switch res.Trust {
			case wire.TrustNoLocalConfig:
				fmt.Fprintln(out, "This directory has no .scout/config.toml; nothing to trust.")
			default:
				fmt.Fprintln(out, "Trusted .scout/config.toml: its deny globs and ignore setting apply from now on.")
				if res.ConfigurationReload == wire.ConfigurationReloadRestart {
					fmt.Fprintln(out, "Its providers appear the next time scout starts.")
				}
			}
			return nil
		},
	}
}
