package sessionstest

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// The fixtures are written by the SQLite shell, the sqlite3 command
// (sqlitecli.go), never through a Go driver: nothing in the tests links
// SQLite, and what the backend reads is what SQLite itself wrote.

// CrushSchema is crush's schema: the "+goose Up" statements of every
// migration in charmbracelet/crush internal/db/migrations/ at revision
// 37f36e93824e5c4f892e4a817f7f628e2682fe14 (20250424200609_initial.sql
// through 20260127000000_add_read_files_table.sql), in order. Times are
// written as crush's own queries write them, strftime('%s', 'now'):
// seconds (internal/db/sql/sessions.sql; the "milliseconds" comments of
// the initial migration are wrong). crush keeps the database in
// <data directory>/crush.db with journal_mode WAL (internal/db/connect.go).
const CrushSchema = `
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    parent_session_id TEXT,
    title TEXT NOT NULL,
    message_count INTEGER NOT NULL DEFAULT 0 CHECK (message_count >= 0),
    prompt_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (prompt_tokens >= 0),
    completion_tokens  INTEGER NOT NULL DEFAULT 0 CHECK (completion_tokens>= 0),
    cost REAL NOT NULL DEFAULT 0.0 CHECK (cost >= 0.0),
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    created_at INTEGER NOT NULL   -- Unix timestamp in milliseconds
);
CREATE TRIGGER IF NOT EXISTS update_sessions_updated_at
AFTER UPDATE ON sessions
BEGIN
UPDATE sessions SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;
CREATE TABLE IF NOT EXISTS files (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    path TEXT NOT NULL,
    content TEXT NOT NULL,
    version INTEGER NOT NULL DEFAULT 0,
    created_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    UNIQUE(path, session_id, version)
);
CREATE INDEX IF NOT EXISTS idx_files_session_id ON files (session_id);
CREATE INDEX IF NOT EXISTS idx_files_path ON files (path);
CREATE TRIGGER IF NOT EXISTS update_files_updated_at
AFTER UPDATE ON files
BEGIN
UPDATE files SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;
CREATE TABLE IF NOT EXISTS messages (
    id TEXT PRIMARY KEY,
    session_id TEXT NOT NULL,
    role TEXT NOT NULL,
    parts TEXT NOT NULL default '[]',
    model TEXT,
    created_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    updated_at INTEGER NOT NULL,  -- Unix timestamp in milliseconds
    finished_at INTEGER,  -- Unix timestamp in milliseconds
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE
);
CREATE INDEX IF NOT EXISTS idx_messages_session_id ON messages (session_id);
CREATE TRIGGER IF NOT EXISTS update_messages_updated_at
AFTER UPDATE ON messages
BEGIN
UPDATE messages SET updated_at = strftime('%s', 'now')
WHERE id = new.id;
END;
CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_insert
AFTER INSERT ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count + 1
WHERE id = new.session_id;
END;
CREATE TRIGGER IF NOT EXISTS update_session_message_count_on_delete
AFTER DELETE ON messages
BEGIN
UPDATE sessions SET
    message_count = message_count - 1
WHERE id = old.session_id;
END;
ALTER TABLE sessions ADD COLUMN summary_message_id TEXT;
CREATE INDEX IF NOT EXISTS idx_sessions_created_at ON sessions (created_at);
CREATE INDEX IF NOT EXISTS idx_messages_created_at ON messages (created_at);
CREATE INDEX IF NOT EXISTS idx_files_created_at ON files (created_at);
ALTER TABLE messages ADD COLUMN provider TEXT;
ALTER TABLE messages ADD COLUMN is_summary_message INTEGER DEFAULT 0 NOT NULL;
ALTER TABLE sessions ADD COLUMN todos TEXT;
CREATE TABLE IF NOT EXISTS read_files (
    session_id TEXT NOT NULL CHECK (session_id != ''),
    path TEXT NOT NULL CHECK (path != ''),
    read_at INTEGER NOT NULL,  -- Unix timestamp in seconds when file was last read
    FOREIGN KEY (session_id) REFERENCES sessions (id) ON DELETE CASCADE,
    PRIMARY KEY (path, session_id)
);
CREATE INDEX IF NOT EXISTS idx_read_files_session_id ON read_files (session_id);
CREATE INDEX IF NOT EXISTS idx_read_files_path ON read_files (path);
`

// OpenCodeSchema is opencode's schema: its first SQLite migration,
// packages/opencode/migration/20260127222353_familiar_lady_ursula/
// migration.sql, as kept by panyw5/opencode at revision
// 1518bd8345d923d17b0be88e1a805da2e7f595d8, a fork of sst/opencode (now
// anomalyco/opencode, whose snapshot is too large to fetch here; its
// packages/opencode/src/session/session.sql.ts declares the same session
// columns). Times are milliseconds (Date.now()). opencode keeps the
// database in $OPENCODE_DB, else $XDG_DATA_HOME/opencode/opencode.db, in
// WAL mode; a message's role is in its JSON data ({"role":"user",...}).
const OpenCodeSchema = "CREATE TABLE IF NOT EXISTS `project` (\n\t`id` text PRIMARY KEY,\n\t`worktree` text NOT NULL,\n\t`vcs` text,\n\t`name` text,\n\t`icon_url` text,\n\t`icon_color` text,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\t`time_initialized` integer,\n\t`sandboxes` text NOT NULL\n);\n" +
	"CREATE TABLE IF NOT EXISTS `message` (\n\t`id` text PRIMARY KEY,\n\t`session_id` text NOT NULL,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\t`data` text NOT NULL,\n\tCONSTRAINT `fk_message_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE\n);\n" +
	"CREATE TABLE IF NOT EXISTS `part` (\n\t`id` text PRIMARY KEY,\n\t`message_id` text NOT NULL,\n\t`session_id` text NOT NULL,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\t`data` text NOT NULL,\n\tCONSTRAINT `fk_part_message_id_message_id_fk` FOREIGN KEY (`message_id`) REFERENCES `message`(`id`) ON DELETE CASCADE\n);\n" +
	"CREATE TABLE IF NOT EXISTS `permission` (\n\t`project_id` text PRIMARY KEY,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\t`data` text NOT NULL,\n\tCONSTRAINT `fk_permission_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE\n);\n" +
	"CREATE TABLE IF NOT EXISTS `session` (\n\t`id` text PRIMARY KEY,\n\t`project_id` text NOT NULL,\n\t`parent_id` text,\n\t`slug` text NOT NULL,\n\t`directory` text NOT NULL,\n\t`title` text NOT NULL,\n\t`version` text NOT NULL,\n\t`share_url` text,\n\t`summary_additions` integer,\n\t`summary_deletions` integer,\n\t`summary_files` integer,\n\t`summary_diffs` text,\n\t`revert` text,\n\t`permission` text,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\t`time_compacting` integer,\n\t`time_archived` integer,\n\tCONSTRAINT `fk_session_project_id_project_id_fk` FOREIGN KEY (`project_id`) REFERENCES `project`(`id`) ON DELETE CASCADE\n);\n" +
	"CREATE TABLE IF NOT EXISTS `todo` (\n\t`session_id` text NOT NULL,\n\t`content` text NOT NULL,\n\t`status` text NOT NULL,\n\t`priority` text NOT NULL,\n\t`position` integer NOT NULL,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\tCONSTRAINT `todo_pk` PRIMARY KEY(`session_id`, `position`),\n\tCONSTRAINT `fk_todo_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE\n);\n" +
	"CREATE TABLE IF NOT EXISTS `session_share` (\n\t`session_id` text PRIMARY KEY,\n\t`id` text NOT NULL,\n\t`secret` text NOT NULL,\n\t`url` text NOT NULL,\n\t`time_created` integer NOT NULL,\n\t`time_updated` integer NOT NULL,\n\tCONSTRAINT `fk_session_share_session_id_session_id_fk` FOREIGN KEY (`session_id`) REFERENCES `session`(`id`) ON DELETE CASCADE\n);\n" +
	"CREATE INDEX IF NOT EXISTS `message_session_idx` ON `message` (`session_id`);\n" +
	"CREATE INDEX IF NOT EXISTS `part_message_idx` ON `part` (`message_id`);\n" +
	"CREATE INDEX IF NOT EXISTS `part_session_idx` ON `part` (`session_id`);\n" +
	"CREATE INDEX IF NOT EXISTS `session_project_idx` ON `session` (`project_id`);\n" +
	"CREATE INDEX IF NOT EXISTS `session_parent_idx` ON `session` (`parent_id`);\n" +
	"CREATE INDEX IF NOT EXISTS `todo_session_idx` ON `todo` (`session_id`);\n"

// DBSession is one session of a generated crush or opencode database.
type DBSession struct {
	ID, Parent, Title string
	// Dir is the session's directory (opencode only; crush's database is
	// the project's).
	Dir string
	// Archived archives it (opencode only).
	Archived bool
	// Roles are its messages' roles in turn ("user", "assistant"); none
	// writes a session with no message.
	Roles []string
	// PartBytes pads every message's parts (crush) or data (opencode) to
	// about this many bytes.
	PartBytes int
	// Created is its creation time (Epoch when zero); it was updated a
	// minute later.
	Created time.Time
}

// WriteCrush adds sessions to the crush database at path (created with
// CrushSchema when new) in one transaction and closes it, leaving it at
// rest: one sqlite3 run.
func WriteCrush(path string, sessions ...DBSession) error {
	return writeDB(path, CrushSchema, sessions, CrushInsertSQL)
}

// WriteOpenCode adds sessions to the opencode database at path (created
// with OpenCodeSchema when new) in one transaction and closes it, leaving
// it at rest: one sqlite3 run.
func WriteOpenCode(path string, sessions ...DBSession) error {
	return writeDB(path, OpenCodeSchema, sessions, OpenCodeInsertSQL)
}

func writeDB(path, schema string, sessions []DBSession, insert func(DBSession) string) error {
	w, err := OpenWriter(path, schema)
	if err != nil {
		return err
	}
	if err := w.Exec(Transaction(sessions, insert)); err != nil {
		w.Close()
		return err
	}
	return w.Close()
}

// Transaction is the statements insert makes of every session, between
// BEGIN and COMMIT.
func Transaction(sessions []DBSession, insert func(DBSession) string) string {
	var b strings.Builder
	b.WriteString("BEGIN;\n")
	for _, s := range sessions {
		b.WriteString(insert(s))
	}
	b.WriteString("COMMIT;\n")
	return b.String()
}

func (s DBSession) times() (created, updated time.Time) {
	created = s.Created
	if created.IsZero() {
		created = Epoch
	}
	return created, created.Add(time.Minute)
}

// pad is text of about n bytes.
func pad(text string, n int) string {
	if n <= len(text) {
		return text
	}
	return text + strings.Repeat("lorem ipsum dolor sit amet ", (n-len(text))/27+1)[:n-len(text)]
}

// CrushInsertSQL is the statements that insert s as crush does
// (internal/db/sql/sessions.sql CreateSession, messages.sql
// CreateMessage; the triggers count the messages and set updated_at to
// the time of the insert, as crush's own do), each on its own line and
// ended by a semicolon.
func CrushInsertSQL(s DBSession) string {
	created, _ := s.times()
	at := strconv.FormatInt(created.Unix(), 10)
	var b strings.Builder
	fmt.Fprintf(&b, "INSERT INTO sessions (id, parent_session_id, title, message_count, prompt_tokens, completion_tokens, cost, summary_message_id, updated_at, created_at) VALUES (%s, %s, %s, 0, 0, 0, 0, NULL, %s, %s);\n",
		SQLText(s.ID), sqlNullText(s.Parent), SQLText(s.Title), at, at)
	for i, role := range s.Roles {
		parts := fmt.Sprintf(`[{"type":"text","data":{"text":%q}}]`, pad(fmt.Sprintf("%s message %d", role, i), s.PartBytes))
		fmt.Fprintf(&b, "INSERT INTO messages (id, session_id, role, parts, model, provider, created_at, updated_at) VALUES (%s, %s, %s, %s, 'gpt-5', 'openai', %s, %s);\n",
			SQLText(fmt.Sprintf("%s-m%d", s.ID, i)), SQLText(s.ID), SQLText(role), SQLText(parts), at, at)
	}
	return b.String()
}

// OpenCodeInsertSQL is the statements that insert s as opencode does
// (session.sql.ts, message data {"role", "time": {"created"}, ...}), each
// on its own line and ended by a semicolon.
func OpenCodeInsertSQL(s DBSession) string {
	created, updated := s.times()
	archived := "NULL"
	if s.Archived {
		archived = strconv.FormatInt(updated.UnixMilli(), 10)
	}
	var b strings.Builder
	b.WriteString("INSERT OR IGNORE INTO `project` (id, worktree, vcs, time_created, time_updated, sandboxes) VALUES ('prj_fixture', '/', 'git', 0, 0, '[]');\n")
	fmt.Fprintf(&b, "INSERT INTO `session` (id, project_id, parent_id, slug, directory, title, version, time_created, time_updated, time_archived) VALUES (%s, 'prj_fixture', %s, %s, %s, %s, '1.2.0', %d, %d, %s);\n",
		SQLText(s.ID), sqlNullText(s.Parent), SQLText("slug-"+s.ID), SQLText(s.Dir), SQLText(s.Title), created.UnixMilli(), updated.UnixMilli(), archived)
	for i, role := range s.Roles {
		data := fmt.Sprintf(`{"role":%q,"time":{"created":%d},"agent":"build","text":%q}`, role, created.UnixMilli(), pad("", s.PartBytes))
		fmt.Fprintf(&b, "INSERT INTO `message` (id, session_id, time_created, time_updated, data) VALUES (%s, %s, %d, %d, %s);\n",
			SQLText(fmt.Sprintf("msg_%s_%d", s.ID, i)), SQLText(s.ID), created.UnixMilli(), created.UnixMilli(), SQLText(data))
	}
	return b.String()
}

// SQLText is s as an SQL expression of type TEXT whose value is s, byte
// for byte: a literal between single quotes with every quote doubled, and
// each control character (below U+0020: a newline, a carriage return, a
// tab, ...) spelled char(N) and joined to the rest with ||. So the
// expression is one line, which the SQLite shell needs: it reads its input
// line by line and drops the carriage return before a line's end.
func SQLText(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('\'')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\'':
			b.WriteString("''")
		case c < 0x20:
			fmt.Fprintf(&b, "'||char(%d)||'", c)
		default:
			b.WriteByte(c) // the bytes of a multi-byte character are all 0x80 or above
		}
	}
	b.WriteByte('\'')
	return b.String()
}

// sqlNullText is SQLText(s), or NULL when s is empty.
func sqlNullText(s string) string {
	if s == "" {
		return "NULL"
	}
	return SQLText(s)
}
