package rank

import (
	"bufio"
	"context"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/sahilm/fuzzy"
)

// fzfRank is one line of testdata/fzf_ranks.txt.
type fzfRank struct {
	query, file string
	rank        int
}

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
		if len(fields) != 3 {
			t.Fatalf("fzf_ranks.txt: bad line %q", line)
		}
		n, err := strconv.Atoi(fields[2])
		if err != nil {
			t.Fatalf("fzf_ranks.txt: bad rank in %q", line)
		}
		recs = append(recs, fzfRank{fields[0], fields[1], n})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return recs, header
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

// TestQualityAgainstFzf holds scout's ranking to fzf's: over the Go source
// tree, the file each query means must rank at least as high as `fzf
// --filter` ranked it (testdata/fzf_ranks.txt, from record_fzf.sh). Run
// with -v for the table in docs/performance.md.
func TestQualityAgainstFzf(t *testing.T) {
	paths := goTree(t)
	recs, header := readFzfRanks(t)
	if len(recs) < 16 {
		t.Fatalf("only %d recorded queries", len(recs))
	}
	r := New(paths)
	t.Logf("%d files; recorded: %s", len(paths), header)
	t.Log("| query | intended file | scout | fzf | sahilm |")
	t.Log("|---|---|---|---|---|")
	for _, rec := range recs {
		res, err := r.Rank(context.Background(), rec.query, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := rankOf(res, paths, rec.file)
		t.Logf("| `%s` | %s | %d | %d | %d |", rec.query, rec.file, got, rec.rank, sahilmRank(rec.query, paths, rec.file))
		if got == 0 || got > rec.rank {
			t.Errorf("%q: %s ranks %d, fzf ranked it %d (if GOROOT changed, rerun testdata/record_fzf.sh)", rec.query, rec.file, got, rec.rank)
		}
	}
}
