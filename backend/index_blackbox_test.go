package backend_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/asuser"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/internal/testhome"
)

// Black-box tests of project.index against the real binary: the whole
// tree walked page by page, checked against a walk the test does itself.

// indexPage is one decoded project.index response with its raw line.
type indexPage struct {
	wire.ProjectIndexResult
	raw []byte
}

// startIndex starts a backend in dir with project.index negotiated.
func startIndex(t *testing.T, dir string, opts scouttest.Options) *scouttest.Proc {
	t.Helper()
	opts.Dir = dir
	if !slices.ContainsFunc(opts.Env, func(e string) bool { return strings.HasPrefix(e, "SCOUT_HOME=") }) {
		home := filepath.Join(t.TempDir(), "home")
		asuser.Share(filepath.Dir(home))
		opts.Env = append(opts.Env, "SCOUT_HOME="+home)
	}
	p := scouttest.Start(t, opts)
	init := p.Initialize(wire.MethodProjectIndex, wire.MethodProjectFiles, wire.MethodWorkspaceTrust, wire.MethodCancel)
	if init.Extensions.ProjectIndex == nil || *init.Extensions.ProjectIndex != wire.DefaultIndexExtension {
		t.Fatalf("initialize extensions.project.index = %+v", init.Extensions.ProjectIndex)
	}
	return p
}

func cursorParams(cursor *string) map[string]any {
	if cursor == nil {
		return map[string]any{"cursor": nil}
	}
	return map[string]any{"cursor": *cursor}
}

// indexStep sends one project.index request and returns its response,
// checking that rpc.command.started came first.
func indexStep(t *testing.T, p *scouttest.Proc, cursor *string) scouttest.Msg {
	t.Helper()
	id := p.NextID()
	p.Request(id, wire.MethodProjectIndex, cursorParams(cursor))
	m, before := p.Await(id)
	if admitted(m) && !startedBefore(before, id) {
		t.Fatalf("no rpc.command.started for %s before its response", id)
	}
	return m
}

// admitted reports whether the request m answers was admitted: refused
// requests (busy, bad params) get no rpc.command.started.
func admitted(m scouttest.Msg) bool {
	switch m.Code() {
	case wire.CodeBusy, wire.CodeInvalidParams, wire.CodeUnsupportedCapability:
		return false
	}
	return true
}

// answered reports whether msgs hold the response to id.
func answered(msgs []scouttest.Msg, id string) bool {
	return slices.ContainsFunc(msgs, func(m scouttest.Msg) bool { return m.IsResponse() && m.ID != nil && *m.ID == id })
}

func startedBefore(msgs []scouttest.Msg, id string) bool {
	for _, m := range msgs {
		if m.Method == wire.NotifyCommandStarted && strings.Contains(string(m.Raw), `"command_id":"`+id+`"`) {
			return true
		}
	}
	return false
}

// mustStep is indexStep that fails on an error and checks the page.
func mustStep(t *testing.T, p *scouttest.Proc, dir string, cursor *string) indexPage {
	t.Helper()
	return decodePage(t, indexStep(t, p, cursor), dir)
}

// decodePage fails on an error answer, else decodes the page and checks it.
func decodePage(t *testing.T, m scouttest.Msg, dir string) indexPage {
	t.Helper()
	if m.Error != nil {
		t.Fatalf("project.index: %s", m.Raw)
	}
	var pg indexPage
	m.Decode(t, &pg.ProjectIndexResult)
	pg.raw = m.Raw
	checkIndexPage(t, pg, dir)
	return pg
}

// checkIndexPage checks what every page must satisfy: exactly the
// members of §5, the line bound, the entry bound, the progress word and
// the cursor that goes with it, and no absolute path anywhere.
func checkIndexPage(t *testing.T, pg indexPage, dir string) {
	t.Helper()
	members := `{"generation":`
	if !strings.HasPrefix(string(pg.raw), `{"jsonrpc":"2.0","id":`) || !strings.Contains(string(pg.raw), `"result":`+members) {
		t.Fatalf("page: %.200s", pg.raw)
	}
	for _, m := range []string{`"entries":[`, `"cursor":`, `"complete":`, `"progress":"`, `"ts":"`} {
		if strings.Count(string(pg.raw), m) < 1 {
			t.Fatalf("page lacks %s", m)
		}
	}
	if n := len(pg.raw) + 1; n > maxLine {
		t.Fatalf("response line of %d bytes", n)
	}
	if len(pg.Entries) > wire.DefaultIndexExtension.PageEntries {
		t.Fatalf("%d entries in a page", len(pg.Entries))
	}
	for _, leak := range []string{dir, `"path":"/`} {
		if strings.Contains(string(pg.raw), leak) {
			t.Fatalf("page contains %q", leak)
		}
	}
	switch pg.Progress {
	case wire.ProgressPageEntries:
		if len(pg.Entries) != wire.DefaultIndexExtension.PageEntries {
			t.Errorf("page_entries with %d entries", len(pg.Entries))
		}
	case wire.ProgressPageBytes:
		// The next entry (at most a 4,096-byte path) would not have fit.
		if len(pg.raw)+1+4096+len(`,{"path":"","kind":"directory"}`) <= maxLine {
			t.Errorf("page_bytes with a line of %d bytes", len(pg.raw)+1)
		}
	case wire.ProgressExamineWork, wire.ProgressDeadline, wire.ProgressComplete:
	default:
		t.Errorf("progress %q", pg.Progress)
	}
	switch {
	case pg.Complete != (pg.Progress == wire.ProgressComplete):
		t.Errorf("complete %v with progress %q", pg.Complete, pg.Progress)
	case pg.Complete && pg.Cursor != nil:
		t.Errorf("a complete page has cursor %q", *pg.Cursor)
	case !pg.Complete && (pg.Cursor == nil || !printableCursor(*pg.Cursor)):
		t.Errorf("cursor %v", pg.Cursor)
	}
	for _, e := range pg.Entries {
		if e.Kind != wire.KindFile && e.Kind != wire.KindDirectory {
			t.Errorf("entry %q of kind %q", e.Path, e.Kind)
		}
	}
}

func printableCursor(c string) bool {
	if len(c) == 0 || len(c) > wire.MaxCursorBytes {
		return false
	}
	for i := range len(c) {
		if c[i] < 0x21 || c[i] > 0x7e {
			return false
		}
	}
	return true
}

// walkIndex follows a fresh walk to its end and returns its pages. Every
// few steps it sends status right after the step's request, while the
// step runs, and holds the answers to scouttest.CheckPrompt (a step is
// bounded at 250 ms, so a per-answer ceiling of a second).
func walkIndex(t *testing.T, p *scouttest.Proc, dir string) []indexPage {
	t.Helper()
	var pages []indexPage
	var cursor *string
	var took []time.Duration
	for i := 0; ; i++ {
		if i > 100000 {
			t.Fatal("the walk does not end")
		}
		id := p.NextID()
		p.Request(id, wire.MethodProjectIndex, cursorParams(cursor))
		var before []scouttest.Msg
		if i%3 == 1 {
			sid := p.NextID()
			sent := time.Now()
			p.Request(sid, wire.MethodStatus, nil)
			m, msgs := p.Await(sid)
			// Measured while the step runs: a page written first is ahead
			// of status in the one output stream, and its transfer is not
			// the protocol loop's delay.
			if !answered(msgs, id) {
				took = append(took, m.At.Sub(sent))
			}
			before = msgs
		}
		m, msgs := p.Await(id)
		if !startedBefore(append(before, msgs...), id) {
			t.Fatalf("no rpc.command.started for %s before its response", id)
		}
		pg := decodePage(t, m, dir)
		if len(pages) > 0 && pg.Generation != pages[0].Generation {
			t.Fatalf("generation changed during a walk: %d, %d", pages[0].Generation, pg.Generation)
		}
		pages = append(pages, pg)
		if pg.Complete {
			if len(took) > 0 {
				scouttest.CheckPrompt(t, "during a step", took, 2*time.Second)
			}
			return pages
		}
		cursor = pg.Cursor
	}
}

func allEntries(pages []indexPage) []wire.FileEntry {
	var out []wire.FileEntry
	for _, pg := range pages {
		out = append(out, pg.Entries...)
	}
	return out
}

// checkWalkOrder checks that entries are each listed once, every one after
// its parent directory, in breadth-first order: the parents' positions
// never go back, and the children of one parent come by name.
func checkWalkOrder(t *testing.T, entries []wire.FileEntry) {
	t.Helper()
	pos := map[string]int{"": -1}
	dirs := map[string]bool{"": true}
	lastParent, lastName := -1, ""
	for i, e := range entries {
		if _, dup := pos[e.Path]; dup {
			t.Fatalf("%q is listed twice", e.Path)
		}
		parent, name := "", e.Path
		if j := strings.LastIndexByte(e.Path, '/'); j >= 0 {
			parent, name = e.Path[:j], e.Path[j+1:]
		}
		pp, ok := pos[parent]
		if !ok || !dirs[parent] {
			t.Fatalf("%q is listed before its directory", e.Path)
		}
		switch {
		case pp < lastParent:
			t.Fatalf("%q (entry %d) comes after the children of a later directory", e.Path, i)
		case pp == lastParent && name <= lastName:
			t.Fatalf("%q comes after its sibling %q", e.Path, lastName)
		}
		lastParent, lastName = pp, name
		pos[e.Path] = i
		dirs[e.Path] = e.Kind == wire.KindDirectory
	}
}

// The shared tree: 150,000 files in 3,000 folders, some 20 levels deep,
// two folders of 60,000 names, and the hostile workspace of
// TestHostileWorkspace at its top and inside the big folders. Built once
// per test process on a RAM file system when there is one; read only.
var (
	bigOnce sync.Once
	bigDir  string
	bigErr  error
)

func bigTree(t *testing.T) string {
	t.Helper()
	bigOnce.Do(func() { bigDir, bigErr = makeBigTree() })
	if bigErr != nil {
		t.Fatal(bigErr)
	}
	return bigDir
}

// bigTreeFiles is how many regular files with safe names makeBigTree makes
// besides the hostile fixture's.
const bigTreeFiles = 150000

func makeBigTree() (string, error) {
	base := os.TempDir()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		base = "/dev/shm"
	}
	dir, err := os.MkdirTemp(base, "scout-index-")
	if err != nil {
		return "", err
	}
	testhome.AtExit(func() { os.Chmod(filepath.Join(dir, "locked"), 0o755); os.RemoveAll(dir) })
	if err := os.Chmod(dir, 0o755); err != nil {
		return "", err
	}
	hostile := append(hostileFixture(),
		"gen/wide-short/.env", "gen/wide-short/x.log", "gen/wide-short/keep.log", "gen/wide-short/node_modules/a.js",
		"gen/wide-short/link => ../tree", "gen/wide-short/fifo|", "gen/wide-short/bad\nname", "gen/wide-long/id_rsa",
		"gen/wide-long/build/x.go", "gen/tree/t03/.gitignore << *.tmp\n", "gen/tree/t03/m00/skip.tmp",
	)
	if err := makefs.Make(dir, hostile...); err != nil {
		return "", err
	}
	return dir, makefs.Bulk(dir, bigTreePaths())
}

// bigTreePaths lists the generated part: 3,000 leaf folders of 10 files
// (20 × 15 × 10 under gen/tree), 60,000 short names in gen/wide-short,
// 60,000 names of 120 bytes in gen/wide-long (so page_bytes is met before
// page_entries), and 5 chains of 20 folders under gen/chains: exactly
// bigTreeFiles files.
func bigTreePaths() []string {
	var fx []string
	for a := range 20 {
		for b := range 15 {
			for c := range 10 {
				for f := range 10 {
					fx = append(fx, fmt.Sprintf("gen/tree/t%02d/m%02d/l%02d/file%d.go", a, b, c, f))
				}
			}
		}
	}
	long := strings.Repeat("x", 114)
	for i := range 60000 - 5 {
		fx = append(fx, fmt.Sprintf("gen/wide-short/f%05d.go", (i*7919)%60000))
		fx = append(fx, fmt.Sprintf("gen/wide-long/%05d-%s", (i*7919)%60000, long))
	}
	for c := range 5 {
		p := fmt.Sprintf("gen/chains/c%d", c)
		for d := range 20 {
			p += fmt.Sprintf("/d%02d", d+1)
		}
		fx = append(fx, p+"/leaf.go", p+"/leaf.txt")
	}
	return fx
}

func filesOf(entries []wire.FileEntry) []string {
	var out []string
	for _, e := range entries {
		if e.Kind == wire.KindFile {
			out = append(out, e.Path)
		}
	}
	slices.Sort(out)
	return out
}

// TestIndexWholeTree: a complete walk of the shared 150,000-file tree, as
// an unprivileged backend, lists every visible file exactly once (the
// test's own walk decides which), in breadth-first order, never a
// protected, ignored, unsafe, symlinked or special entry; every page is
// within its bounds, every bound is met somewhere (page_entries,
// page_bytes, examine_work for the 60,000-name folders), and status
// answers at once during the steps. The project.files snapshot is a part
// of it. (The step deadline is lifted, so that on a loaded machine the
// 250 ms do not end the steps before the other bounds are met; the
// deadline has its own tests.)
func TestIndexWholeTree(t *testing.T) {
	t.Parallel()
	dir := bigTree(t)
	want := scouttest.VisibleFiles(t, dir, "locked")
	if len(want) < bigTreeFiles {
		t.Fatalf("the oracle sees %d files", len(want))
	}
	walk := liftedWalk(t)
	entries := allEntries(walk.pages)
	checkWalkOrder(t, entries)
	if got := filesOf(entries); !slices.Equal(got, want) {
		missing, extra := diff(want, got), diff(got, want)
		t.Fatalf("%d files, want %d; missing %.5q, extra %.5q", len(got), len(want), missing, extra)
	}
	words := map[string]int{}
	for _, pg := range walk.pages {
		words[pg.Progress]++
	}
	for _, w := range []string{wire.ProgressPageEntries, wire.ProgressPageBytes, wire.ProgressExamineWork} {
		if words[w] == 0 {
			t.Errorf("no step ended with %s: %v", w, words)
		}
	}
	seen := map[string]bool{}
	for _, e := range entries {
		seen[e.Path] = true
		if strings.HasPrefix(e.Path, "locked/") {
			t.Errorf("the unreadable directory has children: %q", e.Path)
		}
	}
	for _, d := range []string{"locked", "deep", "gen/wide-long/build", "gen/tree/t03/m00/skip.tmp", "gen/wide-short/link"} {
		if seen[d] != (d == "locked" || d == "deep") {
			t.Errorf("%q listed: %v", d, seen[d])
		}
	}
	for _, e := range walk.snapshot.Entries {
		if !seen[e.Path] {
			t.Errorf("project.files lists %q, the walk does not", e.Path)
		}
	}
}

// TestIndexSequenceIsDeterministic: a second walk of the shared tree,
// with steps cut short by a 20 ms deadline (so the pages end elsewhere),
// lists the same entries in the same order as the walk with the deadline
// lifted.
func TestIndexSequenceIsDeterministic(t *testing.T) {
	t.Parallel()
	dir := bigTree(t)
	var short []wire.FileEntry
	var wg sync.WaitGroup
	wg.Go(func() {
		p := startIndex(t, dir, scouttest.Options{Unprivileged: true, Debug: true, Env: []string{"SCOUT_DEBUG_INDEX_STEP_MS=20"}})
		short = allEntries(walkIndex(t, p, dir))
	})
	full := allEntries(liftedWalk(t).pages)
	wg.Wait()
	if !slices.Equal(full, short) {
		t.Fatalf("the walks differ: %d and %d entries", len(full), len(short))
	}
}

// bigWalk is a complete walk of the shared tree by an unprivileged backend
// with the step deadline lifted, and the project.files snapshot the same
// backend answered afterwards.
type bigWalk struct {
	pages    []indexPage
	snapshot report
}

// The walk with the deadline lifted is done once per test process, by
// whichever of TestIndexWholeTree and TestIndexSequenceIsDeterministic
// comes first (the other waits for it): under -race a walk of the whole
// tree is the costliest thing in the package, and both tests check the
// same walk.
var (
	liftedOnce sync.Once
	lifted     *bigWalk
)

func liftedWalk(t *testing.T) *bigWalk {
	t.Helper()
	liftedOnce.Do(func() {
		dir := bigTree(t)
		p := startIndex(t, dir, scouttest.Options{Unprivileged: true, Debug: true, Env: []string{"SCOUT_DEBUG_INDEX_STEP_MS=600000"}})
		pages := walkIndex(t, p, dir)
		lifted = &bigWalk{pages: pages, snapshot: scanFilesPatiently(t, p, dir)}
	})
	if lifted == nil {
		t.Fatal("the shared walk of the big tree failed (in the test that made it)")
	}
	return lifted
}

func diff(a, b []string) []string {
	in := map[string]bool{}
	for _, x := range b {
		in[x] = true
	}
	var out []string
	for _, x := range a {
		if !in[x] {
			out = append(out, x)
		}
	}
	return out
}
