package page_test

import (
	"testing"

	"github.com/scoutdev/scout/tui/internal/page"
)

func TestQueryLine(t *testing.T) {
	for _, c := range []struct {
		width        int
		field, right string
		want         string
	}{
		{20, "> abc", "3/10", "> abc           3/10"},
		{10, "> abc", "3/10", "> abc 3/10"},
		{9, "> abc", "3/10", "> abc"},  // no room for both: the field alone
		{3, "> abcdef", "3/10", "> a"}, // cut to the width
		{8, "> é", "1/1", "> é  1/1"},  // widths are cells, not bytes
	} {
		if got := page.QueryLine(c.width, c.field, c.right); got != c.want {
			t.Errorf("QueryLine(%d, %q, %q) = %q, want %q", c.width, c.field, c.right, got, c.want)
		}
	}
}

func TestQueryInput(t *testing.T) {
	in := page.QueryInput("type to search", "srv")
	if in.Value() != "srv" || in.Position() != 3 || !in.Focused() || in.Placeholder != "type to search" {
		t.Fatalf("value %q at %d, focused %v, placeholder %q", in.Value(), in.Position(), in.Focused(), in.Placeholder)
	}
}
