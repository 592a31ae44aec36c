package backend

import (
	"fmt"
	"path/filepath"

	"github.com/scoutdev/scout/backend/catalog"
	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/server"
)

// registerCatalog wires backend/catalog: the providers of config.toml (plus
// those of an already trusted .scout/config.toml) as they are when the child
// starts; the child never reloads them (configuration_reload:
// "restart_child"). A configuration that cannot be read or is invalid leaves
// the catalog without providers, and says so on stderr.
func registerCatalog(srv *server.Server, opts Options) {
	home, providers, enrichment := catalogConfig(opts)
	svc := catalog.New(catalog.Options{
		Home: home, Providers: providers, EnrichmentURL: enrichment,
		Getenv: opts.Getenv, Log: opts.Stderr,
	})
	for _, m := range svc.Methods() {
		srv.Register(m)
	}
}

func catalogConfig(opts Options) (string, []catalog.Provider, string) {
	logf := func(format string, args ...any) {
		fmt.Fprintf(opts.Stderr, "scout backend: catalog: "+format+"\n", args...)
	}
	home, err := config.HomeDir(opts.Getenv)
	if err != nil {
		logf("%v; no providers", err)
		return "", nil, ""
	}
	root, err := fsguard.OpenRoot(home)
	if err != nil {
		return home, nil, "" // no home yet: no configuration, no providers
	}
	defer root.Close()
	dirs := config.Dirs{Home: home, Workspace: opts.Workspace, UserHome: config.UserHome(opts.Getenv)}
	user, err := config.ReadUser(root, dirs)
	if err != nil {
		logf("%v; no providers", err)
		return home, nil, ""
	}
	provs, err := config.Providers(user, trustedProject(root, dirs))
	if err != nil {
		logf("%v; only config.toml's providers", err)
		provs = user.Providers
	}
	out := make([]catalog.Provider, len(provs))
	for i, p := range provs {
		out[i] = catalog.Provider{
			ID: p.ID, Type: p.Type, BaseURL: p.BaseURL, APIKeyEnv: p.APIKeyEnv,
			CredentialFile: p.CredentialFile, EnabledModels: p.EnabledModels,
			RefreshTimeout: p.RefreshTimeout,
		}
	}
	return home, out, user.EnrichmentURL
}

// trustedProject is the workspace's .scout/config.toml when it was trusted
// with its current content, else nil.
func trustedProject(home *fsguard.Root, dirs config.Dirs) *config.Project {
	ws, err := fsguard.OpenRoot(dirs.Workspace)
	if err != nil {
		return nil
	}
	defer ws.Close()
	local := config.ReadLocal(ws)
	if !local.Exists || local.Err != nil {
		return nil
	}
	canonical, err := filepath.EvalSymlinks(dirs.Workspace)
	if err != nil {
		return nil
	}
	store, err := config.LoadTrust(home)
	if err != nil || !store.IsTrusted(canonical, local.Sum) {
		return nil
	}
	proj, err := config.ParseProject(local.Data, dirs)
	if err != nil {
		return nil
	}
	return proj
}
