package palette

import (
	"image/color"
	"testing"
)

// TestForEveryRole checks that every role has a colour on both
// backgrounds, that the two differ (light text on a light terminal is
// unreadable), and that no two roles share one on the same background.
func TestForEveryRole(t *testing.T) {
	t.Parallel()
	roles := func(p Palette) map[string]color.Color {
		return map[string]color.Color{
			"Accent": p.Accent, "Match": p.Match, "OK": p.OK,
			"Warn": p.Warn, "Error": p.Error, "FocusBg": p.FocusBg,
		}
	}
	dark, light := roles(For(true)), roles(For(false))
	for _, bg := range []map[string]color.Color{dark, light} {
		seen := map[color.RGBA]string{}
		for name, c := range bg {
			if c == nil {
				t.Fatalf("%s has no colour", name)
			}
			if other, dup := seen[rgba(c)]; dup {
				t.Errorf("%s and %s share a colour", name, other)
			}
			seen[rgba(c)] = name
		}
	}
	for name := range dark {
		if rgba(dark[name]) == rgba(light[name]) {
			t.Errorf("%s is the same on dark and light backgrounds", name)
		}
	}
}

func rgba(c color.Color) color.RGBA {
	r, g, b, a := c.RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}
