package sessions

import (
	"charm.land/lipgloss/v2"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/tui/internal/palette"
)

// agentTags are the short names a row's agent is shown by, in the colour
// of palette.Agent.
var agentTags = map[string]string{
	wire.AgentScout:      "scout",
	wire.AgentClaudeCode: "claude",
	wire.AgentCodex:      "codex",
	wire.AgentGemini:     "gemini",
	wire.AgentOpenCode:   "opencode",
	wire.AgentCrush:      "crush",
}

// agentTag is the tag of agent's rows (an agent this frontend does not
// know is shown by its name).
func agentTag(agent string) string {
	if t, ok := agentTags[agent]; ok {
		return t
	}
	return agent
}

// agentStyles are the tags' styles: each agent's colour, or, without
// colour, a plain tag (its word alone tells the agents apart).
func agentStyles(isDark, noColor bool) map[string]lipgloss.Style {
	out := map[string]lipgloss.Style{}
	for _, a := range wire.Agents {
		st := lipgloss.NewStyle()
		if !noColor {
			st = st.Foreground(palette.Agent(isDark, a))
		}
		out[a] = st
	}
	return out
}

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
