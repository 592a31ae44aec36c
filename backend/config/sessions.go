package config

import (
	"github.com/scoutdev/scout/backend/wire"
)

// Sessions is the [sessions] table of config.toml.
type Sessions struct {
	// Sources narrows the session sources read to these agents, in any
	// order (each at most once); nil when the file does not set it, which
	// reads every source whose store exists.
	Sources []string
}

// parseSessions reads [sessions]: sources, a list of agent names
// (wire.Agents).
func parseSessions(doc *table) (Sessions, error) {
	var s Sessions
	t, err := doc.sub("sessions")
	if err != nil || t == nil {
		return s, err
	}
	if s.Sources, err = t.strings("sources", len(wire.Agents)); err != nil {
		return s, err
	}
	seen := map[string]bool{}
	for _, a := range s.Sources {
		if !wire.ValidAgent(a) {
			return s, t.errf("sources", "names an unknown agent (want scout, claude-code, codex, gemini, opencode or crush)")
		}
		if seen[a] {
			return s, t.errf("sources", "names an agent twice")
		}
		seen[a] = true
	}
	return s, t.done()
}
