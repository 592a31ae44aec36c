package adversarial

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"go.uber.org/goleak"

	"github.com/scoutdev/scout/internal/leakscan"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/internal/testhome"
)

// scan is the suite's leak scanner: every line every backend of the suite
// writes goes through it (see start), and TestMain fails the run if it
// found anything.
var scan = leakscan.New(leakscan.Canaries{Paths: []string{leakscan.TempDir()}})

// TestMain runs the suite, then fails it if the leak scan found anything
// or if a goroutine of the tests (harness readers, provider servers,
// rpcclient pumps) outlived them.
func TestMain(m *testing.M) {
	testhome.Isolate()
	code := testhome.Wrap(m).Run()
	if code == 0 {
		if err := goleak.Find(); err != nil {
			fmt.Fprintf(os.Stderr, "goroutines left behind: %v\n", err)
			code = 1
		}
	}
	if found := scan.Findings(); len(found) > 0 {
		fmt.Fprintf(os.Stderr, "leak scan: %d findings in %d lines:\n", len(found), scan.Lines())
		for i, f := range found {
			if i == 20 {
				fmt.Fprintf(os.Stderr, "  … and %d more\n", len(found)-i)
				break
			}
			fmt.Fprintf(os.Stderr, "  %v\n", f)
		}
		code = 1
	} else if scan.Lines() > 0 && testing.Verbose() {
		fmt.Fprintf(os.Stderr, "leak scan: %d lines, nothing found\n", scan.Lines())
	}
	os.Exit(code)
}

// token is a random marker for one fixture: every name the policy must
// hide and every file content holds it, so a single substring rule finds
// any of them in any message.
func token(t testing.TB) string {
	t.Helper()
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	return "canary" + hex.EncodeToString(b[:])
}

// start runs a backend whose every line is leak-scanned; canaries are the
// test's own planted secrets (its paths are added for it). Findings fail
// the test that caused them.
func start(t testing.TB, opts scouttest.Options, c leakscan.Canaries) *scouttest.Proc {
	t.Helper()
	if opts.Dir != "" {
		c.Paths = append(c.Paths, opts.Dir)
		if real, err := filepath.EvalSymlinks(opts.Dir); err == nil {
			c.Paths = append(c.Paths, real)
		}
	}
	scan.Add(c)
	opts.Observe = func(line []byte) {
		for _, f := range scan.Scan(line) {
			t.Errorf("leak: %v", f)
		}
	}
	return scouttest.Start(t, opts)
}
