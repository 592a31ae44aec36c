package sessions

import (
	"path/filepath"

	"github.com/scoutdev/scout/backend/wire"
)

// opencodeSchema is opencode's session table (sst/opencode, now
// anomalyco/opencode, packages/opencode/migration/
// 20260127222353_familiar_lady_ursula/migration.sql: session(id, ...,
// parent_id, slug, directory, title, version, ..., time_created,
// time_updated, time_compacting, time_archived), times in milliseconds)
// and its message(session_id, data), a message's role in its JSON data.
// A session with a parent is a child's; an archived one is not listed;
// the directory recorded for a session says whose it is.
var opencodeSchema = &dbSchema{
	agent:    wire.AgentOpenCode,
	sessions: "session", id: "id", parent: "parent_id", dir: "directory", title: "title",
	created: "time_created", updated: "time_updated", archived: "time_archived",
	messages: "message", msgSession: "session_id", msgRole: "data", roleJSON: true,
	millis: true,
}

// opencodeFiles is opencode's one database, at path.
func opencodeFiles(path string) []dbFile {
	if path == "" {
		return nil
	}
	return []dbFile{{dir: filepath.Dir(path), name: filepath.Base(path)}}
}
