package sessionstest

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A Writer is a live connection to a SQLite database, as a running agent
// keeps one: one sqlite3 process (the SQLite shell, Debian package
// sqlite3) started on the database, reading statements from a pipe and
// writing its output and its errors, in the order it printed them, to one
// other pipe.
//
// The shell runs with -bail: the first statement that fails ends it, so
// nothing after that statement runs (a COMMIT after a failed INSERT
// among them) and the transaction it was in is rolled back as the shell
// closes the database. Exec returns what the shell printed; every later
// Exec fails at once. A Writer is not safe for concurrent use.
type Writer struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *os.File // the read end of the shell's stdout and stderr
	lines *bufio.Reader
	syncs int
	// timeout bounds the wait for one answer (replyTimeout).
	timeout time.Duration
	// stopped is why the shell no longer answers, once it does not; the
	// process has then been waited for.
	stopped error
	closed  bool
	ended   bool // the process has been waited for
}

// SQLite3 is the command the fixtures are written with.
const SQLite3 = "sqlite3"

// ErrNoSQLite3 is OpenWriter's error when the sqlite3 command is not on
// PATH.
var ErrNoSQLite3 = errors.New("sessionstest: the sqlite3 command is not on PATH: the tests write their crush and opencode databases with the SQLite shell; install the Debian package sqlite3 (apt-get install sqlite3)")

// replyTimeout bounds the wait for the shell to answer one Exec: a
// statement left open (a quote or a trigger body never closed) swallows
// the marker that ends the answer.
const replyTimeout = 5 * time.Minute

// OpenWriter starts a sqlite3 process on the database at path (creating
// its directory and the database, with schema applied, when it is new),
// with busy_timeout 5000 and journal_mode WAL, as the agents keep theirs.
// The database is in use (its -wal and -shm there) until Close.
func OpenWriter(path, schema string) (*Writer, error) {
	return openWriter(path, schema, replyTimeout)
}

// openWriter is OpenWriter waiting at most timeout for each answer.
func openWriter(path, schema string, timeout time.Duration) (*Writer, error) {
	bin, err := exec.LookPath(SQLite3)
	if err != nil {
		return nil, ErrNoSQLite3
	}
	if path, err = filepath.Abs(path); err != nil { // never an argument starting with "-"
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return nil, err
	}
	_, statErr := os.Stat(path)
	w, err := startShell(bin, path)
	if err != nil {
		return nil, err
	}
	w.timeout = timeout
	out, err := w.run("PRAGMA busy_timeout=5000;\nPRAGMA journal_mode=WAL;")
	if err == nil && out != "5000\nwal\n" {
		err = fmt.Errorf("sessionstest: sqlite3 did not set busy_timeout and WAL mode: it printed %q", out)
	}
	if err == nil && errors.Is(statErr, fs.ErrNotExist) {
		err = w.Exec(schema)
	}
	if err != nil {
		w.kill()
		return nil, err
	}
	return w, nil
}

// MustOpenWriter is OpenWriter, failing tb on an error, with the Writer
// closed (and the shell ended) when tb ends, and any error of that Close
// reported.
func MustOpenWriter(tb testing.TB, path, schema string) *Writer {
	tb.Helper()
	w, err := OpenWriter(path, schema)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		if err := w.Close(); err != nil {
			tb.Error(err)
		}
	})
	return w
}

// startShell starts the shell in batch mode, reading no ~/.sqliterc.
func startShell(bin, path string) (*Writer, error) {
	r, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-batch", "-bail", "-init", os.DevNull, path)
	cmd.Stdout, cmd.Stderr = pw, pw // one descriptor: the order the shell printed in
	stdin, err := cmd.StdinPipe()
	if err == nil {
		err = cmd.Start()
	}
	pw.Close()
	if err != nil {
		r.Close()
		return nil, err
	}
	return &Writer{cmd: cmd, stdin: stdin, out: r, lines: bufio.NewReader(r)}, nil
}

// Exec runs sql, one or more statements, and waits for the shell to have
// run them. It fails if a statement failed (the shell has then ended, see
// Writer) or printed anything (a SELECT's rows among them), with what the
// shell printed.
func (w *Writer) Exec(sql string) error {
	out, err := w.run(sql)
	if err != nil {
		return err
	}
	if out != "" {
		return fmt.Errorf("sessionstest: sqlite3 printed %q", out)
	}
	return nil
}

// Query runs sql, one or more statements, and returns what the shell
// printed (a PRAGMA's or a SELECT's rows, one a line, columns joined by
// "|"). It fails as Exec does when a statement fails.
func (w *Writer) Query(sql string) (string, error) {
	return w.run(sql)
}

// run sends sql and then a marker, SELECT 'scout-sync-N', and returns
// what the shell printed before the marker's line. The lone ";" ends a
// last statement left without one. The script is written while the
// answer is read, so an answer larger than the pipe cannot stall both.
func (w *Writer) run(sql string) (string, error) {
	if w.closed {
		return "", errors.New("sessionstest: the writer is closed")
	}
	if w.stopped != nil {
		return "", w.stopped
	}
	w.syncs++
	marker := "scout-sync-" + strconv.Itoa(w.syncs)
	wrote := make(chan error, 1)
	go func() {
		_, err := io.WriteString(w.stdin, sql+"\n;\nSELECT '"+marker+"';\n")
		wrote <- err
	}()
	w.out.SetReadDeadline(time.Now().Add(w.timeout))
	var got strings.Builder
	for {
		line, err := w.lines.ReadString('\n')
		if err == nil && line == marker+"\n" {
			return got.String(), <-wrote
		}
		got.WriteString(line)
		if err != nil {
			printed := strings.TrimSpace(got.String())
			if errors.Is(err, os.ErrDeadlineExceeded) {
				w.stopped = fmt.Errorf("sessionstest: sqlite3 did not answer within %v (a statement left open?); it printed %q", w.timeout, printed)
			} else {
				w.stopped = fmt.Errorf("sessionstest: sqlite3 stopped: %s", printed)
			}
			w.kill()
			<-wrote
			return got.String(), w.stopped
		}
	}
}

// Close ends the shell (.quit) and waits for it: as the database's last
// connection it rolls back a transaction left open, checkpoints the -wal
// into the main file and removes the -wal and -shm, leaving the database
// at rest. The shell is killed if it does not end. Close after Close, or
// after an Exec that ended the shell (and said why), returns nil.
func (w *Writer) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	if w.stopped != nil {
		return nil
	}
	_, werr := io.WriteString(w.stdin, ".quit\n")
	w.stdin.Close()
	w.out.SetReadDeadline(time.Now().Add(w.timeout))
	rest, rerr := io.ReadAll(w.lines)
	if rerr != nil {
		w.cmd.Process.Kill()
	}
	err := w.cmd.Wait()
	w.out.Close()
	w.ended = true
	switch {
	case rerr != nil:
		return fmt.Errorf("sessionstest: sqlite3 did not end; killed: %w", rerr)
	case err != nil:
		return fmt.Errorf("sessionstest: sqlite3 ended with %v: %q", err, rest)
	case werr != nil:
		return fmt.Errorf("sessionstest: sqlite3 did not read .quit: %w", werr)
	case len(rest) > 0:
		return fmt.Errorf("sessionstest: sqlite3 printed %q as it ended", rest)
	}
	return nil
}

// kill ends the shell at once and waits for it.
func (w *Writer) kill() {
	if w.ended {
		return
	}
	w.ended = true
	w.cmd.Process.Kill()
	w.stdin.Close()
	w.cmd.Wait()
	w.out.Close()
}
