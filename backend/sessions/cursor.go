package sessions

import "github.com/scoutdev/scout/backend/cursor"

// cursorVersion prefixes every session.discover cursor, so a later format
// (and project.index's cursors) can be told apart.
const cursorVersion = "d1"

// newCursorCodec returns the codec of session.discover's cursors,
// "d1.<scan>.<seq>.<mac>" (backend/cursor), with a secret of its own.
func newCursorCodec() *cursor.Codec { return cursor.New(cursorVersion) }
