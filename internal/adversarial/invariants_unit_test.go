package adversarial

import (
	"strings"
	"testing"

	"github.com/scoutdev/scout/internal/scouttest"
)

// recorder is a testing.TB that records failures instead of failing.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, format)
}
func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

// TestCheckSnapshotCatches proves the oracle of the mutation test: each
// planted violation of docs/protocol.md §4–§5 fails it.
func TestCheckSnapshotCatches(t *testing.T) {
	const tok = "canaryx"
	entries := func(list string) string {
		var parts []string
		for _, e := range strings.Split(list, ",") {
			path, kind, _ := strings.Cut(e, ":")
			parts = append(parts, `{"path":"`+path+`","kind":"`+kind+`"}`)
		}
		return `{"jsonrpc":"2.0","id":"t1","result":{"command_id":"t1","generation":1,"entries":[` + strings.Join(parts, ",") + `],"truncated":false,"ts":"t"}}`
	}
	ok := entries("a:directory,a/b:file,c:file")
	bad := map[string]string{
		"hidden token":    entries("a:directory,a/id_rsa-canaryx:file"),
		"noise":           entries(".git:directory"),
		"protected dir":   entries("a:directory,a/.ssh:directory"),
		"absolute":        entries("/etc:directory"),
		"dot-dot":         entries("..:directory"),
		"empty component": entries("a:directory,a//b:file"),
		"unsafe name":     entries(`a\u202eb:file`),
		"order":           entries("c:file,a:directory"),
		"duplicate":       entries("a:file,a:file"),
		"orphan":          entries("x/y:file"),
		"under a file":    entries("a:file,a/b:file"),
		"kind":            entries("a:symlink"),
		"too deep":        entries("1:directory,1/2:directory,1/2/3:directory,1/2/3/4:directory,1/2/3/4/5:directory,1/2/3/4/5/6:directory,1/2/3/4/5/6/7:directory,1/2/3/4/5/6/7/8:directory,1/2/3/4/5/6/7/8/9:directory,1/2/3/4/5/6/7/8/9/10:directory,1/2/3/4/5/6/7/8/9/10/11:directory,1/2/3/4/5/6/7/8/9/10/11/12:directory,1/2/3/4/5/6/7/8/9/10/11/12/13:file"),
	}
	r := &recorder{TB: t}
	checkSnapshot(r, scouttest.DecodeLine([]byte(ok)), tok)
	if len(r.failures) > 0 {
		t.Fatalf("a valid snapshot failed: %v", r.failures)
	}
	for name, line := range bad {
		r := &recorder{TB: t}
		checkSnapshot(r, scouttest.DecodeLine([]byte(line)), tok)
		if len(r.failures) == 0 {
			t.Errorf("%s: not caught", name)
		}
	}
}
