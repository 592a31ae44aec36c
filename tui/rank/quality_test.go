package rank

import (
	"bufio"
	"context"
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sahilm/fuzzy"
)

// fzfRank is one line of testdata/fzf_ranks.txt: the rank each fzf
// version gives the file a query means.
type fzfRank struct {
	list, query, file string
	old, new          int // fzf 0.38 (Debian), fzf built from its module
}

// best is the better of the two fzf ranks.
func (r fzfRank) best() int { return min(r.old, r.new) }

func readFzfRanks(t *testing.T) (recs []fzfRank, header string) {
	t.Helper()
	f, err := os.Open("testdata/fzf_ranks.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "#") {
			header += line + "\n"
			continue
		}
		fields := strings.Split(line, "\t")
		if len(fields) != 5 {
			t.Fatalf("fzf_ranks.txt: bad line %q", line)
		}
		old, err1 := strconv.Atoi(fields[3])
		new, err2 := strconv.Atoi(fields[4])
		if err1 != nil || err2 != nil {
			t.Fatalf("fzf_ranks.txt: bad rank in %q", line)
		}
		recs = append(recs, fzfRank{fields[0], fields[1], fields[2], old, new})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs, header
}

// tables reports whether the run prints the quality tables of
// docs/performance.md: under go test -v, not under go test -json, which
// runs the test binary with -test.v=test2json (verbose for a program to
// read) and would rank every query's whole order, and sahilm's, for no
// reader.
func tables() bool {
	f := flag.Lookup("test.v")
	return testing.Verbose() && (f == nil || f.Value.String() != "test2json")
}

// sahilmRank is the 1-based rank plain fuzzy.Find gives path, or 0.
func sahilmRank(query string, paths []string, path string) int {
	for i, m := range fuzzy.Find(query, paths) {
		if m.Str == path {
			return i + 1
		}
	}
	return 0
}

// TestQualityAgainstFzf holds scout's ranking to fzf's on two real trees
// (testdata/gotree.txt, testdata/pytree.txt): the file each query means
// must rank at least as high as the better of fzf 0.38 and the newest fzf
// ranked it (testdata/fzf_ranks.txt, from record.sh), and strictly higher
// for some. Run with -v for the tables in docs/performance.md (sahilm's
// rank, for a plain fuzzy matcher's, treats the query as one pattern);
// without -v the table, and sahilm's pass over the list, are left out.
func TestQualityAgainstFzf(t *testing.T) {
	t.Parallel()
	recs, header := readFzfRanks(t)
	lists := map[string][]string{"gotree": goTree(t), "pytree": pyTree(t)}
	rankers := map[string]*Ranker{"gotree": New(lists["gotree"]), "pytree": New(lists["pytree"])}
	counts := map[string]int{}
	better := 0
	verbose := tables()
	if verbose {
		t.Logf("recorded:\n%s", header)
		t.Log("| list | query | intended file | scout | fzf 0.38 | fzf 0.65 | sahilm |")
		t.Log("|---|---|---|---|---|---|---|")
	}
	for _, rec := range recs {
		paths, r := lists[rec.list], rankers[rec.list]
		if r == nil {
			t.Fatalf("fzf_ranks.txt: unknown list %q", rec.list)
		}
		counts[rec.list]++
		// Rank(q, k) is the first k of Rank(q, 0), so the best k decide
		// whether the file ranks at best or better; the whole order is
		// ranked only for the table and to say a loser's rank.
		k := rec.best()
		if verbose {
			k = 0
		}
		res, err := r.Rank(context.Background(), rec.query, k)
		if err != nil {
			t.Fatal(err)
		}
		got := rankOf(res, paths, rec.file)
		if got == 0 && k > 0 {
			if res, err = r.Rank(context.Background(), rec.query, 0); err != nil {
				t.Fatal(err)
			}
			got = rankOf(res, paths, rec.file)
		}
		cell := strings.ReplaceAll(rec.query, "|", `\|`) // a table cell
		// The table's last column costs a fuzzy pass over the whole list.
		if verbose {
			t.Logf("| %s | `%s` | %s | %d | %d | %d | %d |", rec.list, cell, rec.file, got, rec.old, rec.new, sahilmRank(rec.query, paths, rec.file))
		}
		switch {
		case got == 0 || got > rec.best():
			t.Errorf("%s %q: %s ranks %d, fzf ranked it %d", rec.list, rec.query, rec.file, got, rec.best())
		case got < rec.best():
			better++
		}
	}
	for list, n := range counts {
		if n < 40 {
			t.Errorf("%s: only %d recorded queries", list, n)
		}
	}
	if better == 0 {
		t.Error("scout ranks no intended file higher than fzf does")
	}
}
