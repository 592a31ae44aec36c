package rpcclient

import (
	"context"

	"github.com/scoutdev/scout/backend/wire"
)

// ProjectFiles calls project.files: a fresh snapshot of the workspace.
func (c *Client) ProjectFiles(ctx context.Context) (wire.ProjectFilesResult, error) {
	var res wire.ProjectFilesResult
	err := c.Call(ctx, wire.MethodProjectFiles, struct{}{}, &res)
	return res, err
}

// ProjectList calls project.list for one page of the folder ref ("root", a
// folder id or a next_ref); limit <= 0 takes the backend's default.
func (c *Client) ProjectList(ctx context.Context, ref string, limit int) (wire.ListResult, error) {
	params := wire.ListParams{Ref: &ref}
	if limit > 0 {
		params.Limit = &limit
	}
	var res wire.ListResult
	err := c.Call(ctx, wire.MethodProjectList, params, &res)
	return res, err
}

// ProjectRead calls project.read for the head of the file id ref;
// maxBytes <= 0 takes the backend's default.
func (c *Client) ProjectRead(ctx context.Context, ref string, maxBytes int) (wire.ReadResult, error) {
	params := wire.ReadParams{Ref: &ref}
	if maxBytes > 0 {
		params.MaxBytes = &maxBytes
	}
	var res wire.ReadResult
	err := c.Call(ctx, wire.MethodProjectRead, params, &res)
	return res, err
}

// ProjectIndex calls project.index: one page of the walk of the whole
// tree. A nil cursor starts a fresh walk (abandoning any earlier one of
// this child); otherwise cursor is the previous page's, used exactly once.
func (c *Client) ProjectIndex(ctx context.Context, cursor *string) (wire.ProjectIndexResult, error) {
	var res wire.ProjectIndexResult
	cn, err := c.conn()
	if err != nil {
		return res, err
	}
	err = cn.callIndex(ctx, cursor, &res)
	return res, err
}
