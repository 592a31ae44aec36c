// Package catalog is the backend's view of the model providers
// (docs/protocol.md §7): their configuration, the catalog caches in the backend
// home, the revision-scoped snapshot that model.catalog and
// model.catalog.status page through, the deliberate model.refresh over HTTP
// and the deliberate model.select.
//
// # Reading
//
// Catalog methods never touch the network. A fresh call (no cursor) scans:
// it reads state.json (the selection) and catalog/<provider>.json of every
// configured provider through fsguard, classifies each cache in the order
// format, schema/provider, fingerprint, empty, entry identities, checks the
// authentication of relevant providers only, and freezes the result as a
// snapshot with a new revision (c1, c2, ...). Cursor calls page through the
// snapshot they belong to; pages are cut at 100 choices or at 32,768 bytes of
// the whole encoded response line, whichever comes first.
//
// # Refreshing
//
// model.refresh is the only network access. Its admission invalidates the
// current snapshot; it then checks the definition, reads the credential,
// lists the models over HTTP (bounded bodies, timeouts and a per-process
// limit of concurrent requests), enriches them from a models.dev-shaped
// document when one is configured, validates the catalog and writes it
// atomically. The context is checked between those phases and carried by
// every HTTP request, and no write starts once cancellation is seen. A
// non-cancelled outcome ends with a rescan that becomes the new revision.
//
// # Selecting
//
// model.select checks the caller's revision guard against the current
// snapshot and writes state.json atomically; nothing else writes it.
//
// Responses never carry URLs, bodies, raw errors, paths or keys: every
// failure is reduced to a reason word before it leaves this package.
package catalog
