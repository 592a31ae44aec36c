// Package config reads scout's configuration: the backend home
// (SCOUT_HOME), the user's config.toml there, a workspace's
// .scout/config.toml, and trusted.json, the record of trusted workspace
// configurations.
//
// Parsing is strict: unknown keys, wrong types, bad or duplicate provider
// ids, unknown provider types and malformed values are errors. An Error
// names the file by its role ("config.toml", ".scout/config.toml"), a line
// for syntax errors and the key path, never a directory, a value or other
// file content, so it can be logged safely.
//
// What a broken file does (the backend decides; see docs/protocol.md §10.6):
// a broken config.toml makes the workspace policy closed (nothing visible)
// until it is fixed, because its deny globs are unknown and serving without
// them would widen what is visible; a broken .scout/config.toml is not
// adopted (workspace.trust fails), but every deny glob and credential file
// that can still be read from it is reserved first (Candidates).
package config
