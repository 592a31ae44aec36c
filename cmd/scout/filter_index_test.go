package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
	"github.com/scoutdev/scout/internal/testhome"
)

// `scout filter` over the whole project: the snapshot and then the index.

// indexTree is a workspace larger than one snapshot: 14,000 files in 700
// folders, a chain 20 folders deep, ignore rules, and entries the policy
// hides. Built once per test process; read only.
var indexTree = sync.OnceValues(func() (string, error) {
	base := os.TempDir()
	if st, err := os.Stat("/dev/shm"); err == nil && st.IsDir() {
		base = "/dev/shm"
	}
	dir, err := os.MkdirTemp(base, "scout-filter-")
	if err != nil {
		return "", err
	}
	testhome.AtExit(func() { os.RemoveAll(dir) })
	var fx []string
	for i := range 14000 {
		fx = append(fx, fmt.Sprintf("pkg%02d/sub%02d/file%05d.go", i%35, i%20, i))
	}
	deep := "deep"
	for d := range 20 {
		deep += fmt.Sprintf("/level%02d", d+1)
	}
	fx = append(fx, deep+"/needle_in_the_deep.go")
	if err := makefs.Bulk(dir, fx); err != nil {
		return "", err
	}
	return dir, makefs.Make(dir, ".gitignore << *.log\nbuild/\n", "app.log", "pkg03/build/out.go", "pkg04/.env",
		"pkg05/id_rsa", "pkg06/bad\nname.go", "pkg07/link.go => ../pkg01", "pkg08/fifo|", "node_modules/x/index.js")
})

func filterIn(t *testing.T, dir string, extraEnv []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(scouttest.Binary(t), append([]string{"filter"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(append(scouttest.Environ(), env(t)...), extraEnv...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), exitStatus(err)
}

func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// TestFilterListsEveryVisibleFile: `scout filter` with an empty query prints exactly the
// files a walk applying the policy's rules finds (git's ignore rules,
// then §4's), far more than one snapshot holds.
func TestFilterListsEveryVisibleFile(t *testing.T) {
	t.Parallel()
	dir, err := indexTree()
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := filterIn(t, dir, nil, "")
	got := lines(out)
	slices.Sort(got)
	want := scouttest.VisibleFiles(t, dir)
	if code != 0 || stderr != "" || !slices.Equal(got, want) || len(want) < 14001 {
		t.Fatalf("exit %d, stderr %q, %d files; the walk finds %d", code, stderr, len(got), len(want))
	}
}

// TestFilterFindsWhatTheSnapshotMisses: a file 21 folders deep (past the
// snapshot's depth of 12) is the first match of part of its name.
func TestFilterFindsWhatTheSnapshotMisses(t *testing.T) {
	t.Parallel()
	dir, err := indexTree()
	if err != nil {
		t.Fatal(err)
	}
	out, _, code := filterIn(t, dir, nil, "needledeep")
	if got := lines(out); code != 0 || len(got) == 0 || !strings.HasSuffix(got[0], "/level20/needle_in_the_deep.go") {
		t.Fatalf("exit %d, first matches %.3q", code, got)
	}
}

// TestFilterCeiling: the ceiling (SCOUT_MAX_INDEXED, --max-indexed over
// it) stops the index; stderr says so in one line and the exit status is
// still the match rule's.
func TestFilterCeiling(t *testing.T) {
	t.Parallel()
	dir, err := indexTree()
	if err != nil {
		t.Fatal(err)
	}
	out, stderr, code := filterIn(t, dir, []string{"SCOUT_MAX_INDEXED=12000"}, "")
	note := "scout filter: stopped indexing at the --max-indexed ceiling of 12,000 entries: files beyond it are not searched\n"
	if n := len(lines(out)); code != 0 || stderr != note || n < 9000 || n >= 12000 {
		t.Fatalf("SCOUT_MAX_INDEXED=12000: exit %d, %d files, stderr %q", code, n, stderr)
	}
	out, stderr, code = filterIn(t, dir, []string{"SCOUT_MAX_INDEXED=12000"}, "--max-indexed", "0", "needledeep")
	if code != 1 || out != "" || stderr != strings.Replace(note, "12,000", "0", 1) {
		t.Fatalf("--max-indexed 0: exit %d, stdout %q, stderr %q", code, out, stderr)
	}
	_, stderr, code = filterIn(t, dir, []string{"SCOUT_MAX_INDEXED=many"}, "x")
	if code != 2 || !strings.Contains(stderr, "SCOUT_MAX_INDEXED must be a whole number") {
		t.Fatalf("a bad SCOUT_MAX_INDEXED: exit %d, stderr %q", code, stderr)
	}
}

// TestFilterInTheGoTree: in $(go env GOROOT)/src, the files issue 15
// could not find by typing are first for the queries it tried (when this
// Go still has them), and, whatever the Go version, a file the snapshot
// does not hold is found by typing its path.
func TestFilterInTheGoTree(t *testing.T) {
	t.Parallel()
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "src")
	for query, want := range map[string]string{
		"printf.go":                "cmd/vendor/golang.org/x/tools/go/analysis/passes/printf/printf.go",
		"importertestdatagenerics": "cmd/compile/internal/importer/testdata/generics.go",
	} {
		if _, err := os.Stat(filepath.Join(src, want)); err != nil {
			t.Logf("%s is not in this Go tree", want)
			continue
		}
		out, _, _ := filterIn(t, src, nil, "--limit", "2", query)
		if !slices.Contains(lines(out), want) {
			t.Errorf("scout filter %s: %q, want %s among the first two", query, lines(out), want)
		}
	}
	all, _, _ := filterIn(t, src, nil, "")
	snapshot, _, _ := filterIn(t, src, nil, "--max-indexed", "0", "")
	inSnapshot := map[string]bool{}
	for _, p := range lines(snapshot) {
		inSnapshot[p] = true
	}
	var beyond string
	for _, p := range lines(all) {
		if !inSnapshot[p] && strings.Count(p, "/") > strings.Count(beyond, "/") {
			beyond = p
		}
	}
	if beyond == "" {
		t.Fatalf("every one of %d files is in the snapshot", len(lines(all)))
	}
	if out, _, _ := filterIn(t, src, nil, "--limit", "1", beyond); lines(out)[0] != beyond {
		t.Errorf("scout filter %s: %q first", beyond, lines(out))
	}
}
