package sessions

import (
	"errors"

	"github.com/scoutdev/scout/backend/wire"
)

// source is one agent's session store behind the one small interface
// discovery, session.list and session.open drive (docs/protocol.md §6,
// agent session sources): where the store is, what each name of its
// layout is, how one history is read and judged, and the busy hint. The
// engine does the rest the same way for every store: it walks the layout
// through backend/fsguard in OS order (one name per unit of directory
// work), reads at most one history at a time in bounded steps, counts
// what is not a row, and keeps the inventory signature.
//
// An implementation never writes, never follows a symlink below the
// store's root and never holds more than one history's summary; its
// methods run on the discovery goroutine and may do bounded I/O through
// the frame they are given (entry reads a marker file, busy reads a lock).
type source interface {
	// agent is the source's name on the wire (wire.Agent*).
	agent() string
	// own reports whether this is scout's own store, which keeps the
	// strict rules of its history format; every other store is a live
	// agent's (reader.go says how the rules differ).
	own() bool
	// open opens the store for one scan, request or validation pass. A
	// store that does not exist is missing, not an error.
	open() (*tree, error)
	// entry says what name, an entry of directory f, is in the layout.
	entry(f *frame, name string) entry
	// history starts reading the history name of directory f.
	history(f *frame, name string) history
	// candidate reports whether the history name may hold session id
	// (session.open looks only at candidates, and a history that records
	// an id its name is no candidate of is malformed).
	candidate(name, id string) bool
	// busy is the busy hint of session id, whose history is in f.
	busy(f *frame, id string) bool
}

// preluder is a source with one file below its root that is read, like a
// history, before its layout: Codex's session_index.jsonl, where its
// session names live.
type preluder interface {
	prelude() (name string, h history)
}

// entryKind is what a name of a store's layout is.
type entryKind uint8

const (
	// entrySkip (the zero entry) is never a session: archives, subagent
	// folders, temporary files, unrelated names. It is left out of the
	// inventory.
	_ entryKind = iota
	// entryDir is a directory of the layout, descended into.
	entryDir
	// entryHistory is a history this scan reads.
	entryHistory
	// entryCounted is a history of another directory's project folder,
	// counted in sessions_other_directories by its name alone.
	entryCounted
	// entryLock is scout's lock file: its name joins the inventory.
	entryLock
)

// entry is what source.entry says about a name; for a directory, whether
// the histories below it are this workspace's to read, and the project
// root the source recorded for it.
type entry struct {
	kind entryKind
	mine bool
	root string
}

// history reads one history record by record and then judges it.
type history interface {
	// record takes one complete line (its newline removed). errForeign
	// stops the read: the history belongs to another directory. Other
	// errors (ErrMalformed) make it invalid; in another agent's store a
	// line that is not a record is skipped, as the agent skips it.
	record(line []byte) error
	// result is the session of a history read in full: its row (without
	// agent and busy), or why it is not one: errForeign, errNotSession
	// (a subagent's, a child's, one without a user message: never a row
	// and not counted), errNoTime or ErrMalformed (invalid).
	result() (wire.SessionRow, error)
}

// errNotSession: a history that is never a session (subagent, sidechain,
// child, no user message). It is not counted.
var errNotSession = errors.New("sessions: not a session")
