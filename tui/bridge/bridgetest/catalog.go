package bridgetest

import (
	"context"
	"fmt"
	"slices"

	"github.com/scoutdev/scout/backend/wire"
)

// Catalog is what the fake's catalog caches and configuration say.
type Catalog struct {
	Providers []wire.ProviderStatus
	Choices   []wire.Choice
	Selection *wire.Selection
	// Models are model.catalog.models' rows (every cached model with its
	// enabled state) and Keys its providers' key needs; see models.go.
	Models []wire.ModelRow
	Keys   []wire.ProviderKey
}

func (c Catalog) clone() Catalog {
	c.Providers, c.Choices = slices.Clone(c.Providers), slices.Clone(c.Choices)
	c.Models, c.Keys = slices.Clone(c.Models), slices.Clone(c.Keys)
	if c.Selection != nil {
		sel := *c.Selection
		c.Selection = &sel
	}
	return c
}

// RefreshFunc answers model.refresh call number n in place of the default
// (refreshed); it may block on ctx and may SetCatalog. A result without
// catalog_revision and catalog_error gets the rescan's revision.
type RefreshFunc func(ctx context.Context, n int, provider string) (wire.RefreshResult, error)

// catalogState holds revisions as the backend does: a fresh call makes a
// new current revision with its snapshot; an admitted refresh drops it.
type catalogState struct {
	data    Catalog
	snap    Catalog
	rev     int // revisions made by this child
	current int // 0: none current
	refresh RefreshFunc
	fail    error
	// pending are model.enable decisions the next child applies.
	pending []enabled
	enable  EnableFunc
}

func (c *catalogState) restart() {
	c.rev, c.current = 0, 0
	for _, e := range c.pending {
		c.data.apply(e)
	}
	c.pending = nil
}

func (c *catalogState) fresh() {
	c.rev++
	c.current, c.snap = c.rev, c.data.clone()
}

func revision(n int) string { return fmt.Sprintf("c%d", n) }

// SetCatalog replaces what the caches say; fresh calls from now on see it.
func (f *Fake) SetCatalog(c Catalog) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.catalog.data = c.clone()
}

// SetRefresh replaces the model.refresh answers.
func (f *Fake) SetRefresh(fn RefreshFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.catalog.refresh = fn
}

// SetCatalogError makes fresh catalog calls fail with err (nil: succeed).
func (f *Fake) SetCatalogError(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.catalog.fail = err
}

// NewRevision makes a new current revision, as another fresh catalog call
// would: guards and cursors held by the page become stale.
func (f *Fake) NewRevision() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.catalog.fresh()
}

// Selection returns the selected model (nil: none).
func (f *Fake) Selection() *wire.Selection {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.catalog.data.clone().Selection
}

// Refreshed is a refreshed outcome.
func Refreshed(provider string) wire.RefreshResult {
	return wire.RefreshResult{Provider: provider, Outcome: wire.OutcomeRefreshed, Recovery: wire.RecoveryReloadCatalog,
		ConfigurationReload: "restart_child", SelectionUnchanged: true}
}

// Failed is a failed outcome with reason.
func Failed(provider, reason, recovery string) wire.RefreshResult {
	res := Refreshed(provider)
	res.Outcome, res.Reason, res.Recovery = wire.OutcomeFailed, &reason, recovery
	return res
}

// page returns the current snapshot's choices from cursor on, and the
// next cursor ("" after the last page). Like the backend, either catalog
// method continues a cursor of the other.
func (f *Fake) catalogPage(kind string, cursor *string) (rev string, choices []wire.Choice, next *string, first bool, err error) {
	c := &f.catalog
	off := 0
	if cursor == nil {
		if c.fail != nil {
			return "", nil, nil, false, c.fail
		}
		c.fresh()
	} else {
		var r int
		var k string
		if _, serr := fmt.Sscanf(*cursor, "c%d.%1s.%d", &r, &k, &off); serr != nil || k != "a" && k != "s" {
			return "", nil, nil, false, wire.NewError(wire.CodeInvalidCursor)
		}
		if r != c.current {
			return "", nil, nil, false, wire.NewError(wire.CodeStaleRevision)
		}
	}
	size := f.opts.CatalogPage
	if size <= 0 {
		size = wire.DefaultLimits.CatalogPageEntries
	}
	end := min(off+size, len(c.snap.Choices))
	if end < len(c.snap.Choices) {
		s := fmt.Sprintf("%s.%s.%d", revision(c.current), kind, end)
		next = &s
	}
	return revision(c.current), slices.Clone(c.snap.Choices[off:end]), next, cursor == nil, nil
}

// ModelCatalog implements bridge.Backend.
func (f *Fake) ModelCatalog(ctx context.Context, cursor *string) (wire.CatalogResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, _, err := f.beginLocked(wire.MethodModelCatalog); err != nil {
		return wire.CatalogResult{}, err
	}
	rev, choices, next, first, err := f.catalogPage("a", cursor)
	if err != nil {
		return wire.CatalogResult{}, err
	}
	res := wire.CatalogResult{Revision: rev, Choices: choices, Cursor: next}
	if first {
		res.Selection = wire.Some(f.catalog.snap.clone().Selection)
		res.Notices = &[]wire.CatalogNotice{}
	}
	return res, ctx.Err()
}

// ModelCatalogStatus implements bridge.Backend.
func (f *Fake) ModelCatalogStatus(ctx context.Context, cursor *string) (wire.CatalogStatusResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, _, err := f.beginLocked(wire.MethodModelCatalogStatus); err != nil {
		return wire.CatalogStatusResult{}, err
	}
	rev, choices, next, first, err := f.catalogPage("s", cursor)
	if err != nil {
		return wire.CatalogStatusResult{}, err
	}
	res := wire.CatalogStatusResult{Revision: rev, Choices: choices, Cursor: next, ConfigurationReload: "restart_child"}
	if first {
		snap := f.catalog.snap.clone()
		res.Selection, res.Providers = wire.Some(snap.Selection), &snap.Providers
		res.Notices = &[]wire.CatalogNotice{}
	}
	return res, ctx.Err()
}

// ModelRefresh implements bridge.Backend: admission drops the current
// revision; a result that is not cancelled is followed by a rescan whose
// revision it carries. A refresh that returns because its context ended
// counts as an operation.cancel (Calls(wire.MethodCancel)).
func (f *Fake) ModelRefresh(ctx context.Context, provider string) (wire.RefreshResult, error) {
	f.mu.Lock()
	n, _, err := f.beginLocked(wire.MethodModelRefresh)
	if err != nil {
		f.mu.Unlock()
		return wire.RefreshResult{}, err
	}
	if !slices.ContainsFunc(f.catalog.data.Providers, func(p wire.ProviderStatus) bool { return p.Provider == provider }) {
		f.mu.Unlock()
		return wire.RefreshResult{}, wire.NewError(wire.CodeInvalidParams)
	}
	f.catalog.current = 0
	fn := f.catalog.refresh
	f.mu.Unlock()
	res, err := Refreshed(provider), error(nil)
	if fn != nil {
		res, err = fn(ctx, n, provider)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if ctx.Err() != nil {
		f.calls[wire.MethodCancel]++
		return wire.RefreshResult{}, ctx.Err()
	}
	if err != nil {
		return res, err
	}
	if res.CatalogRevision == nil && res.CatalogError == nil {
		f.catalog.fresh()
		rev := revision(f.catalog.current)
		res.CatalogRevision = &rev
	}
	return res, nil
}

// ModelSelect implements bridge.Backend: the guard must be the current
// revision (selection_stale otherwise) and the model a selectable choice
// of its snapshot (selection_invalid otherwise).
func (f *Fake) ModelSelect(ctx context.Context, provider, model string, effort *string, rev string) (wire.SelectResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, _, err := f.beginLocked(wire.MethodModelSelect); err != nil {
		return wire.SelectResult{}, err
	}
	c := &f.catalog
	if c.current == 0 || rev != revision(c.current) {
		return wire.SelectResult{}, wire.NewError(wire.CodeSelectionStale)
	}
	if !slices.ContainsFunc(c.snap.Choices, func(ch wire.Choice) bool {
		return ch.Provider == provider && ch.Model == model && ch.Selectable
	}) {
		return wire.SelectResult{}, wire.NewError(wire.CodeSelectionInvalid)
	}
	sel := wire.Selection{Provider: provider, Model: model, Effort: effort}
	c.data.Selection = &sel
	return wire.SelectResult{Selection: sel, Revision: rev}, ctx.Err()
}
