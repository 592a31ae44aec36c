package sessions_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// agentsEnv is a workspace with every agent's store around it.
type agentsEnv struct {
	ws string
	*sessionstest.Agents
}

func newAgentsEnv(t *testing.T, big bool) agentsEnv {
	t.Helper()
	ws := canonicalTemp(t)
	return agentsEnv{ws: ws, Agents: sessionstest.NewAgents(t, ws, big)}
}

// canonicalTemp is a temporary directory with every symlink of its path
// resolved, so the agents' recorded directories name it exactly.
func canonicalTemp(tb testing.TB) string {
	tb.Helper()
	dir, err := filepath.EvalSymlinks(tb.TempDir())
	if err != nil {
		tb.Fatal(err)
	}
	return dir
}

func (e agentsEnv) start(t *testing.T, env ...string) *scouttest.Proc {
	t.Helper()
	p := scouttest.Start(t, scouttest.Options{Dir: e.ws, Env: append(e.Env(), env...)})
	p.Initialize(sessionCaps...)
	return p
}

// checkRows compares rows with the fixture's expected rows exactly: the
// same sessions, each with its agent, title and busy hint, and a row of
// this workspace (verified cwd, times, records).
func checkRows(t *testing.T, want map[sessionstest.Key]sessionstest.Want, rows []wire.SessionRow) {
	t.Helper()
	got := map[sessionstest.Key]sessionstest.Want{}
	for _, r := range rows {
		k := sessionstest.Key{Agent: r.Agent, ID: r.ID}
		if _, dup := got[k]; dup {
			t.Errorf("row %v twice", k)
		}
		got[k] = sessionstest.Want{Title: r.Title, Busy: r.Busy}
		if r.Cwd != wire.CwdVerified || r.Records < 1 || r.CreatedAt == "" || r.UpdatedAt < r.CreatedAt {
			t.Errorf("row %+v", r)
		}
	}
	keys := slices.SortedFunc(maps.Keys(want), func(a, b sessionstest.Key) int {
		return strings.Compare(a.Agent+"/"+a.ID, b.Agent+"/"+b.ID)
	})
	for _, k := range keys {
		if g, ok := got[k]; !ok {
			t.Errorf("missing row %s/%s %+v", k.Agent, k.ID, want[k])
		} else if g != want[k] {
			t.Errorf("row %s/%s: %+v, want %+v", k.Agent, k.ID, g, want[k])
		}
	}
	for k, g := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("unexpected row %s/%s %+v", k.Agent, k.ID, g)
		}
	}
}

// checkDiscovered compares the rows of a whole discovery's pages with want
// exactly (checkRows), and its last page's notices with notices.
func checkDiscovered(t *testing.T, want map[sessionstest.Key]sessionstest.Want, notices wire.SessionNotices, pages []wire.DiscoverResult) {
	t.Helper()
	var rows []wire.SessionRow
	for _, pg := range pages {
		rows = append(rows, pg.Sessions...)
	}
	checkRows(t, want, rows)
	if n := pages[len(pages)-1].Notices; n != notices {
		t.Errorf("discover notices %+v, want %+v", n, notices)
	}
}

// TestAgentSourcesList: session.list over scout's store and the stores of
// Claude Code, Codex and Gemini CLI gives exactly the fixture's rows (this
// directory's sessions, a cd into a subdirectory kept, renamed sessions
// under their names, malformed lines skipped, incomplete last lines
// ignored, a live marker's session busy and a stale one's not) and
// notices (other directories' sessions counted, sessions leaving the root
// excluded, symlinked and garbage histories invalid, records over 8 MiB
// oversized); subagent, sidechain, exec, childless and archived histories
// are neither rows nor counted. session.discover followed to completion
// over the same stores (the 30 MB history read in steps, the records over
// 8 MiB met across requests) gives the same rows and notices.
func TestAgentSourcesList(t *testing.T) {
	t.Parallel()
	e := newAgentsEnv(t, true)
	p := e.start(t)
	var list wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &list)
	checkRows(t, e.Rows, list.Sessions)
	if list.Notices != e.Notices {
		t.Errorf("notices %+v, want %+v", list.Notices, e.Notices)
	}
	for i := 1; i < len(list.Sessions); i++ {
		if list.Sessions[i-1].UpdatedAt < list.Sessions[i].UpdatedAt {
			t.Fatalf("not newest first: %+v before %+v", list.Sessions[i-1], list.Sessions[i])
		}
	}
	pages := mustFollow(t, p)
	checkDiscovered(t, e.Rows, e.Notices, pages)
	if !slices.ContainsFunc(pages, func(pg wire.DiscoverResult) bool {
		return pg.Progress == wire.ProgressByteWork || pg.Progress == wire.ProgressRecordWork
	}) {
		t.Errorf("the large histories were read in one step each: %v", progressWords(pages))
	}
}

// TestAgentSourcesDiscover: session.discover followed to completion gives
// the same rows and notices as session.list, in pages of at most 100 rows,
// in the order of the sources table (scout, claude-code, codex, gemini),
// and a page that spans two stores.
func TestAgentSourcesDiscover(t *testing.T) {
	t.Parallel()
	e := newAgentsEnv(t, false)
	want := maps.Clone(e.Rows)
	for i := range 130 {
		s := sessionstest.ClaudeSession{ID: sessionstest.ID(fmt.Sprintf("cc-many-%d", i)), Dir: e.ws, Prompt: fmt.Sprintf("claude %d", i)}
		if _, err := sessionstest.WriteClaude(e.Claude, s); err != nil {
			t.Fatal(err)
		}
		want[sessionstest.Key{Agent: wire.AgentClaudeCode, ID: s.ID}] = sessionstest.Want{Title: fmt.Sprintf("claude %d", i)}
		r := sessionstest.CodexRollout{ID: sessionstest.ID(fmt.Sprintf("cx-many-%d", i)), Cwd: e.ws, Prompt: fmt.Sprintf("codex %d", i), Start: sessionstest.Epoch.AddDate(0, 1, i%5)}
		if _, err := sessionstest.WriteCodex(e.Codex, r); err != nil {
			t.Fatal(err)
		}
		want[sessionstest.Key{Agent: wire.AgentCodex, ID: r.ID}] = sessionstest.Want{Title: fmt.Sprintf("codex %d", i)}
	}
	p := e.start(t)
	pages := mustFollow(t, p)
	var rows []wire.SessionRow
	spans, full := false, false
	for _, pg := range pages {
		if len(pg.Sessions) > 100 {
			t.Fatalf("a page of %d rows", len(pg.Sessions))
		}
		full = full || len(pg.Sessions) == 100 && pg.Progress == wire.ProgressPageEntries
		for i, r := range pg.Sessions {
			spans = spans || i > 0 && r.Agent != pg.Sessions[i-1].Agent
		}
		rows = append(rows, pg.Sessions...)
	}
	checkRows(t, want, rows)
	if !spans || !full {
		t.Errorf("no page spans two stores, or none is a full page of 100: %v", progressWords(pages))
	}
	order := []string{}
	for _, r := range rows {
		if len(order) == 0 || order[len(order)-1] != r.Agent {
			order = append(order, r.Agent)
		}
	}
	if got := strings.Join(order, " "); got != "scout claude-code codex gemini" {
		t.Errorf("agents in the order %s", got)
	}
	last := pages[len(pages)-1]
	if last.Notices != e.Notices {
		t.Errorf("notices %+v, want %+v", last.Notices, e.Notices)
	}
	// session.list's ceiling counts the primary histories of all stores
	// together: 130 + 130 + the fixture's are more than 256.
	if m := p.Call(wire.MethodSessionList, nil); m.Code() != wire.CodeDiscoveryLimit {
		t.Errorf("session.list over %d rows: %.200s", len(rows), m.Raw)
	}
}

// TestAgentSourcesStale: a history appearing in any store during a scan,
// one being replaced or one removed makes the scan stale_revision; one
// that only grows (its agent appending) does not. The change is made once every
// store has been read and the second pass is under way (scout's store,
// padded with 300 names, holds it up), so only the validation of the
// changed store can see it.
func TestAgentSourcesStale(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		change func(e agentsEnv) error
		stale  bool
	}{
		{"claude new", func(e agentsEnv) error {
			_, err := sessionstest.WriteClaude(e.Claude, sessionstest.ClaudeSession{ID: sessionstest.ID("cc-new"), Dir: e.ws, Prompt: "new"})
			return err
		}, true},
		{"codex new", func(e agentsEnv) error {
			_, err := sessionstest.WriteCodex(e.Codex, sessionstest.CodexRollout{ID: sessionstest.ID("cx-new"), Cwd: e.ws, Prompt: "new"})
			return err
		}, true},
		{"gemini new", func(e agentsEnv) error {
			_, err := sessionstest.WriteGemini(e.Gemini, sessionstest.GeminiSession{ID: sessionstest.ID("gm-new"), Dir: e.ws, Prompt: "new", Start: sessionstest.Epoch.AddDate(1, 0, 0)})
			return err
		}, true},
		{"claude replaced", func(e agentsEnv) error {
			path := sessionstest.ClaudeSession{ID: sessionstest.ID("cc-named"), Dir: e.ws}.Path(e.Claude)
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if err := os.WriteFile(path+".tmp", data, 0o644); err != nil {
				return err
			}
			return os.Rename(path+".tmp", path)
		}, true},
		{"codex removed", func(e agentsEnv) error {
			return os.Remove(sessionstest.CodexRollout{ID: sessionstest.ID("cx-named"), Start: sessionstest.Epoch.AddDate(0, 0, 2)}.Path(e.Codex))
		}, true},
		{"gemini grows", func(e agentsEnv) error {
			return appendLine(sessionstest.GeminiSession{ID: sessionstest.ID("gm-named"), Dir: e.ws, Start: sessionstest.Epoch.Add(time.Hour)}.Path(e.Gemini))
		}, false},
		{"claude grows", func(e agentsEnv) error {
			return appendLine(sessionstest.ClaudeSession{ID: sessionstest.ID("cc-here"), Dir: e.ws}.Path(e.Claude))
		}, false},
		{"codex grows", func(e agentsEnv) error {
			return appendLine(sessionstest.CodexRollout{ID: sessionstest.ID("cx-here")}.Path(e.Codex))
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newAgentsEnv(t, false)
			for i := range 300 { // enough names that the first page is not the last
				if err := os.WriteFile(filepath.Join(e.Scout, "sessions", fmt.Sprintf("pad-%03d.lock", i)), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			p := e.start(t)
			res := firstPage(t, p)
			for {
				if res.Complete {
					t.Fatal("the scan completed before its second pass paused")
				}
				if res.Progress == wire.ProgressInventoryValidation {
					break
				}
				res = next(t, p, res.Cursor)
			}
			if err := tc.change(e); err != nil {
				t.Fatal(err)
			}
			finishAfterChange(t, p, res.Cursor, tc.stale)
		})
	}
}

// finishAfterChange follows a scan from cursor, after a change to a store:
// to stale_revision when stale, else to its end.
func finishAfterChange(t *testing.T, p *scouttest.Proc, cursor *string, stale bool) {
	t.Helper()
	for {
		m := discover(p, cursor)
		if m.Error != nil {
			if !stale || m.Code() != wire.CodeStaleRevision {
				t.Fatalf("%s", m.Raw)
			}
			return
		}
		var res wire.DiscoverResult
		m.Decode(t, &res)
		if res.Complete {
			if stale {
				t.Fatal("the scan completed over a changed store")
			}
			return
		}
		cursor = res.Cursor
	}
}

// appendLine appends a record to a history, as its agent does.
func appendLine(path string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(`{"type":"queue-operation","timestamp":"2026-01-02T03:04:05.000Z"}` + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// TestAgentSourcesOpen: session.open of each agent's session answers its
// row exactly as listed and attaches it (agent in the attachment and in
// status); a session of another directory is cwd_mismatch (also one filed
// in another directory's project folder that records this one), an unknown id
// or a session that is not one not_found, a symlinked history
// session_invalid, an unknown agent invalid_params, and none of those
// changes the attachment.
func TestAgentSourcesOpen(t *testing.T) {
	t.Parallel()
	e := newAgentsEnv(t, false)
	p := e.start(t)
	var list wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &list)
	listed := map[sessionstest.Key]wire.SessionRow{}
	for _, r := range list.Sessions {
		listed[sessionstest.Key{Agent: r.Agent, ID: r.ID}] = r
	}
	var last wire.Attachment
	for _, k := range []sessionstest.Key{
		{Agent: wire.AgentClaudeCode, ID: sessionstest.ID("cc-cd")},
		{Agent: wire.AgentCodex, ID: sessionstest.ID("cx-named")},
		{Agent: wire.AgentGemini, ID: sessionstest.ID("gm-named")},
		{Agent: wire.AgentCodex, ID: sessionstest.ID("cx-fork-here")},
		{Agent: wire.AgentCodex, ID: sessionstest.ID("cx-paginated")},
		{Agent: wire.AgentScout, ID: "scout-chat"},
	} {
		var open wire.SessionOpenResult
		p.MustCall(wire.MethodSessionOpen, map[string]any{"id": k.ID, "agent": k.Agent}, &open)
		if want := listed[k]; open.Session != want {
			t.Errorf("open %v: %+v, listed %+v", k, open.Session, want)
		}
		last = wire.Attachment{SessionID: k.ID, Agent: k.Agent, Saved: true}
		if open.Attachment != last || *attachment(t, p) != last {
			t.Errorf("attachment %+v, status %+v", open.Attachment, attachment(t, p))
		}
	}
	for _, tc := range []struct {
		agent, id string
		code      wire.Code
	}{
		{wire.AgentClaudeCode, sessionstest.ID("cc-other"), wire.CodeCwdMismatch},
		{wire.AgentClaudeCode, sessionstest.ID("cc-leaves"), wire.CodeCwdMismatch},
		{wire.AgentClaudeCode, sessionstest.ID("cc-misfiled"), wire.CodeCwdMismatch},
		{wire.AgentClaudeCode, sessionstest.ID("cc-nouser"), wire.CodeNotFound},
		{wire.AgentClaudeCode, sessionstest.ID("cc-link"), wire.CodeSessionInvalid},
		{wire.AgentClaudeCode, sessionstest.ID("cx-here"), wire.CodeNotFound},
		{wire.AgentCodex, sessionstest.ID("cx-other"), wire.CodeCwdMismatch},
		{wire.AgentCodex, sessionstest.ID("cx-fork-away"), wire.CodeCwdMismatch},
		{wire.AgentCodex, sessionstest.ID("cx-subagent"), wire.CodeNotFound},
		{wire.AgentCodex, sessionstest.ID("cx-archived"), wire.CodeNotFound},
		{wire.AgentGemini, sessionstest.ID("gm-copied"), wire.CodeCwdMismatch},
		{wire.AgentGemini, sessionstest.ID("gm-misfiled"), wire.CodeCwdMismatch},
		{wire.AgentGemini, sessionstest.ID("gm-subagent"), wire.CodeNotFound},
		{wire.AgentGemini, sessionstest.ID("gm-nothing"), wire.CodeNotFound},
		{wire.AgentGemini, sessionstest.ID("gm-rewound-away"), wire.CodeNotFound},
		{wire.AgentCodex, sessionstest.ID("cx-misnamed"), wire.CodeNotFound},
		{wire.AgentCodex, sessionstest.ID("cx-name-only"), wire.CodeNotFound},
		{wire.AgentGemini, sessionstest.ID("gm-misnamed"), wire.CodeNotFound},
		{wire.AgentGemini, sessionstest.ID("gm-name-only"), wire.CodeNotFound},
		{wire.AgentScout, sessionstest.ID("cc-cd"), wire.CodeNotFound},
		{"aider", "x", wire.CodeInvalidParams},
	} {
		wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": tc.id, "agent": tc.agent}), tc.code)
		if a := attachment(t, p); a == nil || *a != last {
			t.Fatalf("after a failed open of %s/%s the attachment is %+v", tc.agent, tc.id, a)
		}
	}
}

// TestAgentSourcesNeverWrite: listing, discovering and opening leave every
// store exactly as it was (names, modes, sizes, times, content).
func TestAgentSourcesNeverWrite(t *testing.T) {
	t.Parallel()
	e := newAgentsEnv(t, false)
	before := []string{}
	for _, h := range e.Homes() {
		before = append(before, tree(t, h))
	}
	p := e.start(t)
	p.MustCall(wire.MethodSessionList, nil, nil)
	mustFollow(t, p)
	p.MustCall(wire.MethodSessionOpen, map[string]any{"id": sessionstest.ID("cc-here"), "agent": wire.AgentClaudeCode}, nil)
	p.MustCall(wire.MethodSessionOpen, map[string]any{"id": sessionstest.ID("gm-here"), "agent": wire.AgentGemini}, nil)
	for i, h := range e.Homes() {
		if after := tree(t, h); after != before[i] {
			t.Errorf("%s changed:\n%s\nwas\n%s", h, after, before[i])
		}
	}
}

// TestAgentSourcesConfig: [sessions] sources narrows the sources read;
// without the variables each store is found at its default below HOME;
// a store root reached through a symlink is read; a variable set wins
// over the default even when the default exists.
func TestAgentSourcesConfig(t *testing.T) {
	t.Parallel()
	e := newAgentsEnv(t, false)
	if err := os.WriteFile(filepath.Join(e.Scout, "config.toml"), []byte("[sessions]\nsources = [\"codex\", \"gemini\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := e.start(t)
	var list wire.SessionListResult
	p.MustCall(wire.MethodSessionList, nil, &list)
	for _, r := range list.Sessions {
		if r.Agent != wire.AgentCodex && r.Agent != wire.AgentGemini {
			t.Errorf("a %s row with sources = [codex, gemini]", r.Agent)
		}
	}
	if len(list.Sessions) == 0 {
		t.Error("no rows")
	}
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": sessionstest.ID("cc-cd"), "agent": wire.AgentClaudeCode}), wire.CodeNotFound)

	// A broken config.toml (a misspelt agent): which stores were meant
	// cannot be known, so none is read.
	if err := os.WriteFile(filepath.Join(e.Scout, "config.toml"), []byte("[sessions]\nsources = [\"codex\", \"gemnii\"]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p = e.start(t)
	wantCode(t, p.Call(wire.MethodSessionList, nil), wire.CodeDiscoveryUnavailable)
	wantCode(t, p.Call(wire.MethodSessionDiscover, map[string]any{"cursor": nil}), wire.CodeDiscoveryUnavailable)
	wantCode(t, p.Call(wire.MethodSessionOpen, map[string]any{"id": sessionstest.ID("cx-here"), "agent": wire.AgentCodex}), wire.CodeNotFound)

	// Defaults below HOME: ~/.claude as a symlink to the fixture.
	home := t.TempDir()
	if err := os.Symlink(e.Claude, filepath.Join(home, ".claude")); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(e.Scout, "config.toml"))
	p = scouttest.Start(t, scouttest.Options{Dir: e.ws, Env: []string{"SCOUT_HOME=" + e.Scout, "HOME=" + home}})
	p.Initialize(sessionCaps...)
	p.MustCall(wire.MethodSessionList, nil, &list)
	agents := map[string]int{}
	for _, r := range list.Sessions {
		agents[r.Agent]++
	}
	if agents[wire.AgentClaudeCode] == 0 || agents[wire.AgentCodex] != 0 || agents[wire.AgentGemini] != 0 {
		t.Errorf("rows by agent %v: want Claude Code's from ~/.claude only", agents)
	}

	// CLAUDE_CONFIG_DIR names an empty store: ~/.claude is not read.
	p = scouttest.Start(t, scouttest.Options{Dir: e.ws, Env: []string{"SCOUT_HOME=" + e.Scout, "HOME=" + home, "CLAUDE_CONFIG_DIR=" + t.TempDir()}})
	p.Initialize(sessionCaps...)
	p.MustCall(wire.MethodSessionList, nil, &list)
	for _, r := range list.Sessions {
		if r.Agent == wire.AgentClaudeCode {
			t.Errorf("a Claude Code row from ~/.claude with CLAUDE_CONFIG_DIR set: %+v", r)
		}
	}
}
