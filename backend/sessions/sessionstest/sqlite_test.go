package sessionstest

import (
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// query runs sql with the SQLite shell on the database at path opened
// immutable (read-only, no lock, nothing created next to it) and returns
// what it printed.
func query(t *testing.T, path, sql string) string {
	t.Helper()
	out, err := exec.Command(SQLite3, "-batch", "-bail", "-init", os.DevNull, "file:"+path+"?immutable=1", sql).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return string(out)
}

// atRest fails t unless the database at path is alone in its directory.
func atRest(t *testing.T, path string) {
	t.Helper()
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if _, err := os.Lstat(path + suffix); err == nil {
			t.Errorf("%s exists: the database is not at rest", filepath.Base(path+suffix))
		}
	}
}

// TestSQLTextRoundTrip: every string SQLText quotes, written through the
// shell, reads back as the same bytes and as TEXT: quotes, control
// characters (a carriage return before a newline among them), what looks
// like a statement's end or a dot command, and multi-byte UTF-8.
func TestSQLTextRoundTrip(t *testing.T) {
	t.Parallel()
	texts := []string{"", "plain", "it's", "''", "'", "a\nb", "a\r\nb", "\r", "tab\there", "\x01\x1f\x7f",
		"naïve 日本語 — ✓ 😀", ";", "x'); DROP TABLE t; --", "\n.quit\n", "\n.shell echo no\n", "-- not a comment", "/* nor this", "\nGO\n", "\n/\n",
		"\u2028\u2029\ufeff", strings.Repeat("long ' line ", 5000)}
	path := filepath.Join(t.TempDir(), "text.db")
	w := MustOpenWriter(t, path, "CREATE TABLE t (i INTEGER PRIMARY KEY, v TEXT);")
	var sql strings.Builder
	for i, s := range texts {
		fmt.Fprintf(&sql, "INSERT INTO t VALUES (%d, %s);\n", i, SQLText(s))
	}
	if err := w.Exec(sql.String()); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	atRest(t, path)
	var want strings.Builder
	for i, s := range texts {
		fmt.Fprintf(&want, "%d|text|%s\n", i, strings.ToUpper(hex.EncodeToString([]byte(s))))
	}
	if got := query(t, path, "SELECT i, typeof(v), hex(v) FROM t ORDER BY i"); got != want.String() {
		t.Errorf("read back:\n%s\nwant\n%s", got, want.String())
	}
}

// TestWriteFixtures: WriteCrush and WriteOpenCode leave databases in WAL
// mode and at rest, holding the sessions as the agents write them: NULL
// for no parent and not archived, crush's message count kept by its
// trigger, times in seconds (crush) and milliseconds (opencode), and a
// second write adding to the first without applying the schema again.
func TestWriteFixtures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	crush, opencode := filepath.Join(dir, "crush", "crush.db"), filepath.Join(dir, "opencode.db")
	chat := []string{"user", "assistant"}
	if err := WriteCrush(crush, DBSession{ID: "c1", Title: "it's\nnew", Roles: chat}, DBSession{ID: "c2", Parent: "c1", Title: "child", Roles: chat[:1]}); err != nil {
		t.Fatal(err)
	}
	if err := WriteCrush(crush, DBSession{ID: "c3", Title: "later", Roles: chat, PartBytes: 1000}); err != nil {
		t.Fatal(err)
	}
	if err := WriteOpenCode(opencode, DBSession{ID: "ses_1", Dir: "/w", Title: "one", Roles: chat}, DBSession{ID: "ses_2", Dir: "/w", Parent: "ses_1", Archived: true, Title: "two"}); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{crush, opencode} {
		atRest(t, path)
		// The header's file format versions: 2, 2 is WAL mode (an immutable
		// open, as query's, reports journal_mode delete).
		if header, err := os.ReadFile(path); err != nil || len(header) < 20 || header[18] != 2 || header[19] != 2 {
			t.Errorf("%s is not in WAL mode (%v)", filepath.Base(path), err)
		}
	}
	for _, tc := range []struct{ path, sql, want string }{
		// the triggers set updated_at to the time of the message's insert
		{crush, "SELECT id, quote(parent_session_id), hex(title), message_count, created_at, updated_at > created_at FROM sessions ORDER BY id",
			fmt.Sprintf("c1|NULL|%X|2|%[2]d|1\nc2|'c1'|6368696C64|1|%[2]d|1\nc3|NULL|6C61746572|2|%[2]d|1\n", "it's\nnew", Epoch.Unix())},
		{crush, "SELECT id, role, model, provider, length(parts) >= 1000 FROM messages WHERE session_id = 'c3' ORDER BY id", "c3-m0|user|gpt-5|openai|1\nc3-m1|assistant|gpt-5|openai|1\n"},
		{crush, "SELECT json_extract(parts, '$[0].data.text') FROM messages WHERE id = 'c1-m1'", "assistant message 1\n"},
		{opencode, "SELECT id, quote(parent_id), slug, directory, title, version, time_created, time_updated, quote(time_archived) FROM session ORDER BY id",
			fmt.Sprintf("ses_1|NULL|slug-ses_1|/w|one|1.2.0|%[1]d|%[2]d|NULL\nses_2|'ses_1'|slug-ses_2|/w|two|1.2.0|%[1]d|%[2]d|%[2]d\n", Epoch.UnixMilli(), Epoch.UnixMilli()+60000)},
		{opencode, "SELECT id, json_extract(data, '$.role'), json_extract(data, '$.time.created') FROM message ORDER BY id",
			fmt.Sprintf("msg_ses_1_0|user|%[1]d\nmsg_ses_1_1|assistant|%[1]d\n", Epoch.UnixMilli())},
		{opencode, "SELECT count(*) FROM project", "1\n"},
	} {
		if got := query(t, tc.path, tc.sql); got != tc.want {
			t.Errorf("%s: %s:\n%s\nwant\n%s", filepath.Base(tc.path), tc.sql, got, tc.want)
		}
	}
}

// TestWriterLive: a transaction a Writer began is not seen by a reader,
// the database is live (-wal and -shm) meanwhile, and Close rolls it back
// and leaves the database at rest; a committed one is seen.
func TestWriterLive(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "opencode.db")
	w := MustOpenWriter(t, path, OpenCodeSchema)
	if err := w.Exec(Transaction([]DBSession{{ID: "ses_done", Dir: "/w", Title: "done", Roles: []string{"user"}}}, OpenCodeInsertSQL)); err != nil {
		t.Fatal(err)
	}
	if err := w.Exec("BEGIN;\n" + OpenCodeInsertSQL(DBSession{ID: "ses_open", Dir: "/w", Title: "open", Roles: []string{"user"}})); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		if _, err := os.Lstat(path + suffix); err != nil {
			t.Fatalf("the writer's database has no %s: %v", suffix, err)
		}
	}
	live, err := exec.Command(SQLite3, "-batch", "-bail", "-init", os.DevNull, "-readonly", path, "SELECT id FROM session").CombinedOutput()
	if err != nil || string(live) != "ses_done\n" {
		t.Errorf("a reader beside the writer read %q (%v), want only ses_done", live, err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	atRest(t, path)
	if got := query(t, path, "SELECT id FROM session"); got != "ses_done\n" {
		t.Errorf("after Close: %q, want only ses_done", got)
	}
}

// TestWriterErrors: a failing statement fails Exec with the shell's
// message and stops the shell (nothing after it runs, its transaction is
// rolled back, later Execs fail), the database is left at rest; a
// statement that prints fails Exec with what it printed; Close twice is
// fine.
func TestWriterErrors(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "e.db")
	w := MustOpenWriter(t, path, "CREATE TABLE t (v TEXT NOT NULL);")
	if err := w.Exec("SELECT 'a''b', 42;"); err == nil || !strings.Contains(err.Error(), "a'b|42") {
		t.Errorf("a SELECT: %v", err)
	}
	if err := w.Exec("INSERT INTO t VALUES ('kept');"); err != nil {
		t.Fatal(err)
	}
	err := w.Exec("BEGIN;\nINSERT INTO t VALUES ('rolled back');\nINSERT INTO t VALUES (NULL);\nCOMMIT;\nINSERT INTO t VALUES ('never');")
	if err == nil || !strings.Contains(err.Error(), "NOT NULL constraint failed") {
		t.Fatalf("a failing INSERT: %v", err)
	}
	if err := w.Exec("INSERT INTO t VALUES ('after');"); err == nil {
		t.Error("Exec after the shell stopped succeeded")
	}
	if err := w.Close(); err != nil {
		t.Error(err)
	}
	if err := w.Close(); err != nil {
		t.Error(err)
	}
	atRest(t, path)
	if got := query(t, path, "SELECT v FROM t"); got != "kept\n" {
		t.Errorf("the table holds %q, want only kept", got)
	}
	if _, err := OpenWriter(filepath.Join(t.TempDir(), "s.db"), "CREATE TABLE broken ("); err == nil || !strings.Contains(err.Error(), "error") {
		t.Errorf("a broken schema: %v", err)
	}
	// An open quote swallows the marker: the wait ends at the timeout,
	// and the shell is killed.
	if _, err := openWriter(filepath.Join(t.TempDir(), "s.db"), "CREATE TABLE t (v, 'unterminated);", time.Second); err == nil || !strings.Contains(err.Error(), "did not answer") {
		t.Errorf("an unterminated schema: %v", err)
	}
}

// TestNoSQLite3: without sqlite3 on PATH, OpenWriter (and so every
// fixture write) fails saying which Debian package to install.
func TestNoSQLite3(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	_, err := OpenWriter(filepath.Join(t.TempDir(), "x.db"), CrushSchema)
	if !errors.Is(err, ErrNoSQLite3) || !strings.Contains(err.Error(), "Debian package sqlite3") {
		t.Errorf("error %v", err)
	}
	if err := WriteCrush(filepath.Join(t.TempDir(), "x.db")); !errors.Is(err, ErrNoSQLite3) {
		t.Errorf("WriteCrush: %v", err)
	}
}
