package sessions

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver ("sqlite"); its library starts at the first open

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
)

// This file reads the stores that are SQLite databases (crush's and
// opencode's) the way the rest of the package reads JSON-lines stores:
// through the guarded helpers, never writing, in bounded steps, counting
// what is not a row.
//
// A database is opened read-only (mode=ro), and how depends on its state:
//
//   - at rest (no -wal and -shm next to it): with immutable=1, so SQLite
//     reads the main file alone, takes no lock and creates nothing (a
//     read-only open of a database in WAL mode would otherwise create its
//     -wal and -shm files). A writer starting meanwhile writes to a new
//     -wal, leaving the main file as it was; only a checkpoint changes the
//     main file, and every step checks that it did not.
//   - live (its -wal and -shm exist: the agent is running): normally, as a
//     WAL reader, which sees the latest commits and neither blocks nor is
//     blocked by the writer.
//
// Each step is one read transaction (BEGIN ... COMMIT) of at most one
// page of rows, taken in key order after the last key read (keyset
// paging), so nothing is held open between requests but connections:
// the one reading, and those that read a database live, kept for the
// second pass (dbrun.go says why).

// dbFile is one SQLite database of a store: its directory, reached
// through symlinks once as the user or the agent configured it, and its
// name there.
type dbFile struct {
	dir, name string
}

// dbSchema is how one agent keeps its sessions in a database.
type dbSchema struct {
	agent string
	// required are the columns each table must have: a database without
	// one has a schema scout does not know.
	required map[string][]string
	// page selects, after a key and up to a limit, in key order, the
	// sessions that are not a child's or archived: id, directory (NULL when
	// the database is the project's), title, created, updated, and whether
	// a user message exists.
	page string
	// one selects the same for one id, with whether it is a child's or
	// archived (session.open).
	one string
	// count counts what page would return in all (session.list's ceiling).
	count string
	// millis says the times are milliseconds since 1970 (else seconds).
	millis bool
}

// dbState is what a database was when a scan read it: read (or found
// unreadable: broken; neither: missing), how it was opened, its main
// file, the data version SQLite reported in the first step, and the
// signature of the sessions the scan made rows of.
type dbState struct {
	read, broken bool
	live         bool
	info         fsguard.Info
	version      int64
	sig          signature
}

// dbConn is one database opened for reading.
type dbConn struct {
	db   *sql.DB
	root *fsguard.Root
	name string
	live bool
	info fsguard.Info // the main file when opened
}

func (c *dbConn) close() {
	if c.db != nil {
		c.db.Close()
	}
	if c.root != nil {
		c.root.Close()
	}
}

// dbOpens counts the databases handed to the driver: SQLite itself starts
// (sqlite3_initialize) at the first, so a process that finds no database
// never starts it (TestNoDatabaseNoDriver).
var dbOpens atomic.Int64

// Outcomes of opening a database other than a connection.
var (
	errDBMissing = errors.New("sessions: no database")
	errDBUnknown = errors.New("sessions: database of an unknown schema")
)

// openDB opens f through the guarded helpers: its directory must exist
// (else errDBMissing), the file must be a regular file reached without a
// symlink (else errUnsafeEntry), and its schema must be s's (else
// errDBUnknown, or ErrMalformed for a file that is not a database).
func openDB(ctx context.Context, f dbFile, s *dbSchema) (*dbConn, error) {
	dir, err := filepath.EvalSymlinks(f.dir)
	if err != nil {
		return nil, errDBMissing
	}
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		return nil, errDBMissing
	}
	c := &dbConn{root: root, name: f.name}
	if c.info, err = lstatInfo(root, f.name); err != nil {
		c.close()
		if errors.Is(err, fsguard.ErrNotFound) {
			return nil, errDBMissing
		}
		return nil, errUnsafeEntry
	}
	if !c.info.Mode.IsRegular() {
		c.close()
		return nil, errUnsafeEntry
	}
	c.live = regularIn(root, f.name+"-wal") && regularIn(root, f.name+"-shm")
	dbOpens.Add(1)
	if c.db, err = sql.Open("sqlite", dsn(filepath.Join(dir, f.name), c.live)); err != nil {
		c.close()
		return nil, ErrMalformed
	}
	c.db.SetMaxOpenConns(1) // one connection: data_version is per connection
	if err := checkSchema(ctx, c.db, s); err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// regularIn reports whether name is a regular file in root (no symlink).
func regularIn(root *fsguard.Root, name string) bool {
	info, err := lstatInfo(root, name)
	return err == nil && info.Mode.IsRegular()
}

// lstatInfo describes name in root, without following it.
func lstatInfo(root *fsguard.Root, name string) (fsguard.Info, error) {
	fi, err := root.Lstat(name)
	if err != nil {
		return fsguard.Info{}, err
	}
	info, ok := fi.Sys().(*fsguard.Info)
	if !ok {
		return fsguard.Info{}, errUnsafeEntry
	}
	return *info, nil
}

// dsn is the read-only data source name of the database at path.
func dsn(path string, live bool) string {
	u := url.URL{Scheme: "file", Path: path}
	q := "mode=ro&_pragma=busy_timeout(2000)"
	if !live {
		q += "&immutable=1"
	}
	return u.String() + "?" + q
}

// checkSchema checks that every column s reads exists.
func checkSchema(ctx context.Context, db *sql.DB, s *dbSchema) error {
	for table, cols := range s.required {
		have := map[string]bool{}
		rows, err := db.QueryContext(ctx, "SELECT name FROM pragma_table_info(?)", table)
		if err != nil {
			return dbErr(err)
		}
		for rows.Next() {
			var name string
			if rows.Scan(&name) == nil {
				have[name] = true
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return dbErr(err)
		}
		for _, c := range cols {
			if !have[c] {
				return errDBUnknown
			}
		}
	}
	return nil
}

// dbErr maps a driver error to what it means here: cancellation passes,
// anything else is a database scout cannot read (malformed).
func dbErr(err error) error {
	if err == nil || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return ErrMalformed
}

// dbRow is one candidate session a query returned.
type dbRow struct {
	id, dir, title   string
	created, updated int64
	user, child      bool
}

// step reads, in one read transaction, at most limit candidates after key
// and the data version.
func (c *dbConn) step(ctx context.Context, s *dbSchema, after string, limit int) ([]dbRow, int64, error) {
	tx, err := c.db.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return nil, 0, dbErr(err)
	}
	defer tx.Rollback()
	var version int64
	if err := tx.QueryRowContext(ctx, "PRAGMA data_version").Scan(&version); err != nil {
		return nil, 0, dbErr(err)
	}
	rows, err := tx.QueryContext(ctx, s.page, after, limit)
	if err != nil {
		return nil, 0, dbErr(err)
	}
	out, err := scanRows(rows, false)
	if err != nil {
		return nil, 0, err
	}
	return out, version, dbErr(tx.Commit())
}

// scanRows reads every row of rows (child says the query has a sixth
// column, whether the session is a child's or archived).
func scanRows(rows *sql.Rows, child bool) ([]dbRow, error) {
	defer rows.Close()
	var out []dbRow
	for rows.Next() {
		var r dbRow
		var dir, title sql.NullString
		var created, updated sql.NullInt64
		dest := []any{&r.id, &dir, &title, &created, &updated, &r.user}
		if child {
			dest = append(dest, &r.child)
		}
		if err := rows.Scan(dest...); err != nil {
			return nil, ErrMalformed
		}
		r.dir, r.title, r.created, r.updated = dir.String, title.String, created.Int64, updated.Int64
		out = append(out, r)
	}
	return out, dbErr(rows.Err())
}

// unchanged reports whether the main file is still the one opened: the
// same file, reached without a symlink, and, for a database read at rest,
// the same bytes (no checkpoint wrote it) and still at rest.
func (c *dbConn) unchanged() bool {
	now, err := lstatInfo(c.root, c.name)
	if err != nil || !now.Mode.IsRegular() || !now.SameFile(c.info) {
		return false
	}
	if c.live {
		return true
	}
	return now.Size == c.info.Size && now.ModTime.Equal(c.info.ModTime) && now.ChangeTime.Equal(c.info.ChangeTime)
}

// restsAsRead reports whether c, a fresh connection, shows the database
// st recorded reading at rest: the same main file, not written since and
// still at rest. A database read live cannot be judged by a fresh
// connection (see committedNothing): it is never the same.
func (c *dbConn) restsAsRead(st dbState) bool {
	if st.live || c.live || !c.info.SameFile(st.info) || !c.unchanged() {
		return false
	}
	return !regularIn(c.root, c.name+"-wal") && c.info.Size == st.info.Size && c.info.ModTime.Equal(st.info.ModTime)
}

// committedNothing reports whether c, the connection that read a live
// database and whose first step saw data version, has seen no commit of
// another connection since: the same main file, still live, the same
// PRAGMA data_version (which only the same connection can compare).
func (c *dbConn) committedNothing(ctx context.Context, version int64) bool {
	if !c.live || !c.unchanged() || !regularIn(c.root, c.name+"-wal") || !regularIn(c.root, c.name+"-shm") {
		return false
	}
	var v int64
	return c.db.QueryRowContext(ctx, "PRAGMA data_version").Scan(&v) == nil && v == version
}

// dbTime is a stored time in UTC (0 or negative: none).
func (s *dbSchema) time(v int64) (time.Time, bool) {
	if v <= 0 {
		return time.Time{}, false
	}
	var t time.Time
	if s.millis || v > 100_000_000_000 { // seconds that large are past year 5000: milliseconds
		t = time.UnixMilli(v)
	} else {
		t = time.Unix(v, 0)
	}
	return t.UTC(), writableYear(t)
}

// judge turns a candidate into a row, or says why it is not one:
// errNotSession (no user message), errForeign (another directory's),
// ErrMalformed or errNoTime (invalid).
func (s *dbSchema) judge(r dbRow, m *cwdMatcher, scratch *titleBuilder) (wire.SessionRow, error) {
	row := wire.SessionRow{ID: r.id}
	created, okC := s.time(r.created)
	updated, okU := s.time(r.updated)
	switch {
	case !wire.ValidSessionID(r.id):
		row.ID = ""
		return row, ErrMalformed
	case r.child || !r.user:
		return row, errNotSession
	case r.dir != "" && !m.matches([]byte(r.dir)):
		return row, errForeign
	case !okC:
		return row, errNoTime
	}
	if !okU || updated.Before(created) {
		updated = created
	}
	scratch.reset()
	scratch.addString(r.title)
	row.Agent, row.Title, row.Cwd, row.Records = s.agent, string(scratch.text()), wire.CwdVerified, 1
	row.CreatedAt, row.UpdatedAt = formatTime(created), formatTime(updated)
	return row, nil
}

// logUnknown says once on stderr that a database has a schema scout does
// not know (which agent's; never its path).
func logUnknown(w io.Writer, agent string) {
	if w != nil {
		fmt.Fprintf(w, "scout backend: %s's session database has a schema scout does not know; its sessions are not listed\n", agent)
	}
}

// uniqueFiles drops files named twice (the same directory and name).
func uniqueFiles(files []dbFile) []dbFile {
	var out []dbFile
	seen := map[string]bool{}
	for _, f := range files {
		k := filepath.Clean(f.dir) + "\x00" + f.name
		if !seen[k] && f.dir != "" && f.name != "" {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}
