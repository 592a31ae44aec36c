package files

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/policy"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/makefs"
)

func openView(t testing.TB, dir string, rules policy.Rules) (*fsguard.Root, *policy.Policy) {
	t.Helper()
	root, err := fsguard.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	pol, err := policy.New(1, dir, rules)
	if err != nil {
		t.Fatal(err)
	}
	return root, pol
}

// listAll pages through rel with limit and returns "name" or "name/" per
// item.
func listAll(t *testing.T, root *fsguard.Root, pol *policy.Policy, rel string, limit int) []string {
	t.Helper()
	f, err := OpenFolder(root, pol, rel)
	if err != nil {
		t.Fatalf("OpenFolder(%q): %v", rel, err)
	}
	defer f.Close()
	var out []string
	var after *Key
	for range 10000 {
		items, more, err := f.Page(context.Background(), after, limit)
		if err != nil {
			t.Fatal(err)
		}
		if len(items) > limit || (more && len(items) == 0) {
			t.Fatalf("page of %d items (limit %d, more %v)", len(items), limit, more)
		}
		for _, it := range items {
			s := it.Name
			if it.Dir {
				s += "/"
			}
			out = append(out, s)
		}
		if !more {
			return out
		}
		k := items[len(items)-1].Key()
		after = &k
	}
	t.Fatal("paging did not end")
	return nil
}

// hostile is a folder with every kind of entry a listing must leave out.
var hostile = []string{
	"b.go << b", "a.go << a", "Z.go", "é.txt", "z/", "A/", ".hidden", "_u",
	"link => a.go", "dirlink => z", "fifo|", "sock=", ".env", "id_rsa", ".ssh/config",
	"bad\nname", "rlo\u202etxt", "node_modules/x", ".git/config",
	".gitignore << *.log\nbuild/\n", "x.log", "build/out",
	"secrets/key.txt",
}

func TestPageOrderAndVisibility(t *testing.T) {
	dir := makefs.MustMake(t, hostile...)
	if err := os.Link(filepath.Join(dir, "b.go"), filepath.Join(dir, "hard.go")); err != nil {
		t.Fatal(err)
	}
	root, pol := openView(t, dir, policy.Rules{RespectIgnore: true, Deny: []string{"secrets/"}})
	want := []string{"A/", "z/", ".gitignore", ".hidden", "Z.go", "_u", "a.go", "é.txt"}
	for _, limit := range []int{1, 2, 3, 1000} {
		if got := listAll(t, root, pol, "", limit); !slices.Equal(got, want) {
			t.Errorf("limit %d: %q, want %q", limit, got, want)
		}
	}
	// b.go and hard.go are one file with two links: neither is served.
}

func TestPageRescansWhenManyAreLeftOut(t *testing.T) {
	dir := makefs.MustMake(t, "target")
	var want []string
	for i := range 3000 {
		name := fmt.Sprintf("f%05d", i)
		if i%10 == 0 {
			makefs.Make(dir, name)
			want = append(want, name)
			continue
		}
		if err := os.Link(filepath.Join(dir, "target"), filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	root, pol := openView(t, dir, policy.Rules{})
	for _, limit := range []int{7, 200, 1000} {
		if got := listAll(t, root, pol, "", limit); !slices.Equal(got, want) {
			t.Errorf("limit %d: %d items, want %d", limit, len(got), len(want))
		}
	}
}

func TestOpenFolderRefusals(t *testing.T) {
	dir := makefs.MustMake(t, "src/a.go", "link => src", ".ssh/x", "node_modules/y/", "f << x", "src/deep/")
	root, pol := openView(t, dir, policy.Rules{RespectIgnore: true})
	for rel, want := range map[string]error{
		"link": ErrHidden, ".ssh": ErrHidden, "node_modules/y": ErrHidden, "missing": ErrHidden,
		"link/deep": ErrHidden, "f": ErrNotDir, "src/../src": ErrHidden, "/etc": ErrHidden,
	} {
		if f, err := OpenFolder(root, pol, rel); err != want {
			t.Errorf("OpenFolder(%q) = %v, want %v", rel, err, want)
			if f != nil {
				f.Close()
			}
		}
	}
	if got := listAll(t, root, pol, "src", 10); !slices.Equal(got, []string{"deep/", "a.go"}) {
		t.Errorf("src: %q", got)
	}
	if got := listAll(t, root, policy.Closed(1), "", 10); len(got) != 0 {
		t.Errorf("a closed policy lists %q", got)
	}
}

func TestFitList(t *testing.T) {
	var entries []wire.ListEntry
	for i := range 1000 {
		entries = append(entries, ListEntry(Item{Name: strings.Repeat(`"`, 200) + fmt.Sprint(i), Size: int64(i)}))
	}
	for _, max := range []int{1, 5000, 64 << 10, 300000, 1 << 20} {
		for _, more := range []bool{false, true} {
			keep, err := FitList("r1", 7, entries, more, max)
			if err != nil {
				t.Fatal(err)
			}
			next := more || keep < len(entries)
			n, _ := ListLineSize("r1", 7, entries[:keep], next)
			if keep > 1 && n > max {
				t.Errorf("max %d: %d entries make a %d-byte line", max, keep, n)
			}
			if keep < len(entries) {
				n1, _ := ListLineSize("r1", 7, entries[:keep+1], true)
				if n1 <= max {
					t.Errorf("max %d: %d entries fit but only %d were kept", max, keep+1, keep)
				}
			}
			if keep < 1 {
				t.Errorf("max %d: no entry kept", max)
			}
		}
	}
}
