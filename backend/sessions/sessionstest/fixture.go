package sessionstest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// Agents is a set of agent stores around one workspace, every case the
// agent session sources must get right, and what a listing must say about
// them: the rows (by agent and id, with title and busy hint) and notices.
type Agents struct {
	WS                           string // the workspace root
	Scout, Claude, Codex, Gemini string // SCOUT_HOME, CLAUDE_CONFIG_DIR, CODEX_HOME, GEMINI_CLI_HOME
	Rows                         map[Key]Want
	Notices                      wire.SessionNotices
}

// Key names a session: its agent and id.
type Key struct{ Agent, ID string }

// Want is what a row must say.
type Want struct {
	Title string
	Busy  bool
}

// Env is the environment that points a backend at the stores.
func (a *Agents) Env() []string {
	return []string{"SCOUT_HOME=" + a.Scout, "CLAUDE_CONFIG_DIR=" + a.Claude, "CODEX_HOME=" + a.Codex, "GEMINI_CLI_HOME=" + a.Gemini}
}

// Homes are the store directories, for checking nothing was written.
func (a *Agents) Homes() []string { return []string{a.Scout, a.Claude, a.Codex, a.Gemini} }

// ID is the session id of a fixture's case name.
func ID(name string) string { return UUID("fixture/" + name) }

// NewAgents writes the stores in temporary directories around the
// workspace ws (a directory with no symlink in its path) and returns
// them. big adds the 30 MB history and the records over 8 MiB.
func NewAgents(t testing.TB, ws string, big bool) *Agents {
	t.Helper()
	a := &Agents{WS: ws, Rows: map[Key]Want{}}
	a.Scout, _ = Home(t)
	a.Claude, a.Codex, a.Gemini = t.TempDir(), t.TempDir(), t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	must := func(_ int64, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(Write(filepath.Join(a.Scout, "sessions"), History{ID: "scout-chat", Cwds: []string{ws}, UserText: "scout's own session"}))
	a.row(wire.AgentScout, "scout-chat", "scout's own session")
	a.claude(t, must, big)
	a.codex(t, must, big)
	a.gemini(t, must, big)
	return a
}

func (a *Agents) row(agent, id, title string) { a.Rows[Key{agent, id}] = Want{Title: title} }

// claude writes Claude Code's cases.
func (a *Agents) claude(t testing.TB, must func(int64, error), big bool) {
	ws, dir := a.WS, a.Claude
	here := ClaudeSession{ID: ID("cc-here"), Dir: ws, Prompt: "Fix the flaky parser test\nin the CI job", SnapshotFirst: true, Incomplete: true}
	must(WriteClaude(dir, here))
	a.row(wire.AgentClaudeCode, here.ID, "Fix the flaky parser test in the CI job")
	must(WriteClaude(dir, ClaudeSession{ID: ID("cc-cd"), Dir: ws, Cwds: []string{ws + "/sub", ws}, Prompt: "cd into sub and back", Turns: 3}))
	a.row(wire.AgentClaudeCode, ID("cc-cd"), "cd into sub and back")
	must(WriteClaude(dir, ClaudeSession{ID: ID("cc-named"), Dir: ws, Prompt: "first prompt", Blocks: true, Summary: "a summary", AITitle: "an ai title", CustomTitle: "Renamed by /rename"}))
	a.row(wire.AgentClaudeCode, ID("cc-named"), "Renamed by /rename")
	must(WriteClaude(dir, ClaudeSession{ID: ID("cc-ai"), Dir: ws, Prompt: "first prompt", Summary: "a summary", AITitle: "Titled by the model"}))
	a.row(wire.AgentClaudeCode, ID("cc-ai"), "Titled by the model")
	must(WriteClaude(dir, ClaudeSession{ID: ID("cc-malformed"), Dir: ws, Prompt: "a line of it is broken", Malformed: true}))
	a.row(wire.AgentClaudeCode, ID("cc-malformed"), "a line of it is broken")
	// Not rows, not counted: no user message, a subagent's sidechain
	// transcript under a session id, subagent files.
	must(WriteClaude(dir, ClaudeSession{ID: ID("cc-nouser"), Dir: ws}))
	must(WriteClaude(dir, ClaudeSession{ID: ID("cc-sidechain"), Dir: ws, Prompt: "subagent task", Sidechain: true}))
	must(WriteClaude(dir, ClaudeSession{ID: "agent-a1b2c3d4", Dir: ws, Prompt: "old subagent file", Sidechain: true}))
	sub := ClaudeSession{ID: "agent-e5f6", Dir: ws, Prompt: "new subagent file", Sidechain: true}
	must(writeFile(filepath.Join(filepath.Dir(here.Path(dir)), here.ID, "subagents", sub.ID+".jsonl"), func(w *countingWriter) { sub.write(w) }))
	// Other directories: another project's folder (counted by name), a
	// session that leaves the root (excluded at the record).
	must(WriteClaude(dir, ClaudeSession{ID: ID("cc-other"), Dir: "/srv/other/project", Prompt: "elsewhere"}))
	must(WriteClaude(dir, ClaudeSession{ID: ID("cc-leaves"), Dir: ws, Cwds: []string{"/tmp"}, Prompt: "cd out of the project", Turns: 2}))
	// In another project's folder though it records this directory:
	// Claude Code resumes a session from its cwd's folder only, so it is
	// counted by name and never opened.
	must(WriteClaude(dir, ClaudeSession{ID: ID("cc-misfiled"), Dir: ws, Folder: ClaudeProjectFolder("/srv/misfiled"), Prompt: "in another folder"}))
	a.Notices.SessionsOtherDirectories += 3
	// Invalid: a symlinked history, one that is not a transcript at all.
	link := filepath.Join(filepath.Dir(here.Path(dir)), ID("cc-link")+".jsonl")
	if err := os.Symlink(here.Path(dir), link); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(filepath.Dir(here.Path(dir)), ID("cc-garbage")+".jsonl"), []byte("garbage\n\x00\x01\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// Invalid, never followed: a project folder that is a symlink (to a
	// folder holding a history of this directory).
	outside := t.TempDir()
	must(WriteClaude(outside, ClaudeSession{ID: ID("cc-behind-link"), Dir: ws, Prompt: "behind a symlinked folder"}))
	if err := os.Symlink(filepath.Join(outside, "projects", ClaudeProjectFolder(ws)), filepath.Join(dir, "projects", "-srv-linked")); err != nil {
		t.Fatal(err)
	}
	a.Notices.SessionsOmittedInvalid += 3
	// Busy: a live marker (this test process) and a stale one (a process
	// that has exited).
	if err := WriteClaudeMarker(dir, os.Getpid(), ID("cc-cd"), ws); err != nil {
		t.Fatal(err)
	}
	a.Rows[Key{wire.AgentClaudeCode, ID("cc-cd")}] = Want{Title: "cd into sub and back", Busy: true}
	if err := WriteClaudeMarker(dir, deadPID(t), here.ID, ws); err != nil {
		t.Fatal(err)
	}
	if big {
		must(WriteClaude(dir, ClaudeSession{ID: ID("cc-30mb"), Dir: ws, Prompt: "a long session", Turns: 30, TextBytes: 1 << 20}))
		a.row(wire.AgentClaudeCode, ID("cc-30mb"), "a long session")
		must(WriteClaude(dir, ClaudeSession{ID: ID("cc-oversized"), Dir: ws, Prompt: "pasted a huge file", OversizedBytes: 8<<20 + 1}))
		a.Notices.SessionsOmittedOversized++
	}
}

// codex writes Codex's cases.
func (a *Agents) codex(t testing.TB, must func(int64, error), big bool) {
	ws, dir := a.WS, a.Codex
	day := func(d int) time.Time { return Epoch.AddDate(0, 0, d) }
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-here"), Cwd: ws, Prompt: "Add a --json flag", Incomplete: true}))
	a.row(wire.AgentCodex, ID("cx-here"), "Add a --json flag")
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-cd"), Cwd: ws, TurnCwds: []string{ws, ws + "/sub"}, Turns: 2, Prompt: "work in sub", Start: day(1)}))
	a.row(wire.AgentCodex, ID("cx-cd"), "work in sub")
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-named"), Cwd: ws, Prompt: "unnamed prompt", Start: day(2)}))
	if err := AppendCodexName(dir, ID("cx-named"), "first name"); err != nil {
		t.Fatal(err)
	}
	if err := AppendCodexName(dir, ID("cx-named"), "Renamed twice"); err != nil {
		t.Fatal(err)
	}
	// An empty name after it changes nothing: Codex passes over empty names.
	if err := AppendCodexName(dir, ID("cx-named"), ""); err != nil {
		t.Fatal(err)
	}
	a.row(wire.AgentCodex, ID("cx-named"), "Renamed twice")
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-vscode"), Cwd: ws, Prompt: "from the editor", NoSource: true, Start: day(2).Add(time.Hour)}))
	a.row(wire.AgentCodex, ID("cx-vscode"), "from the editor")
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-malformed"), Cwd: ws, Prompt: "broken line inside", Malformed: true, Start: day(3)}))
	a.row(wire.AgentCodex, ID("cx-malformed"), "broken line inside")
	// Titles as Codex's picker previews them: the words after an IDE
	// extension's context, an empty message passed over, an image alone.
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-ide"), Cwd: ws, NoSource: true, Prompt: "# Context from my IDE setup:\n\n## Active file: main.go\n\n## My request for Codex:\n  refactor the parser please\n", Start: day(3).Add(time.Hour)}))
	a.row(wire.AgentCodex, ID("cx-ide"), "refactor the parser please")
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-blank-first"), Cwd: ws, Before: []string{`{"type":"user_message","message":" \n ","images":null,"local_images":[],"text_elements":[]}`}, Prompt: "the second message names it", Start: day(3).Add(2 * time.Hour)}))
	a.row(wire.AgentCodex, ID("cx-blank-first"), "the second message names it")
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-image"), Cwd: ws, Before: []string{`{"type":"user_message","message":"","images":["data:image/png;base64,iVBORw0KGgo="],"local_images":[],"text_elements":[]}`}, Prompt: "what is in this picture", Start: day(3).Add(3 * time.Hour)}))
	a.row(wire.AgentCodex, ID("cx-image"), "[Image]")
	// Forks: the first session_meta decides.
	// The paginated history mode: prompts as UserMessage turn items, the
	// first one of only an image "[Image]", as Codex previews it.
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-paginated"), Cwd: ws, Prompt: "from the desktop app", Turns: 2, Paginated: true, NoSource: true, Start: day(3).Add(4 * time.Hour)}))
	a.row(wire.AgentCodex, ID("cx-paginated"), "from the desktop app")
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-paginated-image"), Cwd: ws, Paginated: true, Before: []string{`{"type":"item_completed","thread_id":"t","turn_id":"turn-0","item":{"type":"UserMessage","id":"u","content":[{"type":"local_image","path":"/tmp/shot.png"}]}}`}, Start: day(3).Add(5 * time.Hour)}))
	a.row(wire.AgentCodex, ID("cx-paginated-image"), "[Image]")
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-fork-here"), ForkOf: ID("cx-parent-elsewhere"), ForkCwd: ws, Cwd: "/srv/other", Prompt: "forked into here", Start: day(4)}))
	a.row(wire.AgentCodex, ID("cx-fork-here"), "forked into here")
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-fork-away"), ForkOf: ID("cx-here"), ForkCwd: "/srv/other", Cwd: ws, Prompt: "forked away", Start: day(4).Add(time.Minute)}))
	// Not rows, not counted: a subagent's rollout, exec's, no user message.
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-subagent"), Cwd: ws, Source: `{"subagent":"review"}`, Prompt: "review this", Start: day(5)}))
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-spawned"), Cwd: ws, Source: `{"subagent":{"thread_spawn":{"parent_thread_id":"` + ID("cx-here") + `","depth":1}}}`, Prompt: "spawned", Start: day(5).Add(time.Minute)}))
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-exec"), Cwd: ws, Source: `"exec"`, Prompt: "codex exec", Start: day(5).Add(2 * time.Minute)}))
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-nouser"), Cwd: ws, Start: day(6)}))
	// Other directories.
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-other"), Cwd: "/srv/other", Prompt: "elsewhere", Start: day(7)}))
	must(WriteCodex(dir, CodexRollout{ID: ID("cx-leaves"), Cwd: ws, TurnCwds: []string{ws, "/tmp"}, Turns: 2, Prompt: "leaves", Start: day(7).Add(time.Minute)}))
	a.Notices.SessionsOtherDirectories += 3 // cx-other, cx-leaves, cx-fork-away
	// Invalid: a symlinked rollout.
	here := CodexRollout{ID: ID("cx-here"), Start: Epoch}
	if err := os.Symlink(here.Path(dir), CodexRollout{ID: ID("cx-link"), Start: Epoch.Add(time.Second)}.Path(dir)); err != nil {
		t.Fatal(err)
	}
	// Invalid, never opened or followed: a FIFO where a rollout would be,
	// a day folder that is a symlink (to a folder holding a rollout of this
	// directory).
	fifo := CodexRollout{ID: ID("cx-fifo"), Start: Epoch.Add(2 * time.Second)}.Path(dir)
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	outside := t.TempDir()
	must(WriteCodex(outside, CodexRollout{ID: ID("cx-behind-link"), Cwd: ws, Prompt: "behind a symlinked day", Start: Epoch.AddDate(0, 0, 29)}))
	if err := os.Symlink(filepath.Dir(CodexRollout{Start: Epoch.AddDate(0, 0, 29)}.Path(outside)), filepath.Dir(CodexRollout{Start: Epoch.AddDate(0, 0, 29)}.Path(dir))); err != nil {
		t.Fatal(err)
	}
	a.Notices.SessionsOmittedInvalid += 3
	// Invalid: a rollout whose name gives another id than its
	// session_meta (Codex finds a rollout by the id in its name).
	misnamed := CodexRollout{ID: ID("cx-misnamed"), Cwd: ws, Prompt: "renamed file", Start: day(9)}
	must(WriteCodex(dir, misnamed))
	renamed := misnamed
	renamed.ID = ID("cx-name-only")
	if err := os.Rename(misnamed.Path(dir), renamed.Path(dir)); err != nil {
		t.Fatal(err)
	}
	a.Notices.SessionsOmittedInvalid++
	// Archived rollouts are never read.
	must(writeFile(filepath.Join(dir, "archived_sessions", "rollout-2026-01-01T00-00-00-"+ID("cx-archived")+".jsonl"), func(w *countingWriter) {
		CodexRollout{ID: ID("cx-archived"), Cwd: ws, Prompt: "archived"}.write(w)
	}))
	if big {
		must(WriteCodex(dir, CodexRollout{ID: ID("cx-oversized"), Cwd: ws, Prompt: "huge output", OversizedBytes: 8<<20 + 1, Start: day(8)}))
		a.Notices.SessionsOmittedOversized++
	}
}

// gemini writes Gemini CLI's cases.
func (a *Agents) gemini(t testing.TB, must func(int64, error), big bool) {
	ws, dir := a.WS, a.Gemini
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-here"), Dir: ws, Prompt: "Explain this repository", Incomplete: true}))
	a.row(wire.AgentGemini, ID("gm-here"), "Explain this repository")
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-named"), Dir: ws, Prompt: "/help", Turns: 2, Summary: "Summarized by Gemini", Start: Epoch.Add(time.Hour)}))
	a.row(wire.AgentGemini, ID("gm-named"), "Summarized by Gemini")
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-malformed"), Dir: ws, Prompt: "with a broken line", Malformed: true, Start: Epoch.Add(2 * time.Hour)}))
	a.row(wire.AgentGemini, ID("gm-malformed"), "with a broken line")
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-legacy"), Dir: ws, HashFolder: true, Prompt: "from a hash-named folder"}))
	a.row(wire.AgentGemini, ID("gm-legacy"), "from a hash-named folder")
	// Rewinds (/rewind): to the first reply keeps the session; to the
	// first prompt leaves nothing to resume (not a row, not counted) unless
	// a prompt follows, and the title stays the first prompt, as Gemini
	// lists it.
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-rewound-reply"), Dir: ws, Prompt: "keep this prompt", Turns: 2, RewindTo: 2, Start: Epoch.Add(3*time.Hour + time.Minute)}))
	a.row(wire.AgentGemini, ID("gm-rewound-reply"), "keep this prompt")
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-rewound-away"), Dir: ws, Prompt: "rewound away", Turns: 2, RewindTo: 1, Start: Epoch.Add(3*time.Hour + 2*time.Minute)}))
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-rewound-again"), Dir: ws, Prompt: "the first prompt", RewindTo: 1, After: "asked again", Start: Epoch.Add(3*time.Hour + 3*time.Minute)}))
	a.row(wire.AgentGemini, ID("gm-rewound-again"), "the first prompt")
	// Not rows, not counted: a subagent's, only a slash command, no user message.
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-subagent"), Dir: ws, Subagent: true, Parent: ID("gm-here"), Prompt: "subtask"}))
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-command"), Dir: ws, Prompt: "/stats", Start: Epoch.Add(3 * time.Hour)}))
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-nouser"), Dir: ws, Start: Epoch.Add(4 * time.Hour)}))
	// Other directories: another project's folder (counted by name), a
	// history in this project's folder recording another project.
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-other"), Dir: "/srv/other", Prompt: "elsewhere"}))
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-copied"), Dir: ws, ProjectHash: GeminiProjectHash("/srv/other"), Prompt: "copied in", Start: Epoch.Add(5 * time.Hour)}))
	// The reverse: another project's folder holding a history that
	// records this project (Gemini resumes from its own folder only).
	must(WriteGemini(dir, GeminiSession{ID: ID("gm-misfiled"), Dir: "/srv/other", ProjectHash: GeminiProjectHash(ws), Prompt: "misfiled", Start: Epoch.Add(5*time.Hour + time.Minute)}))
	a.Notices.SessionsOtherDirectories += 3
	// Invalid: a symlinked history.
	here := GeminiSession{ID: ID("gm-here"), Dir: ws}
	if err := os.Symlink(here.Path(dir), GeminiSession{ID: ID("gm-link"), Dir: ws, Start: Epoch.Add(6 * time.Hour)}.Path(dir)); err != nil {
		t.Fatal(err)
	}
	a.Notices.SessionsOmittedInvalid++
	// Invalid: a history whose name ends with another id's first eight
	// characters than the sessionId it records.
	misnamed := GeminiSession{ID: ID("gm-misnamed"), Dir: ws, Prompt: "renamed file", Start: Epoch.Add(6*time.Hour + time.Minute)}
	must(WriteGemini(dir, misnamed))
	renamed := misnamed
	renamed.ID = ID("gm-name-only")
	if err := os.Rename(misnamed.Path(dir), renamed.Path(dir)); err != nil {
		t.Fatal(err)
	}
	a.Notices.SessionsOmittedInvalid++
	if big {
		must(WriteGemini(dir, GeminiSession{ID: ID("gm-oversized"), Dir: ws, Prompt: "huge reply", OversizedBytes: 8<<20 + 1, Start: Epoch.Add(7 * time.Hour)}))
		a.Notices.SessionsOmittedOversized++
	}
}

// deadPID is the pid of a process that has exited.
func deadPID(t testing.TB) int {
	t.Helper()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Fatal(fmt.Errorf("starting a short-lived process: %w", err))
	}
	return cmd.Process.Pid
}
