package backend

import (
	"io"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
)

// OpenView returns the workspace dir as the backend would show it at start:
// its guarded root (nil when it cannot be opened) and the settled
// visibility policy, built from the same configuration, with a trusted
// project configuration applied and its protections reserved. `scout mcp`
// serves this view, so its policy is the backend's, decided in one place.
// Problems are reported on log, as the backend reports them.
func OpenView(dir string, getenv func(string) string, log io.Writer) (*fsguard.Root, *policy.Policy) {
	ws := loadWorkspace(dir, getenv, log)
	return ws.root, ws.mgr.Current()
}
