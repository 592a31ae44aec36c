package policy

import (
	"io/fs"
	"slices"
	"strings"
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

// TestBuiltinProtectedFastPath holds the suffix-only path to the full
// rule on names around every built-in, in mixed case.
func TestBuiltinProtectedFastPath(t *testing.T) {
	var names []string
	for _, base := range []string{"a", "x.go", "key", "pem", "README", "id", "i.pem", "I.KEY", "id_rsa", "ID_ED25519.pub", ".env", ".env.local", ".env.example", "z.keystore", "z.KeyStore", "z.x.pfx", "z.pfx.bak", "keystore", "a.p12", "a.P12", ".ssh", "x.pem.", "x..pem", ".", "a.b.c.d.e.f.g.h.i.keystore"} {
		names = append(names, base, "q"+base, base+"x", strings.ToUpper(base))
	}
	for _, n := range names {
		if got, want := BuiltinProtected(n), slowBuiltinProtected(n); got != want {
			t.Errorf("BuiltinProtected(%q) = %v, want %v", n, got, want)
		}
	}
}

// slowBuiltinProtected is BuiltinProtected without its fast path.
func slowBuiltinProtected(name string) bool {
	lower := asciiLower(name)
	if credentialNames[lower] || strings.HasPrefix(lower, ".env.") && !envExamples[lower] {
		return true
	}
	for _, s := range credentialSuffixes {
		if strings.HasSuffix(lower, s) {
			return true
		}
	}
	for _, p := range credentialPrefixes {
		if strings.HasPrefix(lower, p) {
			return true
		}
	}
	return false
}
