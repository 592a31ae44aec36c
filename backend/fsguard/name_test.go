package fsguard

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestSafeName(t *testing.T) {
	tests := []struct {
		name string
		want bool
	}{
		{"main.go", true},
		{".env", true},
		{"naïve café", true},
		{"日本語", true},
		{"with space", true},
		{strings.Repeat("a", 255), true},
		{strings.Repeat("é", 127), true}, // 254 bytes
		{"", false},
		{".", false},
		{"..", false},
		{"...", true},
		{strings.Repeat("a", 256), false},
		{strings.Repeat("é", 128), false}, // 256 bytes
		{"new\nline", false},
		{"tab\there", false},
		{"esc\x1b[31m", false},
		{"del\x7f", false},
		{"nul\x00", false},
		{"c1\u0085", false},
		{"c1\u009b", false},
		{"rlo\u202e", false},
		{"lri\u2066", false},
		{"pdi\u2069", false},
		{"alm\u061c", false},
		{"lrm\u200e", false},
		{"rlm\u200f", false},
		{"lre\u202a", false},
		{"zwj\u200d", true}, // not a bidi formatting character
		{"back\\slash", false},
		{"sl/ash", false},
		{"bad\xff", false},
		{"trunc\xe2\x80", false},
		{"overlong\xc0\xaf", false},
		{"surrogate\xed\xa0\x80", false},
		{"\ufffd", true}, // a real U+FFFD is valid UTF-8
	}
	for _, tt := range tests {
		if got := SafeName(tt.name); got != tt.want {
			t.Errorf("SafeName(%q) = %v, want %v", tt.name, got, tt.want)
		}
		if got := SafeNameBytes([]byte(tt.name)); got != tt.want {
			t.Errorf("SafeNameBytes(%q) = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func FuzzSafeName(f *testing.F) {
	f.Add("main.go")
	f.Add("a\u202eb")
	f.Add("\xff")
	f.Fuzz(func(t *testing.T, name string) {
		got := SafeName(name)
		if got != SafeNameBytes([]byte(name)) {
			t.Fatalf("SafeName and SafeNameBytes disagree on %q", name)
		}
		if got && !reference(name) {
			t.Fatalf("SafeName(%q) = true, reference says unsafe", name)
		}
		if !got && reference(name) {
			t.Fatalf("SafeName(%q) = false, reference says safe", name)
		}
	})
}

// reference is a slow, obviously correct statement of the §4.2 rule.
func reference(name string) bool {
	if len(name) < 1 || len(name) > 255 || name == "." || name == ".." {
		return false
	}
	if !utf8.ValidString(name) {
		return false
	}
	for _, r := range name {
		switch {
		case r < 0x20, r == 0x7f, r >= 0x80 && r <= 0x9f:
			return false
		case r == '\\', r == '/':
			return false
		case r == 0x061c, r == 0x200e, r == 0x200f, r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069:
			return false
		}
	}
	return true
}
