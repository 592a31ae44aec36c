package sessions

import (
	"container/heap"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/sessions/internal/sqlitefile"
	"github.com/scoutdev/scout/backend/wire"
)

// This file reads the stores that are SQLite databases (crush's and
// opencode's) the way the rest of the package reads JSON-lines stores:
// through the guarded helpers, never writing, in bounded steps, counting
// what is not a row. The files are read by internal/sqlitefile, a reader
// of SQLite's file format that takes no lock and writes nothing (not even
// the -shm file a SQLite reader would), so the agent writing the database
// is never blocked and nothing of scout's appears next to it.
//
// How a database is read depends on its state:
//
//   - at rest (no -wal and -shm next to it): the main file alone. A writer
//     starting meanwhile writes to a new -wal, leaving the main file as it
//     was; only a checkpoint changes the main file, and every step checks
//     that it did not (unchanged).
//   - live (its -wal and -shm exist: the agent is running): the main file
//     with the -wal's frames up to its last commit, as a SQLite reader
//     would see it. A checkpoint or a new -wal while a step reads makes
//     the step read again (sqlitefile's Stable says when).
//
// Each step reads one snapshot of the database (the last commit when it
// starts) and returns at most one page of rows in key order after the
// last key read (keyset paging), so nothing is held between requests but
// the descriptor of the main file being read.

// dbFile is one SQLite database of a store: its directory, reached
// through symlinks once as the user or the agent configured it, and its
// name there.
type dbFile struct {
	dir, name string
}

// dbSchema is how one agent keeps its sessions in a database: the tables
// and the columns read of them. A database without one of them has a
// schema scout does not know.
type dbSchema struct {
	agent string
	// sessions is the sessions table: the session's id, its parent's (a
	// child's, a subagent's, is not listed), its directory ("": none, the
	// database is the project's), title, creation and update times, and
	// when it was archived ("": no such column; an archived session is not
	// listed).
	sessions                                           string
	id, parent, dir, title, created, updated, archived string
	// emptyParent says a parent that is the empty text is none (crush).
	emptyParent bool
	// messages is the messages table: a message's session and its role
	// (roleJSON: the member "role" of the JSON object the column holds).
	messages, msgSession, msgRole string
	roleJSON                      bool
	// millis says the times are milliseconds since 1970 (else seconds).
	millis bool
}

// dbState is what a database was when a scan read it: read (or found
// unreadable: broken; neither: missing), how it was opened, its main
// file, the commit its first step read, and the signature of the sessions
// the scan made rows of.
type dbState struct {
	read, broken bool
	live         bool
	info         fsguard.Info
	version      sqlitefile.Version
	sig          signature
}

// dbConn is one database opened for reading: its directory, its main
// file's descriptor and what that file was when opened, and whether the
// database was live then.
type dbConn struct {
	root   *fsguard.Root
	name   string
	main   *os.File
	live   bool
	info   fsguard.Info
	schema *dbSchema
}

func (c *dbConn) close() {
	if c.main != nil {
		c.main.Close()
	}
	if c.root != nil {
		c.root.Close()
	}
}

// dbOpens counts the databases opened for reading, so a process that
// finds no database is seen to open none (TestNoDatabaseNoOpen).
var dbOpens atomic.Int64

// Outcomes of opening a database other than a connection.
var (
	errDBMissing = errors.New("sessions: no database")
	errDBUnknown = errors.New("sessions: database of an unknown schema")
	// errDBBusy: every snapshot of a live database was made stale by a
	// checkpoint while it was read (maxSnapshotTries of them).
	errDBBusy = errors.New("sessions: database rewritten while read")
)

// maxSnapshotTries bounds the snapshots a step reads of a live database
// that checkpoints under it. A try is a few pages read; 8 of them all
// lost to a writer that commits every millisecond and checkpoints every
// second commit (TestDatabasesCheckpointedWhileRead, under -race on two
// cores) in about one run in ten, and the database then counted as
// unreadable; 32 lost none in 60 runs.
const maxSnapshotTries = 32

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
	c := &dbConn{root: root, name: f.name, schema: s}
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
	main, info, err := root.OpenFile(f.name)
	if err != nil || !info.SameFile(c.info) {
		if main != nil {
			main.Close()
		}
		c.close()
		return nil, errUnsafeEntry
	}
	c.main = main
	if err := c.read(ctx, func(db *sqlitefile.DB) error { _, _, _, err := s.tables(db); return err }); err != nil {
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

// read calls fn with a snapshot of the database: the main file alone at
// rest, the main file and the -wal live. A live snapshot a checkpoint or a
// new -wal made stale while fn read it is read again (fn's outcome on a
// stale snapshot, an error included, is not kept).
func (c *dbConn) read(ctx context.Context, fn func(*sqlitefile.DB) error) error {
	var err error
	for try := 0; try < maxSnapshotTries; try++ {
		if err = ctx.Err(); err != nil {
			return err
		}
		var db *sqlitefile.DB
		var done func()
		db, done, err = c.snapshot()
		if err == nil {
			err = fn(db)
		}
		// A live database that could not be opened may have been caught
		// in a checkpoint too: it is tried again like a stale one.
		stable := !c.live || (db != nil && db.Stable())
		done()
		if stable || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return dbErr(err)
		}
	}
	if err != nil {
		return dbErr(err)
	}
	return errDBBusy
}

// snapshot opens the database's last commit; done closes what it opened.
// A live database's -wal and -shm are opened anew each time: the agent
// deletes them when it ends (after a checkpoint, so the main file alone
// is then the database) and makes new ones when it starts again.
func (c *dbConn) snapshot() (*sqlitefile.DB, func(), error) {
	fi, err := c.main.Stat()
	if err != nil {
		return nil, func() {}, ErrMalformed
	}
	f := sqlitefile.Files{Main: c.main, MainSize: fi.Size()}
	var opened []*os.File
	done := func() {
		for _, f := range opened {
			f.Close()
		}
	}
	if c.live {
		// The -shm first: its checkpoint counters must be read before the
		// frames they count.
		if shm, _, err := c.root.OpenFile(c.name + "-shm"); err == nil {
			opened = append(opened, shm)
			if wal, info, err := c.root.OpenFile(c.name + "-wal"); err == nil {
				opened = append(opened, wal)
				f.SHM, f.WAL, f.WALSize = shm, wal, info.Size
			}
		}
	}
	db, err := sqlitefile.Open(f)
	if err != nil {
		return nil, done, err
	}
	return db, done, nil
}

// dbErr maps a reader's error to what it means here: cancellation and
// this file's own outcomes pass, anything else is a database scout cannot
// read (malformed).
func dbErr(err error) error {
	switch {
	case err == nil, errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded),
		err == errDBUnknown, err == errDBBusy, err == ErrMalformed:
		return err
	}
	return ErrMalformed
}

// dbRow is one candidate session a step returned.
type dbRow struct {
	id, dir, title   string
	created, updated int64
	user, child      bool
}

// sessionCols are the column numbers of a sessions table (-1: not read).
type sessionCols struct {
	id, parent, dir, title, created, updated, archived int
}

// tables finds s's tables in db and the columns read of them: a table or
// a column missing, or a table the reader cannot read (WITHOUT ROWID,
// virtual), is a schema scout does not know (errDBUnknown).
func (s *dbSchema) tables(db *sqlitefile.DB) (sessions, messages *sqlitefile.Table, cols sessionCols, err error) {
	table := func(name string) (*sqlitefile.Table, error) {
		t, err := db.Table(name)
		if errors.Is(err, sqlitefile.ErrNoTable) || errors.Is(err, sqlitefile.ErrUnsupported) {
			return nil, errDBUnknown
		}
		return t, err
	}
	if sessions, err = table(s.sessions); err != nil {
		return nil, nil, cols, err
	}
	if messages, err = table(s.messages); err != nil {
		return nil, nil, cols, err
	}
	col := func(name string) int {
		if name == "" {
			return -1
		}
		return sessions.Column(name)
	}
	cols = sessionCols{col(s.id), col(s.parent), col(s.dir), col(s.title), col(s.created), col(s.updated), col(s.archived)}
	if cols.id < 0 || cols.parent < 0 || cols.title < 0 || cols.created < 0 || cols.updated < 0 ||
		(s.dir != "" && cols.dir < 0) || (s.archived != "" && cols.archived < 0) ||
		messages.Column(s.msgSession) < 0 || messages.Column(s.msgRole) < 0 {
		return nil, nil, cols, errDBUnknown
	}
	return sessions, messages, cols, nil
}

// value reads column i of r (-1: NULL).
func value(r *sqlitefile.Row, i int) (sqlitefile.Value, error) {
	if i < 0 {
		return sqlitefile.Value{}, nil
	}
	return r.Value(i)
}

// child reports whether the session in r is not listed: a child's (it has
// a parent) or archived.
func (s *dbSchema) child(r *sqlitefile.Row, cols sessionCols) (bool, error) {
	parent, err := value(r, cols.parent)
	if err != nil {
		return false, err
	}
	if parent.Type != sqlitefile.Null && !(s.emptyParent && parent.Type == sqlitefile.Text && len(parent.Bytes) == 0) {
		return true, nil
	}
	archived, err := value(r, cols.archived)
	return archived.Type != sqlitefile.Null, err
}

// candidate reads the session in r: its row (user and child not set).
func candidate(r *sqlitefile.Row, cols sessionCols, id string) (dbRow, error) {
	row := dbRow{id: id}
	var err error
	text := func(i int) string {
		v, e := value(r, i)
		if e != nil {
			err = e
		}
		if v.Type == sqlitefile.Text {
			return string(v.Bytes)
		}
		return ""
	}
	number := func(i int) int64 {
		v, e := value(r, i)
		if e != nil {
			err = e
		}
		return integer(v)
	}
	row.dir, row.title = text(cols.dir), text(cols.title)
	row.created, row.updated = number(cols.created), number(cols.updated)
	return row, err
}

// integer is v as a whole number as SQLite's CAST would take it, 0 for
// anything that is not one (NULL, a fraction, a text that is not digits).
func integer(v sqlitefile.Value) int64 {
	switch v.Type {
	case sqlitefile.Integer:
		return v.Int
	case sqlitefile.Float:
		if f := v.Float; f == float64(int64(f)) {
			return int64(f)
		}
	case sqlitefile.Text:
		if n, err := strconv.ParseInt(string(v.Bytes), 10, 64); err == nil {
			return n
		}
	}
	return 0
}

// idOf is the session id of r, when it is text (a row whose id is not
// text is never a candidate: keys are compared as text).
func idOf(r *sqlitefile.Row, cols sessionCols) (string, bool, error) {
	v, err := r.Value(cols.id)
	if err != nil || v.Type != sqlitefile.Text {
		return "", false, err
	}
	return string(v.Bytes), true, nil
}

// every calls fn for each row of t, stopping at ctx's end (checked every
// 256 rows).
func every(ctx context.Context, t *sqlitefile.Table, fn func(*sqlitefile.Row) error) error {
	n := 0
	return t.Scan(func(r *sqlitefile.Row) error {
		if n++; n%256 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		return fn(r)
	})
}

// step reads, in one snapshot, at most limit candidates after key (in key
// order) and the commit read. Through the index on the session id (its
// primary key's, in crush's and opencode's) a step reads the entries after
// key and the rows they name until the page is full; without one, the
// sessions table once, keeping the page's smallest ids after key in a
// heap.
func (c *dbConn) step(ctx context.Context, s *dbSchema, after string, limit int) (out []dbRow, version sqlitefile.Version, err error) {
	err = c.read(ctx, func(db *sqlitefile.DB) error {
		out, version = nil, db.Version()
		sessions, messages, cols, err := s.tables(db)
		if err != nil {
			return err
		}
		keys, err := s.page(ctx, sessions, cols, after, limit)
		if err != nil {
			return err
		}
		for _, k := range keys {
			r, ok, err := sessions.Get(k.rowid)
			if err != nil || !ok {
				return errOr(err, ErrMalformed)
			}
			row, err := candidate(r, cols, k.id)
			if err != nil {
				return err
			}
			out = append(out, row)
		}
		return s.users(ctx, messages, out)
	})
	return out, version, err
}

// page returns the keys of at most limit candidates after key, in key
// order.
func (s *dbSchema) page(ctx context.Context, sessions *sqlitefile.Table, cols sessionCols, after string, limit int) ([]key, error) {
	if ix := sessions.Index(s.id); ix != nil {
		var keys []key
		err := ix.After(sqlitefile.Value{Type: sqlitefile.Text, Bytes: []byte(after)}, func(id sqlitefile.Value, rowid int64) (bool, error) {
			if err := ctx.Err(); err != nil {
				return false, err
			}
			if id.Type != sqlitefile.Text { // a blob, after every text
				return false, nil
			}
			r, ok, err := sessions.Get(rowid)
			if err != nil || !ok {
				return false, errOr(err, ErrMalformed) // an index entry without its row
			}
			child, err := s.child(r, cols)
			if err == nil && !child {
				keys = append(keys, key{string(id.Bytes), rowid})
			}
			return len(keys) < limit && err == nil, err
		})
		return keys, err
	}
	var top keyHeap
	err := every(ctx, sessions, func(r *sqlitefile.Row) error {
		v, err := r.Value(cols.id)
		if err != nil || v.Type != sqlitefile.Text || string(v.Bytes) <= after ||
			(len(top) == limit && string(v.Bytes) >= top[0].id) {
			return err
		}
		if child, err := s.child(r, cols); err != nil || child {
			return err
		}
		heap.Push(&top, key{string(v.Bytes), r.Rowid()})
		if len(top) > limit {
			heap.Pop(&top)
		}
		return nil
	})
	slices.SortFunc(top, func(a, b key) int { return strings.Compare(a.id, b.id) })
	return top, err
}

// key is a session's id and rowid.
type key struct {
	id    string
	rowid int64
}

// keyHeap is a max-heap of keys by id: the largest of the smallest ids
// kept is at its top.
type keyHeap []key

func (h keyHeap) Len() int           { return len(h) }
func (h keyHeap) Less(i, j int) bool { return h[i].id > h[j].id }
func (h keyHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *keyHeap) Push(x any)        { *h = append(*h, x.(key)) }
func (h *keyHeap) Pop() any {
	old := *h
	k := old[len(old)-1]
	*h = old[:len(old)-1]
	return k
}

// one reads the session id, with whether it is a child's or archived
// (session.open): none, or one row; through the index on the id when
// there is one, else by reading the table.
func (c *dbConn) one(ctx context.Context, id string) (out []dbRow, err error) {
	s := c.schema
	err = c.read(ctx, func(db *sqlitefile.DB) error {
		out = nil
		sessions, messages, cols, err := s.tables(db)
		if err != nil {
			return err
		}
		add := func(r *sqlitefile.Row) error {
			row, err := candidate(r, cols, id)
			if err != nil {
				return err
			}
			if row.child, err = s.child(r, cols); err != nil {
				return err
			}
			out = append(out, row)
			return nil
		}
		if ix := sessions.Index(s.id); ix != nil {
			err = ix.Seek(sqlitefile.Value{Type: sqlitefile.Text, Bytes: []byte(id)}, func(rowid int64) (bool, error) {
				r, ok, err := sessions.Get(rowid)
				if err != nil || !ok {
					return false, errOr(err, ErrMalformed) // an index entry without its row
				}
				return true, add(r)
			})
		} else {
			err = every(ctx, sessions, func(r *sqlitefile.Row) error {
				got, ok, err := idOf(r, cols)
				if err != nil || !ok || got != id {
					return err
				}
				return add(r)
			})
		}
		if err != nil {
			return err
		}
		return s.users(ctx, messages, out)
	})
	return out, err
}

// count counts the sessions a scan would judge: those not a child's nor
// archived, whatever their id.
func (c *dbConn) count(ctx context.Context) (n int, err error) {
	s := c.schema
	err = c.read(ctx, func(db *sqlitefile.DB) error {
		n = 0
		sessions, _, cols, err := s.tables(db)
		if err != nil {
			return err
		}
		return every(ctx, sessions, func(r *sqlitefile.Row) error {
			child, err := s.child(r, cols)
			if err == nil && !child {
				n++
			}
			return err
		})
	})
	return n, err
}

// users sets, for each row, whether its session has a message of the
// user: through an index of the messages by session when the database has
// one (crush's and opencode's do), else by one reading of every message.
func (s *dbSchema) users(ctx context.Context, messages *sqlitefile.Table, rows []dbRow) error {
	if len(rows) == 0 {
		return nil
	}
	session, role := messages.Column(s.msgSession), messages.Column(s.msgRole)
	var js jsonScanner
	isUser := func(r *sqlitefile.Row) (bool, error) {
		v, err := r.Value(role)
		if err != nil || v.Type != sqlitefile.Text {
			return false, err
		}
		if !s.roleJSON {
			return string(v.Bytes) == "user", nil
		}
		return jsonRoleIsUser(&js, v.Bytes), nil
	}
	if ix := messages.Index(s.msgSession); ix != nil {
		for i := range rows {
			key := sqlitefile.Value{Type: sqlitefile.Text, Bytes: []byte(rows[i].id)}
			err := ix.Seek(key, func(rowid int64) (bool, error) {
				if err := ctx.Err(); err != nil {
					return false, err
				}
				r, ok, err := messages.Get(rowid)
				if err != nil || !ok {
					return false, errOr(err, ErrMalformed) // an index entry without its row
				}
				user, err := isUser(r)
				rows[i].user = user
				return !user && err == nil, err
			})
			if err != nil {
				return err
			}
		}
		return nil
	}
	want := make(map[string]int, len(rows))
	for i, r := range rows {
		want[r.id] = i
	}
	return every(ctx, messages, func(r *sqlitefile.Row) error {
		v, err := r.Value(session)
		if err != nil || v.Type != sqlitefile.Text {
			return err
		}
		i, ok := want[string(v.Bytes)]
		if !ok || rows[i].user {
			return nil
		}
		rows[i].user, err = isUser(r)
		return err
	})
}

// errOr is err, or def when err is nil.
func errOr(err, def error) error {
	if err != nil {
		return err
	}
	return def
}

// jsonRoleIsUser reports whether data is one valid JSON object whose
// first member "role" is the string "user", as SQLite's
// json_valid(data) and json_extract(data, '$.role') = 'user' say.
func jsonRoleIsUser(js *jsonScanner, data []byte) bool {
	seen, user := false, false
	valid := js.members(data, func(name, value []byte) bool {
		if !seen && string(name) == "role" {
			seen = true
			s, ok := js.str(value)
			user = ok && string(s) == "user"
		}
		return true
	})
	return valid && user
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

// sameAsRead reports whether c, a fresh connection, shows the database st
// recorded reading: the same main file, and either still at rest and not
// written since, or still live at the same last commit.
func (c *dbConn) sameAsRead(ctx context.Context, st dbState) bool {
	if st.live != c.live || !c.info.SameFile(st.info) || !c.unchanged() {
		return false
	}
	if !c.live {
		return !regularIn(c.root, c.name+"-wal") && c.info.Size == st.info.Size && c.info.ModTime.Equal(st.info.ModTime)
	}
	var v sqlitefile.Version
	err := c.read(ctx, func(db *sqlitefile.DB) error { v = db.Version(); return nil })
	return err == nil && v == st.version
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

// uniqueFiles drops files named twice (the same file, symlinks of the
// directories resolved).
func uniqueFiles(files []dbFile) []dbFile {
	var out []dbFile
	seen := map[string]bool{}
	for _, f := range files {
		// The file itself, however named: crush's projects.json records
		// the workspace's own .crush as the data directory of the
		// workspace (data_dir "<root>/.crush"), through any symlink.
		dir, err := filepath.EvalSymlinks(f.dir)
		if err != nil {
			dir = filepath.Clean(f.dir)
		}
		k := filepath.Join(dir, f.name)
		if !seen[k] && f.dir != "" && f.name != "" {
			seen[k] = true
			out = append(out, f)
		}
	}
	return out
}
