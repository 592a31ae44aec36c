package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/spf13/cobra"

	"github.com/scoutdev/scout/assets"
	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/rpcclient"
	"github.com/scoutdev/scout/tui/bridge"
)

// newConfigCmd is `scout config`: where scout keeps things and what it
// made of them, for a person who wants to change a setting. The backend
// reports what it loaded (the trust state, the providers, any problem with
// the files); the paths are derived from the environment the way the
// backend derives them.
func newConfigCmd() *cobra.Command {
	var example bool
	cmd := &cobra.Command{
		Use:   "config",
		Short: "Print where scout's home and configuration are, and this directory's trust state",
		Long: "Print scout's home, its configuration file and the file of models enabled on\n" +
			"the Providers tab, this directory's .scout/config.toml trust state, the\n" +
			"providers scout lists, and any problem the backend found in them.\n" +
			"--example prints a commented example config.toml instead.",
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if example {
				_, err := cmd.OutOrStdout().Write(assets.ExampleConfig())
				return err
			}
			return runConfig(cmd.OutOrStdout())
		},
	}
	cmd.Flags().BoolVar(&example, "example", false, "print a commented example config.toml")
	return cmd
}

// configReport is what `scout config` prints.
type configReport struct {
	home, homeErr string
	workspace     string
	trust         string
	providers     []string
	problems      []string
}

func runConfig(w io.Writer) error {
	r := configReport{}
	home, err := config.HomeDir(os.Getenv)
	if err != nil {
		r.homeErr = err.Error()
	}
	r.home = home
	if r.workspace, err = os.Getwd(); err != nil {
		return errors.New("cannot determine the working directory")
	}
	if err := r.ask(); err != nil {
		return err
	}
	r.print(w)
	return nil
}

// ask starts a backend child in the working directory and reads its
// trust state, its providers and its diagnostics.
func (r *configReport) ask() error {
	var diags syncBuffer
	c, stop, err := startBackend([]string{wire.MethodModelCatalogStatus}, []string{wire.MethodModelCatalogModels}, &diags)
	if err != nil {
		return err
	}
	r.trust = c.Init().Workspace.Trust
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	defer cancel()
	r.providers, err = listProviders(ctx, c)
	stop() // its diagnostics are all written once it has exited
	if err != nil {
		return fmt.Errorf("the backend could not list the providers: %s", bridge.Describe(err))
	}
	for _, line := range strings.Split(diags.String(), "\n") {
		if text, ok := strings.CutPrefix(line, "scout backend: "); ok && text != "" {
			r.problems = append(r.problems, bridge.NameHomeFiles(text, r.home))
		}
	}
	return nil
}

// listProviders is each provider as "id (no key needed)" or "id (key
// required)": what the provider asks for, not whether the key is there.
func listProviders(ctx context.Context, c *rpcclient.Client) ([]string, error) {
	st, err := c.ModelCatalogStatus(ctx, nil)
	if err != nil {
		return nil, err
	}
	keyless := map[string]bool{}
	if bridge.Negotiated(c, wire.MethodModelCatalogModels) {
		if ms, err := c.ModelCatalogModels(ctx, nil); err == nil && ms.Providers != nil {
			for _, k := range *ms.Providers {
				keyless[k.Provider] = !k.KeyRequired
			}
		}
	}
	var out []string
	for _, p := range *st.Providers {
		what := "key required"
		if keyless[p.Provider] {
			what = "no key needed"
		}
		out = append(out, p.Provider+" ("+what+")")
	}
	return out, nil
}

func (r *configReport) print(w io.Writer) {
	line := func(label, text string) { fmt.Fprintf(w, "%-12s%s\n", label, text) }
	if r.homeErr != "" {
		line("home:", "none: "+r.homeErr+" (scout runs on its defaults and cannot remember anything)")
	} else {
		line("home:", r.home+"  (SCOUT_HOME, else $XDG_DATA_HOME/scout, else ~/.local/share/scout)")
		line("config:", r.fileState(config.UserFile, "not there: scout runs on its defaults and built-in providers; scout config --example prints an example"))
		line("enabled:", r.fileState("enabled.json", "not there: no model was enabled on the Providers tab yet"))
	}
	line("workspace:", r.workspace)
	line("trust:", trustWords(r.trust))
	if len(r.providers) == 0 {
		line("providers:", "none listed")
	} else {
		line("providers:", strings.Join(r.providers, ", "))
	}
	for _, p := range r.problems {
		line("problem:", p)
	}
}

// fileState is a file of the home with whether it is there.
func (r *configReport) fileState(name, missing string) string {
	path := filepath.Join(r.home, name)
	if _, err := os.Lstat(path); errors.Is(err, os.ErrNotExist) {
		return path + "  (" + missing + ")"
	}
	return path
}

func trustWords(trust string) string {
	switch trust {
	case wire.TrustNoLocalConfig:
		return "no .scout/config.toml here"
	case wire.TrustUntrusted:
		return ".scout/config.toml here is not trusted, so it is not applied (scout trust applies it)"
	case wire.TrustTrusted:
		return ".scout/config.toml here is trusted and applied"
	}
	return trust
}

// syncBuffer is a bytes.Buffer safe for the child's stderr copier and the
// reader.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// homeFilesNamed is w with the backend's diagnostics rewritten to name
// the home's files by path (bridge.NameHomeFiles), for a command that
// prints them itself (scout filter): a diagnostic that asks for a fix says
// which file. Lines are passed on whole; the backend ends every line.
func homeFilesNamed(w io.Writer) io.Writer {
	home, err := config.HomeDir(os.Getenv)
	if err != nil {
		return w
	}
	return &namingWriter{w: w, home: home}
}

type namingWriter struct {
	mu      sync.Mutex
	w       io.Writer
	home    string
	partial []byte
}

func (n *namingWriter) Write(p []byte) (int, error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.partial = append(n.partial, p...)
	for {
		i := bytes.IndexByte(n.partial, '\n')
		if i < 0 {
			return len(p), nil
		}
		line := string(n.partial[:i])
		n.partial = n.partial[i+1:]
		if text, ok := strings.CutPrefix(line, "scout backend: "); ok {
			line = "scout backend: " + bridge.NameHomeFiles(text, n.home)
		}
		if _, err := io.WriteString(n.w, line+"\n"); err != nil {
			return len(p), err
		}
	}
}
