package rpcclient

import (
	"context"

	"github.com/scoutdev/scout/backend/wire"
)

// SessionDiscover calls session.discover: one page of the incremental scan.
// A nil cursor starts a fresh scan (abandoning any earlier one of this
// child); otherwise cursor is the previous page's, used exactly once.
func (c *Client) SessionDiscover(ctx context.Context, cursor *string) (wire.DiscoverResult, error) {
	var res wire.DiscoverResult
	err := c.Call(ctx, wire.MethodSessionDiscover, wire.CursorParams{Cursor: cursor}, &res)
	return res, err
}

// SessionOpen calls session.open: the exact open of session id of agent
// (wire.Agent*; "" is scout's own), which becomes the backend's
// attachment. On any error the previous attachment is kept.
func (c *Client) SessionOpen(ctx context.Context, id, agent string) (wire.SessionOpenResult, error) {
	var res wire.SessionOpenResult
	p := wire.SessionOpenParams{ID: &id}
	if agent != "" {
		p.Agent = &agent
	}
	err := c.Call(ctx, wire.MethodSessionOpen, p, &res)
	return res, err
}
