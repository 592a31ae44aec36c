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
		// Counts longer than the room kept for them take the field's
		// padding, never its text.
		{27, "> session           ", "1234/5678 so far", "> session  1234/5678 so far"},
		{20, "> session           ", "1234/5678 so far", "> session           "}, // the text leaves no room
		{9, "> abc    ", "3/10", "> abc    "},
	} {
		if got := page.QueryLine(c.width, c.field, c.right); got != c.want {
			t.Errorf("QueryLine(%d, %q, %q) = %q, want %q", c.width, c.field, c.right, got, c.want)
		}
	}
}

func TestQueryWidth(t *testing.T) {
	for _, c := range []struct{ width, room, want int }{
		{100, 18, 80}, // "> " and the room kept
		{40, 18, 20},  // as narrow as scout is made for: the same room
		{20, 18, 12},  // narrower: a third of the line for the counts
		{3, 18, 1},    // never less than a cell
	} {
		if got := page.QueryWidth(c.width, "> ", c.room); got != c.want {
			t.Errorf("QueryWidth(%d, \"> \", %d) = %d, want %d", c.width, c.room, got, c.want)
		}
	}
}

func TestQueryInput(t *testing.T) {
	in := page.QueryInput("type to search", "srv")
	if in.Value() != "srv" || in.Position() != 3 || !in.Focused() || in.Placeholder != "type to search" {
		t.Fatalf("value %q at %d, focused %v, placeholder %q", in.Value(), in.Position(), in.Focused(), in.Placeholder)
	}
}

func TestQueryCursorCountsCells(t *testing.T) {
	for _, c := range []struct {
		value string
		left  int // cursor moves to the left after typing
		want  int
	}{
		{"srv", 0, 5},
		{"日本", 0, 6}, // two cells a character
		{"日本", 1, 4},
		{"é", 0, 3},
		{"👨\u200d👩\u200d👧", 0, 8}, // counted by runes, as the renderer does without mode 2027
	} {
		in := page.QueryInput("", c.value)
		in.SetWidth(40)
		in.SetCursor(in.Position() - c.left)
		x, y, ok := page.QueryCursor(in)
		if !ok || x != c.want || y != 0 {
			t.Errorf("%q, %d left: cursor at (%d, %d) %v, want (%d, 0)", c.value, c.left, x, y, ok, c.want)
		}
	}
}
