package rank

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/scoutdev/scout/tui/internal/pathgen"
)

// TestPrepareASCIIIsAppendClasses holds the table-driven classes of ASCII
// paths to the generic definition (appendClasses), on generated paths and
// on random strings of the characters that decide classes.
func TestPrepareASCIIIsAppendClasses(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	paths := pathgen.Paths(2000, 7)
	for range 5000 {
		paths = append(paths, randomString(rng, []rune("aZz/._- \\bB0x/@[A`{~"), rng.IntN(24)))
	}
	paths = append(paths, "", "a", "/", "a/a", "a/a.go", "Ab/Ab.x", "x/y/y", "aB/cD/cD")
	for _, p := range paths {
		fold, cls := make([]byte, len(p)), make([]uint8, len(p))
		mask, ok := prepareASCII(fold, cls, p)
		if !ok {
			t.Fatalf("%q: not ASCII", p)
		}
		want := appendClasses(nil, []byte(p))
		var wantMask uint64
		for i := range len(p) {
			wantMask |= runeMask(rune(lowerASCII(p[i])))
		}
		if !slices.Equal(cls, want) || mask != wantMask || string(fold) != string(foldBytes(p)) {
			t.Errorf("%q: classes %v mask %x fold %q, want %v %x", p, cls, mask, fold, want, wantMask)
		}
	}
	if _, ok := prepareASCII(make([]byte, 4), make([]uint8, 4), "é/a"); ok {
		t.Error("a non-ASCII path was prepared as ASCII")
	}
}

func foldBytes(p string) []byte {
	b := []byte(p)
	for i := range b {
		b[i] = lowerASCII(b[i])
	}
	return b
}

// TestNewIndexMixed checks that ASCII paths with and without capitals
// and other paths, on several workers, land where their entries say.
func TestNewIndexMixed(t *testing.T) {
	t.Parallel()
	var paths []string
	for i := range 3 * indexChunk {
		switch {
		case i%97 == 0:
			paths = append(paths, "dir/ünïcode"+string(rune('a'+i%26)))
		case i%5 == 0:
			paths = append(paths, "Dir/"+pathgen.Paths(1, uint64(i))[0]+"X")
		default:
			paths = append(paths, pathgen.Paths(1, uint64(i))[0])
		}
	}
	x := newIndex(paths)
	for i, p := range paths {
		e := x.ents[i]
		if got := x.path(i); got != p {
			t.Fatalf("%d: path %q of %q", i, got, p)
		}
		if e.ascii {
			if got := string(x.folded(&e)); got != string(foldBytes(p)) {
				t.Fatalf("%d: fold %q of %q", i, got, p)
			}
		} else if a, b := x.runeSpan(i); string(x.rorig[a:b]) != p {
			t.Fatalf("%d: runes %q of %q", i, string(x.rorig[a:b]), p)
		}
	}
}
