package files

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/makefs"
)

func scanDir(t testing.TB, dir string, lim Limits, rules policy.Rules) *Result {
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
	res, err := Scan(context.Background(), root, pol, lim)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func paths(es []wire.FileEntry) []string {
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Path
		if e.Kind == wire.KindDirectory {
			out[i] += "/"
		}
	}
	return out
}

// reference is the selection rule of docs/protocol.md §5 written as plainly as
// possible: sequential, one directory at a time, paths resolved from the
// root each time.
func reference(t testing.TB, dir string, lim Limits, rules policy.Rules) ([]string, bool) {
	root, _ := fsguard.OpenRoot(dir)
	defer root.Close()
	pol, _ := policy.New(1, dir, rules)
	type qd struct {
		path  string
		depth int
		pf    *policy.Frame
	}
	var sel []string
	truncated := false
	examined := 0
	queue := []qd{{}}
	for i := 0; i < len(queue); i++ {
		q := queue[i]
		if len(sel) >= lim.MaxEntries {
			truncated = true
			break
		}
		f, es, ok := refListing(root, pol, q.path, q.pf, lim.MaxExamined-examined)
		if !ok {
			continue
		}
		if f == nil {
			truncated = true
			break
		}
		examined += len(es)
		for _, e := range es {
			if pol.Check(f, e.Name, e.Type) != policy.Visible {
				continue
			}
			if len(sel) >= lim.MaxEntries {
				truncated = true
				break
			}
			p := strings.TrimPrefix(q.path+"/"+e.Name, "/")
			if e.Type.IsDir() {
				sel = append(sel, p+"/")
				if q.depth+1 >= lim.MaxDepth {
					truncated = true
				} else {
					queue = append(queue, qd{path: p, depth: q.depth + 1, pf: f})
				}
			} else {
				sel = append(sel, p)
			}
		}
	}
	slices.SortFunc(sel, compareComponents)
	return sel, truncated
}

// refListing reads the directory path (its parent's frame pf) plainly:
// opened from the root, read whole, its frame built, its names sorted. ok
// is false when it cannot be opened or read; the frame is nil when it has
// more than budget names.
func refListing(root *fsguard.Root, pol *policy.Policy, path string, pf *policy.Frame, budget int) (*policy.Frame, []fsguard.Entry, bool) {
	d, err := root.OpenDir(dotIfRoot(path))
	if err != nil {
		return nil, nil, false
	}
	defer d.Close()
	es, err := d.ReadEntries(-1)
	if err != nil {
		return nil, nil, false
	}
	if len(es) > budget {
		return nil, es, true
	}
	var has policy.IgnoreFiles
	for _, e := range es {
		has |= policy.IgnoreFileKind(e.Name, e.Type.IsDir())
	}
	f := pol.RootFrame(d, has)
	if path != "" {
		f = pol.Enter(pf, path[strings.LastIndexByte(path, '/')+1:], d, has)
	}
	slices.SortFunc(es, func(a, b fsguard.Entry) int { return strings.Compare(a.Name, b.Name) })
	return f, es, true
}

func compareComponents(a, b string) int {
	return slices.Compare(strings.Split(strings.TrimSuffix(a, "/"), "/"), strings.Split(strings.TrimSuffix(b, "/"), "/"))
}

// randomTree describes a random tree with names chosen to stress sorting
// ("a-b" sorts before "a/..." bytewise but after "a" componentwise) and
// ignore files.
func randomTree(r *rand.Rand) []string {
	names := []string{"a", "a-b", "a.b", "b", "B", "é", "z z", "!x", "node_modules", ".git", ".env", "k.pem", "x.log", "keep.log"}
	var out []string
	var gen func(prefix string, depth int)
	gen = func(prefix string, depth int) {
		n := r.IntN(6)
		used := map[string]bool{".gitignore": true}
		for i := 0; i < n; i++ {
			name := names[r.IntN(len(names))] + fmt.Sprint(r.IntN(3))
			if r.IntN(4) == 0 {
				name = names[r.IntN(len(names))]
			}
			if used[name] {
				continue
			}
			used[name] = true
			if depth < 6 && r.IntN(3) == 0 {
				out = append(out, prefix+name+"/")
				gen(prefix+name+"/", depth+1)
			} else {
				out = append(out, prefix+name)
			}
		}
		if r.IntN(4) == 0 {
			out = append(out, prefix+".gitignore << *.log\n!keep.log\nb*/\n")
		}
	}
	gen("", 0)
	return out
}

func TestScanMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	limits := []Limits{DefaultLimits, {MaxEntries: 7, MaxDepth: 12, MaxExamined: 1000}, {MaxEntries: 1000, MaxDepth: 2, MaxExamined: 1000},
		{MaxEntries: 1000, MaxDepth: 12, MaxExamined: 9}, {MaxEntries: 20, MaxDepth: 3, MaxExamined: 25}}
	for i := range 60 {
		tree := randomTree(r)
		dir := makefs.MustMake(t, tree...)
		for _, lim := range limits {
			for _, respect := range []bool{true, false} {
				rules := policy.Rules{RespectIgnore: respect}
				want, wantTrunc := reference(t, dir, lim, rules)
				res := scanDir(t, dir, lim, rules)
				got := paths(res.Ordered(len(res.Selected)))
				if !slices.Equal(got, want) || res.Truncated != wantTrunc {
					t.Fatalf("tree %d %+v ignore=%v:\n got %q %v\nwant %q %v\ntree %q", i, lim, respect, got, res.Truncated, want, wantTrunc, tree)
				}
			}
		}
	}
}

func TestScanBounds(t *testing.T) {
	var tree []string
	for i := range 30 {
		tree = append(tree, fmt.Sprintf("f%02d", i))
	}
	tree = append(tree, "d/x", "d/y", "e/deep/z")
	dir := makefs.MustMake(t, tree...)
	tests := []struct {
		lim   Limits
		want  int
		trunc bool
	}{
		{DefaultLimits, 36, false},
		{Limits{MaxEntries: 36, MaxDepth: 12, MaxExamined: 100}, 36, false},
		{Limits{MaxEntries: 35, MaxDepth: 12, MaxExamined: 100}, 35, true},
		{Limits{MaxEntries: 100, MaxDepth: 2, MaxExamined: 100}, 35, true}, // e/deep listed, not expanded
		{Limits{MaxEntries: 100, MaxDepth: 12, MaxExamined: 36}, 36, false},
		{Limits{MaxEntries: 100, MaxDepth: 12, MaxExamined: 35}, 35, true}, // e/deep does not fit: no children
		{Limits{MaxEntries: 100, MaxDepth: 12, MaxExamined: 31}, 0, true},  // the root does not fit
	}
	for _, tt := range tests {
		res := scanDir(t, dir, tt.lim, policy.Rules{})
		if len(res.Selected) != tt.want || res.Truncated != tt.trunc {
			t.Errorf("%+v: %d entries truncated=%v, want %d %v", tt.lim, len(res.Selected), res.Truncated, tt.want, tt.trunc)
		}
	}
}

func TestScanCancelled(t *testing.T) {
	dir := makefs.MustMake(t, "a/b/c", "d")
	root, _ := fsguard.OpenRoot(dir)
	defer root.Close()
	pol, _ := policy.New(1, dir, policy.Rules{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := Scan(ctx, root, pol, DefaultLimits); err == nil || res != nil {
		t.Fatalf("cancelled scan returned %v, %v", res, err)
	}
}

func TestReportByteBound(t *testing.T) {
	var tree []string
	long := strings.Repeat("n", 200)
	for i := range 40 {
		tree = append(tree, fmt.Sprintf("d%d/%s%03d", i%4, long, i), fmt.Sprintf("q\"%d", i))
	}
	dir := makefs.MustMake(t, tree...)
	res := scanDir(t, dir, DefaultLimits, policy.Rules{})
	full, _ := Report("r1", 7, res, 1<<20)
	fullSize, _ := LineSize("r1", 7, full.Entries, full.Truncated)
	for _, limit := range []int{fullSize, fullSize - 1, fullSize - 300, 4000, 1000, 200} {
		rep, err := Report("r1", 7, res, limit)
		if err != nil {
			t.Fatal(err)
		}
		n, _ := LineSize("r1", 7, rep.Entries, rep.Truncated)
		if n > limit && len(rep.Entries) > 0 {
			t.Errorf("limit %d: line is %d bytes", limit, n)
		}
		if (limit < fullSize) != rep.Truncated {
			t.Errorf("limit %d: truncated=%v", limit, rep.Truncated)
		}
		// Dropped entries are a suffix of the selection order, and one more
		// entry would not have fit.
		keep := len(rep.Entries)
		if !slices.Equal(paths(rep.Entries), paths(res.Ordered(keep))) {
			t.Errorf("limit %d: entries are not the first %d of the selection", limit, keep)
		}
		if keep < len(res.Selected) {
			more, _ := LineSize("r1", 7, res.Ordered(keep+1), true)
			if more <= limit {
				t.Errorf("limit %d: dropped more than needed (%d would fit)", limit, more)
			}
		}
	}
}

// TestNeedsEscape holds the word-at-a-time test to a byte loop.
func TestNeedsEscape(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for range 50000 {
		b := make([]byte, rng.IntN(30))
		for i := range b {
			b[i] = "ab/._\"\\<>&\xe2\xe1\x80\x00!;=?%'"[rng.IntN(20)]
			if rng.IntN(3) > 0 {
				b[i] = 'a'
			}
		}
		want := false
		for _, c := range b {
			want = want || strings.IndexByte("\"\\<>&\xe2", c) >= 0
		}
		if got := needsEscape(string(b)); got != want {
			t.Fatalf("needsEscape(%q) = %v", b, got)
		}
	}
}
