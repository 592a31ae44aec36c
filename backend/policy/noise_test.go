package policy

import (
	"io/fs"
	"slices"
	"testing"

	"github.com/scoutdev/scout/internal/makefs"
)

func TestWithNoise(t *testing.T) {
	dir := makefs.MustMake(t, "dist/bundle.js", "src/dist", "src/main.go", "distant.go", ".gitignore << *.log\n", "a.log")
	pol := newPolicy(t, dir, Rules{RespectIgnore: true})
	strict := pol.WithNoise("dist")
	if got, want := walk(t, strict, dir), []string{".gitignore", "distant.go", "src/", "src/main.go"}; !slices.Equal(got, want) {
		t.Errorf("with dist skipped: %q, want %q", got, want)
	}
	if got := walk(t, pol, dir); !slices.Contains(got, "dist/bundle.js") || !slices.Contains(got, "src/dist") {
		t.Errorf("WithNoise changed the original policy: %q", got)
	}
	if v := strict.WithNoise("more").Check(strict.RootFrame(nil, 0), "dist", fs.ModeDir); v != Noise {
		t.Errorf("a copy of a copy forgot dist: %v", v)
	}
}
