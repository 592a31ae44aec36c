package wire

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestGrammarLoops holds the validators' loops to the regular expressions
// of the grammar they implement, on random strings of characters near
// the edges of each class.
func TestGrammarLoops(t *testing.T) {
	t.Parallel()
	cases := []struct {
		re string
		f  func(string) bool
	}{
		{`^[A-Za-z0-9._:-]{1,64}$`, ValidID},
		{`^[A-Za-z0-9_-]{43}$`, ValidRef},
		{`^[A-Za-z0-9_-]{1,64}$`, ValidSessionID},
		{`^[A-Za-z0-9_/.-]{1,64}$`, func(s string) bool { return alnumRun(s, 1, 64, "_/.-") }},
	}
	rng := rand.New(rand.NewPCG(1, 2))
	const alphabet = "aAzZ09_-.:/@ [`{\n\xe9"
	for _, c := range cases {
		re := regexp.MustCompile(c.re)
		for i := range 20000 {
			n := []int{0, 1, 42, 43, 44, 63, 64, 65}[i%8]
			if i%3 == 0 {
				n = rng.IntN(70)
			}
			var b strings.Builder
			for range n {
				if rng.IntN(4) == 0 {
					b.WriteByte(alphabet[rng.IntN(len(alphabet))])
				} else {
					b.WriteByte("abcXYZ019_-"[rng.IntN(11)])
				}
			}
			if s := b.String(); c.f(s) != re.MatchString(s) {
				t.Fatalf("%s: %q: loop %v, regexp %v", c.re, s, c.f(s), re.MatchString(s))
			}
		}
	}
}
