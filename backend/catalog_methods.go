package backend

import (
	"github.com/scoutdev/scout/backend/catalog"
	"github.com/scoutdev/scout/backend/server"
)

// registerCatalog wires backend/catalog with the configuration as the child
// started with it: the providers of config.toml, or those adopted with an
// already trusted .scout/config.toml, and the enrichment URL. The child never
// reloads them (configuration_reload: "restart_child"); a later
// workspace.trust does not change them. A broken config.toml leaves the
// catalog without providers (loadWorkspace reported it).
func registerCatalog(srv *server.Server, opts Options, ws *workspaceState) {
	ws.mu.Lock()
	provs := ws.providers
	ws.mu.Unlock()
	if provs == nil {
		provs = ws.user.Providers
	}
	out := make([]catalog.Provider, len(provs))
	for i, p := range provs {
		out[i] = catalog.Provider{
			ID: p.ID, Type: p.Type, BaseURL: p.BaseURL, APIKeyEnv: p.APIKeyEnv,
			CredentialFile: p.CredentialFile, EnabledModels: p.EnabledModels,
			RefreshTimeout: p.RefreshTimeout,
		}
	}
	svc := catalog.New(catalog.Options{
		Home: ws.home, Providers: out, EnrichmentURL: ws.user.EnrichmentURL,
		Getenv: opts.Getenv, Log: opts.Stderr,
	})
	for _, m := range svc.Methods() {
		srv.Register(m)
	}
}
