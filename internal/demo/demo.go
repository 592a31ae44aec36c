// Package demo builds what `scout demo` runs on: a temporary backend home
// filled from the fixtures embedded in package assets (assets/demo), and a
// fake model provider server on 127.0.0.1 with one provider per refresh
// outcome, the built-in providers found as a user's are (a detected key,
// OLLAMA_HOST, an overriding entry), and the enrichment document. The frontend then runs as usual with the backend child pointed at
// that home through its environment (Env); nothing of the user's own home
// is read or written, and nothing needs the network.
//
// The fixtures are text/template files; the functions they may call are
//
//	{{cwd}}                  the workspace, as a JSON string
//	{{root}}                 the workspace, as it is
//	{{projectHash}}          the workspace's SHA-256 in hex (Gemini CLI's)
//	{{ago "90m"}}            the demo's start minus a duration, RFC 3339
//	{{pid}}                  the demo's process id (lock files)
//	{{url "works"}}          the base URL of a provider (config.toml)
//	{{fingerprint}}          the fingerprint of the cache's provider
//	{{fingerprintFor T U}}   the fingerprint the same id would have with
//	                         type T and base URL U (a cache written for
//	                         another identity)
//
// Fingerprints come from package catalog, computed from config.toml as the
// backend parses it, so a cache meant to match does match.
package demo

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/scoutdev/scout/backend/catalog/fakeprovider"
	"github.com/scoutdev/scout/backend/config"
)

// Banner is the line the picker shows under its tabs during the demo.
// It fits an 80-column terminal; the line of short help under the status
// line already says ? and Esc.
const Banner = "DEMO on synthetic data · Alt-2: sessions · Alt-3: providers (r refreshes)"

// renewEvery is how often the busy session's lock is renewed: well within
// the backend's 30 s busy window.
const renewEvery = 10 * time.Second

// Options configure Start.
type Options struct {
	// Workspace is the directory the demo's sessions belong to (the
	// backend's working directory); symlinks in it are resolved.
	Workspace string
	// TempDir is where the home is created (os.TempDir when empty).
	TempDir string
	// Now is the clock of the fixtures' times (time.Now when nil).
	Now func() time.Time
}

// Demo is a running demo: its home and its fake provider server.
type Demo struct {
	// Home is the temporary backend home (SCOUT_HOME of the child).
	Home string

	server    *fakeprovider.Server
	providers []provider
	urls      map[string]string // base URL by provider id
	r         *renderer
	locks     []string // lock templates, renewed until Close
	stop      chan struct{}
	wg        sync.WaitGroup
	closeOnce sync.Once
}

// Start creates the home, starts the fake provider server and writes the
// fixtures. On failure nothing is left behind.
func Start(opts Options) (d *Demo, err error) {
	ws, err := filepath.EvalSymlinks(opts.Workspace)
	if err != nil {
		return nil, fmt.Errorf("cannot resolve the working directory: %w", err)
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	home, err := os.MkdirTemp(opts.TempDir, "scout-demo-")
	if err != nil {
		return nil, fmt.Errorf("cannot create the demo's home: %w", err)
	}
	d = &Demo{Home: home, providers: providers(), stop: make(chan struct{})}
	defer func() {
		if err != nil {
			d.Close()
			d.Remove()
		}
	}()
	if d.server, err = fakeprovider.Start(); err != nil {
		return d, fmt.Errorf("cannot start the fake provider server: %w", err)
	}
	urls, err := d.addScenarios()
	if err != nil {
		return d, err
	}
	d.urls = urls
	d.r = &renderer{home: home, workspace: ws, now: opts.Now(), urls: urls}
	if d.locks, err = d.r.writeAll(); err != nil {
		return d, fmt.Errorf("cannot write the demo's fixtures: %w", err)
	}
	d.wg.Add(1)
	go d.renewLocks()
	return d, nil
}

// addScenarios installs each provider's scenario and returns the base URLs
// by provider id; a provider without a scenario gets a closed port.
func (d *Demo) addScenarios() (map[string]string, error) {
	urls := map[string]string{}
	for _, p := range d.providers {
		if p.scenario != nil {
			urls[p.id] = d.server.Add(p.id, *p.scenario)
			continue
		}
		u, err := fakeprovider.UnreachableURL()
		if err != nil {
			return nil, fmt.Errorf("cannot find a closed port for the unreachable provider: %w", err)
		}
		urls[p.id] = u
	}
	return urls, nil
}

// renewLocks rewrites the lock files every renewEvery, as an agent at work
// would, so the busy session stays busy for as long as the demo runs.
func (d *Demo) renewLocks() {
	defer d.wg.Done()
	t := time.NewTicker(renewEvery)
	defer t.Stop()
	for {
		select {
		case <-d.stop:
			return
		case now := <-t.C:
			for _, name := range d.locks {
				_ = d.r.renew(name, now) // a lock that cannot be renewed just stops being busy
			}
		}
	}
}

// LogPath is where the demo sends the backend child's diagnostics: inside
// the home, so they go away with it.
func (d *Demo) LogPath() string { return filepath.Join(d.Home, "backend.log") }

// agentStores are the variables that locate the other agents' session
// stores, pointed into the demo's home (agents/, from assets/demo/agents)
// so that the demo shows its own sessions of every agent and never the
// user's real ones (which the defaults below $HOME would find).
var agentStores = [][2]string{
	{"CLAUDE_CONFIG_DIR", "agents/claude"},
	{"CODEX_HOME", "agents/codex"},
	{"GEMINI_CLI_HOME", "agents/gemini"},
	{"OPENCODE_DB", "agents/opencode/opencode.db"},
	{"CRUSH_GLOBAL_DATA", "agents/crush"},
}

// Env returns base with the backend home, the agents' stores, the
// providers' fake keys and the built-ins' fake base URLs set, and every
// other value of those variables removed: a key the user happens to have
// set for SCOUT_DEMO_NO_KEY_KEY, and every built-in provider's key and
// base-URL variable (the user's real ANTHROPIC_API_KEY must not list a
// provider that reaches the network). It is meant for the backend child
// only; the demo's own process environment is not changed.
func (d *Demo) Env(base []string) []string {
	drop := []string{"SCOUT_HOME"}
	for _, b := range config.Builtins {
		drop = append(drop, b.KeyEnv, b.BaseURLEnv)
	}
	var set []string
	for _, a := range agentStores {
		drop = append(drop, a[0])
		set = append(set, a[0]+"="+filepath.Join(d.Home, filepath.FromSlash(a[1])))
	}
	for _, p := range d.providers {
		if p.keyEnv != "" {
			drop = append(drop, p.keyEnv)
		}
		if p.key != "" {
			set = append(set, p.keyEnv+"="+p.key)
		}
		if p.baseEnv != "" {
			set = append(set, p.baseEnv+"="+p.baseValue(d.urls[p.id]))
		}
	}
	env := slices.DeleteFunc(slices.Clone(base), func(kv string) bool {
		name, _, _ := strings.Cut(kv, "=")
		return slices.Contains(drop, name)
	})
	return append(append(env, "SCOUT_HOME="+d.Home), set...)
}

// Close stops renewing locks and stops the fake provider server, ending
// any answer it was still holding back. The home stays (see Remove).
func (d *Demo) Close() {
	d.closeOnce.Do(func() {
		close(d.stop)
		d.wg.Wait()
		if d.server != nil {
			d.server.Close()
		}
	})
}

// Remove deletes the home and everything in it.
func (d *Demo) Remove() error {
	if err := os.RemoveAll(d.Home); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("cannot remove the demo's home %s: %w", d.Home, err)
	}
	return nil
}
