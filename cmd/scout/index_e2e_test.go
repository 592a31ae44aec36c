package main_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// TestPickerIndexesABigTree: in a tree of 40,000 files, four times the
// snapshot's 10,000 entries, the picker on a real terminal follows the index: a file
// 15 levels deep is found by typing part of its name (while the index
// still runs or right after), the count reaches every file, and Enter
// prints the path.
func TestPickerIndexesABigTree(t *testing.T) {
	t.Parallel()
	dir := makefs.ScratchDir(t)
	var fx []string
	for i := range bigTreeFiles {
		fx = append(fx, fmt.Sprintf("area%02d/part%02d/unit%03d/f%06d.txt", i%40, i/40%25, i/1000%150, i))
	}
	deep := "src"
	for d := 2; d < 15; d++ {
		deep += fmt.Sprintf("/lvl%02d", d)
	}
	want := deep + "/fifteen_levels_down.go" // depth 15
	fx = append(fx, want)
	if err := makefs.Bulk(dir, fx); err != nil {
		t.Fatal(err)
	}
	x := scouttest.StartTmux(t, dir, 120, 30, env(t),
		`"$SCOUT" > "$OUTDIR/out" 2> "$OUTDIR/err"; echo $? > "$OUTDIR/rc"`)
	x.WaitScreen("the first frame", func(s string) bool { return regexp.MustCompile(`\d+ files`).MatchString(s) })
	x.Type("fifteenlevels")
	// The walk takes a second, far longer under -race on a machine loaded
	// by the package's other tests: the waits for it are bounded by walkWait.
	x.WaitScreenWithin(walkWait, "the deep file ranked first", func(s string) bool {
		rows := indexRows(s) // the list is narrowed by the preview pane: the path may start with "…"
		return len(rows) > 0 && strings.HasSuffix(rows[0], "lvl13/lvl14/fifteen_levels_down.go")
	})
	x.WaitScreenWithin(walkWait, "every file counted", func(s string) bool {
		return strings.Contains(s, fmt.Sprintf("/%d", bigTreeFiles+1)) && !strings.Contains(s, "indexing")
	})
	x.Keys("Enter")
	if rc := x.WaitFile("rc"); rc != "0\n" {
		t.Fatalf("exit status %q, stderr %q", rc, x.ReadFile("err"))
	}
	if out := x.ReadFile("out"); out != want+"\n" {
		t.Fatalf("stdout %q, want %q", out, want)
	}
}

// bigTreeFiles is the big tree's size, less the deep file. 150,000 files
// were walked in 20 s alone under -race, but a clean-clone CI run, with
// the package's other tests on both cores, reached only 135,869 of them
// in the 120 s of walkWait.
const bigTreeFiles = 40000

// walkWait bounds the waits for a walk of the whole big tree.
const walkWait = 6 * scouttest.DefaultTimeout

// indexRows is rowsOf for a screen that may carry the index's notice
// under the query.
func indexRows(screen string) []string {
	lines := strings.Split(screen, "\n")
	if len(lines) > 2 && strings.Contains(lines[2], "indexing") {
		screen = strings.Join(append(lines[:2:2], lines[3:]...), "\n")
	}
	return rowsOf(screen)
}
