package adversarial

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/asuser"
	"github.com/scoutdev/scout/internal/leakscan"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// scanRounds is how many project.files calls run while the workspace
// mutates; bulkFiles makes each of them long enough for mutations to land
// in the middle of it.
const bulkFiles = 1000

func scanRounds() int {
	if raceBuild {
		return 20
	}
	return 60
}

// mutatingWorkspace builds the workspace of TestScanUnderMutation: a
// backend home inside it (always hidden), a credential file, a deny glob
// for vault/**, ignore rules, a directory outside it for symbolic links to
// point at, and the fixture's own visible directories.
func mutatingWorkspace(t *testing.T, tok string) (ws, outside, home string) {
	base := t.TempDir()
	ws, outside = filepath.Join(base, "ws"), filepath.Join(base, "outside-"+tok)
	home = filepath.Join(ws, "home-"+tok)
	cred := filepath.Join(ws, "cred-"+tok+".txt")
	config := fmt.Sprintf("[files]\ndeny = [\"denied-*\", \"vault/**\"]\n\n[enrichment]\nurl = \"\"\n\n"+
		"[[providers]]\nid = \"local\"\ntype = \"ollama\"\nbase_url = \"http://127.0.0.1:9\"\ncredential_file = %q\n", cred)
	for _, dir := range []string{ws, outside} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	must(t, makefs.Make(ws,
		"a/b/", "c/", "vault/vault-"+tok+".txt", "vault/inner-"+tok+"/x",
		".gitignore << *.ignored\nignored-dir-*/\n", "README.md << "+visibleContent,
		"cred-"+tok+".txt << sk-"+tok, "home-"+tok+"/config.toml << "+config,
		"home-"+tok+"/sessions/", ".git/config << "+tok,
	))
	var bulk []string
	for i := range bulkFiles {
		bulk = append(bulk, fmt.Sprintf("bulk/k%d/file%03d.txt", i%10, i))
	}
	must(t, makefs.Make(ws, bulk...))
	must(t, makefs.Make(outside, "outside-"+tok+".txt << "+tok, "dir-"+tok+"/file-"+tok))
	asuser.Share(ws)
	asuser.Share(outside)
	t.Cleanup(func() {
		filepath.Walk(ws, func(p string, _ os.FileInfo, _ error) error { os.Chmod(p, 0o755); return nil })
	})
	return ws, outside, home
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestScanUnderMutation runs project.files over and over, each with a
// status beside it, while a goroutine creates, deletes, renames, replaces
// by symbolic links and FIFOs, and locks the workspace's entries. Every
// snapshot must obey every invariant of docs/protocol.md §4–§5 (checkSnapshot);
// the answers may only be a report, or scan_timeout (and busy right after
// one); status is always answered. Once the workspace is quiet, a scan
// must list exactly what is there.
func TestScanUnderMutation(t *testing.T) {
	t.Parallel()
	tok := token(t)
	ws, outside, home := mutatingWorkspace(t, tok)
	p := start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home}, Unprivileged: true},
		leakscan.Canaries{Paths: []string{outside, home}, ProtectedNames: []string{tok}})
	p.Initialize(wire.MethodProjectFiles)
	seed := uint64(time.Now().UnixNano())
	t.Logf("mutator seed %d", seed)
	m := newMutator(ws, outside, tok, seed)
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			m.step()
			if i%32 == 31 {
				time.Sleep(time.Millisecond) // a breath for the scans on a small machine
			}
		}
	}()
	answers := map[wire.Code]int{}
	for range scanRounds() {
		id, sid := p.NextID(), p.NextID()
		p.Request(id, wire.MethodProjectFiles, map[string]any{})
		p.Request(sid, wire.MethodStatus, nil)
		if st, _ := p.Await(sid); st.Error != nil {
			t.Errorf("status: %s", st.Code())
		}
		r, _ := p.Await(id)
		answers[r.Code()]++
		switch r.Code() {
		case "":
			checkSnapshot(t, r, tok)
		case wire.CodeScanTimeout, wire.CodeBusy:
		default:
			t.Errorf("project.files answered %s", r.Code())
		}
	}
	close(stop)
	<-done
	m.unlockAll()
	t.Logf("answers %v; mutations %v", answers, m.ops)
	quietScanMatches(t, p, ws, tok)
}

// quietScanMatches scans the quiet workspace and compares with what is
// there (a worker of an earlier timed-out scan may still hold the slot).
func quietScanMatches(t *testing.T, p *scouttest.Proc, ws, tok string) {
	t.Helper()
	var r scouttest.Msg
	for range 100 {
		if r = p.Call(wire.MethodProjectFiles, map[string]any{}); r.Code() != wire.CodeBusy && r.Code() != wire.CodeScanTimeout {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if r.Error != nil {
		t.Fatalf("quiet scan: %s", r.Code())
	}
	got := checkSnapshot(t, r, tok)
	want, truncated := expectedEntries(ws, tok, wire.DefaultFilesExtension.MaxDepth, true)
	if len(want) > wire.DefaultFilesExtension.MaxEntries {
		t.Fatalf("fixture grew to %d entries", len(want))
	}
	var missing, extra []string
	gotSet := map[string]bool{}
	for _, e := range got.Entries {
		gotSet[e.Path] = true
		if want[e.Path] != e.Kind {
			extra = append(extra, e.Path+" ("+e.Kind+")")
		}
	}
	for p := range want {
		if !gotSet[p] {
			missing = append(missing, p)
		}
	}
	sort.Strings(missing)
	sort.Strings(extra)
	if len(missing)+len(extra) > 0 || got.Truncated != truncated {
		t.Errorf("quiet scan differs: missing %q, extra %q, truncated %v want %v", missing, extra, got.Truncated, truncated)
	}
}
