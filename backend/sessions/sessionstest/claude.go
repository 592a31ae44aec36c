package sessionstest

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unicode"
	"unicode/utf16"
)

// Claude Code's store, as ClaudeSession writes it. Claude Code is closed
// source; every field below is taken from the reader of its files that the
// community maintains, d-kimuson/claude-code-viewer at revision
// 9367cf006be9965c954e6cd36526f2195dce67ea, src/lib/conversation-schema/:
//
//   - entry/BaseEntrySchema.ts: every message record has isSidechain,
//     userType "external", cwd, sessionId, version, uuid, timestamp,
//     parentUuid (null for the first), optional isMeta, gitBranch.
//   - entry/UserEntrySchema.ts, message/UserMessageSchema.ts: type "user",
//     message {role:"user", content: a string or an array of blocks}.
//   - content/TextContentSchema.ts, ToolResultContentSchema.ts: blocks
//     {type:"text",text} and {type:"tool_result",tool_use_id,content}.
//   - entry/AssistantEntrySchema.ts, message/AssistantMessageSchema.ts:
//     type "assistant", message {id, type:"message", role:"assistant",
//     model, content:[blocks], stop_reason, usage}, requestId.
//   - entry/SummaryEntrySchema.ts: {type:"summary", summary, leafUuid}
//     (no cwd, no timestamp).
//   - entry/CustomTitleEntrySchema.ts, AiTitleEntrySchema.ts:
//     {type:"custom-title", customTitle, sessionId},
//     {type:"ai-title", aiTitle, sessionId} (no cwd, no timestamp).
//   - entry/FileHIstorySnapshotEntrySchema.ts: {type:
//     "file-history-snapshot", messageId, snapshot:{messageId,
//     trackedFileBackups:{}, timestamp}, isSnapshotUpdate} — the usual
//     first line of a transcript, without a cwd.
//
// The layout: projects/<folder>/<session-id>.jsonl with <folder> the
// start directory with every non-alphanumeric UTF-16 unit replaced by "-"
// (Claude Code's sanitizePath, quoted from its cli.js v2.1.239 in
// gptme/gptme pull request 3672 and agent-orchestrator pull request 1612;
// claude-code-viewer's computeClaudeProjectFilePath.ts replaces only "/",
// which is wrong for names with dots or underscores). Subagent transcripts
// are projects/<folder>/<session-id>/subagents/agent-<id>.jsonl (newer) or
// projects/<folder>/agent-<id>.jsonl (before 2.0.28), per claude-code-
// viewer's src/server/core/agent-session/infrastructure/
// AgentSessionRepository.ts. The live marker sessions/<pid>.json,
// {pid, sessionId, cwd, startedAt}, is described in sverrirsig/
// claude-control issue 10 (the viewer does not read it).

// ClaudeSession describes one generated Claude Code transcript.
type ClaudeSession struct {
	// ID is the session id and file name (a UUID in Claude Code).
	ID string
	// Dir is the directory the session was started in: the first recorded
	// cwd and, unless Folder is set, its project folder.
	Dir    string
	Folder string
	// Cwds are the cwds of the records after the first user message in
	// turn (a cd mid-session); empty keeps Dir.
	Cwds []string
	// Prompt is the first user message's text ("" writes none: a session
	// with no user message, only a meta line and tool results).
	Prompt string
	// Blocks writes the prompt as a content array with a text block.
	Blocks bool
	// Turns is how many assistant replies follow (each after a tool result
	// user record); 0 means 1.
	Turns int
	// TextBytes pads every assistant reply to about this many bytes.
	TextBytes int
	// SnapshotFirst starts the file with a file-history-snapshot line
	// (no cwd), as Claude Code does.
	SnapshotFirst bool
	// CustomTitle, AITitle and Summary append those records.
	CustomTitle, AITitle, Summary string
	// Sidechain marks every message record isSidechain (a subagent's).
	Sidechain bool
	// Malformed inserts a line that is not JSON after the first message.
	Malformed bool
	// OversizedBytes appends an assistant record of exactly that many bytes.
	OversizedBytes int
	// Incomplete ends the file with half a record and no newline.
	Incomplete bool
	// Start is the first record's time (Epoch when zero); each further
	// record is one second later.
	Start time.Time
}

// ClaudeProjectFolder is the project folder Claude Code keeps the
// sessions started in dir in: Claude Code's JavaScript
// path.replace(/[^a-zA-Z0-9]/g, "-") over the path's UTF-16 code units
// (see the comment above). It is written from that rule, not shared with
// the code under test, so the fixtures check the reader's own version.
func ClaudeProjectFolder(dir string) string {
	units := utf16.Encode([]rune(dir))
	out := make([]byte, len(units))
	for i, u := range units {
		c := byte('-')
		if u < 0x80 && (unicode.IsLetter(rune(u)) || unicode.IsDigit(rune(u))) {
			c = byte(u)
		}
		out[i] = c
	}
	return string(out)
}

// Path is where s is written below a Claude Code configuration directory.
func (s ClaudeSession) Path(configDir string) string {
	folder := s.Folder
	if folder == "" {
		folder = ClaudeProjectFolder(s.Dir)
	}
	return filepath.Join(configDir, "projects", folder, s.ID+".jsonl")
}

// WriteClaude streams s into configDir (a CLAUDE_CONFIG_DIR) and returns
// the bytes written.
func WriteClaude(configDir string, s ClaudeSession) (int64, error) {
	return writeFile(s.Path(configDir), func(w *countingWriter) { s.write(w) })
}

func (s ClaudeSession) write(w *countingWriter) {
	clock := newClock(s.Start)
	uuid := newUUIDs(s.ID)
	if s.SnapshotFirst {
		m := uuid.next()
		fmt.Fprintf(w, `{"type":"file-history-snapshot","messageId":%q,"snapshot":{"messageId":%q,"trackedFileBackups":{},"timestamp":%q},"isSnapshotUpdate":false}`+"\n", m, m, clock.peek())
	}
	cwd := func(i int) string {
		if len(s.Cwds) == 0 || i == 0 {
			return s.Dir
		}
		return s.Cwds[(i-1)%len(s.Cwds)]
	}
	parent := "null"
	base := func(i int, typ string) string {
		id := uuid.next()
		head := fmt.Sprintf(`{"parentUuid":%s,"isSidechain":%t,"userType":"external","cwd":%s,"sessionId":%q,"version":"2.0.30","gitBranch":"main","type":%q`,
			parent, s.Sidechain, quote(cwd(i)), s.ID, typ)
		parent = fmt.Sprintf("%q", id)
		return head + fmt.Sprintf(`,"uuid":%q,"timestamp":%q`, id, clock.next())
	}
	w.WriteString(base(0, "user") + `,"isMeta":true,"message":{"role":"user","content":"<local-command-caveat>Caveat: the messages below were generated by the user while running local commands.</local-command-caveat>"}}` + "\n")
	if s.Prompt != "" {
		content := quote(s.Prompt)
		if s.Blocks {
			content = `[{"type":"text","text":` + content + `}]`
		}
		w.WriteString(base(0, "user") + `,"message":{"role":"user","content":` + content + `}}` + "\n")
	}
	if s.Malformed {
		w.WriteString("{this line is not JSON\n")
	}
	turns := max(s.Turns, 1)
	for i := 1; i <= turns; i++ {
		w.WriteString(base(i, "assistant") + `,"requestId":"req_011CUfixture","message":{"id":"msg_01fixture","type":"message","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"text","text":`)
		padString(w, fmt.Sprintf("reply %d of %s", i, s.ID), s.TextBytes)
		w.WriteString(`}],"stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":34}}}` + "\n")
		if i < turns {
			w.WriteString(base(i, "user") + `,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_01fixture","content":"ok"}]}}` + "\n")
		}
	}
	if s.OversizedBytes > 0 {
		head := base(turns, "assistant") + `,"message":{"role":"assistant","content":[{"type":"text","text":`
		w.WriteString(head)
		padString(w, "", s.OversizedBytes-len(head)-len(`}]}}`))
		w.WriteString("}]}}\n")
	}
	if s.Summary != "" {
		fmt.Fprintf(w, `{"type":"summary","summary":%s,"leafUuid":%q}`+"\n", quote(s.Summary), uuid.next())
	}
	if s.AITitle != "" {
		fmt.Fprintf(w, `{"type":"ai-title","aiTitle":%s,"sessionId":%q}`+"\n", quote(s.AITitle), s.ID)
	}
	if s.CustomTitle != "" {
		fmt.Fprintf(w, `{"type":"custom-title","customTitle":%s,"sessionId":%q}`+"\n", quote(s.CustomTitle), s.ID)
	}
	if s.Incomplete {
		w.WriteString(base(turns, "user") + `,"message":{"role":"user","content":"half a rec`)
	}
}

// WriteClaudeMarker writes Claude Code's live marker for session id, as
// the process pid in dir writes it.
func WriteClaudeMarker(configDir string, pid int, id, dir string) error {
	marker := filepath.Join(configDir, "sessions", fmt.Sprintf("%d.json", pid))
	if err := os.MkdirAll(filepath.Dir(marker), 0o755); err != nil {
		return err
	}
	body := fmt.Sprintf(`{"pid":%d,"sessionId":%q,"cwd":%s,"startedAt":%d}`, pid, id, quote(dir), Epoch.UnixMilli())
	return os.WriteFile(marker, []byte(body), 0o644)
}
