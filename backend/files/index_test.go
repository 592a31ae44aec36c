package files

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/makefs"
)

// indexReference is project.index's order written as plainly as possible:
// breadth-first, each directory read whole, filtered and sorted, paths
// resolved from the root each time, no step and no page.
func indexReference(t testing.TB, dir string, lim IndexLimits, rules policy.Rules) []string {
	root, _ := fsguard.OpenRoot(dir)
	defer root.Close()
	pol, _ := policy.New(1, dir, rules)
	type qd struct {
		path  string
		depth int
		pf    *policy.Frame
	}
	var out []string
	queue := []qd{{}}
	for i := 0; i < len(queue); i++ {
		q := queue[i]
		f, es, ok := refListing(root, pol, q.path, q.pf, math.MaxInt)
		if !ok {
			continue
		}
		for _, e := range es {
			p := strings.TrimPrefix(q.path+"/"+e.Name, "/")
			if pol.Check(f, e.Name, e.Type) != policy.Visible || len(p) > lim.PathBytes {
				continue
			}
			if !e.Type.IsDir() {
				out = append(out, p)
				continue
			}
			out = append(out, p+"/")
			if q.depth+1 < lim.MaxDepth {
				queue = append(queue, qd{path: p, depth: q.depth + 1, pf: f})
			}
		}
	}
	return out
}

// walkAll runs a walk to its end and checks each step's bounds: entries,
// bytes, names examined, and the progress word naming the bound met.
func walkAll(t testing.TB, dir string, lim IndexLimits, b Bounds, rules policy.Rules) []string {
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
	var out []string
	for steps := 0; ; steps++ {
		if steps > 1_000_000 {
			t.Fatal("the walk does not end")
		}
		page, word, err := x.Step(context.Background(), b)
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, x, page, word, lim, b)
		out = append(out, paths(page)...)
		if word == wire.ProgressComplete {
			return out
		}
	}
}

func checkPage(t testing.TB, x *Index, page []wire.FileEntry, word string, lim IndexLimits, b Bounds) {
	t.Helper()
	size := -1
	for _, e := range page {
		size += entrySize(e.Path, e.Kind == wire.KindDirectory)
	}
	if len(page) > lim.PageEntries || (size > b.PageBytes && len(page) > 1) || x.examined > lim.StepExamined {
		t.Fatalf("step over its bounds: %d entries, %d bytes, %d names (%s)", len(page), size, x.examined, word)
	}
	switch word {
	case wire.ProgressPageEntries:
		if len(page) != lim.PageEntries {
			t.Fatalf("page_entries with %d entries", len(page))
		}
	case wire.ProgressPageBytes:
		if size+2*len(`{"path":"","kind":"directory"}`) < b.PageBytes-lim.PathBytes {
			t.Fatalf("page_bytes with %d of %d bytes", size, b.PageBytes)
		}
	case wire.ProgressExamineWork:
		if x.examined != lim.StepExamined {
			t.Fatalf("examine_work after %d names", x.examined)
		}
	case wire.ProgressDeadline, wire.ProgressComplete:
	default:
		t.Fatalf("progress %q", word)
	}
}

func forever() Bounds { return Bounds{Deadline: time.Now().Add(time.Hour), PageBytes: 1 << 20} }

// TestIndexMatchesReference: whatever the bounds (pages of 1 entry,
// steps of 1 name, directories read over many steps, the deadline met at
// once), a complete walk lists the reference's entries, each once, in its
// order.
func TestIndexMatchesReference(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	limits := []IndexLimits{
		DefaultIndexLimits,
		{MaxDepth: 64, PathBytes: 4096, PageEntries: 1, StepExamined: 1},
		{MaxDepth: 2, PathBytes: 4096, PageEntries: 3, StepExamined: 7},
		{MaxDepth: 64, PathBytes: 12, PageEntries: 5, StepExamined: 2},
	}
	bounds := []Bounds{forever(), {Deadline: time.Now().Add(time.Hour), PageBytes: 60}, {PageBytes: 1 << 20}}
	for i := range 40 {
		tree := randomTree(r)
		dir := makefs.MustMake(t, tree...)
		for _, lim := range limits {
			for _, b := range bounds {
				for _, respect := range []bool{true, false} {
					rules := policy.Rules{RespectIgnore: respect, Deny: []string{"a-b1"}}
					want := indexReference(t, dir, lim, rules)
					if got := walkAll(t, dir, lim, b, rules); !slices.Equal(got, want) {
						t.Fatalf("tree %d %+v %+v ignore=%v:\n got %q\nwant %q\ntree %q", i, lim, b, respect, got, want, tree)
					}
				}
			}
		}
	}
}

// TestIndexReadsBigDirectoryOverSteps: a directory of more names than a
// step may examine is read over several steps (examine_work), and then
// emitted over several pages, sorted.
func TestIndexReadsBigDirectoryOverSteps(t *testing.T) {
	t.Parallel()
	dir := makefs.WideFolder(t, 3000)
	lim := IndexLimits{MaxDepth: 64, PathBytes: 4096, PageEntries: 400, StepExamined: 1000}
	root, _ := fsguard.OpenRoot(dir)
	defer root.Close()
	pol, _ := policy.New(1, dir, policy.Rules{})
	x := NewIndex(root, pol, lim)
	defer x.Close()
	var words []string
	var got []string
	for {
		page, word, err := x.Step(context.Background(), forever())
		if err != nil {
			t.Fatal(err)
		}
		checkPage(t, x, page, word, lim, forever())
		words, got = append(words, word), append(got, paths(page)...)
		if word == wire.ProgressComplete {
			break
		}
	}
	if !slices.Equal(words[:3], []string{wire.ProgressExamineWork, wire.ProgressExamineWork, wire.ProgressExamineWork}) ||
		words[3] != wire.ProgressPageEntries {
		t.Errorf("progress words %q", words)
	}
	if want := indexReference(t, dir, lim, policy.Rules{}); !slices.Equal(got, want) || len(got) != 3000 {
		t.Errorf("%d entries, want the reference's %d", len(got), len(want))
	}
}

// TestIndexDepthAndPathBounds: directories at depth 64 are listed, never
// expanded; entries whose path would pass 4,096 bytes are left out (the
// fixture is made one component at a time: its paths pass PATH_MAX).
func TestIndexDepthAndPathBounds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	chain(t, dir, "deep", 70, func(int) string { return "d" })
	long := strings.Repeat("n", 250)
	chain(t, dir, "long", 20, func(i int) string { return fmt.Sprintf("%02d%s", i, long) })
	got := walkAll(t, dir, DefaultIndexLimits, forever(), policy.Rules{})
	if want := indexReference(t, dir, DefaultIndexLimits, policy.Rules{}); !slices.Equal(got, want) {
		t.Fatalf("got %d entries, the reference %d", len(got), len(want))
	}
	deepest, longest := 0, 0
	for _, p := range got {
		p = strings.TrimSuffix(p, "/")
		if strings.HasPrefix(p, "deep/") {
			deepest = max(deepest, strings.Count(p, "/")+1)
		} else {
			longest = max(longest, len(p))
		}
	}
	if deepest != 64 {
		t.Errorf("deepest entry at depth %d, want 64", deepest)
	}
	// "long" and 16 components of 252 bytes, each after a slash, is 4,052
	// bytes; one more is over.
	if longest != 4+16*253 {
		t.Errorf("longest path %d bytes", longest)
	}
}

// chain makes top/c(1)/c(2)/.../c(n) with a file in the last, one
// component at a time.
func chain(t *testing.T, dir, top string, n int, c func(int) string) {
	t.Helper()
	fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i <= n; i++ {
		name := top
		if i > 0 {
			name = c(i)
		}
		if err := unix.Mkdirat(fd, name, 0o755); err != nil {
			t.Fatal(err)
		}
		next, err := unix.Openat(fd, name, unix.O_RDONLY|unix.O_DIRECTORY, 0)
		unix.Close(fd)
		if err != nil {
			t.Fatal(err)
		}
		fd = next
	}
	f, err := unix.Openat(fd, "leaf", unix.O_CREAT|unix.O_WRONLY, 0o644)
	if err == nil {
		unix.Close(f)
	}
	unix.Close(fd)
}

// TestIndexCancelled: a step whose context ends answers its error.
func TestIndexCancelled(t *testing.T) {
	t.Parallel()
	dir := makefs.MustMake(t, "a/b/c", "d")
	root, _ := fsguard.OpenRoot(dir)
	defer root.Close()
	pol, _ := policy.New(1, dir, policy.Rules{})
	x := NewIndex(root, pol, DefaultIndexLimits)
	defer x.Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if page, _, err := x.Step(ctx, forever()); err == nil || page != nil {
		t.Fatalf("cancelled step returned %v, %v", page, err)
	}
}

// TestIndexHoldsNoEntries: between steps the walk holds its queue of
// directories and at most one directory, never what it emitted. A walk of
// 120,000 files in 240 folders, each step's page dropped, keeps the live
// heap within a small bound; had it kept its pages it would hold several
// megabytes.
func TestIndexHoldsNoEntries(t *testing.T) { // not parallel: it measures the heap
	dir := makefs.ScratchDir(t)
	var fx []string
	for d := range 240 {
		for f := range 500 {
			fx = append(fx, fmt.Sprintf("folder-%03d/a-rather-long-file-name-%04d.go", d, f))
		}
	}
	if err := makefs.Bulk(dir, fx); err != nil {
		t.Fatal(err)
	}
	root, _ := fsguard.OpenRoot(dir)
	defer root.Close()
	pol, _ := policy.New(1, dir, policy.Rules{RespectIgnore: true})
	x := NewIndex(root, pol, DefaultIndexLimits)
	defer x.Close()
	base := liveHeap()
	peak, total := uint64(0), 0
	for {
		page, word, err := x.Step(context.Background(), forever())
		if err != nil {
			t.Fatal(err)
		}
		total += len(page)
		page = nil
		runtime.KeepAlive(page)
		if h := liveHeap(); h > base && h-base > peak {
			peak = h - base
		}
		if word == wire.ProgressComplete {
			break
		}
	}
	if total != 240*501 {
		t.Fatalf("%d entries", total)
	}
	// One folder's names (about 20 KB) and the queue; the pages were 5 MB.
	if peak > 1<<20 {
		t.Errorf("the walk held %d bytes between steps", peak)
	}
}
