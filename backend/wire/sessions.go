package wire

import (
	"errors"
)

// Session cwd states.
const (
	CwdVerified   = "verified"
	CwdUnverified = "cwd_unverified"
)

// ValidSessionID reports whether id matches ^[A-Za-z0-9_-]{1,64}$.
func ValidSessionID(id string) bool { return alnumRun(id, 1, 64, "_-") }

// SessionRow is one session of this workspace.
type SessionRow struct {
	ID        string `json:"id"`
	Title     string `json:"title"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
	Cwd       string `json:"cwd"`
	Busy      bool   `json:"busy"`
	Records   int64  `json:"records"`
}

// SessionNotices counts histories that are not rows (counts only).
type SessionNotices struct {
	SessionsOmittedInvalid   int64 `json:"sessions_omitted_invalid"`
	SessionsOtherDirectories int64 `json:"sessions_other_directories"`
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

// SessionOpenParams is the params of session.open.
type SessionOpenParams struct {
	ID *string `json:"id"`
}

// Validate requires a session id of the primary-history grammar.
func (p *SessionOpenParams) Validate() error {
	if p.ID == nil || !ValidSessionID(*p.ID) {
		return errors.New("params.id must be a session id (1 to 64 characters from A-Z a-z 0-9 _ -).")
	}
	return nil
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
