// Package wire defines every message of scout's backend protocol (docs/protocol.md):
// the JSON-RPC 2.0 envelope, each method's params and result, the
// notifications, and the error codes with their numbers.
//
// It is the one definition both sides import: backend/server decodes requests
// and encodes results with these types, and rpcclient does the reverse. A
// field name here is a promise to every client, so changing one is a protocol
// change and must be written into docs/protocol.md.
//
// Decoding is strict (docs/protocol.md §1): invalid UTF-8, duplicate member names
// and trailing data are parse errors, and every method's params are a closed
// schema, so an unknown member is invalid params. Encoding never emits raw
// newlines, so one message is always one line.
package wire
