package rank

import (
	"io/fs"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

var goTreeOnce = sync.OnceValues(func() ([]string, error) {
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return nil, err
	}
	src := filepath.Join(strings.TrimSpace(string(out)), "src")
	var paths []string
	err = filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(src, p)
		paths = append(paths, filepath.ToSlash(rel))
		return err
	})
	slices.Sort(paths)
	return paths, err
})

// goTree lists the Go source tree's files as record_fzf.sh does: relative
// to GOROOT/src, slash-separated, in byte order.
func goTree(tb testing.TB) []string {
	tb.Helper()
	paths, err := goTreeOnce()
	if err != nil {
		tb.Fatalf("listing GOROOT/src: %v", err)
	}
	return paths
}

// rankOf returns the 1-based rank of path in res, or 0.
func rankOf(res Result, paths []string, path string) int {
	for i, m := range res.Matches {
		if paths[m.Index] == path {
			return i + 1
		}
	}
	return 0
}

// reference scores every path of r for query one at a time, on one
// goroutine, and sorts the matches by compare: what Rank(query, 0) must
// return.
func reference(r *Ranker, query string) []hit {
	t, p := r.tab.Load(), compile(query)
	var ref []hit
	for i := range t.n {
		x, j := t.block(i)
		if v, _ := x.score(&scratch{}, p, j, false); v != noMatch {
			ref = append(ref, hit{idx: int32(i), score: v})
		}
	}
	slices.SortFunc(ref, t.compare)
	return ref
}
