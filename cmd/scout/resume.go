package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/backend/wire"
)

func newResumeCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "resume",
		Short: "Pick a session of this directory and resume it in its own agent",
		Long: "scout resume opens a picker of this directory's sessions. Enter opens the\n" +
			"focused session exactly and hands the terminal to its agent, in this directory:\n" +
			"claude --resume ID, codex resume ID, gemini --resume ID, opencode --session ID,\n" +
			"crush --session ID. For scout's own sessions it prints the id. An agent that is\n" +
			"not on PATH is an error that says the command to run.\n" +
			"Exit status: the agent's, once it runs; 1 nothing chosen, 130 Esc/Ctrl-C, 2 error.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			agent, id, err := pickSession()
			if err != nil {
				return err
			}
			return resume(cmd.OutOrStdout(), agent, id)
		},
	}
}

// resumeCommand is the command that resumes session id of agent in the
// directory it belongs to: each agent's own resume flag (their command
// lines: docs/design.md, Commands). scout's own sessions have none: the
// command is the id alone.
func resumeCommand(agent, id string) []string {
	switch agent {
	case wire.AgentClaudeCode:
		return []string{"claude", "--resume", id}
	case wire.AgentCodex:
		return []string{"codex", "resume", id}
	case wire.AgentGemini:
		return []string{"gemini", "--resume", id}
	case wire.AgentOpenCode:
		return []string{"opencode", "--session", id}
	case wire.AgentCrush:
		return []string{"crush", "--session", id}
	}
	return []string{id}
}

// resume replaces scout with the agent's resume command, run in the
// workspace root (the current directory, which the backend served; exec
// keeps it, and the terminal), or prints the id of one of scout's own
// sessions.
func resume(w io.Writer, agent, id string) error {
	argv := resumeCommand(agent, id)
	if len(argv) == 1 {
		_, err := fmt.Fprintln(w, id)
		return err
	}
	path, err := exec.LookPath(argv[0])
	if err != nil {
		return fmt.Errorf("%s is not on PATH; to resume this session, run in this directory: %s", argv[0], strings.Join(argv, " "))
	}
	if err := syscall.Exec(path, argv, os.Environ()); err != nil {
		return fmt.Errorf("cannot run %s: %v", strings.Join(argv, " "), err)
	}
	return nil
}
