package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/files"
)

func newFilterCmd() *cobra.Command {
	var limit, maxIndexed int
	var stdin, read0, print0 bool
	cmd := &cobra.Command{
		Use:   "filter QUERY",
		Short: "Rank the project's files for QUERY and print them best first (no interface)",
		Long: "Rank every file of the project the visibility policy shows (the backend's\n" +
			"snapshot and, for a larger tree, its whole index) for QUERY and print the\n" +
			"matches best first, one per line, exactly as the picker lists them. With --stdin,\n" +
			"rank the non-empty lines of standard input instead (like fzf --filter;\n" +
			"--read0: NUL-separated). --print0 ends each printed match with NUL.\n" +
			"Exit status 0 when something matched, 1 when nothing did, 2 on a usage or\n" +
			"startup error (a config.toml scout cannot use, say).",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if limit < 0 {
				return errors.New("--limit must be 0 (no limit) or more")
			}
			if read0 && !stdin {
				return errors.New("--read0 reads standard input: it needs --stdin")
			}
			ceiling, err := files.MaxIndexed(maxIndexed, cmd.Flags().Changed("max-indexed"))
			if err != nil {
				return err
			}
			var cands []string
			if stdin {
				cands, err = readCandidates(cmd.InOrStdin(), separator(read0))
			} else {
				// The collector stays on here (unlike --stdin): a walk's
				// pages are decoded into memory that is garbage a page
				// later, and reused it costs a fifth less than fresh
				// pages faulted in (docs/performance.md, issue 15).
				var closed func()
				cands, closed, err = projectCandidates(cmd.ErrOrStderr(), ceiling, files.Sieve(args[0]))
				if closed != nil {
					defer closed()
				}
			}
			if err != nil {
				return err
			}
			return printFiltered(cmd.OutOrStdout(), cands, args[0], limit, separator(print0))
		},
	}
	cmd.Flags().IntVarP(&limit, "limit", "n", 0, "print at most N matches (0: all)")
	cmd.Flags().BoolVar(&stdin, "stdin", false, "rank the lines of standard input instead of the project's files")
	cmd.Flags().BoolVar(&read0, "read0", false, "with --stdin: the lines are separated by NUL, not newline")
	cmd.Flags().BoolVar(&print0, "print0", false, "end each match with NUL instead of a newline")
	cmd.Flags().IntVar(&maxIndexed, "max-indexed", files.DefaultMaxIndexed, "hold at most N entries of the project (also "+files.MaxIndexedEnv+"; 0: the first snapshot only)")
	return cmd
}

// projectCandidates lists every file of the project through the backend
// (files.Complete: the snapshot, then the index) and returns those of what
// the Files page ranks that keep passes (files.Sieve of the query: the
// ranking of them is the ranking of all). When the ceiling cut the index short it says so on
// stderr, in one line. The backend is shut down while the caller ranks
// and prints (its shutdown is a round trip and a wait for the exit);
// closed waits for that, then writes the child's diagnostics on stderr.
// A backend that serves nothing of the workspace (a broken config.toml)
// is an error: the one line that says why.
func projectCandidates(stderr io.Writer, ceiling int, keep func(string) bool) (cands []string, closed func(), err error) {
	// The backend's diagnostics are this command's to say: it has no
	// status line.
	child := &childStderr{}
	// It follows the walk to its end: each next page is asked for as soon
	// as a page is in (rpcclient.Options.IndexAhead).
	c, stop, err := startBackendWith(rpcclient.Options{Capabilities: bridge.Required, Optional: []string{wire.MethodProjectIndex}, IndexAhead: true}, child)
	if err != nil {
		return nil, nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), indexTimeout)
	defer cancel()
	cands, stopped, err := files.Complete(ctx, c, ceiling, keep)
	done := make(chan struct{})
	go func() { stop(); close(done) }()
	closed = func() { <-done; child.copyTo(homeFilesNamed(os.Stderr)) }
	if err != nil {
		return nil, closed, fmt.Errorf("cannot list the project's files: %s", bridge.Describe(err))
	}
	if len(cands) == 0 {
		<-done // its stderr is complete once it has exited
		if why := bridge.Unserved(child.String()); why != "" {
			if home, err := config.HomeDir(os.Getenv); err == nil {
				why = bridge.NameHomeFiles(why, home)
			}
			return nil, func() {}, fmt.Errorf("%s; nothing can be listed until it is fixed", why)
		}
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

// childStderr keeps the first 64 KiB the backend child writes on stderr.
type childStderr struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

const childStderrBytes = 64 << 10

func (c *childStderr) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.buf.Write(p[:min(len(p), max(childStderrBytes-c.buf.Len(), 0))])
	return len(p), nil
}

func (c *childStderr) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

func (c *childStderr) copyTo(w io.Writer) {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, _ = c.buf.WriteTo(w)
}

// separator is the byte that ends a line: NUL with --read0/--print0.
func separator(nul bool) byte {
	if nul {
		return 0
	}
	return '\n'
}

func printFiltered(w io.Writer, cands []string, query string, limit int, sep byte) error {
	out, err := files.Filter(context.Background(), cands, query, limit)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	for _, p := range out {
		bw.WriteString(p)
		bw.WriteByte(sep)
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	if len(out) == 0 {
		return exitNothing
	}
	return nil
}
