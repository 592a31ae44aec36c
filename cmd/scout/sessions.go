package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/sessions"
)

// sessionsFlags are the flags of `scout sessions`.
type sessionsFlags struct {
	json, command, print0 bool
}

func newSessionsCmd() *cobra.Command {
	var f sessionsFlags
	cmd := &cobra.Command{
		Use:   "sessions",
		Short: "Pick one of this directory's sessions, of every agent: Enter opens it and prints AGENT ID",
		Long: "scout sessions opens the picker on the Sessions tab: the sessions of this\n" +
			"directory of scout and of Claude Code, Codex CLI, Gemini CLI, opencode and\n" +
			"crush. Enter opens the focused session exactly (session.open) and prints its\n" +
			"agent and id (\"codex 0199a0c2-...\"). --command prints the command that\n" +
			"resumes it instead (\"codex resume 0199a0c2-...\"; scout's own sessions\n" +
			"print their id), from a picker of sessions alone: what Alt-S inserts. --json\n" +
			"prints every session as one JSON object per line once discovery has\n" +
			"completed, with no interface.\n" +
			"Exit status: 0 opened (or listed), 1 nothing chosen, 130 Esc/Ctrl-C, 2 error.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			switch {
			case f.json && f.command:
				return usageError{cmd, "--json and --command cannot be used together"}
			case f.json:
				return printSessionsJSON(cmd.OutOrStdout())
			case f.command:
				return printResumeCommand(cmd.OutOrStdout(), f.print0)
			}
			return runPicker(cmd, tabSessions, pickFlags{print0: f.print0})
		},
	}
	cmd.Flags().BoolVar(&f.json, "json", false, "print every session as a JSON line (no interface)")
	cmd.Flags().BoolVar(&f.command, "command", false, "print the picked session's resume command instead of AGENT ID")
	cmd.Flags().BoolVar(&f.print0, "print0", false, "end the output with NUL instead of a newline")
	return cmd
}

// pickSession runs a picker of sessions alone and returns the agent and
// id of the session it opened; ok is false when none was.
func pickSession() (agent, id string, err error) {
	res, err := runTUI(0, bridge.Sessions, tui.Height{}, 0, func(client bridge.Backend, _ string) []tui.Page {
		return []tui.Page{sessions.New(sessions.Options{Backend: client})}
	})
	switch {
	case err != nil:
		return "", "", err
	case res.Cancelled:
		return "", "", exitCancelled
	case len(res.Items) == 0:
		return "", "", exitNothing
	}
	agent, id, _ = strings.Cut(res.Items[0], " ")
	return agent, id, nil
}

// printResumeCommand picks a session and prints its resume command.
func printResumeCommand(w io.Writer, print0 bool) error {
	agent, id, err := pickSession()
	if err != nil {
		return err
	}
	end := "\n"
	if print0 {
		end = "\x00"
	}
	_, err = fmt.Fprint(w, strings.Join(resumeCommand(agent, id), " "), end)
	return err
}

// jsonAttempts is how often `scout sessions --json` starts discovery over
// after stale_revision (a store changed under it) before it gives up.
const jsonAttempts = 3

// discoverTimeout bounds one page of discovery on our side; the backend
// bounds each page to 2 s, this only catches one that stopped answering.
const discoverTimeout = 60 * time.Second

// printSessionsJSON discovers every session to validated completion and
// prints the rows, one JSON object per line, newest first (session.list's
// order: updated_at, then agent, then id). Nothing is printed before
// discovery completed: the rows of an unfinished scan are provisional.
func printSessionsJSON(w io.Writer) error {
	// The backend's diagnostics are said once it has exited: after the
	// rows, or, on an error, as the one line's reason when they give it.
	child := &childStderr{}
	c, stop, err := startBackend([]string{wire.MethodSessionDiscover}, nil, child)
	if err != nil {
		return err
	}
	var rows []wire.SessionRow
	for attempt := 1; ; attempt++ {
		rows, err = discoverAll(c)
		if bridge.Code(err) != wire.CodeStaleRevision || attempt == jsonAttempts {
			break
		}
	}
	stop() // its stderr is complete once it has exited
	if err != nil {
		why := bridge.Describe(err)
		if d := bridge.Diagnostic(child.String(), ""); d != "" && bridge.Code(err) == wire.CodeDiscoveryUnavailable {
			if home, herr := config.HomeDir(os.Getenv); herr == nil {
				d = bridge.NameHomeFiles(d, home)
			}
			why = d
		}
		return fmt.Errorf("session discovery failed: %s", why)
	}
	child.copyTo(homeFilesNamed(os.Stderr))
	slices.SortFunc(rows, wire.CompareSessionRows)
	bw := bufio.NewWriter(w)
	for _, r := range rows {
		b, err := wire.Marshal(r)
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// discoverAll follows session.discover from a fresh scan to complete.
func discoverAll(c *rpcclient.Client) ([]wire.SessionRow, error) {
	var rows []wire.SessionRow
	var cursor *string
	for {
		ctx, cancel := context.WithTimeout(context.Background(), discoverTimeout)
		res, err := c.SessionDiscover(ctx, cursor)
		cancel()
		if err != nil {
			return nil, err
		}
		rows = append(rows, res.Sessions...)
		if res.Complete {
			return rows, nil
		}
		cursor = res.Cursor
	}
}
