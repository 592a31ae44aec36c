package tui_test

import (
	"testing"

	"github.com/scoutdev/scout/tui"
)

func TestParseHeight(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		in         string
		term, rows int
	}{
		{"10", 40, 10}, {"10", 6, 6}, {"40%", 50, 20}, {"40%", 20, 10}, {"40%", 8, 8}, {"100%", 30, 30}, {"1", 30, 4}, {"3", 30, 4}, {"4", 30, 4}, {"5", 30, 5}, {"3", 2, 2},
	} {
		h, err := tui.ParseHeight(tc.in)
		if err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if h.Full() || h.Rows(tc.term) != tc.rows {
			t.Errorf("%q on %d rows: %d rows, want %d", tc.in, tc.term, h.Rows(tc.term), tc.rows)
		}
	}
	for _, bad := range []string{"", "0", "-3", "x", "40%%", "101%", "0%", "10 rows"} {
		if _, err := tui.ParseHeight(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	if !(tui.Height{}).Full() || (tui.Height{}).Rows(33) != 33 {
		t.Error("the zero Height is not the whole screen")
	}
}
