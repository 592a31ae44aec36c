package adversarial

import (
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/leakscan"
	"github.com/scoutdev/scout/internal/scouttest"
)

// listWalk is one walk of the workspace through project.list and
// project.read, as the frontend's preview does it: from root, one folder
// at a time, small pages, every file read.
type listWalk struct {
	t       *testing.T
	p       *scouttest.Proc
	tok     string
	limit   int  // page size
	skip    bool // leave bulk/ out (a child admits only 4,096 requests)
	answers map[string]int
	seen    map[string]string // path -> type, for the quiet walk
}

// checkPage checks one project.list page: safe names that are not hidden,
// the two types, well-formed unique ids, sizes, mtimes, and the order
// (directories first, then files, by name bytes) continuing the previous
// page's position.
func (w *listWalk) checkPage(m scouttest.Msg, last *string) wire.ListResult {
	t := w.t
	t.Helper()
	var r wire.ListResult
	m.Decode(t, &r)
	if r.Entries == nil || len(m.Raw)+1 > wire.DefaultListExtension.PageBytes || r.NextRef != "" && !wire.ValidRef(r.NextRef) {
		t.Errorf("page %s", m.Raw)
	}
	ids := map[string]bool{}
	for _, e := range r.Entries {
		if !fsguard.SafeName(e.Name) || strings.Contains(e.Name, w.tok) || strings.Contains(e.Name, "/") {
			t.Errorf("entry name %q", e.Name)
		}
		for _, h := range hiddenComponents {
			if e.Name == h {
				t.Errorf("hidden name %q listed", e.Name)
			}
		}
		if !wire.ValidRef(e.ID) || ids[e.ID] || (e.Type != wire.TypeDir && e.Type != wire.TypeFile) ||
			e.Size < 0 || e.Type == wire.TypeDir && e.Size != 0 {
			t.Errorf("entry %+v", e)
		}
		ids[e.ID] = true
		if _, err := time.Parse(time.RFC3339, e.Mtime); err != nil || !strings.HasSuffix(e.Mtime, "Z") || strings.Contains(e.Mtime, ".") {
			t.Errorf("mtime %q", e.Mtime)
		}
		key := e.Type + "\x00" + e.Name // "dir" < "file": directories first
		if *last != "" && key <= *last {
			t.Errorf("order: %q after %q", key, *last)
		}
		*last = key
	}
	return r
}

// walk lists folder ref (at path rel) page by page and descends, reading
// every file. Entries may vanish at any moment: not_found is allowed.
func (w *listWalk) walk(ref, rel string) {
	last := ""
	for page := 0; ref != ""; page++ {
		m := w.p.Call(wire.MethodProjectList, map[string]any{"ref": ref, "limit": w.limit})
		w.answers["list "+string(m.Code())]++
		if m.Error != nil {
			if m.Code() != wire.CodeNotFound {
				w.t.Errorf("project.list answered %s", m.Raw)
			}
			return
		}
		r := w.checkPage(m, &last)
		for _, e := range r.Entries {
			p := join(rel, e.Name)
			w.seen[p] = e.Type
			switch {
			case w.skip && p == "bulk":
			case e.Type == wire.TypeDir:
				w.walk(e.ID, p)
			case e.Type == wire.TypeFile && !strings.HasPrefix(p, "bulk/"):
				w.read(e.ID)
			}
		}
		ref = r.NextRef
	}
}

func (w *listWalk) read(ref string) {
	m := w.p.Call(wire.MethodProjectRead, map[string]any{"ref": ref, "max_bytes": 64})
	w.answers["read "+string(m.Code())]++
	switch m.Code() {
	case "":
		var r wire.ReadResult
		m.Decode(w.t, &r)
		if strings.Contains(r.Content, w.tok) || r.Binary || len(r.Content) > 64 || r.Size < 0 {
			w.t.Errorf("read %s", m.Raw)
		}
	case wire.CodeNotFound:
	default:
		w.t.Errorf("project.read answered %s", m.Raw)
	}
}

// TestListAndReadUnderMutation walks the workspace with project.list and
// project.read while the mutator changes it (the fixture of
// TestScanUnderMutation, plus hard links to a file outside). Every page
// obeys §5's listing rules and the policy; a read returns only a visible
// file's own text, never what lies behind a symbolic link or a second hard
// link (the token); an id whose entry changed answers not_found. Once the
// workspace is quiet, a walk finds exactly what is there and servable.
func TestListAndReadUnderMutation(t *testing.T) {
	t.Parallel()
	tok := token(t)
	ws, outside, home := mutatingWorkspace(t, tok)
	p := start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home}, Unprivileged: true},
		leakscan.Canaries{Paths: []string{outside, home}, ProtectedNames: []string{tok}})
	p.Initialize(wire.MethodProjectList, wire.MethodProjectRead)
	seed := uint64(time.Now().UnixNano())
	t.Logf("mutator seed %d", seed)
	m := newMutator(ws, outside, tok, seed)
	m.dirs = []string{"", "a", "a/b", "c"} // not bulk/: a walk of it is long
	for range 400 {
		m.step() // a tree worth walking before the walks start
	}
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
			if i%8 == 7 {
				time.Sleep(time.Millisecond)
			}
		}
	}()
	w := &listWalk{t: t, p: p, tok: tok, limit: 7, skip: true, answers: map[string]int{}, seen: map[string]string{}}
	for range rounds(4, 2) {
		w.walk(wire.RootRef, "")
	}
	close(stop)
	<-done
	m.unlockAll()
	t.Logf("answers %v; mutations %v", w.answers, m.ops)
	// A fresh child for the quiet walk: the first may be near its request limit.
	q := start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + home}, Unprivileged: true}, leakscan.Canaries{})
	q.Initialize(wire.MethodProjectList, wire.MethodProjectRead)
	quiet := &listWalk{t: t, p: q, tok: tok, limit: 1000, answers: map[string]int{}, seen: map[string]string{}}
	quiet.walk(wire.RootRef, "")
	want, _ := expectedEntries(ws, tok, 1<<20, false)
	var diff []string
	for p, typ := range want {
		if map[string]string{"directory": wire.TypeDir, "file": wire.TypeFile}[typ] != quiet.seen[p] {
			diff = append(diff, "missing "+p)
		}
	}
	for p := range quiet.seen {
		if _, ok := want[p]; !ok {
			diff = append(diff, "extra "+p)
		}
	}
	sort.Strings(diff)
	if len(diff) > 20 {
		diff = append(diff[:20], "…")
	}
	if len(diff) > 0 {
		t.Errorf("the quiet walk differs: %q", diff)
	}
	if quiet.answers["list not_found"]+quiet.answers["read not_found"] > 0 {
		t.Errorf("the quiet walk met not_found: %v", quiet.answers)
	}
}
