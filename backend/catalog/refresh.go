package catalog

import (
	"bytes"
	"cmp"
	"context"
	"net/http"
	"net/url"

	"github.com/scoutdev/scout/backend/wire"
)

// anthropicVersion is the API version sent to Anthropic.
const anthropicVersion = "2023-06-01"

// anthropicPageLimit is how many models one Anthropic page asks for.
const anthropicPageLimit = "1000"

// Refresh recoveries: what the user does after an outcome (documented in
// docs/protocol.md §10.8).
const (
	RecoveryReloadCatalog           = wire.RecoveryReloadCatalog
	RecoveryConfigureAuthentication = wire.RecoveryConfigureAuthentication
	RecoveryFixConfiguration        = "fix_configuration_and_restart"
	RecoveryRetryLater              = "retry_later"
	RecoveryCheckProvider           = "check_provider"
	RecoveryCheckHome               = "check_backend_home"
)

// refreshRecovery decides a refresh result's recovery from its reason and
// whether the rescan produced a revision.
func refreshRecovery(reason string, rescanned bool) string {
	switch reason {
	case "":
		if !rescanned {
			return RecoveryCheckHome
		}
		return RecoveryReloadCatalog
	case wire.ReasonAuthenticationUnavailable, wire.ReasonAuthenticationRejected:
		return RecoveryConfigureAuthentication
	case wire.ReasonConfigurationInvalid:
		return RecoveryFixConfiguration
	case wire.ReasonRateLimited, wire.ReasonRemoteUnavailable, wire.ReasonRemoteTimeout:
		return RecoveryRetryLater
	case wire.ReasonEmptyCatalog, wire.ReasonInvalidCatalog, wire.ReasonCatalogLimit:
		return RecoveryCheckProvider
	}
	return RecoveryCheckHome // cache_write_failed
}

// Refresh runs model.refresh for the provider with id (which must be
// configured) and returns its result, or ctx's error when cancellation was
// observed (then nothing is written after it and no rescan happens). install
// makes the rescan's snapshot current; the protocol handler runs it
// atomically with the response.
func (s *Service) Refresh(ctx context.Context, id string) (*wire.RefreshResult, func(), error) {
	res, install, err := s.refresh(ctx, id)
	if ctx.Err() != nil {
		// A cache written just before the cancel was seen is not
		// rescanned: a snapshot read while the refresh ran may no longer
		// be the caches', so its cursors and guard go too.
		s.invalidate()
		return nil, nil, ctx.Err()
	}
	return res, install, err
}

// refresh is Refresh but for what a cancellation drops.
func (s *Service) refresh(ctx context.Context, id string) (*wire.RefreshResult, func(), error) {
	p := s.byID[id]
	err := s.refreshCache(ctx, p)
	if ctx.Err() != nil {
		return nil, nil, ctx.Err()
	}
	res := &wire.RefreshResult{
		Provider: id, Outcome: wire.OutcomeRefreshed,
		ConfigurationReload: ConfigurationReload, SelectionUnchanged: true,
	}
	reason := ReasonOf(err)
	if err != nil {
		if reason == "" { // no reason word: a bug, never given a made-up reason
			s.logf("refresh failed unexpectedly: %v", err)
			return nil, nil, wire.NewError(wire.CodeInternal)
		}
		res.Outcome, res.Reason = wire.OutcomeFailed, &reason
		s.logf("refresh of a provider failed: %s", describe(err))
	}
	install, err := s.rescan(ctx, res)
	if err != nil {
		return nil, nil, err
	}
	res.Recovery = refreshRecovery(reason, res.CatalogRevision != nil)
	return res, install, nil
}

// rescan scans the caches after an outcome and records the new revision or
// the scan's error code in res. It returns the install step for the snapshot.
func (s *Service) rescan(ctx context.Context, res *wire.RefreshResult) (func(), error) {
	rev, epoch := s.beginScan()
	snap, err := s.scan(ctx)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		code := string(wire.CodeCatalogUnavailable)
		if we, ok := err.(*wire.Error); ok && we.Code == wire.CodeCatalogLimit {
			code = string(wire.CodeCatalogLimit)
		}
		res.CatalogError = &code
		return func() {}, nil
	}
	snap.rev, snap.revision = rev, revisionName(rev)
	res.CatalogRevision = &snap.revision
	return func() { s.install(snap, epoch) }, nil
}

// refreshCache does the phases of a refresh: definition, authentication,
// discovery, enrichment, validation, persistence, checking ctx between
// them. It returns nil when the new cache is in place.
func (s *Service) refreshCache(ctx context.Context, p *Provider) error {
	base := p.endpoint()
	if base == nil {
		return failure(wire.ReasonConfigurationInvalid, "the provider definition cannot be used")
	}
	key, err := p.credential(s.getenv)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	models, err := s.discover(ctx, p, base, key)
	if err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	entries := s.entries(ctx, p, models)
	if err := ctx.Err(); err != nil {
		return err
	}
	data, err := EncodeCache(p, entries, s.now())
	if err != nil {
		return err
	}
	if st, _ := ParseCache(p, data); st != wire.CatalogAvailable {
		return failure(wire.ReasonInvalidCatalog, "the catalog does not validate")
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return s.persist(p, data)
}

// entries turns the listed models into cache entries. A model's name is
// the one the provider lists, else the enrichment's, else the one the
// previous cache knew, else its id; its efforts and context window are the
// enrichment's when the enrichment knows the model, else the previous
// cache's. So a provider that sends no display names (OpenAI's shape) and a
// refresh without enrichment keep what was already known about the same ids.
func (s *Service) entries(ctx context.Context, p *Provider, models []remoteModel) []Entry {
	info := s.enrich(ctx, p)
	known := s.previousEntries(p)
	out := make([]Entry, len(models))
	for i, m := range models {
		e := Entry{ID: m.ID, Name: m.Name, Efforts: []string{}}
		prev, hadPrev := known[m.ID]
		if extra, ok := info[m.ID]; ok {
			e.Efforts, e.ContextWindow = extra.Efforts, extra.ContextWindow
			e.Name = cmp.Or(e.Name, extra.Name)
		} else if hadPrev {
			e.Efforts, e.ContextWindow = prev.Efforts, prev.ContextWindow
		}
		e.Name = cmp.Or(e.Name, prev.Name, m.ID)
		out[i] = e
	}
	return out
}

// previousEntries are the entries of p's current cache by id, when it is
// valid (nothing otherwise: a cache of another identity says nothing
// about this one's models).
func (s *Service) previousEntries(p *Provider) map[string]Entry {
	root, err := s.home.open()
	if err != nil || root == nil {
		return nil
	}
	defer root.Close()
	data, err := readCache(root, p.ID)
	if err != nil {
		return nil
	}
	status, entries := ParseCache(p, data)
	if status != wire.CatalogAvailable {
		return nil
	}
	out := make(map[string]Entry, len(entries))
	for _, e := range entries {
		out[e.ID] = e
	}
	return out
}

// discover lists the provider's models within its total timeout.
func (s *Service) discover(ctx context.Context, p *Provider, base *url.URL, key string) ([]remoteModel, error) {
	ctx, cancel := context.WithTimeoutCause(ctx, p.timeout(), errTotalTimeout)
	defer cancel()
	u := base.JoinPath(p.modelsPath())
	m := newMerger()
	switch p.Type {
	case TypeAnthropic:
		if err := s.discoverAnthropic(ctx, u, key, m); err != nil {
			return nil, err
		}
	default:
		h := http.Header{}
		if key != "" {
			h.Set("Authorization", "Bearer "+key)
		}
		body, err := s.http.get(ctx, u, h, MaxBodyBytes)
		if err != nil {
			return nil, err
		}
		parse := parseOpenAIModels
		if p.Type == TypeOllama {
			parse = parseOllamaModels
		}
		models, err := parse(body)
		if err != nil {
			return nil, err
		}
		if _, err := m.add(models); err != nil {
			return nil, err
		}
	}
	if len(m.order) == 0 {
		return nil, errEmpty
	}
	return m.models(), nil
}

// discoverAnthropic follows Anthropic's pages (after_id = the previous
// page's last_id) while has_more is true. Each page must add a model not
// seen before and name a new last_id, so a looping server ends as
// invalid_catalog; more than MaxModels unique models end as catalog_limit.
func (s *Service) discoverAnthropic(ctx context.Context, u *url.URL, key string, m *merger) error {
	h := http.Header{}
	h.Set("x-api-key", key)
	h.Set("anthropic-version", anthropicVersion)
	seenLast := map[string]bool{}
	after := ""
	for {
		if err := ctx.Err(); err != nil {
			return ctxFailure(ctx)
		}
		pu := *u
		q := url.Values{"limit": {anthropicPageLimit}}
		if after != "" {
			q.Set("after_id", after)
		}
		pu.RawQuery = q.Encode()
		body, err := s.http.get(ctx, &pu, h, MaxBodyBytes)
		if err != nil {
			return err
		}
		page, err := parseAnthropicModels(body)
		if err != nil {
			return err
		}
		added, err := m.add(page.Models)
		if err != nil {
			return err
		}
		if !page.HasMore {
			return nil
		}
		if added == 0 || seenLast[page.LastID] {
			return failure(wire.ReasonInvalidCatalog, "paging does not advance")
		}
		seenLast[page.LastID] = true
		after = page.LastID
	}
}

// persist writes the cache atomically. A failure is settled by reading the
// cache back: when it holds exactly the new bytes the rename took effect
// (only the directory fsync failed) and the refresh counts; otherwise the
// rename did not happen, the previous bytes are in place, and the outcome is
// cache_write_failed.
func (s *Service) persist(p *Provider, data []byte) error {
	name := cacheName(p.ID)
	if name == "" {
		return failure(wire.ReasonCacheWriteFailed, "the provider id is too long for a file name")
	}
	root, err := s.home.create()
	if err != nil {
		return failure(wire.ReasonCacheWriteFailed, "the home cannot be opened")
	}
	defer root.Close()
	err = root.MkdirAll(cacheDir, dirPerm)
	if err == nil {
		err = root.WriteFileAtomic(name, data, filePerm)
	}
	if err == nil {
		return nil
	}
	s.logf("writing a catalog cache failed (%v)", err) // fsguard errors name no path
	if got, _, rerr := root.ReadFile(name, MaxCacheBytes); rerr == nil && bytes.Equal(got, data) {
		return nil
	}
	return failure(wire.ReasonCacheWriteFailed, "the cache could not be written")
}
