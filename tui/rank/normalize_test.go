package rank

import "testing"

// TestNormalizeRuneIsTheTable: the binary search over the sorted table
// answers, for every rune of the Basic Multilingual Plane, what a look-up
// in fzf's map (built here from the same pairs) answers.
func TestNormalizeRuneIsTheTable(t *testing.T) {
	m := make(map[rune]rune, len(normalized))
	for i, p := range normalized {
		if i > 0 && normalized[i-1][0] >= p[0] {
			t.Fatalf("pair %d (%#04x) is not above the one before (%#04x)", i, p[0], normalized[i-1][0])
		}
		m[p[0]] = p[1]
	}
	for r := rune(0); r <= 0xffff; r++ {
		want, ok := m[r]
		if !ok {
			want = r
		}
		if got := normalizeRune(r); got != want {
			t.Errorf("normalizeRune(%#04x) = %#04x, want %#04x", r, got, want)
		}
	}
	if got := normalizeRune('é'); got != 'e' {
		t.Errorf("normalizeRune('é') = %q", got)
	}
}
