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
	agent: wire.AgentOpenCode,
	required: map[string][]string{
		"session": {"id", "parent_id", "directory", "title", "time_created", "time_updated", "time_archived"},
		"message": {"session_id", "data"},
	},
	page: `SELECT s.id, s.directory, s.title, s.time_created, s.time_updated,
		EXISTS (SELECT 1 FROM message m WHERE m.session_id = s.id
			AND CASE WHEN json_valid(m.data) THEN json_extract(m.data, '$.role') END = 'user')
		FROM session s WHERE s.id > ? AND s.parent_id IS NULL AND s.time_archived IS NULL
		ORDER BY s.id LIMIT ?`,
	one: `SELECT s.id, s.directory, s.title, s.time_created, s.time_updated,
		EXISTS (SELECT 1 FROM message m WHERE m.session_id = s.id
			AND CASE WHEN json_valid(m.data) THEN json_extract(m.data, '$.role') END = 'user'),
		s.parent_id IS NOT NULL OR s.time_archived IS NOT NULL
		FROM session s WHERE s.id = ?`,
	count:  `SELECT count(*) FROM session WHERE parent_id IS NULL AND time_archived IS NULL`,
	millis: true,
}

// opencodeFiles is opencode's one database, at path.
func opencodeFiles(path string) []dbFile {
	if path == "" {
		return nil
	}
	return []dbFile{{dir: filepath.Dir(path), name: filepath.Base(path)}}
}
