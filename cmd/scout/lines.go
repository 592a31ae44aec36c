package main

import (
	"context"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/cmd/scout/internal/early"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/files"
)

// The picker reads its candidates from standard input when that is a
// pipe or a regular file (`git ls-files | scout`, `scout < list`), like
// fzf; a terminal, /dev/null or any other device (what editors and
// scripts hand their children) leaves it on the project's files.

// check validates the flags for a picker opened on tab: the height, and
// whether the candidates are standard input's lines.
func (f pickFlags) check(cmd *cobra.Command, tab int) (tui.Height, bool, error) {
	var h tui.Height
	if f.height != "" {
		var err error
		if h, err = tui.ParseHeight(f.height); err != nil {
			return h, false, usageError{cmd, "--height: " + err.Error()}
		}
	}
	lines := tab == tabFiles && early.StdinHasLines()
	switch {
	case f.read0 && !lines:
		return h, false, usageError{cmd, "--read0 reads lines from standard input, which is not a pipe or a file here"}
	case f.dirs && lines:
		return h, false, usageError{cmd, "--dirs picks the project's folders; it cannot pick lines from standard input"}
	}
	return h, lines, nil
}

// linesBackend is the backend of the picker over standard input: started
// only for the preview of a line that names a file of the project.
func linesBackend(diags io.Writer) *bridge.Lazy {
	return bridge.NewLazy(func(context.Context) (bridge.Backend, func(), error) {
		required, optional := bridge.Negotiation(nil)
		c, stop, err := startBackend(required, optional, diags)
		if err != nil {
			return nil, nil, err
		}
		return c, stop, nil
	})
}

// linesPicker is the picker of standard input's lines: one page.
func linesPicker(b *bridge.Lazy, f pickFlags, diags *bridge.Diagnostics) tui.Model {
	page := files.New(files.Options{
		Backend: b,
		Query:   f.query,
		Multi:   f.multi,
		Lines:   files.ReadLines(os.Stdin, separator(f.read0)),
	})
	return tui.New(tui.Options{Backend: b, Pages: []tui.Page{page}, Diagnostics: diags})
}
