package rank

import (
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/sahilm/fuzzy"
)

// randomString draws n runes from alphabet.
func randomString(rng *rand.Rand, alphabet []rune, n int) string {
	var b strings.Builder
	for range n {
		b.WriteRune(alphabet[rng.IntN(len(alphabet))])
	}
	return b.String()
}

// bruteForce tries every alignment of p in path i and returns the best
// score (with the unmatched term), or noMatch.
func bruteForce(x *index, p *pattern, i int) int32 {
	e := x.ents[i]
	var text []rune
	var cls []uint8
	var off []int32
	if e.ascii {
		for _, b := range x.text(&e) {
			text = append(text, rune(b))
		}
		cls = x.classes(&e)
	} else {
		a, b := x.runeSpan(i)
		text, cls, off = x.rorig[a:b], x.rcls[a:b], x.roff[a:b]
	}
	best := int32(noMatch)
	var pos []int32
	var try func(j, from int)
	try = func(j, from int) {
		if j == len(p.runes) {
			best = max(best, scoreOf(cls, off, pos)-(e.bytes-int32(len(p.runes))))
			return
		}
		for k := from; k < len(text); k++ {
			if fold(text[k], p.sensitive) == p.runes[j] {
				pos = append(pos, int32(k))
				try(j+1, k+1)
				pos = pos[:len(pos)-1]
			}
		}
	}
	try(0, 0)
	return best
}

// fold is the case mapping of the matcher, for checking it.
func fold(r rune, sensitive bool) rune {
	if sensitive {
		return r
	}
	return []rune(strings.ToLower(string(r)))[0]
}

// TestAlignIsOptimal checks the dynamic program against exhaustive search
// on small random paths: the same best score, and traced positions that
// earn exactly that score.
func TestAlignIsOptimal(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("aabbAB/_.-xé")
	queries := []rune("abAB/.é")
	s := &scratch{}
	matched := 0
	for n := range 20000 {
		path := randomString(rng, alphabet, 1+rng.IntN(12))
		query := randomString(rng, queries, 1+rng.IntN(4))
		x := newIndex([]string{path})
		p := compile(query)
		got, _ := x.score(s, p, 0, true)
		want := bruteForce(x, p, 0)
		if got != want {
			t.Fatalf("#%d %q in %q: dynamic program %d, exhaustive %d", n, query, path, got, want)
		}
		if got == noMatch {
			continue
		}
		matched++
		e := x.ents[0]
		cls, off := x.rcls, x.roff
		if e.ascii {
			cls, off = x.classes(&e), nil
		}
		if traced := scoreOf(cls, off, s.pos) - (e.bytes - int32(len(p.runes))); traced != got {
			t.Fatalf("%q in %q: positions %v score %d, not %d", query, path, s.pos, traced, got)
		}
	}
	if matched < 3000 {
		t.Fatalf("only %d of 20000 cases matched", matched)
	}
}

// TestBaseIsSahilm checks that the base part of a score is sahilm's score:
// scored on the positions sahilm itself chose, the base terms plus the
// unmatched-bytes term equal fuzzy.Find's Score whenever sahilm's run
// bonus cannot have snowballed. sahilm grows that bonus on every adjacent
// candidate it looks at, kept or not, so only the first pair of matches
// may be adjacent here: nothing can have grown it before.
func TestBaseIsSahilm(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []rune("abcAB/_-. \\")
	compared, adjacent := 0, 0
	for range 20000 {
		path := randomString(rng, alphabet, 1+rng.IntN(14))
		query := randomString(rng, []rune("abc/."), 1+rng.IntN(4))
		ms := fuzzy.Find(query, []string{path})
		if len(ms) != 1 || snowballRisk(ms[0].MatchedIndexes) {
			continue
		}
		x := newIndex([]string{path})
		pos := make([]int32, len(ms[0].MatchedIndexes))
		for i, b := range ms[0].MatchedIndexes {
			pos[i] = int32(b)
		}
		base, _ := scoreParts(x.classes(&x.ents[0]), nil, pos)
		got := int(base) - (len(path) - utf8.RuneCountInString(query))
		if got != ms[0].Score {
			t.Fatalf("%q in %q at %v: base %d, sahilm %d", query, path, pos, got, ms[0].Score)
		}
		compared++
		if len(pos) > 1 && pos[1] == pos[0]+1 {
			adjacent++
		}
	}
	if compared < 1000 || adjacent < 100 {
		t.Fatalf("only %d comparable cases, %d with an adjacent pair", compared, adjacent)
	}
}

// snowballRisk reports whether any but the first two positions are
// adjacent.
func snowballRisk(pos []int) bool {
	for i := 2; i < len(pos); i++ {
		if pos[i] == pos[i-1]+1 {
			return true
		}
	}
	return false
}

// TestGreedyFallback checks that inputs beyond maxCells still match, with
// valid positions scored by scoreOf.
func TestGreedyFallback(t *testing.T) {
	t.Parallel()
	path := strings.Repeat("a/", 40000) + "server.go"
	query := "a" + strings.Repeat("/", 3) + "server"
	x := newIndex([]string{path})
	s := &scratch{}
	got, _ := x.score(s, compile(query), 0, true)
	if got == noMatch {
		t.Fatal("no match")
	}
	want := scoreOf(x.classes(&x.ents[0]), nil, s.pos) - int32(len(path)-len(query))
	if got != want {
		t.Fatalf("score %d, positions %v score %d", got, s.pos, want)
	}
	for k, p := range s.pos {
		if path[p] != query[k] {
			t.Fatalf("position %d holds %q, want %q", p, path[p], query[k])
		}
	}
}

// TestExtendEqualsScore continues the last row of every prefix of random
// queries and compares with scoring the whole query afresh: the same
// score and the same last row.
func TestExtendEqualsScore(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	s, fresh := &scratch{}, &scratch{}
	extended := 0
	for range 5000 {
		path := randomString(rng, []rune("aabbAB/_.-xé"), 1+rng.IntN(16))
		query := randomString(rng, []rune("abAB/.é"), 2+rng.IntN(4))
		x := newIndex([]string{path})
		p := compile(query)
		want, _ := x.score(fresh, p, 0, false)
		for m := 1; m < len(p.runes); m++ {
			prefix := compile(string(p.runes[:m]))
			if prefix.sensitive != p.sensitive {
				continue
			}
			v, kept := x.score(s, prefix, 0, false)
			if v == noMatch || !kept {
				continue
			}
			prev := row{slices.Clone(s.last.pos), slices.Clone(s.last.v0), slices.Clone(s.last.v1)}
			got, _ := x.extend(s, p, 0, m, &prev)
			if got != want {
				t.Fatalf("%q in %q from %d runes: extended %d, fresh %d", query, path, m, got, want)
			}
			if want != noMatch && !reflect.DeepEqual(*s.last, *fresh.last) {
				t.Fatalf("%q in %q from %d runes: last rows differ:\n%v\n%v", query, path, m, *s.last, *fresh.last)
			}
			extended++
		}
	}
	if extended < 2000 {
		t.Fatalf("only %d extensions compared", extended)
	}
}

// TestAppendPositions checks the search against a loop, over awkward byte
// values and every start.
func TestAppendPositions(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(9, 9))
	for range 2000 {
		text := make([]byte, rng.IntN(40))
		for i := range text {
			text[i] = []byte{0, 'a', 'b', 0x7f, 0x80, 0xff}[rng.IntN(6)]
		}
		c := []byte{0, 'a', 0x7f, 0x80, 0xff}[rng.IntN(5)]
		from := rng.IntN(len(text) + 1)
		var want []int32
		for i := from; i < len(text); i++ {
			if text[i] == c {
				want = append(want, int32(i))
			}
		}
		if got := appendPositions(nil, text, c, from); !slices.Equal(got, want) {
			t.Fatalf("%q in %x from %d: %v, want %v", c, text, from, got, want)
		}
	}
}

// TestFirstBest holds firstBest, the one-rune keystroke's score read
// straight from the path, to firstRowBest over the row built from every
// occurrence: each ASCII path of the Go tree and random short paths (the
// first rune, the tail shorter than a word), each letter and separator, in
// both case modes, with and without the base-name bonus.
func TestFirstBest(t *testing.T) {
	t.Parallel()
	paths := slices.Clone(goTree(t)[:3000])
	rng := rand.New(rand.NewPCG(7, 17))
	for range 3000 {
		paths = append(paths, randomString(rng, []rune("aSs/_.-xX"), rng.IntN(20)))
	}
	x := newIndex(paths)
	var pos, v0, v1 []int32
	for j := range x.ents {
		e := &x.ents[j]
		if !e.ascii {
			continue
		}
		for _, c := range []byte("sSa/._xgo") {
			for _, sensitive := range []bool{false, true} {
				text := x.bytesFor(e, sensitive)
				for b, tab := range []*[clsCount]int32{&firstScoreIn, &firstScoreNo} {
					bonus := [2]*[clsCount]int32{&inBaseBonus, &noBaseBonus}[b]
					pos = appendPositions(pos[:0], text, c, 0)
					v0, v1 = grow(v0, len(pos)), grow(v1, len(pos))
					want := int32(noMatch)
					if len(pos) > 0 {
						want = firstRowBest(pos, v0, v1, x.classes(e), bonus)
					}
					if got := firstBest(text, c, x.classes(e), tab); got != want {
						t.Fatalf("%q, %q (sensitive %v, base %v): firstBest %d, firstRowBest %d", paths[j], c, sensitive, b == 0, got, want)
					}
				}
			}
		}
	}
}
