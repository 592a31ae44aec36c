// Package sessions is the session feature of `scout backend`
// (docs/protocol.md §6): the history store in the backend home, session.list,
// the incremental session.discover, and session.open / session.new with
// the attachment they change.
//
// # The store
//
// Histories are `<home>/sessions/<id>.jsonl`, one JSON record per line
// (docs/design.md). Everything is read through backend/fsguard: no symlink
// below the home is followed, special files are never opened, and errors
// carry no path. A history becomes a row only when read in full, and only
// when every cwd it records is the workspace root (both sides with symlinks
// resolved); the first foreign cwd stops the read.
//
// # Discovery
//
// A scan is a small state machine held between requests (discover.go):
// the store's directory iterator in OS order, at most one open history with
// the lineBuffer (8 KiB, doubling only for a longer record, never past
// 8 MiB + 8 KiB), the row that did not fit the last page, cumulative
// notices and an order-independent signature of the inventory. Each
// request runs until one bound is met and names it in `progress`; before
// and after, the store directory, the attachment identity and the open
// history are compared with what they were. After the last name a second
// pass recomputes the signature; only a match completes the scan. Cursors
// are HMAC-authenticated with a per-child secret (cursor.go): the child
// remembers only its current scan and the one cursor that may continue it.
//
// # Parsing
//
// Records are mostly one long string, so record.go and scan_json.go scan
// strings themselves (a word at a time, then 64-byte blocks with one mask,
// passing two-byte escapes and two- and three-byte characters without
// leaving the loop) and leave other values to the strict jsontext decoder;
// FuzzParseRecord holds the two to the same acceptance.
// Titles are decoded rune by rune from the literal and stop at their bound,
// so an 8 MiB reply costs no copy.
//
// The decisions a client sees are in docs/protocol.md §10.7, the internals in docs/backend.md "backend/sessions".
package sessions
