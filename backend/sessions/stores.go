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
	// OpenCode is $OPENCODE_DB (a relative one below
	// $XDG_DATA_HOME/opencode, as opencode reads it), else
	// $XDG_DATA_HOME/opencode/opencode.db (XDG_DATA_HOME's default
	// ~/.local/share).
	OpenCode string
	// CrushData is $CRUSH_GLOBAL_DATA, else $XDG_DATA_HOME/crush: the
	// directory of crush's projects.json. crush's databases are the
	// workspace's own (.crush/crush.db) and those projects.json records
	// for it.
	CrushData string
	// Crush reads crush's databases at all (they are found from the
	// workspace).
	Crush bool
}

// StoresFromEnv locates each agent's store the way the agent does: its
// variable when set, else its default below the user's home (userHome, ""
// when unknown). A variable set to a relative path leaves its store
// unread: it names no place the backend can trust, and falling back to
// the default would read a store the user pointed away from. The
// exception is OPENCODE_DB, which opencode itself resolves below its data
// directory.
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
	// XDG_DATA_HOME, unset or relative, is ~/.local/share (as the backend
	// home's rule reads it).
	data := getenv("XDG_DATA_HOME")
	if !filepath.IsAbs(data) {
		data = ""
		if userHome != "" {
			data = filepath.Join(userHome, ".local", "share")
		}
	}
	under := func(env, def string) string {
		if v := getenv(env); v != "" {
			if filepath.IsAbs(v) {
				return filepath.Clean(v)
			}
			return ""
		}
		if data == "" {
			return ""
		}
		return filepath.Join(data, def)
	}
	// opencode itself reads a relative OPENCODE_DB below its data
	// directory (Database.Path in its packages/opencode/src/storage/db.ts),
	// and ":memory:" as a database that is never saved.
	opencode := under("OPENCODE_DB", "opencode/opencode.db")
	if v := getenv("OPENCODE_DB"); v != "" && !filepath.IsAbs(v) && v != ":memory:" && data != "" {
		opencode = filepath.Join(data, "opencode", v)
	}
	return Stores{
		ClaudeCode: at("CLAUDE_CONFIG_DIR", ".claude"),
		Codex:      at("CODEX_HOME", ".codex"),
		Gemini:     at("GEMINI_CLI_HOME", "."),
		OpenCode:   opencode,
		CrushData:  under("CRUSH_GLOBAL_DATA", "crush"),
		Crush:      true,
	}
}

// CredentialFiles are the provider credentials the agents of StoresFromEnv
// keep where they look for them (Claude Code's .credentials.json, Codex's
// auth.json, Gemini CLI's .gemini/oauth_creds.json, opencode's auth.json in
// its data directory), as absolute paths, for the visibility policy to
// protect: the backend knows these stores, so a workspace holding one (the
// user's home) must not show the keys in it (docs/protocol.md §10.6.1).
func CredentialFiles(getenv func(string) string, userHome string) []string {
	st := StoresFromEnv(getenv, userHome)
	var out []string
	add := func(dir string, rel ...string) {
		if dir != "" {
			out = append(out, filepath.Join(append([]string{dir}, rel...)...))
		}
	}
	add(st.ClaudeCode, ".credentials.json")
	add(st.Codex, "auth.json")
	add(st.Gemini, ".gemini", "oauth_creds.json")
	// opencode keeps auth.json in its data directory whatever OPENCODE_DB
	// names: the store of StoresFromEnv with that variable unset.
	oc := StoresFromEnv(func(k string) string {
		if k == "OPENCODE_DB" {
			return ""
		}
		return getenv(k)
	}, userHome).OpenCode
	if oc != "" {
		add(filepath.Dir(oc), "auth.json")
	}
	return out
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
	db := func(agent string, files []dbFile, schema *dbSchema) {
		if len(files) > 0 && (s.cfg.Sources == nil || slices.Contains(s.cfg.Sources, agent)) {
			runs = append(runs, &run{db: newDBRun(&dbStore{schema: schema, files: files, match: m, log: s.cfg.Log})})
		}
	}
	db(wire.AgentOpenCode, opencodeFiles(st.OpenCode), opencodeSchema)
	if st.Crush {
		db(wire.AgentCrush, crushFiles(s.cfg.Workspace, st.CrushData, m), crushSchema)
	}
	return runs
}
