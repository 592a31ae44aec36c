package catalog

import (
	"context"
	"errors"
	"time"

	"github.com/scoutdev/scout/backend/server"
	"github.com/scoutdev/scout/backend/wire"
)

// model.catalog.models (docs/protocol.md §10.8.6) pages the same kind of
// snapshot as model.catalog and model.catalog.status: a fresh call scans
// and makes a new revision (its revision is a selection guard like theirs);
// its cursors, tagged "m", continue only this method, since it pages
// models rather than choices.

func (s *Service) handleModels(ctx context.Context, c *server.Call) (any, error) {
	p := c.Params.(*wire.CursorParams)
	if p.Cursor == nil {
		return s.freshModels(ctx, c)
	}
	revision, offset, ok := s.cursors.parseModels(*p.Cursor)
	if !ok {
		return nil, wire.Errorf(wire.CodeInvalidCursor, "The cursor was not issued by this backend for the model list.")
	}
	snap := s.currentRevision(revision)
	if snap == nil || offset > len(snap.models) {
		return nil, errStaleModels
	}
	settled := s.holdRevision(ctx, c, snap.rev, func() error {
		if s.currentRevision(revision) == nil {
			return errStaleModels
		}
		return nil
	})
	res, err := s.modelsPage(c.ID, snap, offset, false)
	if err != nil {
		settled.Store(true)
		return nil, err
	}
	return res, nil
}

var errStaleModels = wire.Errorf(wire.CodeStaleRevision, "The catalog revision is no longer current; read the model list again without a cursor.")

func (s *Service) freshModels(ctx context.Context, c *server.Call) (any, error) {
	rev, epoch := s.beginScan()
	snap, err := s.scan(ctx)
	if err != nil {
		return nil, err
	}
	snap.rev, snap.revision = rev, revisionName(rev)
	res, err := s.modelsPage(c.ID, snap, 0, true)
	if err != nil {
		return nil, err
	}
	c.OnCommit(func() error { s.install(snap, epoch); return nil })
	return res, nil
}

// modelsPage builds the page of snap's models from offset for request id;
// the first page carries the providers' key needs.
func (s *Service) modelsPage(id string, snap *snapshot, offset int, first bool) (*wire.ModelsResult, error) {
	r := &wire.ModelsResult{Revision: snap.revision}
	if first {
		keys := snap.keys
		if keys == nil {
			keys = []wire.ProviderKey{}
		}
		r.Providers = &keys
	}
	next := func(off int) *string {
		if off >= len(snap.models) {
			return nil
		}
		cur := s.cursors.issue(snap.revision, tagModels, off)
		return &cur
	}
	pg := &pager[wire.ModelRow]{items: &r.Models, cursor: &r.Cursor, stamp: &r.Stamp, result: r}
	if _, err := fillPage(pg, id, snap.models, offset, next); err != nil {
		return nil, err
	}
	return r, nil
}

// enableParams is model.enable's params: a configured provider's id (an
// unknown one is invalid_params, decided before admission).
type enableParams struct {
	wire.EnableParams
	known map[string]*Provider
}

// Validate requires a configured provider and a model id that could be in
// a cache.
func (p *enableParams) Validate() error {
	if err := p.EnableParams.Validate(); err != nil {
		return err
	}
	if p.known[*p.Provider] == nil {
		return errors.New("params.provider is not a configured provider.")
	}
	if !ValidModelID(*p.Model) {
		return errors.New("params.model is not in that provider's fetched model list.")
	}
	return nil
}

// handleEnable records one model.enable decision in enabled.json. The
// model must be in the provider's valid cache, read now (the running
// child's snapshot is not consulted, and not changed: the child keeps its
// configuration until it is restarted).
func (s *Service) handleEnable(ctx context.Context, c *server.Call) (any, error) {
	p := c.Params.(*enableParams)
	prov, model, enabled := s.byID[*p.Provider], *p.Model, *p.Enabled
	if err := s.inValidCache(prov, model); err != nil {
		return nil, err
	}
	if s.enableStall > 0 {
		select {
		case <-time.After(s.enableStall):
		case <-ctx.Done():
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := s.home.saveEnabled(EnabledChange{Provider: prov.ID, Model: model, Enabled: enabled}); err != nil {
		s.logf("saving enabled.json failed (%v)", err)
		return nil, wire.Errorf(wire.CodeInternal, "The setting could not be saved; it is unchanged.")
	}
	return &wire.EnableResult{Provider: prov.ID, Model: model, Enabled: enabled, ConfigurationReload: ConfigurationReload}, nil
}

// inValidCache checks that p's cache is valid and lists model: a missing,
// empty or invalid cache or a model it does not list is invalid_params; an
// unsafe or unreadable cache catalog_unavailable, one over 1 MiB
// catalog_limit (as for the catalog reads).
func (s *Service) inValidCache(p *Provider, model string) error {
	root, err := s.home.open()
	if err != nil {
		return wire.NewError(wire.CodeCatalogUnavailable)
	}
	if root != nil {
		defer root.Close()
	}
	data, err := readCache(root, p.ID)
	switch {
	case err == errCacheMissing:
		return wire.Errorf(wire.CodeInvalidParams, "That provider has no fetched model list; refresh it first.")
	case err != nil:
		return err
	}
	status, entries := ParseCache(p, data)
	if status != wire.CatalogAvailable {
		return wire.Errorf(wire.CodeInvalidParams, "That provider's fetched model list is not valid; refresh it first.")
	}
	for _, e := range entries {
		if e.ID == model {
			return nil
		}
	}
	return wire.Errorf(wire.CodeInvalidParams, "That model is not in the provider's fetched model list.")
}
