package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/internal/demo"
	"github.com/scoutdev/scout/rpcclient"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/files"
)

func newDemoCmd() *cobra.Command {
	var keep bool
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Tour every page on synthetic data, without touching your own home or the network",
		Long: "Open the picker on the current directory's files with a temporary backend home\n" +
			"(SCOUT_HOME) holding synthetic sessions for this directory, a configuration with\n" +
			"one provider per refresh outcome and catalog caches in every state, served by a\n" +
			"fake provider server on 127.0.0.1. Your own home, configuration and keys are\n" +
			"never read or written, and nothing needs the network. Esc or Ctrl-C ends the\n" +
			"demo and removes the temporary home (also on SIGTERM and SIGHUP).",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runDemo(cmd, keep) },
	}
	cmd.Flags().BoolVar(&keep, "keep", false, "keep the temporary home afterwards and print where it is")
	return cmd
}

// runDemo runs the picker on a demo home and cleans up whatever ends it:
// Esc, Enter, an error, or SIGINT/SIGTERM/SIGHUP (then the exit status is
// 128 plus the signal's number). Esc and Ctrl-C end it with status 0.
func runDemo(cmd *cobra.Command, keep bool) (err error) {
	ctx, sig := onSignals()
	defer sig.stop()
	in, out, err := tea.OpenTTY()
	if err != nil {
		return errors.New("cannot open the terminal (/dev/tty); the demo needs one")
	}
	defer in.Close()
	defer out.Close()
	wd, err := os.Getwd()
	if err != nil {
		return errors.New("cannot determine the working directory")
	}
	d, err := demo.Start(demo.Options{Workspace: wd})
	if err != nil {
		return err
	}
	defer func() { err = finishDemo(cmd.ErrOrStderr(), d, keep, sig, err) }()
	res, err := runDemoPicker(ctx, d, wd, in, out)
	if err != nil || res.Cancelled || len(res.Items) == 0 {
		return err
	}
	return printOutcome(cmd.OutOrStdout(), res, false)
}

// runDemoPicker starts the backend child on the demo's home (its
// diagnostics go to a log inside the home) and runs the picker until it
// ends; the child has exited when it returns.
func runDemoPicker(ctx context.Context, d *demo.Demo, wd string, in, out *os.File) (tui.Outcome, error) {
	logf, err := os.OpenFile(d.LogPath(), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return tui.Outcome{}, fmt.Errorf("cannot create the demo's backend log: %w", err)
	}
	defer logf.Close()
	startCtx, cancel := context.WithTimeout(ctx, startTimeout)
	defer cancel()
	diags := bridge.NewDiagnostics()
	diags.NameFilesIn(d.Home)
	client, err := rpcclient.Start(startCtx, rpcclient.Options{
		Dir:          wd,
		Env:          d.Env(os.Environ()),
		Capabilities: bridge.Required,
		Optional:     bridge.Optional,
		Stderr:       alsoTo{logf, diags},
	})
	if err != nil {
		return tui.Outcome{}, fmt.Errorf("cannot start the backend: %w", err)
	}
	defer client.Close()
	m := tui.New(tui.Options{
		Backend:     client,
		Pages:       pickerPages(client, files.New(files.Options{Backend: client}), d.Home),
		Banner:      demo.Banner,
		Diagnostics: diags,
	})
	return tui.Run(ctx, m, tui.Height{}, in, out, tea.WithColorProfile(colorProfile(out)))
}

// finishDemo stops the fake provider server and removes the home (or says
// where it was kept). A signal turns the outcome into 128 plus its number,
// whatever err was (the picker ended because of it).
func finishDemo(w io.Writer, d *demo.Demo, keep bool, sig *signals, err error) error {
	d.Close()
	if keep {
		fmt.Fprintf(w, "scout demo: the demo's home is kept in %s\n", d.Home)
	} else if rmErr := d.Remove(); rmErr != nil && err == nil {
		err = rmErr
	}
	if n := sig.received(); n != 0 {
		return exitCode(128 + n)
	}
	if err == nil {
		fmt.Fprintln(w, "scout demo: done. Next: go install ./cmd/scout, and see README.md for the shell key bindings.")
	}
	return err
}

// signals turns SIGINT, SIGTERM and SIGHUP into the cancellation of a
// context, remembering which signal came first.
type signals struct {
	ch     chan os.Signal
	first  chan syscall.Signal
	cancel context.CancelFunc
	done   chan struct{}
}

func onSignals() (context.Context, *signals) {
	ctx, cancel := context.WithCancel(context.Background())
	s := &signals{ch: make(chan os.Signal, 1), first: make(chan syscall.Signal, 1), cancel: cancel, done: make(chan struct{})}
	signal.Notify(s.ch, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	go func() {
		select {
		case v := <-s.ch:
			if n, ok := v.(syscall.Signal); ok {
				s.first <- n
			}
			cancel()
		case <-s.done:
		}
	}()
	return ctx, s
}

// received is the number of the first signal received, or 0.
func (s *signals) received() int {
	select {
	case n := <-s.first:
		s.first <- n
		return int(n)
	default:
		return 0
	}
}

// stop stops listening; signals are handled the default way again.
func (s *signals) stop() {
	signal.Stop(s.ch)
	close(s.done)
	s.cancel()
}
