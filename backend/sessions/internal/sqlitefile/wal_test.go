package sqlitefile

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"testing"
)

func count(t *testing.T, db *DB, table string) int {
	t.Helper()
	n := 0
	if err := mustTable(t, db, table).Scan(func(*Row) error { n++; return nil }); err != nil {
		t.Fatalf("Scan: %v", err)
	}
	return n
}

func fileSize(t *testing.T, path string) int64 {
	t.Helper()
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return st.Size()
}

// TestLiveWAL reads a database a sqlite3 process keeps writing in WAL
// mode, without checkpoints: committed rows are seen from the main file
// and the WAL, rows of an open transaction are not, each commit changes
// Version, and a checkpoint makes an older snapshot unstable.
func TestLiveWAL(t *testing.T) {
	t.Parallel()
	for _, ps := range []int{512, 4096} {
		t.Run(strconv.Itoa(ps), func(t *testing.T) { t.Parallel(); liveWAL(t, ps) })
	}
}

func liveWAL(t *testing.T, pageSize int) {
	path := filepath.Join(t.TempDir(), "live.db")
	c := startChild(t, path)
	c.exec("PRAGMA page_size=" + strconv.Itoa(pageSize) + "; PRAGMA journal_mode=WAL; PRAGMA wal_autocheckpoint=0; PRAGMA cache_size=10;")
	c.exec(`CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, k TEXT);
CREATE INDEX t_k ON t(k);
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 500)
INSERT INTO t(v, k) SELECT printf('%.*c', x * 7, 'v'), 'k' || (x % 10) FROM n;`)
	if fileSize(t, path+"-wal") == 0 {
		t.Fatal("the fixture has no WAL")
	}
	db1 := mustOpen(t, path)
	if db1.Version().Frame == 0 {
		t.Fatalf("no WAL commit seen: %v", db1.Version())
	}
	if n := checkTable(t, db1, path, "t"); n != 500 {
		t.Fatalf("%d rows after the first commit", n)
	}
	checkSeek(t, db1, path, "t", "k", TextValue("k3"), "'k3'")

	// Each commit changes Version; the older snapshot still holds (no
	// checkpoint) and still reads as it was.
	versions := map[Version]bool{db1.Version(): true}
	for i := range 3 {
		c.exec("INSERT INTO t(v, k) VALUES ('one more', 'k3');")
		db := mustOpen(t, path)
		if versions[db.Version()] {
			t.Fatalf("commit %d: Version %v seen before", i, db.Version())
		}
		versions[db.Version()] = true
		if n := count(t, db, "t"); n != 501+i {
			t.Fatalf("commit %d: %d rows", i, n)
		}
	}
	if !db1.Stable() {
		t.Fatal("commits without a checkpoint made the first snapshot unstable")
	}
	if n := count(t, db1, "t"); n != 500 {
		t.Fatalf("the first snapshot now has %d rows", n)
	}

	// An open transaction, large enough to spill frames into the WAL, is
	// not seen.
	before := fileSize(t, path+"-wal")
	c.exec(`BEGIN;
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 2000)
INSERT INTO t(v, k) SELECT printf('%.*c', 300, 'u'), 'k3' FROM n;`)
	if fileSize(t, path+"-wal") <= before {
		t.Fatal("the open transaction wrote no frame: the test checks nothing")
	}
	db2 := mustOpen(t, path)
	if n := count(t, db2, "t"); n != 503 {
		t.Fatalf("%d rows with a transaction open, want the 503 committed", n)
	}
	c.exec("COMMIT;")
	db3 := mustOpen(t, path)
	if n := checkTable(t, db3, path, "t"); n != 2503 {
		t.Fatalf("%d rows after the commit", n)
	}
	checkSeek(t, db3, path, "t", "k", TextValue("k3"), "'k3'")
	if !db1.Stable() || !db3.Stable() {
		t.Fatal("unstable before any checkpoint")
	}

	// A checkpoint copies pages into the main file: the snapshots taken
	// before are no longer stable; one taken after is, and reads the same.
	c.exec("PRAGMA wal_checkpoint(TRUNCATE);")
	if db1.Stable() || db3.Stable() {
		t.Fatal("a snapshot taken before the checkpoint is still stable")
	}
	db4 := mustOpen(t, path)
	if !db4.Stable() {
		t.Fatal("a snapshot taken after the checkpoint is unstable")
	}
	if n := checkTable(t, db4, path, "t"); n != 2503 {
		t.Fatalf("%d rows after the checkpoint", n)
	}
	// A commit after a truncating checkpoint starts a new WAL: still a new
	// version, and a passive checkpoint is seen by the -shm counters
	// alone (the WAL header stays).
	c.exec("INSERT INTO t(v, k) VALUES ('after', 'k1');")
	db5 := mustOpen(t, path)
	if versions[db5.Version()] || db5.Version() == db4.Version() {
		t.Fatalf("Version %v after the checkpoint seen before", db5.Version())
	}
	c.exec("INSERT INTO t(v, k) VALUES ('after 2', 'k1');")
	db6 := mustOpen(t, path)
	if !db5.Stable() || !db6.Stable() {
		t.Fatal("unstable before the passive checkpoint")
	}
	// The checkpoint copies db6's frames, and after db5's commit the
	// frame of db6's: db5 would now read the main file's newer pages; db6
	// reads those pages from the WAL still and stays stable.
	c.exec("PRAGMA wal_checkpoint(PASSIVE);")
	if db5.Stable() {
		t.Fatal("a passive checkpoint of a later commit left an older snapshot stable")
	}
	if !db6.Stable() {
		t.Fatal("a passive checkpoint of no frame past the snapshot made it unstable")
	}
	if n := checkTable(t, db6, path, "t"); n != 2505 {
		t.Fatalf("%d rows in the last snapshot after the checkpoint", n)
	}
	if n := checkTable(t, mustOpen(t, path), path, "t"); n != 2505 {
		t.Fatalf("%d rows at the end", n)
	}
}

// TestAtRest reads a rollback-mode database without a WAL: each commit
// changes the header's change counter, so Version, and makes an older
// snapshot unstable.
func TestAtRest(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "rest.db")
	runSQL(t, path, "CREATE TABLE t(a); INSERT INTO t VALUES (1);")
	db1 := mustOpen(t, path)
	if !db1.Stable() || db1.Version().Frame != 0 {
		t.Fatalf("at rest: stable %v, version %v", db1.Stable(), db1.Version())
	}
	runSQL(t, path, "INSERT INTO t VALUES (2);")
	if db1.Stable() {
		t.Fatal("a commit left the snapshot stable")
	}
	db2 := mustOpen(t, path)
	if db2.Version() == db1.Version() || count(t, db2, "t") != 2 {
		t.Fatalf("versions %v and %v, %d rows", db1.Version(), db2.Version(), count(t, db2, "t"))
	}
}

// TestBigEndianWAL reads a WAL sqlite3 wrote (checksums of little-endian
// words, magic 0x377f0682) and the same WAL rewritten as a big-endian
// machine writes it (0x377f0683): both give the same rows; and a WAL
// whose last frame's checksum is off is read up to the commit before.
func TestBigEndianWAL(t *testing.T) {
	t.Parallel()
	main, wal := fuzzFixture(t)
	if !bytes.Equal(fixWAL(wal), wal) {
		t.Fatal("recomputing the checksums of sqlite3's WAL changed it: the checksum differs from SQLite's")
	}
	read := func(wal []byte) (Version, [][]string) {
		db, err := Open(Files{Main: bytes.NewReader(main), MainSize: int64(len(main)), WAL: bytes.NewReader(wal), WALSize: int64(len(wal))})
		if err != nil {
			t.Fatal(err)
		}
		return db.Version(), ourRows(t, mustTable(t, db, "t"))
	}
	v1, rows1 := read(wal)
	be := bytes.Clone(wal)
	be[3] = 0x83
	be = fixWAL(be)
	v2, rows2 := read(be)
	if v2.Frame != v1.Frame || fmt.Sprint(rows1) != fmt.Sprint(rows2) {
		t.Fatalf("big-endian WAL: frame %d, want %d; rows equal: %v", v2.Frame, v1.Frame, fmt.Sprint(rows1) == fmt.Sprint(rows2))
	}
	torn := bytes.Clone(wal)
	torn[len(torn)-1] ^= 1
	v3, rows3 := read(torn)
	if v3.Frame >= v1.Frame || fmt.Sprint(rows3) == fmt.Sprint(rows1) {
		t.Fatalf("a torn last commit was read: frame %d of %d", v3.Frame, v1.Frame)
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReader) ReadAt(b []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(b, off)
	c.n.Add(int64(n))
	return n, err
}

// TestLazyOverflow reads the small column of rows whose other column is
// 1 MB: the overflow pages are not read.
func TestLazyOverflow(t *testing.T) {
	t.Parallel()
	path := newDB(t, "CREATE TABLE t(a, big, c);\nWITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM n WHERE x < 5)\nINSERT INTO t SELECT x, zeroblob(1000000), 'after' FROM n;\n")
	r, size := openFile(t, path)
	cr := &countingReader{r: r}
	db, err := Open(Files{Main: cr, MainSize: size})
	if err != nil {
		t.Fatal(err)
	}
	cr.n.Store(0)
	var sum int64
	if err := mustTable(t, db, "t").Scan(func(r *Row) error {
		v, err := r.Value(0)
		sum += v.Int
		return err
	}); err != nil || sum != 15 {
		t.Fatalf("sum %d: %v", sum, err)
	}
	if n := cr.n.Load(); n > 64*1024 {
		t.Fatalf("reading the small column read %d bytes of a %d-byte file", n, size)
	}
	// The column after the big one is in the last overflow page: reading
	// it walks the chain's pointers (4 bytes a page), not the pages.
	cr.n.Store(0)
	if err := mustTable(t, db, "t").Scan(func(r *Row) error {
		v, err := r.Value(2)
		if err == nil && string(v.Bytes) != "after" {
			err = fmt.Errorf("got %q", v.Bytes)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if n := cr.n.Load(); n > size/20 {
		t.Fatalf("reading the column after the big one read %d bytes of %d", n, size)
	}
}
