package refs

import (
	"fmt"
	"testing"
	"time"

	"github.com/scoutdev/scout/backend/wire"
)

// FuzzRefs feeds arbitrary refs and limits through project.list's and
// project.read's params and the registry: params accept only "root" or a
// 43-character id and limits of 1..1000 (max_bytes 1..131072), and an id
// resolves only when it is exactly one that was minted, for its own kind
// and scope.
func FuzzRefs(f *testing.F) {
	f.Add("root", 200, uint8(1))
	f.Add("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", 1000, uint8(2))
	f.Add("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=", 0, uint8(3))
	f.Add("ROOT", 1001, uint8(0))
	f.Add("-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-_-", -1, uint8(255))
	f.Add("\x00", 131072, uint8(1))
	r := New[string](Options{TTL: time.Hour, Max: 64})
	minted := map[string]Kind{}
	for i := range 48 {
		k := Kind(i%3 + 1)
		minted[r.Mint(scope, k, fmt.Sprint(i))] = k
	}
	f.Fuzz(func(t *testing.T, ref string, limit int, kind uint8) {
		raw, err := wire.Marshal(map[string]any{"ref": ref, "limit": limit})
		if err != nil {
			return // invalid UTF-8: no frame can carry it (parse_error)
		}
		var lp wire.ListParams
		if e := wire.DecodeParams(raw, &lp); e == nil {
			if *lp.Ref != ref || (ref != wire.RootRef && len(ref) != Length) || limit < 1 || limit > 1000 {
				t.Fatalf("list params accepted ref %q limit %d", ref, limit)
			}
		} else if e.Code != wire.CodeInvalidParams {
			t.Fatalf("list params: %s", e.Code)
		}
		raw, _ = wire.Marshal(map[string]any{"ref": ref, "max_bytes": limit})
		var rp wire.ReadParams
		if e := wire.DecodeParams(raw, &rp); e == nil && (len(ref) != Length || limit < 1 || limit > wire.MaxReadBytes) {
			t.Fatalf("read params accepted ref %q max_bytes %d", ref, limit)
		}
		k := Kind(kind%4 + 1) // includes an unknown kind
		got, ok := r.Resolve(scope, k, ref)
		if want, isMinted := minted[ref]; ok != (isMinted && want == k) {
			t.Fatalf("Resolve(%q, kind %d) = %q, %v", ref, k, got, ok)
		}
		if _, ok := r.Resolve(Scope{Workspace: "/w", Generation: 2}, k, ref); ok {
			t.Fatalf("resolved %q in another generation", ref)
		}
	})
}
