package sqlitefile

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
)

// mixedScript makes table t of rows of every kind (ints of every width,
// floats, NULL, text, blobs, empty, UTF-8, values of up to big bytes in
// overflow) and indexes on its columns, in a database of pageSize.
func mixedScript(pageSize, rows, big int) string {
	return fmt.Sprintf(`PRAGMA page_size=%d;
CREATE TABLE t(id INTEGER PRIMARY KEY, i INTEGER, f REAL, s TEXT, b BLOB, k TEXT, "odd ""name""" ANY);
CREATE INDEX t_k ON t(k);
CREATE INDEX t_i ON t(i, s);
CREATE INDEX t_s ON t(s);
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < %d)
INSERT INTO t(id, i, f, s, b, k, "odd ""name""")
SELECT x*3,
  CASE x %% 9 WHEN 0 THEN x WHEN 1 THEN -x*300 WHEN 2 THEN x*70000 WHEN 3 THEN -x*9000000 WHEN 4 THEN x*3000000000
    WHEN 5 THEN -x*900000000000 WHEN 6 THEN 9223372036854775807 - x WHEN 7 THEN -9223372036854775807 - 1 + x ELSE NULL END,
  CASE x %% 4 WHEN 0 THEN x / 7.0 WHEN 1 THEN -1e300 * x WHEN 2 THEN 0.0 ELSE NULL END,
  CASE x %% 5 WHEN 0 THEN '' WHEN 1 THEN 'héllo wörld ✓ ' || x WHEN 2 THEN printf('%%.*c', x %% 3000, 'z') WHEN 3 THEN NULL ELSE 'v' || x END,
  CASE x %% 6 WHEN 0 THEN x'' WHEN 1 THEN randomblob(x %% 700) WHEN 2 THEN zeroblob(5) ELSE NULL END,
  CASE WHEN x %% 3 = 0 THEN 'common' WHEN x %% 101 = 0 THEN printf('%%.*c', %d, 'k') || x ELSE 'key' || (x %% 37) END,
  CASE x %% 3 WHEN 0 THEN 1 WHEN 1 THEN 0 ELSE 2.5 END
FROM n;
INSERT INTO t(id, s, b, k) VALUES (1, printf('%%.*c', %d, 'L'), randomblob(%d), 'big');
`, pageSize, rows, big/10, big, big/2)
}

func TestPageSizesAndMixedValues(t *testing.T) {
	t.Parallel()
	for _, ps := range []int{512, 4096, 65536} {
		t.Run(strconv.Itoa(ps), func(t *testing.T) {
			t.Parallel()
			rows, big := 3000, 200_000
			if ps == 65536 {
				big = 1_100_000
			}
			path := newDB(t, mixedScript(ps, rows, big))
			db := mustOpen(t, path)
			if db.PageSize() != ps {
				t.Fatalf("page size %d", db.PageSize())
			}
			if n := checkTable(t, db, path, "t"); n != rows+1 {
				t.Fatalf("%d rows", n)
			}
			tb := mustTable(t, db, "T")
			// The fixture is what it is meant to be: multi-level trees.
			ix := tb.Index("k")
			for _, root := range []uint32{tb.def.root, ix.def.root} {
				if p, err := db.btreePage(root); err != nil || p.leaf() {
					t.Fatalf("root page %d is a leaf (%v)", root, err)
				}
			}
			if tb.Column("ID") != 0 || tb.Column(`odd "name"`) != 6 || tb.Column("nope") != -1 {
				t.Fatalf("Column: %v", tb.Columns())
			}
			if n := checkSeek(t, db, path, "t", "k", TextValue("common"), "'common'"); n != rows/3 {
				t.Fatalf("Seek common: %d rowids", n)
			}
			checkSeek(t, db, path, "t", "k", TextValue("key5"), "'key5'")
			checkSeek(t, db, path, "t", "k", TextValue("big"), "'big'")
			checkSeek(t, db, path, "t", "k", TextValue("absent"), "'absent'")
			long := strings.Repeat("k", big/10) + "202"
			if n := checkSeek(t, db, path, "t", "k", TextValue(long), "'"+long+"'"); n != 1 {
				t.Fatalf("Seek of a key in overflow: %d rowids", n)
			}
			checkSeek(t, db, path, "t", "i", IntValue(9223372036854775807-6), "9223372036854775801")
			checkSeek(t, db, path, "t", "s", TextValue(""), "''")
			checkSeek(t, db, path, "t", "i", Value{Type: Float, Float: 9}, "9.0")
			if n := checkAfter(t, db, path, "t", "k", TextValue(""), "''", 100); n < rows/2 {
				t.Fatalf("%d entries after the empty key", n)
			}
			checkAfter(t, db, path, "t", "k", TextValue("key5"), "'key5'", 7)
			checkAfter(t, db, path, "t", "k", TextValue("common"), "'common'", 1)
			checkAfter(t, db, path, "t", "k", TextValue("zzzz"), "'zzzz'", 3)
			checkAfter(t, db, path, "t", "i", IntValue(0), "0", 50)
		})
	}
}

// TestSeekFindsNullKeys: a NULL key finds the NULL entries (SQL's = would
// not), so checkSeek's comparison above must be of an empty list; here
// the count is checked against IS NULL.
func TestSeekFindsNullKeys(t *testing.T) {
	t.Parallel()
	path := newDB(t, mixedScript(1024, 900, 5000))
	db := mustOpen(t, path)
	ix := mustTable(t, db, "t").Index("i")
	var n int
	if err := ix.Seek(Value{}, func(int64) (bool, error) { n++; return true, nil }); err != nil {
		t.Fatal(err)
	}
	want, _ := strconv.Atoi(strings.TrimSpace(runSQL(t, path, "SELECT count(*) FROM t WHERE i IS NULL;")))
	if n != want || n == 0 {
		t.Fatalf("Seek(NULL) found %d, want %d", n, want)
	}
	// Stopping early.
	n = 0
	if err := ix.Seek(Value{}, func(int64) (bool, error) { n++; return n < 3, nil }); err != nil || n != 3 {
		t.Fatalf("stopping Seek: %d %v", n, err)
	}
	boom := errors.New("boom")
	if err := ix.Seek(Value{}, func(int64) (bool, error) { return true, boom }); err != boom {
		t.Fatalf("Seek error: %v", err)
	}
	if err := mustTable(t, db, "t").Scan(func(*Row) error { return boom }); err != boom {
		t.Fatalf("Scan error: %v", err)
	}
}

func TestAlterTableAddColumnDefaults(t *testing.T) {
	t.Parallel()
	path := newDB(t, `CREATE TABLE a(x TEXT, y);
INSERT INTO a VALUES ('old', 1), ('old2', 2);
ALTER TABLE a ADD COLUMN n INTEGER NOT NULL DEFAULT -42;
ALTER TABLE a ADD COLUMN f REAL DEFAULT +1.5e3;
ALTER TABLE a ADD COLUMN s TEXT DEFAULT 'it''s';
ALTER TABLE a ADD COLUMN b BLOB DEFAULT x'00ff';
ALTER TABLE a ADD COLUMN z DEFAULT NULL;
ALTER TABLE a ADD COLUMN none;
ALTER TABLE a ADD COLUMN tr DEFAULT TRUE;
ALTER TABLE a ADD COLUMN h DEFAULT 0x10;
ALTER TABLE a ADD COLUMN p DEFAULT (-7);
ALTER TABLE a ADD COLUMN r REAL DEFAULT 3;
INSERT INTO a VALUES ('new', 3, 7, 8.5, 'n', x'01', 'z', 'none', 0, 5, 6, 7);
CREATE TABLE c(x);
INSERT INTO c VALUES (1);
PRAGMA writable_schema=ON;
UPDATE sqlite_schema SET sql = 'CREATE TABLE c(x, e DEFAULT (1 + 1))' WHERE name = 'c';
`)
	db := mustOpen(t, path)
	if n := checkTable(t, db, path, "a"); n != 3 {
		t.Fatalf("%d rows", n)
	}
	tb := mustTable(t, db, "c")
	err := tb.Scan(func(r *Row) error {
		_, err := r.Value(1)
		return err
	})
	if !errors.Is(err, ErrUnsupported) {
		t.Fatalf("non-constant default: %v", err)
	}
}

func TestAgentSchemas(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, schema, data string
		tables             []string
		seeks              [][3]string // table, column, key
		auto               [][2]string // table, column found by an automatic index
	}{
		{"crush", crushSchema, `
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 60)
INSERT INTO sessions(id, title, updated_at, created_at) SELECT 'ses-' || x, 'title ' || x, x, x FROM n;
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 3000)
INSERT INTO messages(id, session_id, role, parts, model, provider, created_at, updated_at)
SELECT 'msg-' || x, 'ses-' || (CASE WHEN x <= 500 THEN 7 ELSE x % 60 + 1 END), 'user', printf('[{"text":"%.*c"}]', x % 5000, 'p'), 'gpt', 'openai', x, x FROM n;
INSERT INTO read_files VALUES ('ses-1', '/a', 1), ('ses-2', '/b', 2);
INSERT INTO files VALUES ('f1', 'ses-1', '/a', 'content', 0, 1, 1);
`, []string{"sessions", "messages", "files", "read_files"},
			[][3]string{{"messages", "session_id", "ses-7"}, {"messages", "session_id", "ses-8"}, {"sessions", "created_at", "5"}, {"read_files", "session_id", "ses-2"}},
			[][2]string{{"sessions", "id"}, {"messages", "id"}, {"files", "path"}, {"files", "id"}}},
		{"opencode", openCodeSchema, `
INSERT INTO project VALUES ('p', '/', 'git', NULL, NULL, NULL, 0, 0, NULL, '[]');
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 40)
INSERT INTO session(id, project_id, slug, directory, title, version, time_created, time_updated) SELECT 'ses_' || x, 'p', 's', '/d', 't', '1', x, x FROM n;
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 2000)
INSERT INTO message SELECT 'msg_' || x, 'ses_' || (x % 40 + 1), x, x, printf('{"role":"user","t":"%.*c"}', x % 3000, 'q') FROM n;
INSERT INTO todo VALUES ('ses_1', 'c', 's', 'p', 1, 0, 0), ('ses_1', 'd', 's', 'p', 2, 0, 0);
`, []string{"project", "session", "message", "todo"},
			[][3]string{{"message", "session_id", "ses_3"}, {"todo", "session_id", "ses_1"}},
			[][2]string{{"session", "id"}, {"message", "id"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			path := newDB(t, "PRAGMA journal_mode=WAL;\n"+tc.schema+tc.data+"PRAGMA wal_checkpoint(TRUNCATE);\n")
			db := mustOpen(t, path)
			for _, table := range tc.tables {
				checkTable(t, db, path, table)
			}
			for _, s := range tc.seeks {
				v := TextValue(s[2])
				if n, err := strconv.ParseInt(s[2], 10, 64); err == nil {
					v = IntValue(n)
				}
				if checkSeek(t, db, path, s[0], s[1], v, "'"+s[2]+"'") == 0 && !strings.HasPrefix(s[2], "5") {
					t.Fatalf("Seek %v found nothing", s)
				}
			}
			for _, a := range tc.auto {
				ix := mustTable(t, db, a[0]).Index(a[1])
				if ix == nil || !strings.HasPrefix(ix.Name(), "sqlite_autoindex_") && a[1] == "id" {
					t.Fatalf("no automatic index for %s.%s: %v", a[0], a[1], ix)
				}
			}
			if tc.name == "crush" {
				checkSeek(t, db, path, "messages", "id", TextValue("msg-77"), "'msg-77'")
			}
		})
	}
}

func TestRowidAliasAndAutoIndexes(t *testing.T) {
	t.Parallel()
	path := newDB(t, `CREATE TABLE a(x integer PRIMARY KEY, y);
CREATE TABLE b(x INTEGER PRIMARY KEY DESC, y);
CREATE TABLE c(y, x INTEGER, PRIMARY KEY(x));
CREATE TABLE d(x INT PRIMARY KEY, y UNIQUE, z TEXT COLLATE NOCASE UNIQUE, UNIQUE(y, x), UNIQUE(x));
CREATE INDEX d_z ON d(z);
CREATE INDEX d_zb ON d(z COLLATE BINARY);
CREATE INDEX d_p ON d(y) WHERE y > 0;
CREATE INDEX d_desc ON d(x DESC);
INSERT INTO a VALUES (5, 'a'), (9, 'b');
INSERT INTO b VALUES (5, 'a'), (9, 'b');
INSERT INTO c VALUES ('a', 5), ('b', 9);
INSERT INTO d VALUES (1, 2, 'Z'), (3, 4, 'y');
`)
	db := mustOpen(t, path)
	for _, name := range []string{"a", "b", "c", "d"} {
		checkTable(t, db, path, name)
	}
	for name, alias := range map[string]int{"a": 0, "b": -1, "c": 1, "d": -1} {
		if got := mustTable(t, db, name).def.alias; got != alias {
			t.Errorf("%s: alias column %d, want %d", name, got, alias)
		}
	}
	d := mustTable(t, db, "d")
	if ix := d.Index("x"); ix == nil || ix.Name() != "sqlite_autoindex_d_1" {
		t.Fatalf("Index(x) = %v", ix)
	}
	if ix := d.Index("y"); ix == nil || ix.Name() != "sqlite_autoindex_d_2" {
		t.Fatalf("Index(y) = %v", ix)
	}
	if ix := d.Index("z"); ix == nil || ix.Name() != "d_zb" {
		t.Fatalf("Index(z) = %v", ix)
	}
	checkSeek(t, db, path, "d", "z", TextValue("Z"), "'Z' COLLATE BINARY")
	checkSeek(t, db, path, "d", "x", IntValue(3), "3")
	checkSeek(t, db, path, "d", "y", IntValue(2), "2")
	if ix := mustTable(t, db, "a").Index("y"); ix != nil {
		t.Fatalf("a has an index on y: %v", ix.Name())
	}
}

func TestUnsupportedAndMissing(t *testing.T) {
	t.Parallel()
	path := newDB(t, `CREATE TABLE w(a TEXT PRIMARY KEY, b) WITHOUT ROWID;
CREATE VIRTUAL TABLE v USING fts5(x);
CREATE TABLE g(a, b AS (a + 1));
CREATE TABLE ok(a);
`)
	db := mustOpen(t, path)
	for _, name := range []string{"w", "v", "g"} {
		if _, err := db.Table(name); !errors.Is(err, ErrUnsupported) {
			t.Errorf("Table(%s): %v", name, err)
		}
	}
	if _, err := db.Table("nope"); !errors.Is(err, ErrNoTable) {
		t.Errorf("Table(nope): %v", err)
	}
	if _, err := db.Table("OK"); err != nil {
		t.Errorf("Table(OK): %v", err)
	}
	checkTable(t, db, path, "sqlite_master")

	utf16 := newDB(t, "PRAGMA encoding='UTF-16le';\nCREATE TABLE t(a);\nINSERT INTO t VALUES ('x');\n")
	if _, err := openPath(t, utf16); !errors.Is(err, ErrUnsupported) {
		t.Errorf("UTF-16 database: %v", err)
	}
	other := t.TempDir() + "/not.db"
	if err := os.WriteFile(other, []byte("hello, this is not a database at all, but it is long enough to have a header........................................"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := openPath(t, other); !errors.Is(err, ErrNotDatabase) {
		t.Errorf("text file: %v", err)
	}
	if _, err := Open(Files{Main: bytes.NewReader(nil)}); !errors.Is(err, ErrNotDatabase) {
		t.Errorf("empty file: %v", err)
	}
}

// readAll opens b as a main file and reads every table and index in full:
// the first error.
func readAll(f Files) error {
	db, err := Open(f)
	if err != nil {
		return err
	}
	return exercise(db)
}

// exercise reads every readable table and index of db in full.
func exercise(db *DB) error {
	for _, name := range db.Tables() {
		tb, err := db.Table(name)
		if err != nil {
			continue
		}
		n := len(tb.Columns())
		var last int64
		err = tb.Scan(func(r *Row) error {
			last = r.Rowid()
			for i := range n {
				if _, err := r.Value(i); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		if _, _, err := tb.Get(last); err != nil {
			return err
		}
		for _, c := range tb.Columns() {
			if ix := tb.Index(c); ix != nil {
				var first *Value
				if err := ix.Scan(func(key []Value) error {
					if first == nil {
						v := key[0]
						first = &v
					}
					return nil
				}); err != nil {
					return err
				}
				if first != nil {
					if err := ix.Seek(*first, func(int64) (bool, error) { return true, nil }); err != nil {
						return err
					}
					if err := ix.After(*first, func(Value, int64) (bool, error) { return true, nil }); err != nil {
						return err
					}
				}
			}
		}
	}
	return nil
}

func TestCorruption(t *testing.T) {
	t.Parallel()
	path := newDB(t, mixedScript(1024, 600, 5000))
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	root, _ := strconv.Atoi(strings.TrimSpace(runSQL(t, path, "SELECT rootpage FROM sqlite_schema WHERE name = 't';")))
	iroot, _ := strconv.Atoi(strings.TrimSpace(runSQL(t, path, "SELECT rootpage FROM sqlite_schema WHERE name = 't_k';")))
	if err := readAll(Files{Main: bytes.NewReader(orig), MainSize: int64(len(orig))}); err != nil {
		t.Fatalf("the intact file: %v", err)
	}
	at := func(pg int) int { return (pg - 1) * 1024 }
	for _, tc := range []struct {
		name   string
		change func(b []byte) []byte
		want   error
	}{
		{"page type", func(b []byte) []byte { b[at(root)] = 7; return b }, ErrMalformed},
		{"cycle to the root", func(b []byte) []byte { copy(b[at(root)+8:], be32(uint32(root))); return b }, ErrMalformed},
		{"index cycle", func(b []byte) []byte { copy(b[at(iroot)+8:], be32(uint32(iroot))); return b }, ErrMalformed},
		{"child out of range", func(b []byte) []byte { copy(b[at(root)+8:], be32(1<<30)); return b }, ErrMalformed},
		{"cell count", func(b []byte) []byte { b[at(root)+3], b[at(root)+4] = 0xff, 0xff; return b }, ErrMalformed},
		{"truncated", func(b []byte) []byte { return b[:len(b)/2] }, ErrMalformed},
		{"truncated header", func(b []byte) []byte { return b[:60] }, ErrMalformed},
		{"page size", func(b []byte) []byte { b[16], b[17] = 0x03, 0x00; return b }, ErrMalformed},
		{"usable size", func(b []byte) []byte { b[20] = 255; return b }, ErrMalformed},
		{"magic", func(b []byte) []byte { b[0] = 's'; return b }, ErrNotDatabase},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			b := tc.change(bytes.Clone(orig))
			err := readAll(Files{Main: bytes.NewReader(b), MainSize: int64(len(b))})
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
		})
	}
	// Every overflow pointer of every cell pointing elsewhere: each byte
	// of the file rotated in turn would take too long; flip bytes at a
	// stride instead and require only no panic and no hang.
	for off := 100; off < len(orig); off += len(orig) / 300 {
		b := bytes.Clone(orig)
		b[off] ^= 0xa5
		_ = readAll(Files{Main: bytes.NewReader(b), MainSize: int64(len(b))})
	}
}

func be32(v uint32) []byte { return []byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)} }

// TestBadOverflowChain points a row's overflow chain back at itself, past
// the file, and at nothing: reading the value fails, reading the others
// does not.
func TestBadOverflowChain(t *testing.T) {
	t.Parallel()
	path := newDB(t, "PRAGMA page_size=512;\nCREATE TABLE t(a, big);\nINSERT INTO t VALUES ('small', printf('%.*c', 3000, 'o'));\n")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	db := mustOpen(t, path)
	r, ok, err := mustTable(t, db, "t").Get(1)
	if err != nil || !ok {
		t.Fatal(ok, err)
	}
	if v, err := r.Value(1); err != nil || len(v.Bytes) != 3000 {
		t.Fatalf("intact: %d bytes, %v", len(v.Bytes), err)
	}
	first, second := r.rec.p.chain[0], r.rec.p.chain[1]
	for name, next := range map[string]uint32{"loop": first, "past the file": 1 << 20, "nothing": 0} {
		b := bytes.Clone(orig)
		copy(b[(second-1)*512:], be32(next))
		db, err := Open(Files{Main: bytes.NewReader(b), MainSize: int64(len(b))})
		if err != nil {
			t.Fatal(err)
		}
		r, ok, err := mustTable(t, db, "t").Get(1)
		if err != nil || !ok {
			t.Fatal(ok, err)
		}
		if v, err := r.Value(0); err != nil || string(v.Bytes) != "small" {
			t.Fatalf("%s: the local value: %v", name, err)
		}
		if _, err := r.Value(1); !errors.Is(err, ErrMalformed) {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// TestConcurrentReads reads one DB from several goroutines at once (the
// doc says a DB is safe for that; -race checks it).
func TestConcurrentReads(t *testing.T) {
	t.Parallel()
	path := newDB(t, mixedScript(1024, 500, 5000))
	db := mustOpen(t, path)
	want := len(ourRows(t, mustTable(t, db, "t")))
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			tb, err := db.Table("t")
			if err != nil {
				errs <- err
				return
			}
			n := 0
			err = tb.Scan(func(r *Row) error {
				n++
				_, err := r.Value(3)
				return err
			})
			if err == nil && n != want {
				err = fmt.Errorf("%d rows, want %d", n, want)
			}
			if err == nil {
				err = tb.Index("k").Seek(TextValue("common"), func(int64) (bool, error) { return true, nil })
			}
			errs <- err
		}()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
}
