package sqlitefile

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// fuzzFixture is a small live database (512-byte pages): its main file
// and its WAL with two commits and an index, made by sqlite3.
func fuzzFixture(f testing.TB) (main, wal []byte) {
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

// FuzzOpen opens arbitrary bytes as a main file (mode 0), as a WAL over
// a valid main file (1), and as one whose salts and checksums are made
// valid first (2, so that mutated pages get read): errors are fine,
// panics, hangs and huge allocations are not.
func FuzzOpen(f *testing.F) {
	main, wal := fuzzFixture(f)
	f.Logf("seeds: main %d bytes, WAL %d", len(main), len(wal))
	f.Add(main, uint8(0))
	f.Add(wal, uint8(1))
	f.Add(wal, uint8(2))
	f.Add(main[:1024], uint8(0))
	f.Add(wal[:len(wal)/2], uint8(2))
	f.Add([]byte(magic), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		files := Files{Main: bytes.NewReader(data), MainSize: int64(len(data))}
		if mode%3 != 0 {
			if mode%3 == 2 {
				data = fixWAL(data)
			}
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

// fixWAL makes the WAL header and every frame valid as SQLite checks
// them (magic, version, salts, cumulative checksums), whatever they hold.
func fixWAL(b []byte) []byte {
	if len(b) < walHdrSize {
		return b
	}
	b = bytes.Clone(b)
	big := b[3]&1 == 1
	binary.BigEndian.PutUint32(b, 0x377f0682|uint32(b[3]&1))
	binary.BigEndian.PutUint32(b[4:], 3007000)
	ps := int(binary.BigEndian.Uint32(b[8:]))
	if ps < 512 || ps > 65536 || ps&(ps-1) != 0 {
		ps = 512
		binary.BigEndian.PutUint32(b[8:], 512)
	}
	sum := walChecksum([2]uint32{}, b[:24], big)
	binary.BigEndian.PutUint32(b[24:], sum[0])
	binary.BigEndian.PutUint32(b[28:], sum[1])
	for at := walHdrSize; at+frameHdrLen+ps <= len(b); at += frameHdrLen + ps {
		fr := b[at:]
		copy(fr[8:16], b[16:24])
		sum = walChecksum(sum, fr[:8], big)
		sum = walChecksum(sum, fr[frameHdrLen:frameHdrLen+ps], big)
		binary.BigEndian.PutUint32(fr[16:], sum[0])
		binary.BigEndian.PutUint32(fr[20:], sum[1])
	}
	return b
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
