package files

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/asuser"
	"github.com/scoutdev/scout/internal/makefs"
)

// aheadTree is a tree of many directories of different sizes (some
// larger than checkEvery, so the helper checks for the step's end while
// it reads), with ignored, denied and unsafe names among them.
func aheadTree(t testing.TB) string {
	var fx []string
	for d := range 60 {
		for f := range (d * 37) % 90 {
			fx = append(fx, fmt.Sprintf("p%d/d%02d/f%03d.go", d%3, d, f))
		}
	}
	for f := range 1500 {
		fx = append(fx, fmt.Sprintf("p1/wide/w%04d.txt", f))
	}
	fx = append(fx, "p0/.gitignore << d03\n*.log\n", "p0/d06/x.log", "p2/a-b1/secret.go", "p2/d05/bad\nname.go", "p1/empty/")
	return makefs.MustMake(t, fx...)
}

// stepRecord is what one step gave.
type stepRecord struct {
	word     string
	paths    []string
	examined int
}

// recordWalk walks dir to its end, checking every page's bounds and that
// nothing read ahead outlives its step, and returns the steps and the
// walk's read-ahead counts.
func recordWalk(t *testing.T, dir string, lim IndexLimits, b Bounds, rules policy.Rules) ([]stepRecord, *Index) {
	t.Helper()
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	pol, err := policy.New(1, dir, rules)
	if err != nil {
		t.Fatal(err)
	}
	x := NewIndex(root, pol, lim)
	defer x.Close()
	var steps []stepRecord
	for {
		page, word, err := x.Step(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, x, page, word, lim, b)
		if x.ahead != nil || x.aheadDone != nil {
			t.Fatal("a directory read ahead outlived its step")
		}
		steps = append(steps, stepRecord{word, paths(page), x.examined})
		if word == wire.ProgressComplete {
			return steps, x
		}
	}
}

// TestIndexReadAheadIsDeterministic: with directories read ahead by the
// helper, the same tree gives the same steps (pages, progress words,
// names examined) every time, the reference's entries in its order, and
// every step within its bounds, also when the examine budget ends steps
// inside directories the helper read.
func TestIndexReadAheadIsDeterministic(t *testing.T) {
	t.Parallel()
	dir := aheadTree(t)
	rules := policy.Rules{RespectIgnore: true, Deny: []string{"a-b1"}}
	for _, lim := range []IndexLimits{
		DefaultIndexLimits,
		{MaxDepth: 64, PathBytes: 4096, PageEntries: 97, StepExamined: 50_000},
		{MaxDepth: 64, PathBytes: 4096, PageEntries: 10_000, StepExamined: 233},
		{MaxDepth: 64, PathBytes: 4096, PageEntries: 500, StepExamined: 1100},
	} {
		first, x := recordWalk(t, dir, lim, forever(), rules)
		if x.aheadTaken == 0 {
			t.Errorf("%+v: no directory was read ahead", lim)
		}
		var got []string
		words := map[string]int{}
		for _, s := range first {
			got = append(got, s.paths...)
			words[s.word]++
		}
		if want := indexReference(t, dir, lim, rules); !slices.Equal(got, want) {
			t.Fatalf("%+v: %d entries, want the reference's %d", lim, len(got), len(want))
		}
		if lim.StepExamined < 2000 && words[wire.ProgressExamineWork] == 0 {
			t.Errorf("%+v: no step ended on its examine budget: %v", lim, words)
		}
		for range 3 {
			again, _ := recordWalk(t, dir, lim, forever(), rules)
			if !slices.EqualFunc(again, first, func(a, b stepRecord) bool {
				return a.word == b.word && a.examined == b.examined && slices.Equal(a.paths, b.paths)
			}) {
				t.Fatalf("%+v: a second walk of the same tree stepped differently", lim)
			}
		}
	}
}

// TestIndexDropsWhatItReadAheadPastThePage: when the page's bytes run out
// in the directory being emitted while the next is read ahead (names the
// encoder escapes are larger than their estimate: each quote takes two
// bytes), the step ends there,
// the directory read ahead is dropped and read again by the next step:
// the walk is the reference's, the same every time.
func TestIndexDropsWhatItReadAheadPastThePage(t *testing.T) {
	t.Parallel()
	var fx []string
	for d := range 40 {
		for f := range 12 {
			fx = append(fx, fmt.Sprintf("d%02d/%s%02d", d, strings.Repeat(`"`, 14), f))
		}
	}
	dir := makefs.MustMake(t, fx...)
	b := forever()
	b.PageBytes = 2000
	first, x := recordWalk(t, dir, DefaultIndexLimits, b, policy.Rules{})
	if x.aheadDropped == 0 || x.aheadTaken == 0 {
		t.Errorf("read ahead: %d taken, %d dropped", x.aheadTaken, x.aheadDropped)
	}
	var got []string
	for _, s := range first {
		got = append(got, s.paths...)
	}
	if want := indexReference(t, dir, DefaultIndexLimits, policy.Rules{}); !slices.Equal(got, want) || len(want) != 40*13 {
		t.Fatalf("%d entries, want the reference's %d", len(got), len(want))
	}
	again, _ := recordWalk(t, dir, DefaultIndexLimits, b, policy.Rules{})
	if !slices.EqualFunc(again, first, func(a, b stepRecord) bool {
		return a.word == b.word && a.examined == b.examined && slices.Equal(a.paths, b.paths)
	}) {
		t.Fatal("a second walk of the same tree stepped differently")
	}
}

// countdown is a context that ends after a number of looks at Err: the
// walk and its helper look at it at points of the walk that do not depend
// on timing, so each count cancels at a different one.
type countdown struct {
	context.Context
	left atomic.Int64
}

func (c *countdown) Err() error {
	if c.left.Add(-1) < 0 {
		return context.Canceled
	}
	return nil
}

// TestIndexCancelledWhileReadingAhead: a step cancelled at any point, the
// helper reading ahead or not, answers the context's error having waited
// for the helper and closed what it opened: the descriptors open after
// Close are those open before the walk. Not parallel: it counts the
// process's descriptors.
func TestIndexCancelledWhileReadingAhead(t *testing.T) {
	var fx []string
	for d := range 6 {
		for f := range 1500 + 300*d {
			fx = append(fx, fmt.Sprintf("d%d/f%04d", d, f))
		}
	}
	dir := makefs.ScratchDir(t)
	if err := makefs.Bulk(dir, fx); err != nil {
		t.Fatal(err)
	}
	root, _ := fsguard.OpenRoot(dir)
	defer root.Close()
	pol, _ := policy.New(1, dir, policy.Rules{})
	before := openDescriptors(t)
	metAhead := 0
	for k := int64(1); k < 60; k++ {
		x := NewIndex(root, pol, DefaultIndexLimits)
		ctx := &countdown{Context: context.Background()}
		ctx.left.Store(k)
		for {
			page, word, err := x.Step(ctx, forever())
			if x.ahead != nil {
				t.Fatal("a directory read ahead outlived its step")
			}
			if err != nil {
				if page != nil {
					t.Fatalf("a cancelled step gave a page of %d", len(page))
				}
				if x.aheadTaken > 0 {
					metAhead++
				}
				break
			}
			if word == wire.ProgressComplete {
				break
			}
		}
		x.Close()
		if n := openDescriptors(t); n != before {
			t.Fatalf("cancelled after %d looks: %d descriptors open, %d before", k, n, before)
		}
	}
	if metAhead < 10 {
		t.Errorf("%d walks were cancelled after reading ahead", metAhead)
	}
}

func openDescriptors(t *testing.T) int {
	t.Helper()
	es, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Fatal(err)
	}
	return len(es)
}

// TestIndexReadAheadOfUnreadableDirectories: directories that cannot be
// opened (mode 0000) or whose children cannot be (mode 0444), met where
// the helper reads ahead, are listed without children, and the walk is
// the reference's. Permissions need an unprivileged process: as root the
// test binary runs this test again as nobody.
func TestIndexReadAheadOfUnreadableDirectories(t *testing.T) {
	const env = "FILES_AHEAD_FIXTURE"
	if dir := os.Getenv(env); dir != "" {
		checkUnreadableAhead(t, dir)
		return
	}
	var fx []string
	for d := range 30 {
		fx = append(fx, fmt.Sprintf("top/d%02d/f.go", d), fmt.Sprintf("top/d%02d/sub/g.go", d))
		switch d % 3 {
		case 1:
			fx = append(fx, fmt.Sprintf("top/d%02d/ mode 0000", d))
		case 2:
			fx = append(fx, fmt.Sprintf("top/d%02d/ mode 0444", d))
		}
	}
	dir := makefs.MustMake(t, fx...)
	if os.Geteuid() != 0 {
		checkUnreadableAhead(t, dir)
		return
	}
	asuser.Share(dir)
	cmd := asuser.Command(t, os.Args[0], "-test.run=^TestIndexReadAheadOfUnreadableDirectories$", "-test.v")
	cmd.Env = append(os.Environ(), env+"="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("unprivileged run failed: %v\n%s", err, out)
	}
	t.Logf("unprivileged run:\n%s", out)
}

func checkUnreadableAhead(t *testing.T, dir string) {
	if os.Geteuid() == 0 {
		t.Fatal("still root")
	}
	steps, x := recordWalk(t, dir, DefaultIndexLimits, forever(), policy.Rules{})
	var got []string
	for _, s := range steps {
		got = append(got, s.paths...)
	}
	want := indexReference(t, dir, DefaultIndexLimits, policy.Rules{})
	if !slices.Equal(got, want) {
		t.Fatalf("got %q\nwant %q", got, want)
	}
	for p, listed := range map[string]bool{
		"top/d00/sub/g.go": true, "top/d01/": true, "top/d01/f.go": false,
		"top/d02/f.go": true, "top/d02/sub/": true, "top/d02/sub/g.go": false,
	} {
		if slices.Contains(want, p) != listed {
			t.Fatalf("the reference lists %q", want)
		}
	}
	if x.aheadTaken < 30 {
		t.Errorf("%d directories read ahead", x.aheadTaken)
	}
}
