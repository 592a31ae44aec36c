package rank

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// FuzzSieve: Filter over the paths Sieve(query) keeps, in their order,
// gives exactly Filter over all of them (the indices mapped back), with
// and without a limit, and every path Filter matches passes the sieve.
// `scout filter` relies on it to sieve project.index page by page.
func FuzzSieve(f *testing.F) {
	f.Add("srv", "net/http/server.go\ncmd/go/main.go\nsrv\ns/r/v")
	f.Add("Ab", "aAb\nAB\nab/AbAb\nxb")
	f.Add("cafe", "café/menü.txt\ncafe\u0301/x\nc/a/f/e\ncaf")
	f.Add("k", "\u212a\nk\nK\nx")
	f.Add("KELVIN", "\u212aELVIN\nkelvin\nKELVIN")
	f.Add("", "a\nb")
	f.Add("^a b$ !c 'd | e", "a/b\nax/d.b\na c b\n e\nab")
	f.Add("!go", "a.go\nb.rs\nc")
	f.Add("part05file12", "pkg1/mod2/part05/file1200.go\npkg1/mod2/part06/file1200.go\npart05/x/file/1/2")
	f.Fuzz(func(t *testing.T, query, list string) {
		paths := strings.Split(list, "\n")
		keep := Sieve(query)
		var kept []string
		var at []int
		for i, p := range paths {
			if keep(p) {
				kept, at = append(kept, p), append(at, i)
			}
		}
		for _, k := range []int{0, 2} {
			n, want, err := Filter(context.Background(), paths, query, k)
			if err != nil {
				t.Fatal(err)
			}
			m, got, err := Filter(context.Background(), kept, query, k)
			if err != nil {
				t.Fatal(err)
			}
			for i, j := range got {
				got[i] = at[j]
			}
			if n != m || !slices.Equal(got, want) {
				t.Fatalf("%q, k %d: sieved %d %v, all %d %v", query, k, m, got, n, want)
			}
		}
	})
}
