package rfc3339

import (
	"testing"
	"time"
)

func TestParse(t *testing.T) {
	for s, want := range map[string]string{
		"2026-01-02T03:04:05Z":              "2026-01-02T03:04:05Z",
		"2026-01-02t03:04:05.5z":            "2026-01-02T03:04:05.5Z",
		"2026-01-02T03:04:05+01:00":         "2026-01-02T02:04:05Z",
		"2026-01-02T03:04:05-23:59":         "2026-01-03T03:03:05Z",
		"2026-12-31T23:59:60Z":              "2027-01-01T00:00:00Z",
		"2026-12-31T23:59:60.25-01:00":      "2027-01-01T01:00:00.25Z",
		"2026-01-02T03:04:05.123456789123Z": "2026-01-02T03:04:05.123456789Z",
		"2024-02-29T00:00:00Z":              "2024-02-29T00:00:00Z",
		"0000-01-01T00:00:00Z":              "0000-01-01T00:00:00Z",
		"9999-12-31T23:59:59.999Z":          "9999-12-31T23:59:59.999Z",
	} {
		got, err := Parse(s)
		w, _ := time.Parse(time.RFC3339Nano, want)
		if err != nil || !got.Equal(w) {
			t.Errorf("%s: %v %v, want %s", s, got.UTC(), err, want)
		}
	}
	for _, s := range []string{
		"", "2026", "2026-01-02 03:04:05Z", "2026-01-02T03:04:61Z", "2026-01-02T03:04:05",
		"2026-01-02T03:04:05+0100", "2026-01-02T03:04:05.Z", "2026-1-02T03:04:05Z",
		"2026-01-02T03:04:05,5Z", "2026-01-02T03:04:05+24:00", "2026-01-02T03:04:05-05:60",
		"2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z", "2026-00-01T00:00:00Z",
		"2026-01-00T00:00:00Z", "2026-01-02T24:00:00Z", "2026-01-02T03:60:00Z", "2026-01-02T03:04:05ZZ",
		"2026-01-02T03:04:05Z ", "+026-01-02T03:04:05Z", "2026-01-02T03:04:05.5x", "٢٠٢٦-01-02T03:04:05Z",
	} {
		if _, err := Parse(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}

// FuzzParse: whatever Parse accepts, Go's layout reads as the same instant
// once the two liberties it refuses (case, leap second) are undone, and
// its UTC form, when it has four-digit years, parses back.
func FuzzParse(f *testing.F) {
	f.Add("2026-01-02T03:04:05.5Z")
	f.Add("2026-12-31t23:59:60-01:00")
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse(s)
		if err != nil {
			return
		}
		b := []byte(s)
		b[10] = 'T'
		if b[len(b)-1] == 'z' {
			b[len(b)-1] = 'Z'
		}
		leap := b[17] == '6' && b[18] == '0'
		if leap {
			b[17], b[18] = '5', '9'
		}
		want, err := time.Parse(time.RFC3339Nano, string(b))
		if err != nil {
			t.Fatalf("%q accepted, but Go's layout refuses %q: %v", s, b, err)
		}
		if leap {
			want = want.Add(time.Second)
		}
		if !got.Equal(want) {
			t.Fatalf("%q: %v, Go reads %v", s, got, want)
		}
		// In UTC a time near year 0000 or 9999 may leave the four digits
		// RFC 3339 can write (readers that need UTC check the year).
		if y := got.UTC().Year(); y < 0 || y > 9999 {
			return
		}
		back, err := Parse(got.UTC().Format(time.RFC3339Nano))
		if err != nil || !back.Equal(got) {
			t.Fatalf("%q: formatted %v does not parse back", s, got)
		}
	})
}
