package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/files"
)

// maxStdinLine bounds one candidate line read with --stdin.
const maxStdinLine = 1 << 20

func newFilterCmd() *cobra.Command {
	var limit, maxIndexed int
	var stdin bool
	cmd := &cobra.Command{
		Use:   "filter QUERY",
		Short: "Rank the project's files for QUERY and print them best first (no interface)",
		Long: "Rank every file of the project the visibility policy shows (the backend's\n" +
			"snapshot and, for a larger tree, its whole index) for QUERY and print the\n" +
			"matches best first, one per line, exactly as the picker lists them. With --stdin,\n" +
			"rank the non-empty lines of standard input instead (like fzf --filter).\n" +
			"Exit status 0 when something matched, 1 when nothing did.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 0 {
				return errors.New("--limit must be 0 (no limit) or more")
			}
			ceiling, err := files.MaxIndexed(maxIndexed, cmd.Flags().Changed("max-indexed"))
			if err != nil {
				return err
			}
			var cands []string
			if stdin {
				cands, err = readCandidates(cmd.InOrStdin())
			} else {
				var closed func()
				cands, closed, err = projectCandidates(cmd.ErrOrStderr(), ceiling)
				if closed != nil {
					defer closed()
				}
			}
			if err != nil {
				return err
			}
			return printFiltered(cmd.OutOrStdout(), cands, args[0], limit)
		},
	}
	cmd.Flags().IntVarP(&limit, "limit", "n", 0, "print at most N matches (0: all)")
	cmd.Flags().BoolVar(&stdin, "stdin", false, "rank the lines of standard input instead of the project's files")
	cmd.Flags().IntVar(&maxIndexed, "max-indexed", files.DefaultMaxIndexed, "hold at most N entries of the project (also "+files.MaxIndexedEnv+"; 0: the first snapshot only)")
	return cmd
}

// projectCandidates lists every file of the project through the backend
// (files.Complete: the snapshot, then the index) and returns what the
// Files page ranks. When the ceiling cut the index short it says so on
// stderr, in one line. The backend is shut down while the caller ranks
// and prints (its shutdown is a round trip and a wait for the exit);
// closed waits for that.
func projectCandidates(stderr io.Writer, ceiling int) (cands []string, closed func(), err error) {
	// The backend's diagnostics (a broken config.toml empties the
	// workspace) are this command's to say: it has no status line.
	c, stop, err := startBackend(bridge.Required, []string{wire.MethodProjectIndex}, homeFilesNamed(os.Stderr))
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), indexTimeout)
	defer cancel()
	cands, stopped, err := files.Complete(ctx, c, ceiling)
	done := make(chan struct{})
	go func() { stop(); close(done) }()
	closed = func() { <-done }
	if err != nil {
		return nil, closed, fmt.Errorf("cannot list the project's files: %s", bridge.Describe(err))
	}
	if stopped {
		fmt.Fprintf(stderr, "scout filter: %s\n", files.CeilingNote(ceiling))
	}
	return cands, closed, nil
}

// indexTimeout bounds listing the whole project: generous, since a tree
// of millions of files takes seconds; it only catches a backend that
// stopped answering.
const indexTimeout = 10 * time.Minute

// readCandidates reads newline-separated candidates (trailing CRs, up to
// two, are dropped; empty lines are skipped; a line over maxStdinLine
// bytes is an error). The input is read whole and the lines share its one string.
func readCandidates(r io.Reader) ([]string, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("reading standard input: %w", err)
	}
	all := string(data)
	out := make([]string, 0, strings.Count(all, "\n")+1)
	for rest := all; rest != ""; {
		line, tail, _ := strings.Cut(rest, "\n")
		if len(line) > maxStdinLine {
			return nil, fmt.Errorf("reading standard input: a line is longer than %d bytes", maxStdinLine)
		}
		// bufio.ScanLines dropped one CR and this function another.
		if line = strings.TrimSuffix(strings.TrimSuffix(line, "\r"), "\r"); line != "" {
			out = append(out, line)
		}
		rest = tail
	}
	return out, nil
}

func printFiltered(w io.Writer, cands []string, query string, limit int) error {
	out, err := files.Filter(context.Background(), cands, query, limit)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	for _, p := range out {
		bw.WriteString(p)
		bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if len(out) == 0 {
		return exitNothing
	}
	return nil
}
