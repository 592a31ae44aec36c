package sessions

import (
	"path/filepath"
	"slices"

	"github.com/scoutdev/scout/backend/wire"
)

// Stores says where the other agents' stores are; "" is a store that is
// not read.
type Stores struct {
	// ClaudeCode is $CLAUDE_CONFIG_DIR, else ~/.claude.
	ClaudeCode string
	// Codex is $CODEX_HOME, else ~/.codex.
	Codex string
	// Gemini is $GEMINI_CLI_HOME, else ~: the directory holding .gemini.
	Gemini string
}

// StoresFromEnv locates each agent's store the way the agent does: its
// variable when set, else its default below the user's home (userHome, ""
// when unknown). A variable set to a relative path leaves its store
// unread: it names no place the backend can trust, and falling back to
// the default would read a store the user pointed away from.
func StoresFromEnv(getenv func(string) string, userHome string) Stores {
	at := func(env, def string) string {
		if v := getenv(env); v != "" {
			if filepath.IsAbs(v) {
				return filepath.Clean(v)
			}
			return ""
		}
		if userHome == "" {
			return ""
		}
		return filepath.Join(userHome, def)
	}
	return Stores{
		ClaudeCode: at("CLAUDE_CONFIG_DIR", ".claude"),
		Codex:      at("CODEX_HOME", ".codex"),
		Gemini:     at("GEMINI_CLI_HOME", "."),
	}
}

// runs are the sources of one scan or request, fresh, in the order of the
// sources table: scout's own store, then each agent's whose location is
// known, each only when [sessions] sources lists it (or lists nothing).
func (s *Service) runs(m *cwdMatcher) []*run {
	var srcs []source
	add := func(agent, at string, mk func() source) {
		if at != "" && (s.cfg.Sources == nil || slices.Contains(s.cfg.Sources, agent)) {
			srcs = append(srcs, mk())
		}
	}
	add(wire.AgentScout, "scout", func() source { return &scoutSource{home: s.cfg.Home, now: s.cfg.Now, match: m} })
	st := s.cfg.Stores
	add(wire.AgentClaudeCode, st.ClaudeCode, func() source { return newClaudeSource(st.ClaudeCode, s.cfg.Now, m) })
	add(wire.AgentCodex, st.Codex, func() source { return newCodexSource(st.Codex, m) })
	add(wire.AgentGemini, st.Gemini, func() source { return newGeminiSource(st.Gemini, m) })
	runs := make([]*run, len(srcs))
	for i, src := range srcs {
		runs[i] = &run{src: src}
	}
	return runs
}
