package sqlitefile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// fuzzFixture is a small live database (512-byte pages): its main file
// and its WAL with two commits and an index, made by sqlite3.
func fuzzFixture(f *testing.F) (main, wal []byte) {
	path := filepath.Join(f.TempDir(), "fuzz.db")
	runSQL(f, path, `PRAGMA page_size=512;
CREATE TABLE t(id INTEGER PRIMARY KEY, a TEXT, b REAL, c BLOB);
CREATE INDEX t_a ON t(a);
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 30)
INSERT INTO t(a, b, c) SELECT 'a' || (x % 4), x / 3.0, CASE WHEN x = 9 THEN zeroblob(1200) ELSE x'01' END FROM n;
ALTER TABLE t ADD COLUMN d DEFAULT 'd';
PRAGMA journal_mode=WAL;
`)
	// sqlite3 checkpoints and deletes the WAL when its last connection
	// closes: copy the files while it is open.
	runSQL(f, path, `PRAGMA wal_autocheckpoint=0;
INSERT INTO t(a, c, d) VALUES ('wal', x'02', 'x');
UPDATE t SET a = 'upd' WHERE id % 5 = 0;
.shell cp '`+path+`-wal' '`+path+`-wal.keep'
.shell cp '`+path+`' '`+path+`.keep'
`)
	var err error
	if main, err = os.ReadFile(path + ".keep"); err != nil {
		f.Fatal(err)
	}
	if wal, err = os.ReadFile(path + "-wal.keep"); err != nil {
		f.Fatal(err)
	}
	db, err := Open(Files{Main: bytes.NewReader(main), MainSize: int64(len(main)), WAL: bytes.NewReader(wal), WALSize: int64(len(wal))})
	if err != nil || db.Version().Frame == 0 {
		f.Fatalf("the fixture's WAL: %v, %v", err, db)
	}
	if err := exercise(db); err != nil {
		f.Fatalf("the fixture: %v", err)
	}
	return main, wal
}

// FuzzOpen opens arbitrary bytes as a main file, and as a WAL over a
// valid main file, and reads every table and index: errors are fine,
// panics, hangs and huge allocations are not.
func FuzzOpen(f *testing.F) {
	main, wal := fuzzFixture(f)
	f.Logf("seeds: main %d bytes, WAL %d", len(main), len(wal))
	f.Add(main, false)
	f.Add(wal, true)
	f.Add(main[:1024], false)
	f.Add(wal[:len(wal)/2], true)
	f.Add([]byte(magic), false)
	f.Fuzz(func(t *testing.T, data []byte, asWAL bool) {
		files := Files{Main: bytes.NewReader(data), MainSize: int64(len(data))}
		if asWAL {
			files = Files{Main: bytes.NewReader(main), MainSize: int64(len(main)), WAL: bytes.NewReader(data), WALSize: int64(len(data))}
		}
		db, err := Open(files)
		if err != nil {
			return
		}
		_ = exercise(db)
		db.Stable()
	})
}

// FuzzParseCreateTable parses arbitrary statements as CREATE TABLE and
// CREATE INDEX: errors are fine, panics are not; a parsed table has
// columns and an alias among them.
func FuzzParseCreateTable(f *testing.F) {
	for _, s := range []string{crushSchema, openCodeSchema, mixedScript(512, 1, 1)} {
		for _, stmt := range bytes.Split([]byte(s), []byte(";")) {
			f.Add(string(stmt))
		}
	}
	f.Add("CREATE TABLE x(a INTEGER, b DEFAULT (-1), c DEFAULT x'0a', PRIMARY KEY(a DESC)) WITHOUT ROWID")
	f.Add("CREATE TABLE [x](\"a\"\"b\" `c` /* c */ -- d\n, e AS (1))")
	f.Fuzz(func(t *testing.T, sql string) {
		if d, err := parseCreateTable(sql); err == nil {
			if len(d.cols) == 0 || d.alias >= len(d.cols) {
				t.Fatalf("%d columns, alias %d", len(d.cols), d.alias)
			}
		}
		_, _ = parseCreateIndex(sql)
	})
}
