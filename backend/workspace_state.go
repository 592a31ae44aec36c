package backend

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"

	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/sessions"
	"github.com/scoutdev/scout/backend/wire"
)

// workspaceState is what the files feature knows about the workspace: its
// guarded root, the backend home, the configuration, the trust state and
// the policy manager. It is built once at start, before initialize can be
// answered, so a trusted project configuration applies to the first
// snapshot.
type workspaceState struct {
	log       io.Writer
	canonical string        // the workspace root, symlinks resolved
	root      *fsguard.Root // nil when the workspace cannot be opened
	home      string        // the backend home ("" when unknown)
	userHome  string
	agentKeys []string     // the agents' credential files (sessions.CredentialFiles)
	user      *config.User // empty when config.toml is broken
	broken    bool         // config.toml is broken (reported)
	mgr       *policy.Manager

	mu        sync.Mutex
	trust     string
	providers []config.Provider // adopted for this workspace (the catalog keeps its own)
}

// loadWorkspace reads the configuration and applies a trusted project
// configuration. Problems are reported on log and never widen visibility:
// a broken config.toml closes the policy (nothing visible) until fixed.
func loadWorkspace(dir string, getenv func(string) string, log io.Writer) *workspaceState {
	ws := &workspaceState{log: log, canonical: dir, userHome: config.UserHome(getenv), trust: wire.TrustNoLocalConfig}
	ws.agentKeys = sessions.CredentialFiles(getenv, ws.userHome)
	if c, err := filepath.EvalSymlinks(dir); err == nil {
		ws.canonical = c
	}
	closed := false
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		ws.logf("cannot open the workspace (%v)"+wire.UnservedNote, err)
		closed = true
	}
	ws.root = root
	if ws.home, err = config.HomeDir(getenv); err != nil {
		ws.logf("%v", err)
	}
	ws.user = ws.readUser()
	if ws.user == nil {
		closed, ws.broken = true, true
		ws.user = &config.User{}
	}
	rules := ws.rules(nil)
	var reserved []policy.Rules
	if root != nil {
		rules, reserved = ws.applyTrusted(rules)
	}
	ws.mgr = policy.NewManager(ws.canonical, rules, closed, reserved...)
	if ws.mgr.Current().InProtected() {
		ws.logf("the workspace lies in a protected place (the backend home or a credentials directory), which is never listed" + wire.UnservedNote)
	}
	return ws
}

func (ws *workspaceState) logf(format string, args ...any) {
	fmt.Fprintf(ws.log, wire.DiagnosticPrefix+format+"\n", args...)
}

func (ws *workspaceState) dirs() config.Dirs {
	return config.Dirs{Home: ws.home, Workspace: ws.canonical, UserHome: ws.userHome}
}

// readUser reads config.toml; nil means it is broken (reported).
func (ws *workspaceState) readUser() *config.User {
	if ws.home == "" {
		return &config.User{EnrichmentURL: config.DefaultEnrichmentURL}
	}
	home, err := fsguard.OpenRoot(ws.home)
	if errors.Is(err, fsguard.ErrNotFound) {
		return &config.User{EnrichmentURL: config.DefaultEnrichmentURL}
	}
	if err != nil {
		ws.logf("cannot open the backend home (%v)"+wire.UnservedNote, err)
		return nil
	}
	defer home.Close()
	u, err := config.ReadUser(home, ws.dirs())
	if err != nil {
		ws.logf("%v"+wire.UnservedNote, err)
		return nil
	}
	return u
}

// rules are the policy rules of the user configuration plus an adopted
// project configuration, with the backend home and the agents' credential
// files protected.
func (ws *workspaceState) rules(p *config.Project) policy.Rules {
	r := config.Rules(ws.user, p)
	r.Protected = append(r.Protected, ws.agentKeys...)
	if ws.home != "" {
		r.Protected = append(r.Protected, ws.home)
	}
	return r
}

// applyTrusted applies .scout/config.toml at start when trusted.json holds
// its SHA-256 for this workspace. A trusted file that no longer parses is
// not applied (untrusted) but its candidate protections are reserved.
func (ws *workspaceState) applyTrusted(rules policy.Rules) (policy.Rules, []policy.Rules) {
	local := config.ReadLocal(ws.root)
	if !local.Exists {
		return rules, nil
	}
	ws.trust = wire.TrustUntrusted
	if local.Err != nil || !ws.isTrusted(local.Sum) {
		return rules, nil
	}
	cand := config.Candidates(local.Data, ws.canonical, ws.userHome)
	proj, err := ws.adoptable(local.Data)
	if err != nil {
		ws.logf("the trusted %v; not applied", err)
		return rules, []policy.Rules{cand}
	}
	ws.trust = wire.TrustTrusted
	return ws.rules(proj), []policy.Rules{cand}
}

// adoptable parses a project configuration and checks it against the user
// configuration.
func (ws *workspaceState) adoptable(data []byte) (*config.Project, error) {
	proj, err := config.ParseProject(data, ws.dirs())
	if err != nil {
		return nil, err
	}
	provs, err := config.Providers(ws.user, proj)
	if err != nil {
		return nil, err
	}
	ws.mu.Lock()
	ws.providers = provs
	ws.mu.Unlock()
	return proj, nil
}

func (ws *workspaceState) isTrusted(sum string) bool {
	if ws.home == "" {
		return false
	}
	home, err := fsguard.OpenRoot(ws.home)
	if err != nil {
		return false
	}
	defer home.Close()
	store, err := config.LoadTrust(home)
	if err != nil {
		ws.logf("%v; treating every workspace as untrusted", err)
	}
	return store.IsTrusted(ws.canonical, sum)
}

// remember records the trusted SHA-256 in trusted.json, creating the home.
func (ws *workspaceState) remember(sum string) error {
	if ws.home == "" {
		return errors.New("the backend home is unknown")
	}
	if err := os.MkdirAll(ws.home, 0o700); err != nil {
		return errors.New("cannot create the backend home")
	}
	home, err := fsguard.OpenRoot(ws.home)
	if err != nil {
		return err
	}
	defer home.Close()
	store, err := config.LoadTrust(home)
	if err != nil {
		ws.logf("%v; it will be rewritten", err)
	}
	return store.With(ws.canonical, sum).Save(home)
}

func (ws *workspaceState) workspace() wire.Workspace {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	return wire.Workspace{Generation: ws.mgr.Generation(), Trust: ws.trust}
}

func (ws *workspaceState) setTrust(t string) {
	ws.mu.Lock()
	ws.trust = t
	ws.mu.Unlock()
}
