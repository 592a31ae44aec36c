package files

import (
	"testing"
	"time"
)

// TestMtimeIsAlwaysRFC3339 (found by the adversarial suite on tmpfs, which
// keeps any 64-bit time): project.list wrote "11476-08-15T05:20:00Z" and
// "-0249-10-15T19:33:20Z"; times outside four-digit years are clamped.
func TestMtimeIsAlwaysRFC3339(t *testing.T) {
	for _, tc := range []struct {
		in   time.Time
		want string
	}{
		{time.Unix(3e11, 0), "9999-12-31T23:59:59Z"},
		{time.Unix(-7e10, 0), "0000-01-01T00:00:00Z"},
		{time.Date(2026, 11, 29, 18, 0, 0, 999, time.FixedZone("x", 3600)), "2026-11-29T17:00:00Z"},
		{time.Date(9999, 12, 31, 23, 59, 59, 5e8, time.UTC), "9999-12-31T23:59:59Z"},
	} {
		got := Mtime(tc.in)
		if got != tc.want {
			t.Errorf("Mtime(%v) = %s, want %s", tc.in, got, tc.want)
		}
		if _, err := time.Parse(time.RFC3339, got); err != nil {
			t.Errorf("%s does not parse: %v", got, err)
		}
	}
}
