package catalog

import (
	"context"
	"errors"
	"sync/atomic"

	"github.com/scoutdev/scout/backend/server"
	"github.com/scoutdev/scout/backend/wire"
)

// ConfigurationReload is what every status page and refresh result says
// about configuration changes: the child reads its configuration once.
const ConfigurationReload = wire.ConfigurationReloadRestart

// Methods returns the protocol methods of this package, for registration
// with the server: model.catalog, model.catalog.status, model.refresh,
// model.select, model.enable and scout's model.catalog.models.
func (s *Service) Methods() []*server.Method {
	return []*server.Method{
		{
			Name: wire.MethodModelCatalog, Kind: server.KindCatalog,
			NewParams: func() any { return new(wire.CursorParams) },
			Handle:    func(ctx context.Context, c *server.Call) (any, error) { return s.handleRead(ctx, c, false) },
		},
		{
			Name: wire.MethodModelCatalogStatus, Kind: server.KindCatalog,
			NewParams: func() any { return new(wire.CursorParams) },
			Handle:    func(ctx context.Context, c *server.Call) (any, error) { return s.handleRead(ctx, c, true) },
		},
		{
			Name: wire.MethodModelRefresh, Kind: server.KindSelection, LongRunning: true,
			Extension: func(e *wire.Extensions) { ext := wire.DefaultRefreshExtension; e.ModelRefresh = &ext },
			NewParams: func() any { return &refreshParams{known: s.byID} },
			Admit: func(*server.Call) (func(), error) {
				s.invalidate()
				return nil, nil
			},
			Handle: s.handleRefresh,
		},
		{
			Name: wire.MethodModelSelect, Kind: server.KindSelection,
			NewParams: func() any { return new(wire.SelectParams) },
			Handle:    s.handleSelect,
		},
		{
			Name: wire.MethodModelEnable, Kind: server.KindSelection,
			NewParams: func() any { return &enableParams{known: s.byID} },
			Handle:    s.handleEnable,
		},
		{
			Name: wire.MethodModelCatalogModels, Kind: server.KindCatalog,
			NewParams: func() any { return new(wire.CursorParams) },
			Handle:    s.handleModels,
		},
	}
}

// refreshParams is model.refresh's params: a configured provider's id (an
// unknown one is invalid_params, decided before admission).
type refreshParams struct {
	wire.RefreshParams
	known map[string]*Provider
}

// Validate requires a configured provider.
func (p *refreshParams) Validate() error {
	if err := p.RefreshParams.Validate(); err != nil {
		return err
	}
	if p.known[*p.Provider] == nil {
		return errors.New("params.provider is not a configured provider.")
	}
	return nil
}

// holdRevision makes a cancelled request abandon revision rev: unless the
// request's result was committed (or it failed on its own, marked through
// the returned flag), the end of its context drops rev if it is still
// current.
func (s *Service) holdRevision(ctx context.Context, c *server.Call, rev uint64, extra func() error) *atomic.Bool {
	var settled atomic.Bool
	c.OnCommit(func() error {
		if extra != nil {
			if err := extra(); err != nil {
				return err
			}
		}
		settled.Store(true)
		return nil
	})
	context.AfterFunc(ctx, func() {
		if !settled.Load() {
			s.abandon(rev)
		}
	})
	return &settled
}

func (s *Service) handleRead(ctx context.Context, c *server.Call, status bool) (any, error) {
	p := c.Params.(*wire.CursorParams)
	tag := tagCatalog
	if status {
		tag = tagStatus
	}
	if p.Cursor == nil {
		return s.freshPage(ctx, c, status, tag)
	}
	revision, offset, ok := s.cursors.parse(*p.Cursor)
	if !ok {
		return nil, wire.Errorf(wire.CodeInvalidCursor, "The cursor was not issued by this backend for the catalog.")
	}
	snap := s.currentRevision(revision)
	if snap == nil || offset > len(snap.choices) {
		return nil, wire.Errorf(wire.CodeStaleRevision, "The catalog revision is no longer current; read the catalog again without a cursor.")
	}
	settled := s.holdRevision(ctx, c, snap.rev, func() error {
		if s.currentRevision(revision) == nil {
			return wire.Errorf(wire.CodeStaleRevision, "The catalog revision is no longer current; read the catalog again without a cursor.")
		}
		return nil
	})
	res, err := s.page(c.ID, snap, offset, status, tag, false)
	if err != nil {
		settled.Store(true)
		return nil, err
	}
	return res, nil
}

func (s *Service) freshPage(ctx context.Context, c *server.Call, status bool, tag string) (any, error) {
	rev, epoch := s.beginScan()
	snap, err := s.scan(ctx)
	if err != nil {
		return nil, err
	}
	snap.rev, snap.revision = rev, revisionName(rev)
	res, err := s.page(c.ID, snap, 0, status, tag, true)
	if err != nil {
		return nil, err
	}
	c.OnCommit(func() error { s.install(snap, epoch); return nil })
	return res, nil
}

func (s *Service) handleRefresh(ctx context.Context, c *server.Call) (any, error) {
	p := c.Params.(*refreshParams)
	res, install, err := s.Refresh(ctx, *p.Provider)
	if err != nil {
		return nil, err
	}
	c.OnCommit(func() error { install(); return nil })
	return res, nil
}

func (s *Service) handleSelect(ctx context.Context, c *server.Call) (any, error) {
	p := c.Params.(*wire.SelectParams)
	snap := s.currentRevision(*p.Revision)
	if snap == nil {
		return nil, wire.Errorf(wire.CodeSelectionStale, "The catalog revision is no longer current; read the catalog again and select with its revision.")
	}
	settled := s.holdRevision(ctx, c, snap.rev, nil)
	sel, err := s.selectable(snap, p)
	if err != nil {
		settled.Store(true)
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := s.home.writeSelection(sel); err != nil {
		settled.Store(true)
		s.logf("saving the selection failed (%v)", err)
		return nil, wire.Errorf(wire.CodeInternal, "The selection could not be saved; it is unchanged.")
	}
	return &wire.SelectResult{Selection: *sel, Revision: snap.revision}, nil
}

// selectable checks a selection against the snapshot: the model must be a
// choice (enabled, in a valid cache), selectable (its provider's
// authentication ready), and the effort null or one of the choice's.
func (s *Service) selectable(snap *snapshot, p *wire.SelectParams) (*wire.Selection, error) {
	choice, ok := snap.choice(*p.Provider, *p.Model)
	switch {
	case !ok:
		return nil, wire.Errorf(wire.CodeSelectionInvalid, "That model is not an enabled model of a valid catalog.")
	case !choice.Selectable:
		return nil, wire.Errorf(wire.CodeSelectionInvalid, "That provider's authentication is not available.")
	}
	if p.Effort != nil {
		found := false
		for _, e := range choice.Efforts {
			found = found || e == *p.Effort
		}
		if !found {
			return nil, wire.Errorf(wire.CodeSelectionInvalid, "That model does not offer the requested effort.")
		}
	}
	sel := &wire.Selection{Provider: choice.Provider, Model: choice.Model}
	if p.Effort != nil {
		effort := *p.Effort
		sel.Effort = &effort
	}
	return sel, nil
}

// page builds the page of snap starting at offset for request id.
func (s *Service) page(id string, snap *snapshot, offset int, status bool, tag string, first bool) (any, error) {
	next := func(off int) *string {
		if off >= len(snap.choices) {
			return nil
		}
		cur := s.cursors.issue(snap.revision, tag, off)
		return &cur
	}
	var pg *pager[wire.Choice]
	var notices *[]wire.CatalogNotice
	if status {
		r := &wire.CatalogStatusResult{Revision: snap.revision, ConfigurationReload: ConfigurationReload}
		if first {
			list, providers := snap.notices, snap.providers
			r.Selection, r.Notices, r.Providers = wire.Some(snap.selection), &list, &providers
			notices = r.Notices
		}
		pg = &pager[wire.Choice]{items: &r.Choices, cursor: &r.Cursor, stamp: &r.Stamp, result: r}
	} else {
		r := &wire.CatalogResult{Revision: snap.revision}
		if first {
			list := snap.notices
			r.Selection, r.Notices = wire.Some(snap.selection), &list
			notices = r.Notices
		}
		pg = &pager[wire.Choice]{items: &r.Choices, cursor: &r.Cursor, stamp: &r.Stamp, result: r}
	}
	if notices != nil {
		if err := trimNotices(pg, id, notices); err != nil {
			return nil, err
		}
	}
	if _, err := fillPage(pg, id, snap.choices, offset, next); err != nil {
		return nil, err
	}
	return pg.result, nil
}

// trimNotices drops notices from the end while the first page, without any
// choice and with the longest cursor, would not fit its byte bound. With at
// most 32 reported providers (two notices each) of at most 256-byte ids this
// never happens; it keeps the bound absolute.
func trimNotices(r *pager[wire.Choice], id string, notices *[]wire.CatalogNotice) error {
	for {
		r.set([]wire.Choice{}, nil)
		b, err := r.encode()
		if err != nil {
			return err
		}
		if lineBytes(id, b)+wire.MaxCursorBytes+2 <= pageBytes || len(*notices) == 0 {
			return nil
		}
		*notices = (*notices)[:len(*notices)-1]
	}
}
