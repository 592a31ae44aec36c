package catalog

import (
	"regexp"
	"strings"
	"testing"
)

// TestValidFingerprint holds the loop to ^sha256:[0-9a-f]{64}$.
func TestValidFingerprint(t *testing.T) {
	re := regexp.MustCompile(`^sha256:[0-9a-f]{64}$`)
	hex := strings.Repeat("0123456789abcdef", 4)
	for _, s := range []string{
		"sha256:" + hex, "sha256:" + hex[1:], "sha256:" + hex + "0", "sha256:" + strings.ToUpper(hex),
		"sha256:" + hex[:63] + "g", "sha512:" + hex, "sha256" + hex, "", "sha256:", "sha256:" + hex + "\n",
	} {
		if validFingerprint(s) != re.MatchString(s) {
			t.Errorf("%q: loop %v, regexp %v", s, validFingerprint(s), re.MatchString(s))
		}
	}
}
