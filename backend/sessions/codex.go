package sessions

import (
	"bytes"
	"strings"
	"time"

	"github.com/scoutdev/scout/backend/rfc3339"
	"github.com/scoutdev/scout/backend/wire"
)

// codexSource is Codex CLI's store: $CODEX_HOME (else ~/.codex)
// sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl, every project's rollouts
// together, and session_index.jsonl, whose last line for an id names it.
// Archived rollouts live in archived_sessions/, which is never read. The
// records are RolloutLine objects, {"timestamp","type","payload"}
// (sessionstest/codex.go lists each field and its source).
type codexSource struct {
	dir   string
	match *cwdMatcher
	scan  jsonScanner
	names map[string][]byte // session id -> name, from the index
}

func newCodexSource(dir string, m *cwdMatcher) *codexSource {
	return &codexSource{dir: dir, match: m, names: map[string][]byte{}}
}

func (s *codexSource) agent() string        { return wire.AgentCodex }
func (s *codexSource) own() bool            { return false }
func (s *codexSource) open() (*tree, error) { return openTree(s.dir, "sessions") }

// codexIndex is the file of session names.
const codexIndex = "session_index.jsonl"

func (s *codexSource) prelude() (string, history) { return codexIndex, &codexIndexReader{src: s} }

// entry: year, month and day folders (all digits, as Codex's own listing
// reads them), then rollout-*.jsonl.
func (s *codexSource) entry(f *frame, name string) entry {
	switch f.depth {
	case 0, 1, 2:
		width := 2
		if f.depth == 0 {
			width = 4
		}
		if len(name) > 0 && len(name) <= width && strings.Trim(name, "0123456789") == "" {
			return entry{kind: entryDir, mine: true}
		}
	case 3:
		if strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, ".jsonl") {
			return entry{kind: entryHistory}
		}
	}
	return entry{}
}

func (s *codexSource) history(f *frame, name string) history { return &codexHistory{src: s} }

func (s *codexSource) candidate(name, id string) bool {
	return strings.HasPrefix(name, "rollout-") && strings.HasSuffix(name, "-"+id+".jsonl")
}

func (s *codexSource) busy(f *frame, id string) bool { return false }

// codexIndexReader reads session_index.jsonl, {"id","thread_name",
// "updated_at"} per line, keeping each id's last name that is not empty.
// Lines that are not entries are skipped, as Codex skips them. The names kept are bounded by
// the bytes read (maxPreludeBytes) and cut to a title's length.
type codexIndexReader struct {
	src     *codexSource
	scratch titleBuilder
}

func (r *codexIndexReader) record(line []byte) error {
	s := r.src
	var id, name []byte
	var seen memberSet
	ok := s.scan.members(line, func(k, v []byte) bool {
		switch string(k) {
		case "id":
			str, isStr := s.scan.str(v)
			id = append(id[:0], str...)
			return isStr && seen.see(0)
		case "thread_name":
			name = v
			return isString(v) && seen.see(1)
		}
		return true
	})
	if !ok || name == nil || !wire.ValidSessionID(string(id)) {
		return nil
	}
	r.scratch.reset()
	r.scratch.add(name)
	if r.scratch.runes == 0 {
		return nil // Codex passes over an empty name (find_thread_names_by_ids)
	}
	s.names[string(id)] = append(s.names[string(id)][:0], r.scratch.buf...)
	return nil
}

func (r *codexIndexReader) result() (wire.SessionRow, error) { return wire.SessionRow{}, errNotSession }

// codexHistory is one rollout being read. The first session_meta decides
// (a forked rollout repeats its parent's later): its id, its cwd, which
// must be the workspace root, and its source, which must be cli or vscode
// (absent is vscode, Codex's default), as Codex's own picker shows.
// turn_context records must not name a cwd outside the root. A session
// needs a user_message event; the first one is the title when the index
// names none.
type codexHistory struct {
	src         *codexSource
	records     int64
	skipped     bool
	meta        bool
	id          string
	first, last time.Time
	hasTS       bool
	user        []byte
	hasUser     bool
	titled      bool
	scratch     titleBuilder
	typ, ts     []byte
	itemText    []byte // a UserMessage item's text parts, joined
}

func (h *codexHistory) record(line []byte) error {
	h.records++
	s := &h.src.scan
	var payload []byte
	var seen memberSet
	h.typ, h.ts = h.typ[:0], h.ts[:0]
	ok := s.members(line, func(k, v []byte) bool {
		switch string(k) {
		case "type", "timestamp":
			str, isStr := s.str(v)
			if string(k) == "type" {
				h.typ = append(h.typ, str...)
				return isStr && seen.see(0)
			}
			h.ts = append(h.ts, str...)
			return isStr && seen.see(1)
		case "payload":
			payload = v
			return seen.see(2)
		}
		return true
	})
	if !ok {
		h.skipped = true // Codex skips a line it cannot parse
		return nil
	}
	if t, err := rfc3339.Parse(string(h.ts)); err == nil && writableYear(t) {
		if !h.hasTS {
			h.first, h.hasTS = t, true
		}
		h.last = t
	}
	switch string(h.typ) {
	case "session_meta":
		if !h.meta {
			return h.sessionMeta(payload)
		}
	case "turn_context":
		if cwd, ok := h.payloadString(payload, "cwd"); ok && len(cwd) > 0 && !h.src.match.within(cwd) {
			return errForeign
		}
	case "event_msg":
		h.event(payload)
	}
	return nil
}

// sessionMeta applies the first session_meta.
func (h *codexHistory) sessionMeta(payload []byte) error {
	h.meta = true
	s := &h.src.scan
	var cwd []byte
	var seen memberSet
	interactive, hasCwd := true, false
	ok := payload != nil && s.members(payload, func(k, v []byte) bool {
		switch string(k) {
		case "id":
			str, isStr := s.str(v)
			h.id = string(str)
			return isStr && seen.see(0)
		case "cwd":
			str, isStr := s.str(v)
			cwd, hasCwd = append(cwd[:0], str...), isStr
			return isStr && seen.see(1)
		case "source":
			str, isStr := s.str(v)
			interactive = isStr && (string(str) == "cli" || string(str) == "vscode")
			return seen.see(2)
		}
		return true
	})
	switch {
	case !ok || !hasCwd || !wire.ValidSessionID(h.id):
		h.id = ""
		return ErrMalformed
	case !interactive:
		return errNotSession // a subagent's, exec's or another client's rollout
	case !h.src.match.matches(cwd):
		return errForeign
	}
	return nil
}

// codexRequestBegin is where the user's own words start in a message an
// IDE extension prefixed with its context (USER_MESSAGE_BEGIN in Codex's
// codex-rs/protocol).
const codexRequestBegin = "## My request for Codex:"

// event reads the user's messages: user_message events, and the
// item_completed events whose item is a UserMessage, which a rollout of
// the paginated history mode holds instead (codex-rs/rollout policy.rs,
// should_persist_event_msg_with_mode: paginated rollouts persist turn
// items, not the legacy events). The first makes the rollout a session;
// the title is the first one Codex's own picker previews (codex-rs/rollout
// list.rs, event_msg_preview): its text after codexRequestBegin when that
// is there, trimmed, or "[Image]" for one with no text but images; one
// with neither is passed over.
func (h *codexHistory) event(payload []byte) {
	if h.titled || payload == nil {
		return
	}
	s := &h.src.scan
	images := false
	var typ, msg, item []byte
	s.members(payload, func(k, v []byte) bool {
		switch string(k) {
		case "type":
			typ = v
		case "message":
			if isString(v) {
				msg = v
			}
		case "images", "local_images":
			images = images || nonEmptyArray(v)
		case "item":
			item = v
		}
		return true
	})
	var text []byte
	switch string(typ) {
	case `"user_message"`:
		if msg == nil {
			return
		}
		text, _ = s.str(msg)
	case `"item_completed"`:
		var ok bool
		if text, images, ok = h.userItem(item); !ok {
			return
		}
	default:
		return
	}
	h.hasUser = true
	if i := bytes.Index(text, []byte(codexRequestBegin)); i >= 0 {
		text = text[i+len(codexRequestBegin):]
	}
	h.scratch.reset()
	h.scratch.addBytes(text)
	if h.scratch.runes == 0 && images {
		h.scratch.addBytes([]byte("[Image]"))
	}
	if h.scratch.runes > 0 {
		h.user, h.titled = append(h.user[:0], h.scratch.text()...), true
	}
}

// userItem reads a turn item (codex-rs/protocol items.rs TurnItem, tagged
// by "type"): a UserMessage's content is UserInput values (user_input.rs,
// tagged in snake case), whose "text" parts are joined with newlines and
// whose "image" and "local_image" parts count as images. ok is false for
// any other item.
func (h *codexHistory) userItem(item []byte) (text []byte, images, ok bool) {
	if len(item) == 0 || item[0] != '{' {
		return nil, false, false
	}
	s := &h.src.scan
	var content []byte
	s.members(item, func(k, v []byte) bool {
		switch string(k) {
		case "type":
			ok = string(v) == `"UserMessage"`
		case "content":
			content = v
		}
		return true
	})
	if !ok || len(content) == 0 || content[0] != '[' {
		return nil, false, false
	}
	h.itemText = h.itemText[:0]
	s.elements(content, func(e []byte) bool {
		if len(e) == 0 || e[0] != '{' {
			return true
		}
		var kind, part []byte
		s.members(e, func(k, v []byte) bool {
			switch string(k) {
			case "type":
				kind = v
			case "text":
				if isString(v) {
					part = v
				}
			}
			return true
		})
		switch string(kind) {
		case `"text"`:
			if part != nil {
				str, _ := s.str(part)
				if len(h.itemText) > 0 {
					h.itemText = append(h.itemText, '\n')
				}
				h.itemText = append(h.itemText, str...)
			}
		case `"image"`, `"local_image"`:
			images = true
		}
		return true
	})
	return h.itemText, images, true
}

// nonEmptyArray reports whether the JSON value v (validated by the
// scanner) is an array with at least one element.
func nonEmptyArray(v []byte) bool {
	if len(v) < 2 || v[0] != '[' {
		return false
	}
	rest := bytes.TrimLeft(v[1:], " \t\r\n")
	return len(rest) > 0 && rest[0] != ']'
}

// payloadString is the string member name of payload.
func (h *codexHistory) payloadString(payload []byte, name string) ([]byte, bool) {
	var out []byte
	found := false
	s := &h.src.scan
	s.members(payload, func(k, v []byte) bool {
		if string(k) == name {
			if str, ok := s.str(v); ok {
				out, found = append(out[:0], str...), true
			}
		}
		return true
	})
	return out, found
}

func (h *codexHistory) result() (wire.SessionRow, error) {
	row := wire.SessionRow{ID: h.id}
	switch {
	case !h.meta && h.skipped:
		return row, ErrMalformed
	case !h.meta || !h.hasUser:
		return row, errNotSession
	case !h.hasTS:
		return row, errNoTime
	}
	title := h.user
	if name := h.src.names[h.id]; len(name) > 0 {
		title = name
	}
	row.Title, row.Cwd, row.Records = string(title), wire.CwdVerified, h.records
	row.CreatedAt, row.UpdatedAt = formatTime(h.first), formatTime(h.last)
	return row, nil
}
