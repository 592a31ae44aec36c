package rpcclient

import (
	"context"

	"github.com/scoutdev/scout/backend/wire"
)

// ModelCatalog calls model.catalog: one page of the choices. A nil cursor
// makes a fresh revision; a cursor continues the revision that issued it.
func (c *Client) ModelCatalog(ctx context.Context, cursor *string) (wire.CatalogResult, error) {
	var res wire.CatalogResult
	err := c.Call(ctx, wire.MethodModelCatalog, wire.CursorParams{Cursor: cursor}, &res)
	return res, err
}

// ModelCatalogStatus calls model.catalog.status: one page of the choices,
// with the providers' status on the first page.
func (c *Client) ModelCatalogStatus(ctx context.Context, cursor *string) (wire.CatalogStatusResult, error) {
	var res wire.CatalogStatusResult
	err := c.Call(ctx, wire.MethodModelCatalogStatus, wire.CursorParams{Cursor: cursor}, &res)
	return res, err
}

// ModelRefresh calls model.refresh for one provider: the deliberate, remote
// fetch of its model list. Cancelling ctx sends operation.cancel (when
// negotiated); the call then returns ctx's error.
func (c *Client) ModelRefresh(ctx context.Context, provider string) (wire.RefreshResult, error) {
	var res wire.RefreshResult
	err := c.Call(ctx, wire.MethodModelRefresh, wire.RefreshParams{Provider: &provider}, &res)
	return res, err
}

// ModelSelect calls model.select: selects provider's model (effort nil:
// none) under the guard revision, the revision of the latest catalog read.
func (c *Client) ModelSelect(ctx context.Context, provider, model string, effort *string, revision string) (wire.SelectResult, error) {
	var res wire.SelectResult
	params := wire.SelectParams{Provider: &provider, Model: &model, Effort: effort, Revision: &revision}
	err := c.Call(ctx, wire.MethodModelSelect, params, &res)
	return res, err
}

// ModelEnable calls model.enable: records provider's model as enabled or
// disabled in the backend home. The running child keeps its configuration;
// restart it to apply the change.
func (c *Client) ModelEnable(ctx context.Context, provider, model string, enabled bool) (wire.EnableResult, error) {
	var res wire.EnableResult
	params := wire.EnableParams{Provider: &provider, Model: &model, Enabled: &enabled}
	err := c.Call(ctx, wire.MethodModelEnable, params, &res)
	return res, err
}

// ModelCatalogModels calls model.catalog.models: one page of every model
// of the valid caches with its enabled state (cursor nil: a fresh
// revision, with the providers' key needs on the first page).
func (c *Client) ModelCatalogModels(ctx context.Context, cursor *string) (wire.ModelsResult, error) {
	var res wire.ModelsResult
	err := c.Call(ctx, wire.MethodModelCatalogModels, wire.CursorParams{Cursor: cursor}, &res)
	return res, err
}
