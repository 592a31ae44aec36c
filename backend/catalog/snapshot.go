package catalog

import (
	"context"
	"sort"

	"github.com/scoutdev/scout/backend/wire"
)

// snapshot is one scan of the caches, frozen under a revision. model.catalog
// and model.catalog.status page through the same snapshot.
type snapshot struct {
	rev       uint64
	revision  string // "c" + rev
	choices   []wire.Choice
	selection *wire.Selection
	notices   []wire.CatalogNotice
	providers []wire.ProviderStatus
	// models and keys are what model.catalog.models pages: every model
	// of the reported providers' valid caches, and whether each reported
	// provider needs a key.
	models []wire.ModelRow
	keys   []wire.ProviderKey
}

// providerScan is what a scan learned about one provider.
type providerScan struct {
	p        *Provider
	status   string
	entries  []Entry
	relevant bool
	auth     string
}

// scan reads the selection and every configured provider's cache and builds
// a snapshot (without a revision). It fails with catalog_unavailable or
// catalog_limit when any cache is unsafe, unreadable or over 1 MiB, and with
// the context's error when cancelled between providers.
func (s *Service) scan(ctx context.Context) (*snapshot, error) {
	root, err := s.home.open()
	if err != nil {
		return nil, wire.NewError(wire.CodeCatalogUnavailable)
	}
	if root != nil {
		defer root.Close()
	}
	sel := readSelection(root, s.logf)
	scans := make([]providerScan, len(s.providers))
	for i := range s.providers {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p := &s.providers[i]
		ps := providerScan{p: p, relevant: len(p.EnabledModels) > 0 || sel != nil && sel.Provider == p.ID}
		data, err := readCache(root, p.ID)
		switch {
		case err == errCacheMissing:
			ps.status = wire.CatalogMissingCache
		case err != nil:
			return nil, err
		default:
			ps.status, ps.entries = ParseCache(p, data)
		}
		ps.auth = wire.AuthNotChecked
		if ps.relevant {
			ps.auth = p.authState(s.getenv)
		}
		scans[i] = ps
	}
	return buildSnapshot(scans, sel), nil
}

func buildSnapshot(scans []providerScan, sel *wire.Selection) *snapshot {
	snap := &snapshot{selection: sel, choices: []wire.Choice{}, notices: []wire.CatalogNotice{}, models: []wire.ModelRow{}}
	for i := range scans {
		snap.choices = append(snap.choices, choicesOf(&scans[i])...)
	}
	order := reportOrder(scans)
	snap.providers = make([]wire.ProviderStatus, 0, len(order))
	for _, i := range order {
		ps := &scans[i]
		snap.providers = append(snap.providers, wire.ProviderStatus{
			Provider: ps.p.ID, CatalogStatus: ps.status, Authentication: ps.auth,
			Relevant: ps.relevant, Recovery: recoveryOf(ps),
		})
		snap.notices = append(snap.notices, noticesOf(ps)...)
		snap.models = append(snap.models, modelsOf(ps)...)
		snap.keys = append(snap.keys, wire.ProviderKey{Provider: ps.p.ID, KeyRequired: ps.p.needsKey()})
	}
	return snap
}

// modelsOf lists every model of a provider's valid cache, in the cache's
// order, with its enabled state, then the enabled models the cache does
// not list (listed false), in the order of enabled_models. A provider
// without a valid cache has none: its status says why.
func modelsOf(ps *providerScan) []wire.ModelRow {
	if ps.status != wire.CatalogAvailable {
		return nil
	}
	enabled := make(map[string]bool, len(ps.p.EnabledModels))
	for _, id := range ps.p.EnabledModels {
		enabled[id] = true
	}
	out := make([]wire.ModelRow, 0, len(ps.entries))
	listed := make(map[string]bool, len(ps.entries))
	for _, e := range ps.entries {
		listed[e.ID] = true
		name := e.Name
		if name == "" {
			name = e.ID
		}
		out = append(out, wire.ModelRow{
			Provider: ps.p.ID, Model: e.ID, Name: name, Efforts: append([]string{}, e.Efforts...),
			ContextWindow: e.ContextWindow, Enabled: enabled[e.ID], Listed: true,
		})
	}
	for _, id := range ps.p.EnabledModels {
		// An id no cache could hold is still named (it is the user's own
		// configuration), unless it could not be shown safely.
		if !listed[id] && validName(id) {
			listed[id] = true
			out = append(out, wire.ModelRow{Provider: ps.p.ID, Model: id, Name: id, Efforts: []string{}, Enabled: true})
		}
	}
	return out
}

// choicesOf lists a provider's enabled models found in its valid cache, in
// the order of enabled_models (repeats left out).
func choicesOf(ps *providerScan) []wire.Choice {
	if ps.status != wire.CatalogAvailable {
		return nil
	}
	enabled := make(map[string]*Entry, len(ps.p.EnabledModels))
	for _, id := range ps.p.EnabledModels {
		enabled[id] = nil
	}
	for i := range ps.entries {
		if _, ok := enabled[ps.entries[i].ID]; ok {
			enabled[ps.entries[i].ID] = &ps.entries[i]
		}
	}
	var out []wire.Choice
	seen := map[string]bool{}
	for _, id := range ps.p.EnabledModels {
		e := enabled[id]
		if e == nil || seen[id] {
			continue
		}
		seen[id] = true
		name := e.Name
		if name == "" {
			name = e.ID
		}
		out = append(out, wire.Choice{
			Provider: ps.p.ID, Model: e.ID, Name: name,
			Efforts: append([]string{}, e.Efforts...), Selectable: ps.auth != wire.AuthUnavailable,
		})
	}
	return out
}

// reportOrder is the indexes of the reported providers: relevant ones first,
// then configuration order, at most wire.MaxStatusProviders.
func reportOrder(scans []providerScan) []int {
	order := make([]int, len(scans))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return scans[order[a]].relevant && !scans[order[b]].relevant
	})
	return order[:min(len(order), wire.MaxStatusProviders)]
}

// recoveryOf applies docs/protocol.md §7's recovery rules, first match wins.
func recoveryOf(ps *providerScan) string {
	switch {
	case ps.relevant && ps.auth == wire.AuthUnavailable:
		return wire.RecoveryConfigureAuthentication
	case ps.status != wire.CatalogAvailable:
		return wire.RecoveryRefreshCatalog
	case !ps.relevant:
		return wire.RecoveryEnableModelsAndRestart
	}
	return wire.RecoveryNone
}

// noticesOf is a relevant provider's notices: its cache's state, then its
// authentication. Unused providers get none.
func noticesOf(ps *providerScan) []wire.CatalogNotice {
	if !ps.relevant {
		return nil
	}
	var out []wire.CatalogNotice
	switch ps.status {
	case wire.CatalogAvailable:
	case wire.CatalogMissingCache:
		out = append(out, wire.CatalogNotice{Code: wire.NoticeMissingCache, Provider: ps.p.ID})
	case wire.CatalogEmptyCache:
		out = append(out, wire.CatalogNotice{Code: wire.NoticeEmptyCache, Provider: ps.p.ID})
	default:
		out = append(out, wire.CatalogNotice{Code: wire.NoticeInvalidCache, Provider: ps.p.ID})
	}
	if ps.auth == wire.AuthUnavailable {
		out = append(out, wire.CatalogNotice{Code: wire.NoticeAuthenticationUnavailable, Provider: ps.p.ID})
	}
	return out
}

// choice finds a choice of the snapshot.
func (snap *snapshot) choice(provider, model string) (wire.Choice, bool) {
	for _, c := range snap.choices {
		if c.Provider == provider && c.Model == model {
			return c, true
		}
	}
	return wire.Choice{}, false
}
