package backend_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/refs"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/asuser"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// Black-box tests of what ids stand for: every id that cannot be served
// answers the same not_found, and resolving re-checks the policy.

// idsOf lists the root and returns name -> id.
func idsOf(t *testing.T, p *scouttest.Proc, dir, ref string) map[string]string {
	t.Helper()
	entries, _ := listAll(t, p, dir, ref, 1000)
	out := map[string]string{}
	for _, e := range entries {
		out[e.Name] = e.ID
	}
	return out
}

func listRef(ref string) map[string]any { return map[string]any{"ref": ref} }
func readRef(ref string) map[string]any { return map[string]any{"ref": ref} }

func TestNotFoundIsIndistinguishable(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "src/main.go << package main", "a.txt << a", "b.txt << b", "c.txt << c")
	p := startList(t, dir, scouttest.Options{})
	root := idsOf(t, p, dir, wire.RootRef)
	pg := listPage(t, p, dir, wire.RootRef, 1, wire.DefaultListExtension.PageBytes)
	cont := pg.NextRef
	file, folder := root["a.txt"], root["src"]

	expectNotFound(t, p, "random well-formed id", wire.MethodProjectList, listRef(refs.NewID()))
	expectNotFound(t, p, "random well-formed id", wire.MethodProjectRead, readRef(refs.NewID()))
	expectNotFound(t, p, "all dashes", wire.MethodProjectList, listRef(strings.Repeat("-", 43)))
	expectNotFound(t, p, "file id to list", wire.MethodProjectList, listRef(file))
	expectNotFound(t, p, "folder id to read", wire.MethodProjectRead, readRef(folder))
	expectNotFound(t, p, "continuation to read", wire.MethodProjectRead, readRef(cont))
	// The refusals consumed nothing: the same ids still serve their kind.
	if m := p.Call(wire.MethodProjectRead, readRef(file)); m.Error != nil {
		t.Fatalf("file id: %s", m.Raw)
	}
	if m := p.Call(wire.MethodProjectList, listRef(folder)); m.Error != nil {
		t.Fatalf("folder id: %s", m.Raw)
	}
	if m := p.Call(wire.MethodProjectList, listRef(cont)); m.Error != nil {
		t.Fatalf("continuation: %s", m.Raw)
	}

	// An id of another child is unknown here.
	p2 := startList(t, dir, scouttest.Options{})
	expectNotFound(t, p2, "id of another child", wire.MethodProjectRead, readRef(file))
	expectNotFound(t, p2, "folder id of another child", wire.MethodProjectList, listRef(folder))
}

func TestExpiredIDsAreNotFound(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "src/main.go << package main", "a.txt << a")
	p := startList(t, dir, scouttest.Options{Debug: true, Env: []string{"SCOUT_DEBUG_REF_TTL_MS=1"}})
	root := idsOf(t, p, dir, wire.RootRef)
	cont := listPage(t, p, dir, wire.RootRef, 1, wire.DefaultListExtension.PageBytes).NextRef
	time.Sleep(20 * time.Millisecond) // time only moves forward: past 1 ms for sure
	expectNotFound(t, p, "expired file id", wire.MethodProjectRead, readRef(root["a.txt"]))
	expectNotFound(t, p, "expired folder id", wire.MethodProjectList, listRef(root["src"]))
	expectNotFound(t, p, "expired continuation", wire.MethodProjectList, listRef(cont))
}

func TestEvictedIDsAreNotFound(t *testing.T) {
	t.Parallel()
	dir := makefs.ScratchDir(t) // 20,000 files: on a RAM file system when there is one
	if err := os.Mkdir(filepath.Join(dir, "big"), 0o755); err != nil {
		t.Fatal(err)
	}
	names := makeNames(t, filepath.Join(dir, "big"), 20000, false, func(i int) string { return fmt.Sprintf("f%05d", i) })
	p := startList(t, dir, scouttest.Options{})
	big := idsOf(t, p, dir, wire.RootRef)["big"] // id 1
	// 20 pages of 1,000 ids plus 19 continuations: 20,019 more ids, so
	// the 20 oldest (big's id and the first 19 files') are evicted.
	ids := idsOf(t, p, dir, big)
	if len(ids) != len(names) {
		t.Fatalf("listed %d of %d", len(ids), len(names))
	}
	expectNotFound(t, p, "evicted folder id", wire.MethodProjectList, listRef(big))
	expectNotFound(t, p, "evicted file id", wire.MethodProjectRead, readRef(ids[names[0]]))
	expectNotFound(t, p, "evicted file id", wire.MethodProjectRead, readRef(ids[names[18]]))
	for _, n := range []string{names[19], names[19999]} {
		if m := p.Call(wire.MethodProjectRead, readRef(ids[n])); m.Error != nil {
			t.Errorf("live id of %s: %s", n, m.Raw)
		}
	}
}

func TestTrustRevokesIDs(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, ".scout/config.toml << [files]\ndeny = [\"private/**\"]\n", "private/notes.txt", "main.go << x")
	p := startList(t, dir, scouttest.Options{})
	root := idsOf(t, p, dir, wire.RootRef)
	cont := listPage(t, p, dir, wire.RootRef, 1, wire.DefaultListExtension.PageBytes).NextRef
	p.Request("t1", wire.MethodWorkspaceTrust, map[string]any{})
	m, msgs := p.Await("t1")
	if m.Error != nil || !slices.Equal(invalidations(t, msgs), []int64{2}) {
		t.Fatalf("trust: %s", m.Raw)
	}
	expectNotFound(t, p, "file id after trust", wire.MethodProjectRead, readRef(root["main.go"]))
	expectNotFound(t, p, "folder id after trust", wire.MethodProjectList, listRef(root["private"]))
	expectNotFound(t, p, "continuation after trust", wire.MethodProjectList, listRef(cont))
	after := listPage(t, p, dir, wire.RootRef, 100, wire.DefaultListExtension.PageBytes)
	if after.Generation != 2 {
		t.Fatalf("generation %d after trust", after.Generation)
	}
	priv := ""
	for _, e := range after.Entries {
		if e.Name == "private" {
			priv = e.ID
		}
	}
	if es, _ := listAll(t, p, dir, priv, 10); len(es) != 0 {
		t.Errorf("private/** listed after trust: %q", names(es))
	}
}

func TestResolveRechecksThePolicy(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "a.txt << a", "b.txt << b", "c.txt << c", "d.txt << d", "other.txt << o", "sub/x.txt << x", "sub2/y.txt << y", "keep.txt << k")
	p := startList(t, dir, scouttest.Options{})
	root := idsOf(t, p, dir, wire.RootRef)
	sub2 := idsOf(t, p, dir, root["sub2"])
	at := func(n string) string { return filepath.Join(dir, n) }

	// A file replaced by a symlink between listing and reading.
	must(t, os.Remove(at("a.txt")))
	must(t, os.Symlink("other.txt", at("a.txt")))
	expectNotFound(t, p, "file replaced by a symlink", wire.MethodProjectRead, readRef(root["a.txt"]))
	// A file moved out of the workspace.
	must(t, os.Rename(at("b.txt"), filepath.Join(t.TempDir(), "b.txt")))
	expectNotFound(t, p, "file moved out", wire.MethodProjectRead, readRef(root["b.txt"]))
	// A file that became ignored (skipped) and one that got a second link.
	must(t, os.WriteFile(at(".gitignore"), []byte("c.txt\n"), 0o644))
	expectNotFound(t, p, "file now ignored", wire.MethodProjectRead, readRef(root["c.txt"]))
	must(t, os.Link(at("d.txt"), filepath.Join(t.TempDir(), "d-link")))
	expectNotFound(t, p, "file with a second link", wire.MethodProjectRead, readRef(root["d.txt"]))
	// A folder replaced by a symlink, and a folder whose parent did.
	must(t, os.Rename(at("sub"), at("sub-moved")))
	must(t, os.Symlink("sub-moved", at("sub")))
	expectNotFound(t, p, "folder replaced by a symlink", wire.MethodProjectList, listRef(root["sub"]))
	must(t, os.Rename(at("sub2"), at("sub2-moved")))
	must(t, os.Symlink("sub2-moved", at("sub2")))
	expectNotFound(t, p, "file below a folder now a symlink", wire.MethodProjectRead, readRef(sub2["y.txt"]))
	// A file replaced by another regular file at the same path is served:
	// ids name paths, and an editor's save replaces the file.
	must(t, os.Rename(at("other.txt"), at("keep.txt")))
	var r wire.ReadResult
	p.MustCall(wire.MethodProjectRead, readRef(root["keep.txt"]), &r)
	if r.Content != "o" {
		t.Errorf("replaced file: %q", r.Content)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func TestHostileWorkspaceListing(t *testing.T) {
	t.Parallel()
	fx := append(hostileFixture(), "locked-file << x", "hard << x")
	dir := makefs.MustMake(t, fx...)
	must(t, os.Chmod(filepath.Join(dir, "locked-file"), 0))
	must(t, os.Link(filepath.Join(dir, "hard"), filepath.Join(dir, "src", "hard-too")))
	asuser.Share(dir)
	home := filepath.Join(t.TempDir(), "home")
	asuser.Share(filepath.Dir(home))
	p := startList(t, dir, scouttest.Options{Unprivileged: true, Env: []string{"SCOUT_HOME=" + home}})
	listed := walkList(t, p, dir)

	// project.files sees the same policy; project.list leaves out what it
	// could not serve besides (the unreadable directory and file, both
	// links of the hard-linked file) and is not bounded in depth.
	r := scanFiles(t, p, dir)
	notServed := map[string]bool{"locked": true, "locked-file": true, "hard": true, "src/hard-too": true}
	for _, e := range r.Entries {
		if _, ok := listed[e.Path]; !ok && !notServed[e.Path] {
			t.Errorf("%q is in project.files but not listed", e.Path)
		}
	}
	for path := range listed {
		if notServed[path] || strings.HasPrefix(path, "locked/") {
			t.Errorf("%q listed", path)
		}
		if !r.has(path) && strings.Count(path, "/") < 12 {
			t.Errorf("%q listed but not in project.files", path)
		}
	}
	deep := "deep"
	for i := 1; i <= 30; i++ {
		deep += fmt.Sprintf("/d%d", i)
	}
	if _, ok := listed[deep+"/leaf"]; !ok {
		t.Error("project.list does not reach below depth 12")
	}
	// Reading every listed file works; none of them is hidden content.
	for path, e := range listed {
		if e.Type == wire.TypeFile {
			if m := p.Call(wire.MethodProjectRead, readRef(e.ID)); m.Error != nil {
				t.Errorf("read %q: %s", path, m.Raw)
			}
		}
	}
}

// TestDebugHooks: the page-byte and id-lifetime hooks act only with
// SCOUT_DEBUG_METHODS=1, and initialize reports the protocol's values
// either way. docs/backend.md "Test hooks".
func TestDebugHooks(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "a.txt << a", "b.txt << b", "c.txt << c", "d.txt << d", "e.txt << e")
	hooks := []string{"SCOUT_DEBUG_LIST_PAGE_BYTES=600", "SCOUT_DEBUG_REF_TTL_MS=1", "SCOUT_HOME=" + filepath.Join(t.TempDir(), "home")}
	for _, debug := range []bool{false, true} {
		p := scouttest.Start(t, scouttest.Options{Dir: dir, Debug: debug, Env: hooks})
		res := p.Initialize(wire.MethodProjectList, wire.MethodProjectRead)
		if res.Extensions.ProjectList == nil || *res.Extensions.ProjectList != wire.DefaultListExtension {
			t.Errorf("debug %v: project.list extension %+v", debug, res.Extensions.ProjectList)
		}
		var pg wire.ListResult
		p.MustCall(wire.MethodProjectList, listRef(wire.RootRef), &pg)
		time.Sleep(20 * time.Millisecond) // past the 1 ms lifetime for sure
		read := p.Call(wire.MethodProjectRead, readRef(pg.Entries[0].ID))
		if bounded, expired := pg.NextRef != "", read.Code() == wire.CodeNotFound; bounded != debug || expired != debug {
			t.Errorf("debug %v: %d entries with next_ref %v, read %.80s", debug, len(pg.Entries), bounded, read.Raw)
		}
	}
}
