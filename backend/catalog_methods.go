package backend

import (
	"strconv"
	"time"

	"github.com/scoutdev/scout/backend/catalog"
	"github.com/scoutdev/scout/backend/config"
	"github.com/scoutdev/scout/backend/server"
)

// registerCatalog wires backend/catalog with the configuration as the child
// started with it: the built-in providers and the providers of config.toml,
// or those adopted with an already trusted .scout/config.toml, the
// enrichment URL, and enabled.json merged over the enabled models (the
// catalog reads it). The child never reloads them (configuration_reload:
// "restart_child"); a later workspace.trust or model.enable does not change
// them. A broken config.toml leaves the catalog without providers, built-in
// ones included, since it may hide or override them (loadWorkspace
// reported it).
func registerCatalog(srv *server.Server, opts Options, ws *workspaceState) {
	svc := catalog.New(catalog.Options{
		Home: ws.home, Providers: catalogProviders(opts, ws), EnrichmentURL: ws.user.EnrichmentURL,
		Getenv: opts.Getenv, Log: opts.Stderr, EnableStall: debugEnableStall(opts.Getenv),
	})
	for _, m := range svc.Methods() {
		srv.Register(m)
	}
}

// debugEnableStallEnv, with server.DebugEnv set to "1", makes model.enable
// wait that many milliseconds before writing, so tests can cancel one.
const debugEnableStallEnv = "SCOUT_DEBUG_ENABLE_STALL_MS"

func debugEnableStall(getenv func(string) string) time.Duration {
	if getenv(server.DebugEnv) != "1" {
		return 0
	}
	ms, err := strconv.Atoi(getenv(debugEnableStallEnv))
	if err != nil || ms <= 0 {
		return 0
	}
	return time.Duration(ms) * time.Millisecond
}

// catalogProviders are the providers the catalog serves (config.Resolve).
func catalogProviders(opts Options, ws *workspaceState) []catalog.Provider {
	if ws.broken {
		return nil
	}
	ws.mu.Lock()
	entries := ws.providers
	ws.mu.Unlock()
	if entries == nil {
		entries = ws.user.Providers
	}
	provs, warnings := config.Resolve(entries, opts.Getenv)
	for _, w := range warnings {
		ws.logf("%s", w)
	}
	out := make([]catalog.Provider, len(provs))
	for i, p := range provs {
		out[i] = catalog.Provider{
			ID: p.ID, Type: p.Type, BaseURL: p.BaseURL, APIKeyEnv: p.APIKeyEnv,
			CredentialFile: p.CredentialFile, EnabledModels: p.EnabledModels,
			RefreshTimeout: p.RefreshTimeout,
		}
	}
	return out
}
