package rank

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// The ranking principles, each held over generated families of path
// pairs that differ in the principle's feature alone (or against it:
// the path that must win is made the longer one, so its length cannot be
// what wins). Queries are words of consonants; everything else in the
// paths is digits, so no other alignment exists.

const queryLetters = "bcdfghjklmnprstvwxz"

// word returns n random query letters.
func word(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = queryLetters[rng.IntN(len(queryLetters))]
	}
	return string(b)
}

// digits returns a path component of n random digits.
func digits(rng *rand.Rand, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('0' + rng.IntN(10))
	}
	return string(b)
}

// prefix returns a random directory prefix of 0 to 3 digit components.
func prefix(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(4) {
		b.WriteString(digits(rng, 1+rng.IntN(6)) + "/")
	}
	return b.String()
}

// padTo lengthens path by a digit directory before its base name until it
// is longer than other.
func padTo(path, other string) string {
	if len(path) > len(other) {
		return path
	}
	i := strings.LastIndexByte(path, '/') + 1
	return path[:i] + strings.Repeat("9", len(other)-len(path)+1) + "/" + path[i:]
}

// wins checks that query ranks path a above path b.
func wins(t *testing.T, principle, query, a, b string) {
	t.Helper()
	res, err := New([]string{b, a}).Rank(context.Background(), query, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Matches) != 2 || res.Matches[0].Index != 1 {
		t.Fatalf("%s: %q ranks %q below %q:\n%+v", principle, query, a, b, res.Matches)
	}
}

// TestPrincipleContiguousBeatsSplit: a query that occurs contiguously in
// a path component beats the same runes split over components (each piece
// a directory of its own, or a word of one), whether or not the split
// pieces are whole directory names.
func TestPrincipleContiguousBeatsSplit(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(31, 32))
	for range 2000 {
		q := word(rng, 4+rng.IntN(9))
		p, base := prefix(rng), digits(rng, 1+rng.IntN(6))+".go"
		cut := 2 + rng.IntN(len(q)-3) // pieces of at least two runes
		lead := []string{"", "_", "0_", "0-"}[rng.IntN(4)]
		split := p + q[:cut] + "/" + lead + q[cut:] + "/" + base
		if rng.IntN(2) == 0 && len(q)-cut >= 4 { // a third piece
			c2 := cut + 2 + rng.IntN(len(q)-cut-3)
			split = p + q[:cut] + "/" + lead + q[cut:c2] + "/" + q[c2:] + "/" + base
		}
		contiguous := padTo(p+q+"/"+base, split)
		wins(t, "contiguous beats split", q, contiguous, split)
	}
}

// TestPrincipleBaseSplitBeatsDirectory: unless the split runes are in the
// base name and the contiguous ones are not: then the base name wins.
func TestPrincipleBaseSplitBeatsDirectory(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(33, 34))
	for range 2000 {
		q := word(rng, 4+rng.IntN(9))
		p := prefix(rng)
		cut := 2 + rng.IntN(len(q)-3)
		sep := []string{"_", "-", "."}[rng.IntN(3)]
		contiguous := p + q + "/" + digits(rng, 1+rng.IntN(6)) + ".go"
		split := padTo(p+digits(rng, 1+rng.IntN(4))+"/"+q[:cut]+sep+q[cut:]+".go", contiguous)
		wins(t, "a split base name beats a contiguous directory", q, split, contiguous)
	}
}

// TestPrincipleBaseBeatsDirectory: a base-name match beats the same match
// in a directory.
func TestPrincipleBaseBeatsDirectory(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(35, 36))
	for range 2000 {
		q := word(rng, 2+rng.IntN(10))
		p, other := prefix(rng), digits(rng, 1+rng.IntN(6))
		dir := p + q + "/" + other + ".go"
		base := padTo(p+other+"/"+q+".go", dir)
		wins(t, "base name beats directory", q, base, dir)
	}
}

// TestPrincipleShorterWinsTies: the same match in paths of different
// lengths: the shorter wins.
func TestPrincipleShorterWinsTies(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(37, 38))
	for range 2000 {
		q := word(rng, 1+rng.IntN(10))
		d := digits(rng, 3+rng.IntN(6)) // past the leading-bytes penalty's cap
		ext := ".go"
		short := d + "/" + q + ext
		long := d + digits(rng, 1+rng.IntN(5)) + "/" + q + ext
		wins(t, "shorter wins ties", q, short, long)
		res, _ := New([]string{short, long}).Rank(context.Background(), q, 0)
		if d := res.Matches[0].Score - res.Matches[1].Score; d != len(long)-len(short) {
			t.Fatalf("%q: %q and %q differ by %d, not by their lengths alone", q, short, long, d)
		}
	}
}

// TestPrincipleOneBaseNamePerQuery: a query of several terms names a
// file and its directories; a longer base name holding every term does
// not outrank the file the last term names.
func TestPrincipleOneBaseNamePerQuery(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(39, 40))
	for range 1000 {
		dir, file := word(rng, 3+rng.IntN(6)), word(rng, 3+rng.IntN(6))
		p := prefix(rng)
		named := p + dir + "/" + file + ".go"
		both := p + dir + "/" + file + "_" + dir + "_" + digits(rng, 1+rng.IntN(3)) + ".go"
		for _, q := range []string{dir + " " + file, file + " " + dir} {
			wins(t, "one base name per query", q, named, both)
		}
	}
}

// TestSsagen: the case the crossing cost was made for, on the Go tree.
func TestSsagen(t *testing.T) {
	t.Parallel()
	paths := goTree(t)
	res, err := New(paths).Rank(context.Background(), "ssagen", 5)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range res.Matches {
		got = append(got, paths[m.Index])
	}
	if r := rankOf(res, paths, "cmd/compile/internal/ssagen/ssa.go"); r == 0 || r > 3 {
		t.Fatalf("ssagen: ssagen/ssa.go ranks %d, want 3rd or better: %s", r, fmt.Sprint(got))
	}
}
