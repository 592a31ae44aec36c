package config

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestGrammarLoops holds envName and printableKey to the regular
// expressions they implement.
func TestGrammarLoops(t *testing.T) {
	cases := []struct {
		re string
		f  func(string) bool
	}{
		{`^[A-Za-z_][A-Za-z0-9_]{0,255}$`, envName},
		{`^[A-Za-z0-9_-]{1,64}$`, printableKey},
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for _, c := range cases {
		re := regexp.MustCompile(c.re)
		for i := range 20000 {
			n := []int{0, 1, 63, 64, 65, 255, 256, 257}[i%8]
			var b strings.Builder
			for range n {
				if rng.IntN(8) == 0 {
					b.WriteByte("-.@ [`{\n0"[rng.IntN(9)])
				} else {
					b.WriteByte("aAzZ09_"[rng.IntN(7)])
				}
			}
			if s := b.String(); c.f(s) != re.MatchString(s) {
				t.Fatalf("%s: %q: loop %v, regexp %v", c.re, s, c.f(s), re.MatchString(s))
			}
		}
	}
}
