package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/cmd/scout/internal/early"
	"github.com/scoutdev/scout/rpcclient"
	"github.com/scoutdev/scout/tui"
	"github.com/scoutdev/scout/tui/bridge"
	"github.com/scoutdev/scout/tui/files"
	"github.com/scoutdev/scout/tui/providers"
	"github.com/scoutdev/scout/tui/sessions"
)

// Exit statuses of the pickers (docs/design.md "Commands").
const (
	exitNothing   exitCode = 1   // nothing chosen, no match
	exitCancelled exitCode = 130 // Esc, Ctrl-C
)

// pickFlags are the Files picker's flags.
type pickFlags struct {
	query      string
	multi      bool
	print0     bool
	read0      bool
	dirs       bool
	height     string
	maxIndexed int
}

func (f *pickFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVarP(&f.query, "query", "q", "", "start with this query")
	cmd.Flags().BoolVarP(&f.multi, "multi", "m", false, "let Tab mark several files")
	cmd.Flags().BoolVar(&f.print0, "print0", false, "end each chosen path with NUL instead of a newline")
	cmd.Flags().BoolVar(&f.read0, "read0", false, "lines on standard input are separated by NUL, not newline")
	cmd.Flags().BoolVar(&f.dirs, "dirs", false, "pick the project's folders instead of its files")
	cmd.Flags().StringVar(&f.height, "height", "", "draw the picker inline under the cursor in N rows or N% of the terminal")
	cmd.Flags().IntVar(&f.maxIndexed, "max-indexed", files.DefaultMaxIndexed, "hold at most N entries of the project (also "+files.MaxIndexedEnv+"; 0: the first snapshot only)")
}

// ceiling is the picker's --max-indexed as files.Options wants it.
func (f *pickFlags) ceiling(cmd *cobra.Command) (int, error) {
	n, err := files.MaxIndexed(f.maxIndexed, cmd.Flags().Changed("max-indexed"))
	if n == 0 {
		n = -1 // the snapshot alone
	}
	return n, err
}

func newFilesCmd() *cobra.Command {
	var f pickFlags
	cmd := &cobra.Command{
		Use:   "files",
		Short: "Pick files (the default): Enter prints the chosen paths on stdout",
		Args:  cobra.NoArgs,
		RunE:  func(cmd *cobra.Command, _ []string) error { return runFiles(cmd, f) },
	}
	f.register(cmd)
	return cmd
}

// runFiles runs the picker on the Files tab, drawn on the terminal so
// stdout carries only the chosen paths.
func runFiles(cmd *cobra.Command, f pickFlags) error {
	return runPicker(cmd, tabFiles, f)
}

// Tabs of the picker, in the order they are shown.
const (
	tabFiles = iota
	tabSessions
	tabProviders
)

// tabCapabilities are the capabilities a picker opened on a tab cannot do
// without (besides bridge.Required); the other tabs' are negotiated when
// offered.
var tabCapabilities = [...][]string{tabFiles: nil, tabSessions: bridge.Sessions, tabProviders: bridge.Providers}

// runPicker runs the picker with its three tabs, opened on tab (or the
// picker of standard input's lines), and prints what it ended with:
// chosen paths or lines, or a session's agent and id.
func runPicker(cmd *cobra.Command, tab int, f pickFlags) error {
	height, lines, err := f.check(cmd, tab)
	if err != nil {
		return err
	}
	ceiling, err := f.ceiling(cmd)
	if err != nil {
		return err
	}
	var res tui.Outcome
	if lines {
		diags, _ := newDiagnostics()
		res, err = runOnTTY(height, func() (tui.Model, func(), error) {
			lazy := linesBackend(diags)
			return linesPicker(lazy, f, diags), func() { lazy.Close() }, nil
		})
	} else {
		// The walk follows a truncated snapshot at once unless the
		// ceiling forbids it or a query's first ranking goes first
		// (tui/files' followIndex).
		early := launchFiles | launchIndex
		if ceiling < 0 || f.query != "" {
			early = launchFiles
		}
		res, err = runTUI(tab, tabCapabilities[tab], height, early, func(b bridge.Backend, home string) []tui.Page {
			page := files.New(files.Options{Backend: b, Query: f.query, Multi: f.multi, Dirs: f.dirs, MaxIndexed: ceiling})
			return pickerPages(b, page, home)
		})
	}
	if err != nil {
		return err
	}
	return printOutcome(cmd.OutOrStdout(), res, f.print0)
}

// runTUI runs a picker of the pages made for the backend it starts
// (needing caps besides bridge.Required) and its home ("" when unknown),
// opened on tab, drawn on the terminal in height; the backend is stopped
// and the terminal closed when it returns. The backend child is started
// first, before the terminal is opened, and early says what is asked of
// it the moment it is initialized (launch.go).
func runTUI(tab int, caps []string, height tui.Height, early launchCalls, pages func(b bridge.Backend, home string) []tui.Page) (tui.Outcome, error) {
	diags, home := newDiagnostics()
	required, optional := bridge.Negotiation(caps)
	l := launchBackend(required, optional, diags, early&launchFiles != 0, early&launchIndex != 0)
	go warmWidths()
	built := false
	res, err := runOnTTY(height, func() (tui.Model, func(), error) {
		built = true
		b, stop, err := l.wait()
		if err != nil {
			return tui.Model{}, nil, err
		}
		return tui.New(tui.Options{Backend: b, Active: tab, Pages: pages(b, home), Diagnostics: diags}), stop, nil
	})
	if !built { // no terminal: the child started for nothing
		if _, stop, err := l.wait(); err == nil {
			stop()
		}
	}
	return res, err
}

// newDiagnostics are the diagnostics a picker's backend writes to, naming
// the files of the backend's home (the child's, from the same
// environment; "" when unknown), and that home.
func newDiagnostics() (*bridge.Diagnostics, string) {
	diags := bridge.NewDiagnostics()
	home, _ := config.HomeDir(os.Getenv)
	diags.NameFilesIn(home)
	return diags, home
}

// runOnTTY opens the terminal, builds the model, runs it in height and
// calls the model's stop when it ends. The terminal's colours are
// detected while the model is built (in tmux, detecting runs `tmux
// info`).
func runOnTTY(height tui.Height, build func() (tui.Model, func(), error)) (tui.Outcome, error) {
	in, out, err := tea.OpenTTY()
	if err != nil {
		return tui.Outcome{}, errors.New("cannot open the terminal (/dev/tty); the picker needs one")
	}
	defer in.Close()
	defer out.Close()
	profile := make(chan colorprofile.Profile, 1)
	go func() { profile <- colorProfile(out) }()
	m, stop, err := build()
	if err != nil {
		return tui.Outcome{}, err
	}
	defer stop()
	opts := []tea.ProgramOption{tea.WithColorProfile(<-profile)}
	if os.Getenv(debugPanicEnv) == "1" {
		opts = append(opts, tea.WithFilter(panicOnCtrlBracket))
	}
	return tui.Run(context.Background(), m, height, in, out, opts...)
}

// pickerPages are the picker's tabs, in order: the Files page given, then
// Sessions and Providers served by client, whose backend home is home (""
// when unknown; the Providers page names its config.toml). `scout demo`
// shows the same tabs.
func pickerPages(client bridge.Backend, filesPage tui.Page, home string) []tui.Page {
	configFile := ""
	if home != "" {
		configFile = filepath.Join(home, config.UserFile)
	}
	return []tui.Page{
		filesPage,
		sessions.New(sessions.Options{Backend: client}),
		providers.New(providers.Options{Backend: client, ConfigFile: configFile}),
	}
}

func newProvidersCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "providers",
		Short: "Show the model providers: status, refresh (r), selection (Enter), restart (R)",
		Long: "scout providers opens the picker on the Providers tab: each provider's catalog,\n" +
			"authentication and what to do, the models to choose from and the selection.\n" +
			"Nothing is refreshed or selected but by a key press.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runPicker(cmd, tabProviders, pickFlags{}) },
	}
}

// debugPanicEnv, set to 1, makes Ctrl-] panic inside the event loop, so
// tests can check that a panic restores the terminal and ends the backend.
const debugPanicEnv = "SCOUT_DEBUG_PANIC"

func panicOnCtrlBracket(m tea.Model, msg tea.Msg) tea.Msg {
	if k, ok := msg.(tea.KeyPressMsg); ok && k.String() == "ctrl+]" {
		panic("SCOUT_DEBUG_PANIC: Ctrl-] pressed")
	}
	return msg
}

// colorProfile is the terminal's colour profile, without colours when
// NO_COLOR is set to anything at all (https://no-color.org: any non-empty
// value; colorprofile itself only accepts the values strconv.ParseBool
// reads as true).
//
// When standard output is a terminal, lipgloss's package variable Writer
// has already detected it, at init, from the same environment:
// colorprofile.Detect reads only the environment and whether its output
// is a terminal, so that profile is the tty's too, and detecting again
// would run `tmux info` a second time inside tmux (~20 ms, while the
// backend child starts on the same cores).
func colorProfile(tty io.Writer) colorprofile.Profile {
	var p colorprofile.Profile
	if term.IsTerminal(os.Stdout.Fd()) {
		p = lipgloss.Writer.Profile
	} else {
		p = colorprofile.Detect(tty, os.Environ())
	}
	if (os.Getenv("NO_COLOR") != "" || monochrome(os.Getenv("TERM"))) && p > colorprofile.ASCII {
		p = colorprofile.ASCII
	}
	return p
}

// monochrome reports whether the terminfo name term is a monochrome mode
// by terminfo's naming convention (terminfo(5): "-m" and "-mono" suppress
// colour), such as xterm-mono, whose terminal shows no colour however it
// is asked.
func monochrome(term string) bool {
	return strings.HasSuffix(term, "-mono") || strings.HasSuffix(term, "-m")
}

// printOutcome writes the chosen items, one per line (or NUL-terminated),
// and turns the outcome into the exit status.
func printOutcome(w io.Writer, res tui.Outcome, print0 bool) error {
	switch {
	case res.Cancelled:
		return exitCancelled
	case len(res.Items) == 0:
		return exitNothing
	}
	sep := "\n"
	if print0 {
		sep = "\x00"
	}
	for _, it := range res.Items {
		if _, err := fmt.Fprint(w, it, sep); err != nil {
			return err
		}
	}
	return nil
}

// startTimeout bounds spawning and initializing the backend child.
const startTimeout = 15 * time.Second

// startBackend spawns `scout backend` in the current directory with its
// diagnostics sent to the backend log (see backendLog) and to diags when
// not nil.
func startBackend(required, optional []string, diags io.Writer) (*rpcclient.Client, func(), error) {
	return startBackendWith(rpcclient.Options{Capabilities: required, Optional: optional}, diags)
}

// startBackendWith is startBackend with more of the client's options
// (opts' Dir and Stderr are set here).
func startBackendWith(opts rpcclient.Options, diags io.Writer) (*rpcclient.Client, func(), error) {
	wd, err := os.Getwd()
	if err != nil {
		return nil, nil, errors.New("cannot determine the working directory")
	}
	logw, closeLog := backendLog()
	if diags != nil {
		logw = alsoTo{logw, diags}
	}
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	opts.Dir, opts.Stderr = wd, logw
	if opts.Exe == "" && opts.Args == nil && opts.Env == nil {
		opts.Early = early.Take(logw) // started at init, if this is the picker
	}
	c, err := rpcclient.Start(ctx, opts)
	if err != nil {
		closeLog()
		return nil, nil, fmt.Errorf("cannot start the backend: %w", err)
	}
	return c, func() { c.Close(); closeLog() }, nil
}
