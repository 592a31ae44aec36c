package sessions

import (
	"github.com/scoutdev/scout/backend/wire"
)

// rowAgent is the agent whose session r is (scout's own for a row of a
// backend that names none).
func rowAgent(r wire.SessionRow) string {
	if r.Agent == "" {
		return wire.AgentScout
	}
	return r.Agent
}

// attachedAgent is the agent of an attachment (scout's own for a backend
// that names none).
func attachedAgent(a wire.Attachment) string {
	if a.Agent == "" {
		return wire.AgentScout
	}
	return a.Agent
}
