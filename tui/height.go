package tui

import (
	"fmt"
	"strconv"
	"strings"
)

// Height is how much of the terminal the picker takes: the whole screen
// (the zero Height), a number of rows, or a percentage of the terminal's
// rows, drawn inline under the cursor (`--height N`, `--height N%`, as
// fzf's).
type Height struct {
	rows, percent int
}

// minPercentRows is the fewest rows a percentage gives, the terminal's
// height permitting (fzf's --min-height): 40% of a short terminal would
// leave no room for the list.
const minPercentRows = 10

// minRows is the fewest rows a number of rows gives, the terminal's height
// permitting: the tab bar, the query line, the status line and one row of
// candidates. `--height 3` would leave no candidate to see.
const minRows = 4

// ParseHeight reads "N" (rows, at least 1) or "N%" (1 to 100).
func ParseHeight(s string) (Height, error) {
	num, pct := strings.CutSuffix(s, "%")
	n, err := strconv.Atoi(num)
	switch {
	case err != nil || n < 1:
		return Height{}, fmt.Errorf("height %q: want a number of rows (10) or a percentage (40%%)", s)
	case pct && n > 100:
		return Height{}, fmt.Errorf("height %q: a percentage is at most 100%%", s)
	case pct:
		return Height{percent: n}, nil
	}
	return Height{rows: n}, nil
}

// Full reports whether the picker takes the whole screen.
func (h Height) Full() bool { return h.rows == 0 && h.percent == 0 }

// Rows is the picker's height on a terminal of term rows.
func (h Height) Rows(term int) int {
	switch {
	case h.Full():
		return term
	case h.percent > 0:
		return min(max(term*h.percent/100, minPercentRows), term)
	}
	return min(max(h.rows, minRows), term)
}
