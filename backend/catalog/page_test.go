package catalog

import (
	"fmt"
	"strings"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
)

// bigSnapshot is a snapshot with n choices of long names and 32 providers
// with long ids and two notices each: the worst first page.
func bigSnapshot(n int) *snapshot {
	snap := &snapshot{rev: 7, revision: "c7", choices: []wire.Choice{}}
	for i := range n {
		snap.choices = append(snap.choices, wire.Choice{
			Provider: strings.Repeat("p", 250) + fmt.Sprint(i%10), Model: fmt.Sprintf("%0250d", i),
			Name: strings.Repeat(`"`, 256), Efforts: []string{"low", "medium", "high"}, Selectable: true,
		})
	}
	for i := range wire.MaxStatusProviders {
		id := fmt.Sprintf("%0256d", i)
		snap.providers = append(snap.providers, wire.ProviderStatus{Provider: id, CatalogStatus: wire.CatalogIncompatibleFingerprint,
			Authentication: wire.AuthUnavailable, Relevant: true, Recovery: wire.RecoveryConfigureAuthentication})
		snap.notices = append(snap.notices, wire.CatalogNotice{Code: wire.NoticeInvalidCache, Provider: id},
			wire.CatalogNotice{Code: wire.NoticeAuthenticationUnavailable, Provider: id})
	}
	sel := "high"
	snap.selection = &wire.Selection{Provider: strings.Repeat("s", 256), Model: strings.Repeat("m", 256), Effort: &sel}
	return snap
}

// walkPages pages through snap as method tag would and checks every bound.
func walkPages(t *testing.T, s *Service, snap *snapshot, status bool, id string) []wire.Choice {
	t.Helper()
	tag := tagCatalog
	if status {
		tag = tagStatus
	}
	var all []wire.Choice
	offset, first := 0, true
	for pages := 0; ; pages++ {
		if pages > len(snap.choices)+2 {
			t.Fatal("paging does not end")
		}
		res, err := s.page(id, snap, offset, status, tag, first)
		if err != nil {
			t.Fatal(err)
		}
		stamped(res)
		body, _ := wire.Marshal(res)
		line, _ := wire.Marshal(wire.Response{JSONRPC: "2.0", ID: &id, Result: body})
		if n := len(line) + 1; n > pageBytes {
			t.Fatalf("page at %d: line of %d bytes", offset, n)
		}
		var choices []wire.Choice
		var cursor *string
		switch r := res.(type) {
		case *wire.CatalogResult:
			choices, cursor = r.Choices, r.Cursor
			if first != r.Selection.Present || first != (r.Notices != nil) {
				t.Fatalf("page at %d: selection/notices presence wrong", offset)
			}
		case *wire.CatalogStatusResult:
			choices, cursor = r.Choices, r.Cursor
			if first != (r.Providers != nil) || r.ConfigurationReload != ConfigurationReload {
				t.Fatalf("page at %d: providers presence wrong", offset)
			}
		}
		if len(choices) > pageEntries || choices == nil {
			t.Fatalf("page at %d: %d choices", offset, len(choices))
		}
		all = append(all, choices...)
		if cursor == nil {
			return all
		}
		if len(*cursor) > wire.MaxCursorBytes {
			t.Fatalf("cursor of %d bytes", len(*cursor))
		}
		rev, off, ok := s.cursors.parse(*cursor)
		if !ok || rev != snap.revision || off != offset+len(choices) {
			t.Fatalf("cursor %q: %s %d %v", *cursor, rev, off, ok)
		}
		offset, first = off, false
	}
}

func stamped(res any) {
	if st, ok := res.(wire.Stamper); ok {
		st.SetTS(tsPlaceholder)
	}
}

func TestPagesStayWithinBounds(t *testing.T) {
	t.Parallel()
	s, _ := newService(t, Options{})
	for _, n := range []int{0, 1, 99, 100, 101, 450} {
		snap := bigSnapshot(n)
		for _, status := range []bool{false, true} {
			id := strings.Repeat("i", 64)
			all := walkPages(t, s, snap, status, id)
			if len(all) != n {
				t.Fatalf("n=%d status=%v: %d choices seen", n, status, len(all))
			}
			for i := range all {
				if all[i].Model != snap.choices[i].Model {
					t.Fatalf("choice %d out of order", i)
				}
			}
		}
	}
}

func TestSmallChoicesHitEntryBound(t *testing.T) {
	t.Parallel()
	s, _ := newService(t, Options{})
	snap := &snapshot{rev: 1, revision: "c1"}
	for i := range 250 {
		snap.choices = append(snap.choices, wire.Choice{Provider: "p", Model: fmt.Sprint(i), Name: "n", Efforts: []string{}})
	}
	res, err := s.page("x", snap, 0, false, tagCatalog, true)
	if err != nil {
		t.Fatal(err)
	}
	if r := res.(*wire.CatalogResult); len(r.Choices) != 100 || r.Cursor == nil {
		t.Fatalf("first page has %d choices", len(r.Choices))
	}
}

func TestCursors(t *testing.T) {
	c := cursors{secret: []byte("secret")}
	cur := c.issue("c12", tagCatalog, 300)
	for _, cur := range []string{cur, c.issue("c12", tagStatus, 300)} {
		if rev, off, ok := c.parse(cur); !ok || rev != "c12" || off != 300 {
			t.Fatalf("parse(%q) = %s %d %v", cur, rev, off, ok)
		}
	}
	other := cursors{secret: []byte("other")}
	for _, bad := range []string{
		"", "c12", cur + "x", strings.Replace(cur, "300", "301", 1), strings.Replace(cur, "c12", "c13", 1),
		other.issue("c12", tagCatalog, 300), strings.Replace(c.issue("c12", tagStatus, 300), ".s.", ".a.", 1),
		c.issue("c12", "d", 300), c.issue("c1", tagCatalog, 0) + ".",
	} {
		if _, _, ok := c.parse(bad); ok {
			t.Errorf("parse(%q) accepted", bad)
		}
	}
	if _, _, ok := c.parse(strings.Replace(c.issue("c1", tagCatalog, 5), ".5.", ".05.", 1)); ok {
		t.Error("non-canonical offset accepted")
	}
}
