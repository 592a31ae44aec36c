package rpcclient

import (
	"context"

	"github.com/scoutdev/scout/backend/wire"
)

// WorkspaceTrust calls workspace.trust: it applies the workspace's
// .scout/config.toml and remembers the decision in the backend home.
func (c *Client) WorkspaceTrust(ctx context.Context) (wire.TrustResult, error) {
	var res wire.TrustResult
	err := c.Call(ctx, wire.MethodWorkspaceTrust, nil, &res)
	return res, err
}
