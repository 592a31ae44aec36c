package sessions

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash/fnv"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/rfc3339"
	"github.com/scoutdev/scout/backend/wire"
)

// geminiSource is Gemini CLI's store: $GEMINI_CLI_HOME (else ~)
// .gemini/tmp/<project>/chats/session-<time>-<id8>.jsonl. A project folder
// names its directory in .project_root (older folders are named by the
// SHA-256 of it and hold no marker); only the folders of the workspace
// root are read, the histories of the others are counted as other
// directories'. Subagent histories live in chats/<parent-id>/ and are
// never sessions. The records are JSON lines: a metadata line, message
// records, {"$set":...} updates and {"$rewindTo":...}
// (sessionstest/gemini.go lists each field and its source).
type geminiSource struct {
	dir    string // the .gemini directory
	match  *cwdMatcher
	hashes []string // SHA-256 (hex) of the workspace root's spellings
	scan   jsonScanner
}

func newGeminiSource(home string, m *cwdMatcher) *geminiSource {
	s := &geminiSource{dir: filepath.Join(home, ".gemini"), match: m}
	for _, r := range m.roots() {
		s.hashes = append(s.hashes, projectHash(r))
	}
	return s
}

// projectHash is Gemini CLI's getProjectHash: the SHA-256 of the project
// root, in hex.
func projectHash(root string) string {
	sum := sha256.Sum256([]byte(root))
	return hex.EncodeToString(sum[:])
}

func (s *geminiSource) agent() string        { return wire.AgentGemini }
func (s *geminiSource) own() bool            { return false }
func (s *geminiSource) open() (*tree, error) { return openTree(s.dir, "tmp") }

// entry: tmp/ holds project folders, a project folder its chats/ folder,
// chats/ the histories.
func (s *geminiSource) entry(f *frame, name string) entry {
	switch f.depth {
	case 0:
		return entry{kind: entryDir}
	case 1:
		if name == "chats" {
			mine, root := s.project(f)
			return entry{kind: entryDir, mine: mine, root: root}
		}
	case 2:
		if strings.HasPrefix(name, "session-") && strings.HasSuffix(name, ".jsonl") {
			if f.mine {
				return entry{kind: entryHistory}
			}
			return entry{kind: entryCounted}
		}
	}
	return entry{}
}

// projectRootFile is the marker a project folder names its directory in.
const projectRootFile = ".project_root"

// project reads the project folder f's marker and reports whether the
// folder is the workspace root's, and the root it names.
func (s *geminiSource) project(f *frame) (bool, string) {
	file, _, err := f.dir.OpenFile(projectRootFile)
	if errors.Is(err, fsguard.ErrNotFound) {
		base := f.path[strings.LastIndexByte(f.path, '/')+1:]
		for _, h := range s.hashes {
			if base == h {
				return true, s.match.root
			}
		}
		return false, ""
	}
	if err != nil {
		return false, ""
	}
	defer file.Close()
	data, err := io.ReadAll(io.LimitReader(file, maxCwdBytes+1))
	root := string(bytes.TrimSpace(data))
	if err != nil || !s.match.matches([]byte(root)) {
		return false, ""
	}
	return true, root
}

func (s *geminiSource) history(f *frame, name string) history {
	h := &geminiHistory{src: s, hashes: s.hashes}
	if f.root != "" {
		h.hashes = append([]string{projectHash(f.root)}, s.hashes...)
	}
	return h
}

// candidate: Gemini names a history by its time and the first eight
// characters of its session id; the id itself is in the history.
func (s *geminiSource) candidate(name, id string) bool {
	short := id[:min(len(id), 8)]
	return strings.HasPrefix(name, "session-") && strings.HasSuffix(name, "-"+short+".jsonl")
}

func (s *geminiSource) busy(f *frame, id string) bool { return false }

// geminiHistory is one Gemini CLI history being read, the way its own
// loader reads it (loadConversationRecord): a line with a string "id" is
// a message, one with an object "$set" updates the metadata, one with
// "$rewindTo" rewinds, one with string "sessionId" and "projectHash" is
// the metadata. Membership: the projectHash is the SHA-256 of the root
// the project folder names. Subagent histories (kind "subagent") are
// never sessions. Title: the last summary, else the first user message
// Gemini would resume (not empty, not a slash command or an injected
// context); as in Gemini's own list, a rewind does not change it (the
// title may be that of a message rewound since). A rewind does decide
// membership: {"$rewindTo":id} removes that message and every later one,
// and a history left with no user message to resume is not a session
// (Gemini lists it no more). For that the reader keeps the hashes of the
// messages up to the first live user message (at most geminiPrefix): a
// rewind to one of them removes it; a rewind to any other id is after it.
type geminiHistory struct {
	src         *geminiSource
	hashes      []string
	records     int64
	skipped     bool
	sessionID   []byte
	project     []byte
	subagent    bool
	started     time.Time
	hasStart    bool
	first, last time.Time
	hasTS       bool
	summary     []byte
	user        []byte
	hasUser     bool
	scratch     titleBuilder
	// live is set while a user message Gemini would resume survives the
	// rewinds so far; prefix holds the hashes of the message ids up to it
	// (liveAt is its index), or of every message while none is live.
	live   bool
	liveAt int
	prefix []uint64
}

// geminiPrefix bounds the message ids a Gemini history's reader keeps: the
// messages before the first user message it resumes (slash commands, info
// lines) are a handful. A rewind to an id past the bound is read as one
// after that user message.
const geminiPrefix = 64

func (h *geminiHistory) record(line []byte) error {
	h.records++
	s := &h.src.scan
	var msg, set, rewind, hasID, hasHash bool
	var seen memberSet
	ok := s.members(line, func(k, v []byte) bool {
		switch string(k) {
		case "id":
			msg = isString(v)
			return seen.see(0)
		case "$set":
			set = len(v) > 0 && v[0] == '{'
			return seen.see(1)
		case "$rewindTo":
			rewind = isString(v)
			return seen.see(2)
		case "sessionId":
			hasID = isString(v)
		case "projectHash":
			hasHash = isString(v)
		}
		return true
	})
	if !ok {
		h.skipped = true // Gemini skips a line it cannot parse
		return nil
	}
	switch {
	case rewind:
		h.rewind(line)
	case msg:
		h.message(line)
	case set:
		h.update(line)
	case hasID && hasHash:
		h.metadata(line)
	}
	return nil
}

// metadata applies the members of a metadata object: the first line, or
// the value of a $set.
func (h *geminiHistory) metadata(obj []byte) {
	s := &h.src.scan
	s.members(obj, func(k, v []byte) bool {
		switch string(k) {
		case "sessionId":
			if str, ok := s.str(v); ok {
				h.sessionID = append(h.sessionID[:0], str...)
			}
		case "projectHash":
			if str, ok := s.str(v); ok {
				h.project = append(h.project[:0], str...)
			}
		case "startTime":
			if t, ok := h.time(v); ok && !h.hasStart {
				h.started, h.hasStart = t, true
			}
		case "lastUpdated":
			if t, ok := h.time(v); ok {
				h.stamp(t)
			}
		case "summary":
			if isString(v) {
				setTitle(&h.summary, &h.scratch, v)
			}
		case "kind":
			h.subagent = string(v) == `"subagent"`
		case "messages":
			s.elements(v, func(el []byte) bool { h.message(el); return true })
		}
		return true
	})
}

// update applies a {"$set":{...}} line.
func (h *geminiHistory) update(line []byte) {
	s := &h.src.scan
	s.members(line, func(k, v []byte) bool {
		if string(k) == "$set" {
			h.metadata(v)
		}
		return true
	})
}

// message applies a message record: its time, its place before the live
// user message, and the first user message Gemini would resume.
func (h *geminiHistory) message(obj []byte) {
	s := &h.src.scan
	isUser := false
	var content []byte
	var id uint64
	s.members(obj, func(k, v []byte) bool {
		switch string(k) {
		case "id":
			if str, ok := s.str(v); ok {
				id = idHash(str)
			}
		case "timestamp":
			if t, ok := h.time(v); ok {
				h.stamp(t)
			}
		case "type":
			isUser = string(v) == `"user"`
		case "content":
			content = v
		}
		return true
	})
	if h.live {
		return // a later message: a rewind to it leaves the live one
	}
	at := slices.Index(h.prefix, id)
	switch {
	case at >= 0: // written again (Gemini rewrites a message as it grows)
	case len(h.prefix) < geminiPrefix:
		h.prefix = append(h.prefix, id)
		at = len(h.prefix) - 1
	default:
		at = len(h.prefix) // past every id kept: a rewind to any removes it
	}
	if isUser && content != nil && h.userText(content) {
		h.live, h.liveAt = true, at
	}
}

// rewind applies a {"$rewindTo":id} line: the message id and every later
// one are gone, the live user message among them when it is not before id.
func (h *geminiHistory) rewind(line []byte) {
	s := &h.src.scan
	var id uint64
	s.members(line, func(k, v []byte) bool {
		if string(k) == "$rewindTo" {
			if str, ok := s.str(v); ok {
				id = idHash(str)
			}
		}
		return true
	})
	at := slices.Index(h.prefix, id)
	switch {
	case at < 0:
	case !h.live:
		h.prefix = h.prefix[:at]
	case at <= h.liveAt:
		h.live, h.prefix = false, h.prefix[:at]
	}
}

// idHash is the FNV-1a hash of a message id.
func idHash(id []byte) uint64 {
	h := fnv.New64a()
	h.Write(id)
	return h.Sum64()
}

// geminiIgnored start user texts Gemini does not resume (isIgnoredUserContent).
var geminiIgnored = []string{"/", "?", "<session_context>", "<hook_context>"}

// userText reports whether Gemini would resume a user message of content
// (a string, or parts whose text is joined), and takes the first such as
// the title.
func (h *geminiHistory) userText(content []byte) bool {
	b := &h.scratch
	b.reset()
	if isString(content) {
		b.add(content)
	} else {
		h.src.scan.elements(content, func(el []byte) bool {
			if lit := partText(&h.src.scan, el); lit != nil {
				b.add(lit)
			}
			return !b.full()
		})
	}
	if b.runes == 0 || hasPrefix(b.text(), geminiIgnored...) {
		return false
	}
	if !h.hasUser {
		h.user, h.hasUser = append(h.user[:0], b.text()...), true
	}
	return true
}

// partText is the literal of a part's text: the part itself when it is a
// string, its "text" member when it is an object.
func partText(s *jsonScanner, el []byte) []byte {
	if isString(el) {
		return el
	}
	var text []byte
	s.members(el, func(k, v []byte) bool {
		if string(k) == "text" && isString(v) {
			text = v
		}
		return true
	})
	return text
}

func (h *geminiHistory) time(v []byte) (time.Time, bool) {
	str, ok := h.src.scan.str(v)
	if !ok {
		return time.Time{}, false
	}
	t, err := rfc3339.Parse(string(str))
	return t, err == nil && writableYear(t)
}

func (h *geminiHistory) stamp(t time.Time) {
	if !h.hasTS {
		h.first, h.hasTS = t, true
	}
	h.last = t
}

func (h *geminiHistory) result() (wire.SessionRow, error) {
	row := wire.SessionRow{ID: string(h.sessionID)}
	switch {
	case len(h.sessionID) == 0 || len(h.project) == 0:
		return row, ErrMalformed
	case !wire.ValidSessionID(row.ID):
		row.ID = ""
		return row, ErrMalformed
	case h.subagent:
		return row, errNotSession
	case !h.ours():
		return row, errForeign
	case !h.live:
		return row, errNotSession
	case !h.hasTS && !h.hasStart:
		return row, errNoTime
	}
	created := h.first
	if h.hasStart {
		created = h.started
	}
	updated := h.last
	if !h.hasTS || updated.Before(created) {
		updated = created
	}
	title := h.user
	if len(h.summary) > 0 {
		title = h.summary
	}
	row.Title, row.Cwd, row.Records = string(title), wire.CwdVerified, h.records
	row.CreatedAt, row.UpdatedAt = formatTime(created), formatTime(updated)
	return row, nil
}

// ours reports whether the history's projectHash is the workspace root's.
func (h *geminiHistory) ours() bool {
	for _, x := range h.hashes {
		if string(h.project) == x {
			return true
		}
	}
	return false
}
