package adversarial

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/leakscan"
	"github.com/scoutdev/scout/internal/makefs"
	"github.com/scoutdev/scout/internal/scouttest"
)

// TestPathsBeyondPathMax: a chain of 24 directories of 250-byte names (a
// path of 6,000 bytes, past Linux's 4,096-byte PATH_MAX) is still listed
// by project.list folder by folder and its leaf read by project.read, and
// project.files lists it to its depth bound; nothing answers internal.
func TestPathsBeyondPathMax(t *testing.T) {
	t.Parallel()
	ws := makefs.MustMake(t, "top.txt")
	name := strings.Repeat("d", 250)
	script := `set -e; for i in $(seq 1 24); do mkdir "$N"; cd "$N"; done; echo deep-leaf > leaf.txt`
	cmd := exec.Command("bash", "-c", script)
	cmd.Dir, cmd.Env = ws, []string{"N=" + name}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("making the chain: %v %s", err, out)
	}
	p := start(t, scouttest.Options{Dir: ws, Env: []string{"SCOUT_HOME=" + t.TempDir()}}, leakscan.Canaries{})
	p.Initialize(wire.MethodProjectList, wire.MethodProjectRead, wire.MethodProjectFiles)
	f := p.Call(wire.MethodProjectFiles, map[string]any{})
	if r := checkSnapshot(t, f, "no-token"); !r.Truncated || len(r.Entries) != 13 {
		t.Errorf("project.files: %d entries, truncated %v", len(r.Entries), r.Truncated)
	}
	ref, depth := wire.RootRef, 0
	for {
		var l wire.ListResult
		p.MustCall(wire.MethodProjectList, map[string]any{"ref": ref}, &l)
		next := ""
		for _, e := range l.Entries {
			switch {
			case e.Type == wire.TypeDir:
				next = e.ID
			case e.Name == "leaf.txt":
				var r wire.ReadResult
				p.MustCall(wire.MethodProjectRead, map[string]any{"ref": e.ID}, &r)
				if r.Content != "deep-leaf\n" || depth != 24 {
					t.Errorf("leaf at depth %d: %+v", depth, r)
				}
				return
			}
		}
		if next == "" {
			t.Fatalf("the chain ends at depth %d", depth)
		}
		ref, depth = next, depth+1
	}
}
