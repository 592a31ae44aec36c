package bridgetest

import (
	"context"
	"fmt"
	"slices"

	"github.com/scoutdev/scout/backend/wire"
)

// EnableFunc answers model.enable call number n in place of the default
// (recorded for the next child); it may block on ctx.
type EnableFunc func(ctx context.Context, n int, provider, model string, enabled bool) (wire.EnableResult, error)

// enabled is one model.enable decision.
type enabled struct {
	provider, model string
	on              bool
}

// SetEnable replaces the model.enable answers.
func (f *Fake) SetEnable(fn EnableFunc) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.catalog.enable = fn
}

// Enabled reports whether provider's model is enabled in what the caches
// and configuration say now (decisions not yet applied by a restart
// excluded).
func (f *Fake) Enabled(provider, model string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	i := f.catalog.data.row(provider, model)
	return i >= 0 && f.catalog.data.Models[i].Enabled
}

func (c *Catalog) row(provider, model string) int {
	return slices.IndexFunc(c.Models, func(r wire.ModelRow) bool { return r.Provider == provider && r.Model == model })
}

// apply makes a decision part of the catalog, as a restarted child merges
// enabled.json: the row's state, and the choice added (at the end of its
// provider's choices) or removed.
func (c *Catalog) apply(e enabled) {
	i := c.row(e.provider, e.model)
	if i < 0 {
		return
	}
	c.Models[i].Enabled = e.on
	at := slices.IndexFunc(c.Choices, func(ch wire.Choice) bool { return ch.Provider == e.provider && ch.Model == e.model })
	switch {
	case e.on && at < 0:
		r := c.Models[i]
		ch := wire.Choice{Provider: r.Provider, Model: r.Model, Name: r.Name, Efforts: slices.Clone(r.Efforts), Selectable: true}
		end := len(c.Choices)
		for j, x := range c.Choices {
			if x.Provider == e.provider {
				end = j + 1
			}
		}
		c.Choices = slices.Insert(c.Choices, end, ch)
	case !e.on && at >= 0:
		c.Choices = slices.Delete(c.Choices, at, at+1)
	}
	for j := range c.Providers {
		if c.Providers[j].Provider == e.provider {
			c.Providers[j].Relevant = slices.ContainsFunc(c.Choices, func(ch wire.Choice) bool { return ch.Provider == e.provider })
		}
	}
}

// ModelEnable implements bridge.Backend: a provider the status lists and a
// listed model of its rows (invalid_params otherwise); the decision is
// applied by the next Restart, as the backend's running child keeps its
// configuration.
func (f *Fake) ModelEnable(ctx context.Context, provider, model string, on bool) (wire.EnableResult, error) {
	f.mu.Lock()
	n, _, err := f.beginLocked(wire.MethodModelEnable)
	fn := f.catalog.enable
	f.mu.Unlock()
	if err != nil {
		return wire.EnableResult{}, err
	}
	res := wire.EnableResult{Provider: provider, Model: model, Enabled: on, ConfigurationReload: wire.ConfigurationReloadRestart}
	if fn != nil {
		if res, err = fn(ctx, n, provider, model, on); err != nil {
			return res, err
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if i := f.catalog.data.row(provider, model); i < 0 || !f.catalog.data.Models[i].Listed {
		return wire.EnableResult{}, wire.NewError(wire.CodeInvalidParams)
	}
	f.catalog.pending = append(f.catalog.pending, enabled{provider, model, on})
	return res, ctx.Err()
}

// ModelCatalogModels implements bridge.Backend: a fresh call makes a new
// revision, like the other catalog reads; its cursors ("cN.m.OFF")
// continue only this method.
func (f *Fake) ModelCatalogModels(ctx context.Context, cursor *string) (wire.ModelsResult, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if _, _, err := f.beginLocked(wire.MethodModelCatalogModels); err != nil {
		return wire.ModelsResult{}, err
	}
	c := &f.catalog
	off := 0
	if cursor == nil {
		if c.fail != nil {
			return wire.ModelsResult{}, c.fail
		}
		c.fresh()
	} else {
		var r int
		if _, err := fmt.Sscanf(*cursor, "c%d.m.%d", &r, &off); err != nil {
			return wire.ModelsResult{}, wire.NewError(wire.CodeInvalidCursor)
		}
		if r != c.current {
			return wire.ModelsResult{}, wire.NewError(wire.CodeStaleRevision)
		}
	}
	size := f.opts.CatalogPage
	if size <= 0 {
		size = wire.DefaultLimits.CatalogPageEntries
	}
	rows := c.snap.Models
	end := min(off+size, len(rows))
	res := wire.ModelsResult{Revision: revision(c.current), Models: slices.Clone(rows[off:end])}
	if res.Models == nil {
		res.Models = []wire.ModelRow{}
	}
	if end < len(rows) {
		next := fmt.Sprintf("%s.m.%d", revision(c.current), end)
		res.Cursor = &next
	}
	if cursor == nil {
		keys := slices.Clone(c.snap.Keys)
		if keys == nil {
			keys = []wire.ProviderKey{}
		}
		res.Providers = &keys
	}
	return res, ctx.Err()
}
