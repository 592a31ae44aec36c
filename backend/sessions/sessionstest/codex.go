package sessionstest

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// Codex CLI's store, as CodexRollout writes it, from openai/codex:
//
//   - codex-rs/core/src/rollout/recorder.rs (revision
//     035416bfd9b70f179348fe3b74d4fe6f8ea91c07): rollouts are
//     $CODEX_HOME/sessions/YYYY/MM/DD/rollout-YYYY-MM-DDThh-mm-ss-<id>.jsonl
//     (precompute_log_file_info, local time); every line is a RolloutLine
//     {"timestamp": "YYYY-MM-DDThh:mm:ss.mmmZ", ...item} (JsonlWriter);
//     the first line is the session_meta (write_session_meta), with
//     forked_from_id for a fork.
//   - codex-rs/protocol/src/protocol.rs (revision
//     edb4efee49ae9f130636fab25f2e398a931dd987): RolloutItem is tagged
//     {"type": "session_meta"|"response_item"|"compacted"|"turn_context"|
//     "event_msg", "payload": ...}; SessionMeta {id, timestamp, cwd,
//     originator, cli_version, instructions, source, model_provider} and
//     SessionMetaLine adds git; SessionSource serializes lowercase: "cli",
//     "vscode" (the default when absent), "exec", "mcp", or
//     {"subagent": "review"|"compact"|{"thread_spawn": {parent_thread_id,
//     depth}}|{"other": S}} (ThreadSpawn in later revisions); TurnContextItem
//     {cwd, approval_policy, sandbox_policy, model, effort, summary};
//     EventMsg is tagged by "type" in snake case, UserMessageEvent
//     {message, images, local_images, text_elements}.
//   - codex-rs/core/src/rollout/list.rs (revision
//     695d3e89fce5323ae2b4fa190dbdaec6565beb00): the resume picker lists a
//     rollout only with a session_meta and a user_message event.
//   - codex-rs/core/src/rollout/session_index.rs (revision
//     3186b1735199ed9c2bbe8f96336970c90ab132b8): $CODEX_HOME/
//     session_index.jsonl, one {"id","thread_name","updated_at"} per line,
//     appended; the last line for an id wins.
//   - codex-rs/core/src/rollout/mod.rs: archived rollouts live in
//     $CODEX_HOME/archived_sessions/.
//   - codex-rs/rollout/src/policy.rs (should_persist_event_msg_with_mode),
//     codex-rs/protocol/src/items.rs and user_input.rs, later revisions: a
//     session_meta may carry "history_mode" "legacy" (the default) or
//     "paginated"; a paginated rollout persists no user_message events but
//     {"type":"item_completed","thread_id","turn_id","item":TurnItem},
//     TurnItem tagged by "type" ("UserMessage" {id, content}), its content
//     UserInput values tagged in snake case ({"type":"text","text",
//     "text_elements"}, {"type":"image","image_url"}, {"type":"local_image",
//     "path"}).

// CodexRollout describes one generated Codex rollout.
type CodexRollout struct {
	// ID is the session (thread) id, a UUID.
	ID string
	// Cwd is the session_meta cwd; TurnCwds the turn_context cwd of each
	// turn in turn (empty: Cwd).
	Cwd      string
	TurnCwds []string
	// Source is the session_meta source as JSON ("" is "cli"; NoSource
	// leaves the member out, which Codex reads as vscode).
	Source   string
	NoSource bool
	// ForkOf, when set, makes this a forked rollout: its own session_meta
	// (cwd ForkCwd, forked_from_id ForkOf) followed by the parent's (cwd
	// Cwd), then the fork's own turns in ForkCwd.
	ForkOf, ForkCwd string
	// Prompt is the first user_message event's text ("" writes none).
	Prompt string
	// Before are user_message payloads (JSON objects) written as events
	// ahead of Prompt's, in the first turn: an image sent alone, say.
	Before []string
	// Turns is how many user turns are written; 0 means 1.
	Turns int
	// TextBytes pads every assistant message to about this many bytes.
	TextBytes int
	// Malformed inserts a line that is not JSON after the session_meta.
	Malformed bool
	// OversizedBytes appends a response_item of exactly that many bytes.
	OversizedBytes int
	// Incomplete ends the file with half a record and no newline.
	Incomplete bool
	// Start is the session's start (Epoch when zero).
	Start time.Time
	// Paginated writes the paginated history mode: the session_meta says
	// so and each prompt is an item_completed UserMessage event instead
	// of a user_message event.
	Paginated bool
}

// Path is where r is written below a CODEX_HOME.
func (r CodexRollout) Path(home string) string {
	t := r.Start
	if t.IsZero() {
		t = Epoch
	}
	day := filepath.Join(home, "sessions", t.Format("2006"), t.Format("01"), t.Format("02"))
	return filepath.Join(day, "rollout-"+t.Format("2006-01-02T15-04-05")+"-"+r.ID+".jsonl")
}

// WriteCodex streams r into home (a CODEX_HOME) and returns the bytes
// written.
func WriteCodex(home string, r CodexRollout) (int64, error) {
	return writeFile(r.Path(home), func(w *countingWriter) { r.write(w) })
}

func (r CodexRollout) write(w *countingWriter) {
	c := newClock(r.Start)
	source := r.Source
	if source == "" {
		source = `"cli"`
	}
	meta := func(id, cwd, extra string) {
		if r.Paginated {
			extra += `,"history_mode":"paginated"`
		}
		src := `,"source":` + source
		if r.NoSource {
			src = ""
		}
		fmt.Fprintf(w, `{"timestamp":%q,"type":"session_meta","payload":{"id":%q%s,"timestamp":%q,"cwd":%s,"originator":"codex_cli_rs","cli_version":"0.46.0","instructions":null%s,"model_provider":"openai","git":{"commit_hash":"0123abcd","branch":"main"}}}`+"\n",
			c.peek(), id, extra, c.peek(), quote(cwd), src)
		c.next()
	}
	if r.ForkOf != "" {
		meta(r.ID, r.ForkCwd, fmt.Sprintf(`,"forked_from_id":%q`, r.ForkOf))
		meta(r.ForkOf, r.Cwd, "")
	} else {
		meta(r.ID, r.Cwd, "")
	}
	if r.Malformed {
		w.WriteString("{\"timestamp\": this line is not JSON\n")
	}
	turns := max(r.Turns, 1)
	for i := range turns {
		cwd := r.Cwd
		if r.ForkOf != "" {
			cwd = r.ForkCwd // the fork's own turns
		}
		if len(r.TurnCwds) > 0 {
			cwd = r.TurnCwds[i%len(r.TurnCwds)]
		}
		fmt.Fprintf(w, `{"timestamp":%q,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":%s}]}}`+"\n",
			c.next(), quote("<environment_context>\n  <cwd>"+cwd+"</cwd>\n</environment_context>"))
		fmt.Fprintf(w, `{"timestamp":%q,"type":"turn_context","payload":{"cwd":%s,"approval_policy":"on-request","sandbox_policy":{"type":"workspace-write","network_access":false,"exclude_tmpdir_env_var":false,"exclude_slash_tmp":false},"model":"gpt-5-codex","effort":"medium","summary":"auto"}}`+"\n",
			c.next(), quote(cwd))
		for _, payload := range r.Before {
			if i == 0 {
				fmt.Fprintf(w, `{"timestamp":%q,"type":"event_msg","payload":%s}`+"\n", c.next(), payload)
			}
		}
		if r.Prompt != "" {
			text := r.Prompt
			if i > 0 {
				text = fmt.Sprintf("and then step %d", i)
			}
			fmt.Fprintf(w, `{"timestamp":%q,"type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":%s}]}}`+"\n", c.peek(), quote(text))
			if r.Paginated {
				fmt.Fprintf(w, `{"timestamp":%q,"type":"event_msg","payload":{"type":"item_completed","thread_id":%q,"turn_id":"turn-%d","item":{"type":"UserMessage","id":"user-%d","content":[{"type":"text","text":%s,"text_elements":[]}]}}}`+"\n", c.next(), r.ID, i, i, quote(text))
			} else {
				fmt.Fprintf(w, `{"timestamp":%q,"type":"event_msg","payload":{"type":"user_message","message":%s,"images":null,"local_images":[],"text_elements":[]}}`+"\n", c.next(), quote(text))
			}
		}
		fmt.Fprintf(w, `{"timestamp":%q,"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":`, c.next())
		padString(w, fmt.Sprintf("reply %d of %s", i, r.ID), r.TextBytes)
		w.WriteString("}]}}\n")
		fmt.Fprintf(w, `{"timestamp":%q,"type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":null}}`+"\n", c.next())
	}
	if r.OversizedBytes > 0 {
		head := fmt.Sprintf(`{"timestamp":%q,"type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":`, c.next())
		w.WriteString(head)
		padString(w, "", r.OversizedBytes-len(head)-len(`}]}}`))
		w.WriteString("}]}}\n")
	}
	if r.Incomplete {
		fmt.Fprintf(w, `{"timestamp":%q,"type":"event_msg","payload":{"type":"agent_mess`, c.next())
	}
}

// AppendCodexName appends Codex's name entry for session id to home's
// session_index.jsonl, as /rename (append_thread_name) does.
func AppendCodexName(home, id, name string) error {
	f, err := os.OpenFile(filepath.Join(home, "session_index.jsonl"), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(f, `{"id":%q,"thread_name":%s,"updated_at":%q}`+"\n", id, quote(name), Epoch.Format(time.RFC3339))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}
