package adversarial

import (
	"slices"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/fsguard"
	"github.com/scoutdev/scout/backend/wire"
	"github.com/scoutdev/scout/internal/scouttest"
)

// hiddenComponents are names that are never listed whatever surrounds
// them: noise and the built-in credential directories (docs/protocol.md §4).
// (Every other hidden name of the fixtures holds the fixture's token.)
var hiddenComponents = []string{".git", ".hg", ".svn", ".jj", "node_modules", ".ssh", ".gnupg", ".aws", ".azure", ".kube", ".docker", ".env", ".netrc"}

// checkSnapshot checks one project.files report against every invariant
// of docs/protocol.md §4–§5 that holds whatever the filesystem did meanwhile:
// the line and entry bounds, relative safe paths within the depth bound,
// no hidden name (anything holding tok, noise, protected names), strict
// component order, every parent listed as a directory, no child under a
// file.
func checkSnapshot(t testing.TB, m scouttest.Msg, tok string) wire.ProjectFilesResult {
	t.Helper()
	var r wire.ProjectFilesResult
	m.Decode(t, &r)
	ext := wire.DefaultFilesExtension
	if n := len(m.Raw) + 1; n > ext.ReportBytes {
		t.Errorf("report line of %d bytes", n)
	}
	if len(r.Entries) > ext.MaxEntries {
		t.Errorf("%d entries", len(r.Entries))
	}
	if r.Entries == nil || r.Generation < 1 {
		t.Errorf("entries %v, generation %d", r.Entries == nil, r.Generation)
	}
	kinds := map[string]string{}
	var prev []string
	for _, e := range r.Entries {
		comps := checkPath(t, e, tok)
		if prev != nil && slices.Compare(prev, comps) >= 0 {
			t.Errorf("order: %q before %q", strings.Join(prev, "/"), e.Path)
		}
		prev = comps
		if len(comps) > 1 {
			parent := strings.Join(comps[:len(comps)-1], "/")
			switch kinds[parent] {
			case wire.KindDirectory:
			case wire.KindFile:
				t.Errorf("%q is listed under a file", e.Path)
			default:
				t.Errorf("%q is listed without its parent", e.Path)
			}
		}
		kinds[e.Path] = e.Kind
	}
	return r
}

// checkPath checks one entry's path and kind and returns its components.
func checkPath(t testing.TB, e wire.FileEntry, tok string) []string {
	t.Helper()
	if e.Kind != wire.KindFile && e.Kind != wire.KindDirectory {
		t.Errorf("%q has kind %q", e.Path, e.Kind)
	}
	comps := strings.Split(e.Path, "/")
	if len(comps) > wire.DefaultFilesExtension.MaxDepth {
		t.Errorf("%q is deeper than %d", e.Path, wire.DefaultFilesExtension.MaxDepth)
	}
	for _, c := range comps {
		if !fsguard.SafeName(c) {
			t.Errorf("unsafe component %q in %q", c, e.Path)
		}
		if slices.Contains(hiddenComponents, c) {
			t.Errorf("hidden name %q listed in %q", c, e.Path)
		}
	}
	if strings.Contains(e.Path, tok) {
		t.Errorf("hidden entry listed: %q", e.Path)
	}
	return comps
}
