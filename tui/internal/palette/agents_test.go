package palette

import (
	"image/color"
	"testing"

	"github.com/scoutdev/scout/backend/wire"
)

// TestAgentColors: every agent's tag has a colour on both backgrounds,
// the two differ, and no two agents share one on the same background.
func TestAgentColors(t *testing.T) {
	t.Parallel()
	for _, dark := range []bool{true, false} {
		seen := map[color.RGBA]string{}
		for _, a := range wire.Agents {
			c := Agent(dark, a)
			if c == nil || c == Agent(!dark, a) {
				t.Fatalf("%s: %v on dark %t, %v on the other", a, c, dark, Agent(!dark, a))
			}
			r, g, b, x := c.RGBA()
			rgba := color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(x >> 8)}
			if other, dup := seen[rgba]; dup {
				t.Errorf("%s and %s share %v", a, other, rgba)
			}
			seen[rgba] = a
		}
	}
}
