package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/files"
)

// maxStdinLine bounds one candidate line read with --stdin.
const maxStdinLine = 1 << 20

func newFilterCmd() *cobra.Command {
	var limit int
	var stdin bool
	cmd := &cobra.Command{
		Use:   "filter QUERY",
		Short: "Rank the project's files for QUERY and print them best first (no interface)",
		Long: "Rank the project's files (a snapshot from the backend) for QUERY and print the\n" +
			"matches best first, one per line, exactly as the picker lists them. With --stdin,\n" +
			"rank the non-empty lines of standard input instead (like fzf --filter).\n" +
			"Exit status 0 when something matched, 1 when nothing did.",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 0 {
				return errors.New("--limit must be 0 (no limit) or more")
			}
			var cands []string
			var err error
			if stdin {
				cands, err = readCandidates(cmd.InOrStdin())
			} else {
				var closed func()
				cands, closed, err = snapshotCandidates()
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
	return cmd
}

// snapshotCandidates takes a snapshot through the backend and returns what
// the Files page ranks in it. The backend is shut down while the caller
// ranks and prints (its shutdown is a round trip and a wait for the exit);
// closed waits for that.
func snapshotCandidates() (cands []string, closed func(), err error) {
	// The backend's diagnostics (a broken config.toml empties the
	// workspace) are this command's to say: it has no status line.
	c, stop, err := startBackend(bridge.Required, nil, homeFilesNamed(os.Stderr))
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	res, err := c.ProjectFiles(ctx)
	done := make(chan struct{})
	go func() { stop(); close(done) }()
	closed = func() { <-done }
	if err != nil {
		return nil, closed, fmt.Errorf("cannot list the project's files: %s", bridge.Describe(err))
	}
	return files.Candidates(res.Entries), closed, nil
}

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
