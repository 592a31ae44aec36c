package wire

import (
	"cmp"
	"errors"
)

// Session cwd states.
const (
	CwdVerified   = "verified"
	CwdUnverified = "cwd_unverified"
)

// ValidSessionID reports whether id matches ^[A-Za-z0-9_-]{1,64}$.
func ValidSessionID(id string) bool { return alnumRun(id, 1, 64, "_-") }

// The agents whose sessions the backend reads (docs/protocol.md §6, agent
// session sources), by their names on the wire.
const (
	AgentScout      = "scout"
	AgentClaudeCode = "claude-code"
	AgentCodex      = "codex"
	AgentGemini     = "gemini"
	AgentOpenCode   = "opencode"
	AgentCrush      = "crush"
)

// Agents are the agent names in the order of the sources table, which is
// the order session.discover reads them in.
var Agents = []string{AgentScout, AgentClaudeCode, AgentCodex, AgentGemini, AgentOpenCode, AgentCrush}

// ValidAgent reports whether name is one of Agents.
func ValidAgent(name string) bool {
	for _, a := range Agents {
		if a == name {
			return true
		}
	}
	return false
}

// SessionRow is one session of this workspace.
type SessionRow struct {
	ID        string `json:"id"`
	Agent     string `json:"agent"`
	Title     string `json:"title"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	Cwd       string `json:"cwd"`
	Busy      bool   `json:"busy"`
	Records   int64  `json:"records"`
}

// CompareSessionRows orders rows as session.list does: updated_at
// descending (the times are UTC RFC 3339 with milliseconds, so their text
// orders them), then agent, then id.
func CompareSessionRows(a, b SessionRow) int {
	return cmp.Or(cmp.Compare(b.UpdatedAt, a.UpdatedAt), cmp.Compare(a.Agent, b.Agent), cmp.Compare(a.ID, b.ID))
}

// SessionNotices counts histories that are not rows (counts only).
type SessionNotices struct {
	SessionsOmittedInvalid   int64 `json:"sessions_omitted_invalid"`
	SessionsOtherDirectories int64 `json:"sessions_other_directories"`
	SessionsOmittedOversized int64 `json:"sessions_omitted_oversized"`
}

// SessionListResult is the result of session.list.
type SessionListResult struct {
	Sessions []SessionRow   `json:"sessions"`
	Notices  SessionNotices `json:"notices"`
	Stamp
}

// CursorParams is the params of session.discover, model.catalog and
// model.catalog.status: a cursor, or null/absent for a fresh start.
type CursorParams struct {
	Cursor *string `json:"cursor"`
}

// MaxCursorBytes bounds every cursor.
const MaxCursorBytes = 64

// Validate bounds the cursor to 64 printable ASCII bytes.
func (p *CursorParams) Validate() error {
	if p.Cursor == nil {
		return nil
	}
	c := *p.Cursor
	if len(c) == 0 || len(c) > MaxCursorBytes {
		return errors.New("params.cursor must be null or 1 to 64 ASCII characters.")
	}
	for i := 0; i < len(c); i++ {
		if c[i] < 0x21 || c[i] > 0x7e {
			return errors.New("params.cursor must be null or 1 to 64 ASCII characters.")
		}
	}
	return nil
}

// Discovery progress words.
const (
	ProgressDirectoryWork       = "directory_work"
	ProgressHistoryWork         = "history_work"
	ProgressRecordWork          = "record_work"
	ProgressByteWork            = "byte_work"
	ProgressInventoryValidation = "inventory_validation"
	ProgressDeadline            = "deadline"
	ProgressPageEntries         = "page_entries"
	ProgressPageBytes           = "page_bytes"
	ProgressComplete            = "complete"
)

// Recovery words of session.discover.
const (
	RecoveryContinueCursor = "continue_cursor"
	RecoveryNone           = "none"
)

// ConsistencyProvisional is session.discover's consistency.
const ConsistencyProvisional = "provisional_until_complete"

// DiscoverResult is one page of session.discover.
type DiscoverResult struct {
	Sessions    []SessionRow   `json:"sessions"`
	Cursor      *string        `json:"cursor"`
	Complete    bool           `json:"complete"`
	Progress    string         `json:"progress"`
	Recovery    string         `json:"recovery"`
	Consistency string         `json:"consistency"`
	Notices     SessionNotices `json:"notices"`
	Stamp
}

// SessionOpenParams is the params of session.open: a session id and the
// agent whose session it is (absent: scout's own).
type SessionOpenParams struct {
	ID    *string `json:"id"`
	Agent *string `json:"agent,omitempty"`
}

// Validate requires a session id of the primary-history grammar and, when
// present, a known agent.
func (p *SessionOpenParams) Validate() error {
	if p.ID == nil || !ValidSessionID(*p.ID) {
		return errors.New("params.id must be a session id (1 to 64 characters from A-Z a-z 0-9 _ -).")
	}
	if p.Agent != nil && !ValidAgent(*p.Agent) {
		return errors.New("params.agent must be one of scout, claude-code, codex, gemini, opencode, crush.")
	}
	return nil
}

// AgentName is the agent params name, scout's own when absent.
func (p *SessionOpenParams) AgentName() string {
	if p.Agent == nil {
		return AgentScout
	}
	return *p.Agent
}

// SessionOpenResult is the result of session.open.
type SessionOpenResult struct {
	Session    SessionRow `json:"session"`
	Attachment Attachment `json:"attachment"`
	Stamp
}

// SessionNewResult is the result of session.new.
type SessionNewResult struct {
	Attachment Attachment `json:"attachment"`
	Stamp
}
