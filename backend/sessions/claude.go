package sessions

import (
	"path"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/rfc3339"
	"github.com/scoutdev/scout/backend/wire"
)

// claudeSource is Claude Code's store: $CLAUDE_CONFIG_DIR (else ~/.claude)
// projects/<project>/<session-id>.jsonl, one folder per directory a
// session was started in, named by Claude Code's rule (claudeProjectName).
// Only the folders named for the workspace root are read; the histories
// of every other folder are counted as other directories' by name.
// Subagent transcripts (agent-*.jsonl, <session>/subagents/) are never
// sessions. The records are those of the JSON-lines transcript
// (sessionstest/claude.go lists each field and its source).
type claudeSource struct {
	dir     string
	now     func() time.Time
	match   *cwdMatcher
	names   []string // the project folder names of the workspace root
	scan    jsonScanner
	markers claudeMarkers
}

func newClaudeSource(dir string, now func() time.Time, m *cwdMatcher) *claudeSource {
	s := &claudeSource{dir: dir, now: now, match: m}
	for _, r := range m.roots() {
		s.names = append(s.names, ClaudeProjectFolder(r))
	}
	s.markers.dir = dir
	return s
}

func (s *claudeSource) agent() string        { return wire.AgentClaudeCode }
func (s *claudeSource) own() bool            { return false }
func (s *claudeSource) open() (*tree, error) { return openTree(s.dir, "projects") }

// claudeNameLimit is the length past which Claude Code cuts a project
// folder's name and appends a hash of the whole path.
const claudeNameLimit = 200

// ClaudeProjectFolder is the folder of projects/ Claude Code keeps the
// sessions started in directory dir in: every UTF-16 code unit of the path
// that is not an ASCII letter or digit replaced by "-" (a character
// outside the BMP is two). Claude Code cuts a name over 200 characters
// there and appends "-" and a hash, which mine compares by prefix only.
func ClaudeProjectFolder(dir string) string {
	b := make([]byte, 0, len(dir))
	for _, r := range dir {
		switch {
		case r < utf8.RuneSelf && ('a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'):
			b = append(b, byte(r))
		case r > 0xffff:
			b = append(b, '-', '-')
		default:
			b = append(b, '-')
		}
	}
	return string(b)
}

// mine reports whether the project folder name is the workspace root's.
func (s *claudeSource) mine(name string) bool {
	for _, n := range s.names {
		if name == n || len(n) > claudeNameLimit && strings.HasPrefix(name, n[:claudeNameLimit]+"-") {
			return true
		}
	}
	return false
}

// entry: projects/ holds project folders; a project folder holds
// <session-id>.jsonl histories (and per-session folders, never sessions).
func (s *claudeSource) entry(f *frame, name string) entry {
	switch f.depth {
	case 0:
		return entry{kind: entryDir, mine: s.mine(name)}
	case 1:
		id, ok := strings.CutSuffix(name, ".jsonl")
		switch {
		case !ok || !wire.ValidSessionID(id) || strings.HasPrefix(id, "agent-"):
			return entry{}
		case f.mine && s.copyInCanonical(f, name):
			return entry{} // the same session, read in the canonical folder
		case f.mine:
			return entry{kind: entryHistory}
		}
		return entry{kind: entryCounted}
	}
	return entry{}
}

// copyInCanonical reports whether history name of f, when f is the
// project folder of the workspace root's other spelling (the path the
// process saw, through a symlink), is there in the folder of the
// canonical root too: the same session filed under both spellings, whose
// id would be listed twice. The canonical folder's copy is the one read.
// A folder name past claudeNameLimit carries a hash scout cannot know:
// such copies are not looked for.
func (s *claudeSource) copyInCanonical(f *frame, name string) bool {
	if len(s.names) < 2 || s.names[0] == s.names[1] || f.path != s.names[1] || len(s.names[0]) > claudeNameLimit {
		return false
	}
	root, err := fsguard.OpenRoot(s.dir)
	if err != nil {
		return false
	}
	defer root.Close()
	fi, err := root.Lstat(path.Join("projects", s.names[0], name))
	return err == nil && fi.Mode().IsRegular()
}

func (s *claudeSource) history(f *frame, name string) history {
	return &claudeHistory{src: s, id: strings.TrimSuffix(name, ".jsonl")}
}

func (s *claudeSource) candidate(name, id string) bool { return name == id+".jsonl" }

func (s *claudeSource) busy(f *frame, id string) bool { return s.markers.busy(id, s.now()) }

// claudeHistory is one Claude Code transcript being read. Membership: the
// first recorded cwd is the workspace root and no later one lies outside
// it (a cd into a subdirectory keeps the session). Title: the last
// custom-title, else the last ai-title, else the last summary, else the
// first real user text. Sidechain records (a subagent's) are skipped but
// for their cwd.
type claudeHistory struct {
	src         *claudeSource
	id          string
	records     int64
	sawCwd      bool
	skipped     bool // a line that is not a record was skipped
	first, last time.Time
	hasTS       bool
	titles      [3][]byte // custom-title, ai-title, summary
	user        []byte
	hasUser     bool
	scratch     titleBuilder
	rec         claudeRecord
}

// claudeRecord is what discovery reads of one transcript line.
type claudeRecord struct {
	typ, cwd, ts    []byte
	sidechain, meta bool
	message         []byte // the value of "message", as written
	title           []byte // the literal of customTitle / aiTitle / summary
	seen            memberSet
}

// reset empties rec, keeping its buffers.
func (rec *claudeRecord) reset() {
	*rec = claudeRecord{typ: rec.typ[:0], cwd: rec.cwd[:0], ts: rec.ts[:0]}
}

// The members of a transcript line discovery reads.
const (
	claudeType = iota
	claudeCwd
	claudeTimestamp
	claudeSidechain
	claudeMeta
	claudeMessage
	claudeCustomTitle
	claudeAITitle
	claudeSummary
)

var claudeMembers = map[string]uint{
	"type": claudeType, "cwd": claudeCwd, "timestamp": claudeTimestamp,
	"isSidechain": claudeSidechain, "isMeta": claudeMeta, "message": claudeMessage,
	"customTitle": claudeCustomTitle, "aiTitle": claudeAITitle, "summary": claudeSummary,
}

// parse reads line into rec; false for a line that is not a record (not
// one JSON object, a member read twice, or one of the wrong type).
func (s *claudeSource) parse(line []byte, rec *claudeRecord) bool {
	rec.reset()
	return s.scan.members(line, func(name, value []byte) bool {
		k, ok := claudeMembers[string(name)]
		if !ok {
			return true
		}
		if !rec.seen.see(k) {
			return false
		}
		switch k {
		case claudeSidechain, claudeMeta:
			b := string(value) == "true"
			if !b && string(value) != "false" {
				return false
			}
			if k == claudeSidechain {
				rec.sidechain = b
			} else {
				rec.meta = b
			}
			return true
		case claudeMessage:
			rec.message = value
			return true
		case claudeCustomTitle, claudeAITitle, claudeSummary:
			rec.title = value
			return isString(value)
		}
		v, ok := s.scan.str(value)
		if !ok {
			return false
		}
		switch k {
		case claudeType:
			rec.typ = append(rec.typ[:0], v...)
		case claudeCwd:
			rec.cwd = append(rec.cwd[:0], v...)
		case claudeTimestamp:
			rec.ts = append(rec.ts[:0], v...)
		}
		return true
	})
}

func (h *claudeHistory) record(line []byte) error {
	h.records++
	rec := &h.rec
	if !h.src.parse(line, rec) {
		h.skipped = true // Claude Code skips such a line too
		return nil
	}
	if len(rec.cwd) > 0 {
		switch {
		case !h.sawCwd && !h.src.match.matches(rec.cwd):
			return errForeign
		case !h.src.match.within(rec.cwd):
			return errForeign
		}
		h.sawCwd = true
	}
	if rec.sidechain {
		return nil
	}
	if t, err := rfc3339.Parse(string(rec.ts)); err == nil && writableYear(t) {
		if !h.hasTS {
			h.first, h.hasTS = t, true
		}
		h.last = t
	}
	switch string(rec.typ) {
	case "custom-title":
		h.keepTitle(0, rec.title)
	case "ai-title":
		h.keepTitle(1, rec.title)
	case "summary":
		h.keepTitle(2, rec.title)
	case "user":
		if !h.hasUser && !rec.meta && rec.message != nil {
			h.userText(rec.message)
		}
	}
	return nil
}

// keepTitle keeps the title of a title record of kind k.
func (h *claudeHistory) keepTitle(k int, lit []byte) {
	if lit != nil {
		setTitle(&h.titles[k], &h.scratch, lit)
	}
}

// claudeNotPrompts start user texts that are not what the person typed:
// slash commands, their output, reminders the harness adds, interruptions.
var claudeNotPrompts = []string{
	"<command-name>", "<command-message>", "<command-args>", "<local-command-stdout>",
	"<local-command-stderr>", "<local-command-caveat>", "<system-reminder>", "[Request interrupted",
}

// userText takes the first real user text of message: its content when
// that is a string, else its first text block (tool results are not).
func (h *claudeHistory) userText(message []byte) {
	var lit []byte
	h.src.scan.members(message, func(name, value []byte) bool {
		if string(name) != "content" {
			return true
		}
		if isString(value) {
			lit = value
			return true
		}
		h.src.scan.elements(value, func(el []byte) bool {
			lit = textBlock(&h.src.scan, el)
			return lit == nil
		})
		return true
	})
	if lit == nil || !setTitle(&h.user, &h.scratch, lit) {
		return
	}
	if hasPrefix(h.user, claudeNotPrompts...) {
		h.user = h.user[:0]
		return
	}
	h.hasUser = true
}

// textBlock is the literal of a content block's text when it is a string
// or a {"type":"text","text":...} block, else nil.
func textBlock(s *jsonScanner, el []byte) []byte {
	if isString(el) {
		return el
	}
	var text []byte
	isText := false
	s.members(el, func(name, value []byte) bool {
		switch string(name) {
		case "type":
			isText = string(value) == `"text"`
		case "text":
			if isString(value) {
				text = value
			}
		}
		return true
	})
	if !isText {
		return nil
	}
	return text
}

func (h *claudeHistory) result() (wire.SessionRow, error) {
	row := wire.SessionRow{ID: h.id}
	switch {
	case !h.hasUser && h.skipped:
		return row, ErrMalformed
	case !h.hasUser:
		return row, errNotSession
	case !h.sawCwd:
		return row, ErrMalformed // Claude Code records the cwd on every message
	case !h.hasTS:
		return row, errNoTime
	}
	title := h.user
	for _, t := range h.titles {
		if len(t) > 0 {
			title = t
			break
		}
	}
	row.Title, row.Cwd, row.Records = string(title), wire.CwdVerified, h.records
	row.CreatedAt, row.UpdatedAt = formatTime(h.first), formatTime(h.last)
	return row, nil
}
