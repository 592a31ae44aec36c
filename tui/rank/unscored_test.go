package rank

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestNextGainBounds holds nextGain to its promise over the Go tree and
// random short paths: for every query and path, the first position at or
// after the greedy end of the query less its last rune is where that
// rune's greedy alignment ends, and the score of the query is at most the
// score of the shorter one, plus one (an unmatched byte fewer), plus the
// gain. A bound too small would let a keystroke leave a match of the
// best k unscored. For a two-rune query, firstNextGain must find what
// firstBest and nextGain find.
func TestNextGainBounds(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(17, 2))
	paths := append([]string(nil), goTree(t)[:3000]...)
	for range 3000 {
		var b strings.Builder
		for range 1 + rng.IntN(40) {
			b.WriteByte("aabsSrv/._-eEtT"[rng.IntN(15)])
		}
		paths = append(paths, b.String())
	}
	x, s := newIndex(paths), &scratch{}
	queries := []string{"sr", "srv", "ss", "ssa", "ssag", "aa", "a/", "st", "tes", "Te", "sT", "ee", "internal", "inter", "ht", "htt", "/s", "._", "gen"}
	checked := 0
	for _, query := range queries {
		short, long := compile(query[:len(query)-1]), compile(query)
		if short.sensitive != long.sensitive {
			continue
		}
		for j := range paths {
			e := &x.ents[j]
			if !e.ascii {
				continue
			}
			v, _ := x.score(s, short, j, false)
			if v == noMatch {
				continue
			}
			t1 := x.bytesFor(e, long.sensitive)
			end := -1
			for _, c := range short.bytes {
				end += 1 + strings.IndexByte(string(t1[end+1:]), c)
			}
			at, gain := nextGain(t1, x.classes(e), long.bytes[len(long.bytes)-1], long.bytes[len(long.bytes)-2], end+1)
			if len(short.bytes) == 1 {
				b0, at0, gain0 := firstNextGain(t1, x.classes(e), short.bytes[0], long.bytes[1], &firstScoreIn)
				if b0 != firstBest(t1, short.bytes[0], x.classes(e), &firstScoreIn) || at0 != at || at >= 0 && gain0 != gain {
					t.Fatalf("%q in %q: firstNextGain %d %d %d, firstBest and nextGain %d %d %d", query, paths[j],
						b0, at0, gain0, firstBest(t1, short.bytes[0], x.classes(e), &firstScoreIn), at, gain)
				}
			}
			w, _ := x.score(s, long, j, false)
			switch {
			case w == noMatch && at >= 0, w != noMatch && at < 0:
				t.Fatalf("%q in %q: nextGain says %d, the score %d", query, paths[j], at, w)
			case w == noMatch:
				continue
			case int(at) != strings.IndexByte(string(t1[end+1:]), long.bytes[len(long.bytes)-1])+end+1:
				t.Fatalf("%q in %q: nextGain's first position %d is not the greedy end", query, paths[j], at)
			case w > v+1+gain:
				t.Fatalf("%q in %q: score %d over the bound %d+1+%d", query, paths[j], w, v, gain)
			}
			checked++
		}
	}
	if checked < 10000 {
		t.Fatalf("only %d bounds checked", checked)
	}
}

// TestUnscoredRanksAsEager types, deletes and retypes random queries on
// two Rankers of the same paths, one leaving matches unscored (the
// default) and one scoring every match, adding the same pages to both
// now and then, and asks each for the best k, k varying (1, 3, 50, all),
// so that cached sets with unscored matches are narrowed from, ranked
// again for a wider k, extended with new paths and ranked whole. Every
// result must be the same: total, matches, scores, positions, order.
func TestUnscoredRanksAsEager(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(17, 1))
	all := goTree(t)
	all = append(all[:len(all):len(all)], addPaths()...)
	rng.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	n := 6000
	lazy, eager := New(all[:n]), New(all[:n])
	eager.eager = true
	ctx := context.Background()
	const alphabet = "sssrrveeeeaaiinnttlhpgcgo/._TS"
	var query []byte
	ks := []int{1, 3, 3, 3, 50, 0}
	unscored := 0
	check := func(step int, query string, k int) {
		t.Helper()
		got, err := lazy.Rank(ctx, query, k)
		if err != nil {
			t.Fatal(err)
		}
		if q := compileQuery(query); q != nil {
			for _, g := range lazy.cache.lookup(q.key).segs {
				unscored += g.unscored
			}
		}
		want, err := eager.Rank(ctx, query, k)
		if err != nil {
			t.Fatal(err)
		}
		if !sameResult(got, want) {
			t.Fatalf("step %d, %q k=%d: unscored and eager rankings differ:\n%s\n%s", step, query, k, brief(got), brief(want))
		}
	}
	for _, c := range alphabet + "Kk2" { // every first rune, alone
		check(-1, string(c), 3)
		check(-1, string(c), 0)
	}
	for step := range 600 {
		switch d := rng.IntN(10); {
		case d < 6 || len(query) == 0:
			query = append(query, alphabet[rng.IntN(len(alphabet))])
		case d < 9:
			query = query[:len(query)-1]
		default:
			m := min(n+1+rng.IntN(1500), len(all))
			lazy.Add(all[n:m])
			eager.Add(all[n:m])
			n = m
		}
		if len(query) > 8 {
			query = query[:rng.IntN(3)]
		}
		check(step, string(query), ks[rng.IntN(len(ks))])
	}
	t.Logf("%d matches left unscored over the rankings", unscored)
	if unscored == 0 {
		t.Fatal("no match was left unscored: the test tests nothing")
	}
}

// brief is a short form of a result for a failure message.
func brief(res Result) string {
	s := fmt.Sprintf("total %d:", res.Total)
	for _, m := range res.Matches[:min(8, len(res.Matches))] {
		s += fmt.Sprintf(" %d/%d%v", m.Index, m.Score, m.Positions)
	}
	return s
}

// TestUnscoredTiesAtTheFloor ranks paths made to tie: short random
// paths of a few letters, so that many matches share a score and a
// length and only the path and index order them. When a cached set is
// ranked again for a wider k, an unscored match whose bound equals the
// k-th best score may still win its tie, so best must score it; a best
// that skipped bounds equal to the floor would return another path there.
func TestUnscoredTiesAtTheFloor(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 5))
	seen := map[string]bool{}
	var paths []string
	for len(paths) < 4000 {
		var b strings.Builder
		for range 2 + rng.IntN(7) {
			b.WriteByte("ssrvv/a"[rng.IntN(7)])
		}
		if p := b.String(); !seen[p] {
			seen[p] = true
			paths = append(paths, p)
		}
	}
	ctx := context.Background()
	ks := []int{1, 2, 3, 5, 8, 13, 21, 34, 0}
	unscored := 0
	for _, query := range []string{"s", "sr", "srv", "ss", "vs", "as", "asv"} {
		for _, k1 := range ks[:6] {
			lazy, eager := New(paths), New(paths)
			eager.eager = true
			for i := 1; i <= len(query); i++ { // typed with k1, then ranked again for each k
				if _, err := lazy.Rank(ctx, query[:i], k1); err != nil {
					t.Fatal(err)
				}
			}
			for _, g := range lazy.cache.lookup(compileQuery(query).key).segs {
				unscored += g.unscored
			}
			for _, k := range ks {
				got, err := lazy.Rank(ctx, query, k)
				if err != nil {
					t.Fatal(err)
				}
				want, err := eager.Rank(ctx, query, k)
				if err != nil {
					t.Fatal(err)
				}
				if !sameResult(got, want) {
					t.Fatalf("%q typed with k=%d, ranked for k=%d: unscored and eager rankings differ:\n%s\n%s", query, k1, k, brief(got), brief(want))
				}
			}
		}
	}
	if unscored == 0 {
		t.Fatal("no match was left unscored: the test tests nothing")
	}
}
