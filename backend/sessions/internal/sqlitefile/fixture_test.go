package sqlitefile

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/scoutdev/scout/backend/sessions/sessionstest"
)

// sqlite3Path is the sqlite3 CLI that makes the fixtures.
func sqlite3Path(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("sqlite3")
	if err != nil {
		t.Fatalf("the tests need the sqlite3 CLI (apt-get install sqlite3): %v", err)
	}
	return p
}

// runSQL runs script with sqlite3 on the database at path and returns
// its output, failing the test on any error.
func runSQL(t testing.TB, path, script string) string {
	t.Helper()
	cmd := exec.Command(sqlite3Path(t), "-batch", "-bail", path)
	cmd.Stdin = strings.NewReader(script)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Fatalf("sqlite3: %v: %s", err, stderr.String())
	}
	return out.String()
}

// newDB makes a database in a temporary directory with script.
func newDB(t testing.TB, script string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "test.db")
	runSQL(t, path, script)
	return path
}

// openPath opens the database at path with its -wal and -shm when they
// exist.
func openPath(t testing.TB, path string) (*DB, error) {
	t.Helper()
	f := Files{}
	f.Main, f.MainSize = openFile(t, path)
	if r, n := openFile(t, path+"-wal"); r != nil {
		f.WAL, f.WALSize = r, n
		if s, _ := openFile(t, path+"-shm"); s != nil {
			f.SHM = s
		}
	}
	return Open(f)
}

func openFile(t testing.TB, path string) (io.ReaderAt, int64) {
	t.Helper()
	fh, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, 0
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fh.Close() })
	st, err := fh.Stat()
	if err != nil {
		t.Fatal(err)
	}
	return fh, st.Size()
}

func mustOpen(t testing.TB, path string) *DB {
	t.Helper()
	db, err := openPath(t, path)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return db
}

func mustTable(t testing.TB, db *DB, name string) *Table {
	t.Helper()
	tb, err := db.Table(name)
	if err != nil {
		t.Fatalf("Table(%q): %v", name, err)
	}
	return tb
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// dumpExpr is SQL giving a value as fmtValue formats it, reals aside
// (printf('%.17g'), compared as numbers).
func dumpExpr(col string) string {
	c := quoteIdent(col)
	return fmt.Sprintf(`typeof(%[1]s)||':'||CASE typeof(%[1]s) WHEN 'real' THEN printf('%%.17g',%[1]s) WHEN 'integer' THEN %[1]s WHEN 'null' THEN '' ELSE hex(%[1]s) END`, c)
}

// fmtValue formats v as dumpExpr does.
func fmtValue(v Value) string {
	switch v.Type {
	case Null:
		return "null:"
	case Integer:
		return "integer:" + strconv.FormatInt(v.Int, 10)
	case Float:
		return "real:" + strconv.FormatFloat(v.Float, 'g', 17, 64)
	case Text:
		return "text:" + strings.ToUpper(hex.EncodeToString(v.Bytes))
	default:
		return "blob:" + strings.ToUpper(hex.EncodeToString(v.Bytes))
	}
}

// sameValue compares a formatted value from sqlite3 with one of ours: reals
// within 1e-14 (sqlite3's printf is not exact at large exponents).
func sameValue(want, got string) bool {
	if want == got {
		return true
	}
	w, okw := strings.CutPrefix(want, "real:")
	g, okg := strings.CutPrefix(got, "real:")
	if !okw || !okg {
		return false
	}
	wf, err1 := strconv.ParseFloat(w, 64)
	gf, err2 := strconv.ParseFloat(g, 64)
	return err1 == nil && err2 == nil && (wf == gf || math.Abs(wf-gf) <= 1e-14*math.Abs(wf))
}

// sqliteRows is every row of table as sqlite3 reads it: rowid, then each
// column, formatted, in rowid order.
func sqliteRows(t testing.TB, path, table string, cols []string) [][]string {
	t.Helper()
	exprs := []string{"rowid"}
	for _, c := range cols {
		exprs = append(exprs, dumpExpr(c))
	}
	q := fmt.Sprintf("SELECT %s FROM %s ORDER BY rowid;\n", strings.Join(exprs, "||char(31)||"), quoteIdent(table))
	var rows [][]string
	for _, line := range strings.Split(strings.TrimSuffix(runSQL(t, path, q), "\n"), "\n") {
		if line != "" {
			rows = append(rows, strings.Split(line, "\x1f"))
		}
	}
	return rows
}

// ourRows is every row of tb as Scan reads it, formatted.
func ourRows(t testing.TB, tb *Table) [][]string {
	t.Helper()
	var rows [][]string
	n := len(tb.Columns())
	err := tb.Scan(func(r *Row) error {
		row := []string{strconv.FormatInt(r.Rowid(), 10)}
		for i := range n {
			v, err := r.Value(i)
			if err != nil {
				return fmt.Errorf("row %d column %d: %w", r.Rowid(), i, err)
			}
			row = append(row, fmtValue(v))
		}
		rows = append(rows, row)
		return nil
	})
	if err != nil {
		t.Fatalf("Scan %s: %v", tb.Name(), err)
	}
	return rows
}

// checkTable compares every row of table, by Scan and by Get, with what
// sqlite3 reads; it returns the row count.
func checkTable(t testing.TB, db *DB, path, table string) int {
	t.Helper()
	tb := mustTable(t, db, table)
	want := sqliteRows(t, path, table, tb.Columns())
	got := ourRows(t, tb)
	if len(want) != len(got) {
		t.Fatalf("%s: %d rows, sqlite3 has %d", table, len(got), len(want))
	}
	for i := range want {
		if len(want[i]) != len(got[i]) {
			t.Fatalf("%s row %d: %d fields, sqlite3 has %d", table, i, len(got[i]), len(want[i]))
		}
		for j := range want[i] {
			if !sameValue(want[i][j], got[i][j]) {
				t.Fatalf("%s row %s field %d: got %.200s, sqlite3 has %.200s", table, want[i][0], j, got[i][j], want[i][j])
			}
		}
	}
	step := max(1, len(want)/50)
	for i := 0; i < len(want); i += step {
		id, _ := strconv.ParseInt(want[i][0], 10, 64)
		r, ok, err := tb.Get(id)
		if err != nil || !ok {
			t.Fatalf("%s Get(%d): %v %v", table, id, ok, err)
		}
		for j := 1; j < len(want[i]); j++ {
			v, err := r.Value(j - 1)
			if err != nil || !sameValue(want[i][j], fmtValue(v)) {
				t.Fatalf("%s Get(%d) column %d: %v %.200s, sqlite3 has %.200s", table, id, j-1, err, fmtValue(v), want[i][j])
			}
		}
	}
	if len(want) > 0 {
		last, _ := strconv.ParseInt(want[len(want)-1][0], 10, 64)
		if _, ok, err := tb.Get(last + 1); ok || err != nil {
			t.Fatalf("%s Get(%d) past the last row: %v %v", table, last+1, ok, err)
		}
	}
	return len(want)
}

// checkSeek compares the rowids Seek finds for key with those of SELECT
// rowid FROM table WHERE column = keySQL (in index order, as sqlite3 gives
// them when it uses the same index); it returns their count.
func checkSeek(t testing.TB, db *DB, path, table, column string, key Value, keySQL string) int {
	t.Helper()
	tb := mustTable(t, db, table)
	ix := tb.Index(column)
	if ix == nil {
		t.Fatalf("%s has no index on %s", table, column)
	}
	q := fmt.Sprintf("SELECT rowid FROM %s INDEXED BY %s WHERE %s = %s;\n", quoteIdent(table), quoteIdent(ix.Name()), quoteIdent(column), keySQL)
	want := strings.Fields(runSQL(t, path, q))
	var got []string
	err := ix.Seek(key, func(rowid int64) (bool, error) {
		got = append(got, strconv.FormatInt(rowid, 10))
		return true, nil
	})
	if err != nil {
		t.Fatalf("Seek %s.%s: %v", table, column, err)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("Seek %s.%s = %s: got %d rowids %.300v, sqlite3 has %d %.300v", table, column, keySQL, len(got), got, len(want), want)
	}
	return len(want)
}

// checkAfter checks Index.After over table's index on column against
// sqlite3's SELECT ... WHERE column > key ORDER BY column, rowid, whole and
// stopped after the first limit entries; it returns how many there are.
func checkAfter(t testing.TB, db *DB, path, table, column string, key Value, keySQL string, limit int) int {
	t.Helper()
	ix := mustTable(t, db, table).Index(column)
	if ix == nil {
		t.Fatalf("%s has no index on %s", table, column)
	}
	q := fmt.Sprintf("SELECT rowid FROM %s INDEXED BY %s WHERE %s > %s ORDER BY %s, rowid;\n", quoteIdent(table), quoteIdent(ix.Name()), quoteIdent(column), keySQL, quoteIdent(column))
	want := strings.Fields(runSQL(t, path, q))
	for _, stop := range []int{-1, limit} {
		var got []string
		err := ix.After(key, func(first Value, rowid int64) (bool, error) {
			if Compare(first, key) <= 0 {
				t.Fatalf("After %s gave a first column not after it", keySQL)
			}
			got = append(got, strconv.FormatInt(rowid, 10))
			return len(got) != stop, nil
		})
		if err != nil {
			t.Fatalf("After %s.%s: %v", table, column, err)
		}
		w := want
		if stop >= 0 && stop < len(w) {
			w = w[:stop]
		}
		if strings.Join(got, " ") != strings.Join(w, " ") {
			t.Fatalf("After %s.%s > %s (stop %d): got %d rowids %.300v, sqlite3 has %d %.300v", table, column, keySQL, stop, len(got), got, len(w), w)
		}
	}
	return len(want)
}

// child is a long-running sqlite3 process fed through its stdin.
type child struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr lockedBuffer
	n      int
}

// lockedBuffer is a bytes.Buffer safe for the copying goroutine of exec
// and the test reading it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startChild(t *testing.T, path string) *child {
	c := &child{t: t, cmd: exec.Command(sqlite3Path(t), "-batch", path)}
	var err error
	if c.in, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.out = bufio.NewReader(stdout)
	c.cmd.Stderr = &c.stderr
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.in.Close()
		c.cmd.Wait()
	})
	return c
}

// exec sends sql and waits until sqlite3 has run it (a marker it prints
// after), failing on any error output.
func (c *child) exec(sql string) {
	c.t.Helper()
	c.n++
	marker := fmt.Sprintf("sync-%d", c.n)
	if _, err := fmt.Fprintf(c.in, "%s\nSELECT '%s';\n", sql, marker); err != nil {
		c.t.Fatal(err)
	}
	for {
		line, err := c.out.ReadString('\n')
		if err != nil {
			c.t.Fatalf("sqlite3 child: %v: %s", err, c.stderr.String())
		}
		if strings.TrimSpace(line) == marker {
			break
		}
	}
	if c.stderr.String() != "" {
		c.t.Fatalf("sqlite3 child: %s", c.stderr.String())
	}
}

// The agents' schemas, as the session tests write them.
var crushSchema, openCodeSchema = sessionstest.CrushSchema, sessionstest.OpenCodeSchema
