// Command benchtable turns the measurements of bench/compare.sh into the
// markdown tables of docs/performance.md: the side-by-side runs of
// bench/sidebyside (-side, its -tsv file) and the output of go test -bench
// for tui/rank (-rank) and backend/files (-scan). With -doc it replaces
// the part of that file between the compare.sh markers; otherwise it
// prints the tables.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
)

const (
	beginMark = "<!-- bench/compare.sh: begin -->"
	endMark   = "<!-- bench/compare.sh: end -->"
)

func main() {
	side := flag.String("side", "", "bench/sidebyside -tsv output")
	rank := flag.String("rank", "", "go test -bench output of ./tui/rank")
	scan := flag.String("scan", "", "go test -bench output of ./backend/files")
	header := flag.String("header", "", "a line to put above the tables")
	doc := flag.String("doc", "", "replace the marked part of this file")
	flag.Parse()
	var t tables
	if err := t.load(*side, *rank, *scan); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
	var b strings.Builder
	if *header != "" {
		b.WriteString(*header + "\n\n")
	}
	t.write(&b)
	if *doc == "" {
		fmt.Print(b.String())
		return
	}
	if err := replace(*doc, b.String()); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

// run is one command of a side-by-side case.
type run struct {
	cmd                string
	min, med, cpu, rss float64
}

type tables struct {
	side  map[string][]run              // case name -> commands, in order
	order []string                      // case names as first seen
	bench map[string]map[string]float64 // benchmark name -> unit -> median
}

func (t *tables) load(side, rank, scan string) error {
	t.side, t.bench = map[string][]run{}, map[string]map[string]float64{}
	if side != "" {
		if err := t.loadSide(side); err != nil {
			return err
		}
	}
	for _, f := range []string{rank, scan} {
		if f != "" {
			if err := t.loadBench(f); err != nil {
				return err
			}
		}
	}
	return nil
}

func (t *tables) loadSide(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(line, "\t")
		if len(f) != 7 {
			return fmt.Errorf("%s: bad line %q", path, line)
		}
		r := run{cmd: f[2]}
		for i, p := range []*float64{&r.min, &r.med, &r.cpu, &r.rss} {
			if *p, err = strconv.ParseFloat(f[3+i], 64); err != nil {
				return err
			}
		}
		if _, ok := t.side[f[0]]; !ok {
			t.order = append(t.order, f[0])
		}
		t.side[f[0]] = append(t.side[f[0]], r)
	}
	return nil
}

// loadBench reads go test -bench output, keeping for each benchmark and
// unit the median over its -count runs.
func (t *tables) loadBench(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	all := map[string]map[string][]float64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 4 || !strings.HasPrefix(fields[0], "Benchmark") {
			continue
		}
		name := fields[0]
		if i := strings.LastIndexByte(name, '-'); i > 0 {
			name = name[:i] // the GOMAXPROCS suffix
		}
		if all[name] == nil {
			all[name] = map[string][]float64{}
		}
		for i := 2; i+1 < len(fields); i += 2 {
			v, err := strconv.ParseFloat(fields[i], 64)
			if err == nil {
				all[name][fields[i+1]] = append(all[name][fields[i+1]], v)
			}
		}
	}
	for name, units := range all {
		t.bench[name] = map[string]float64{}
		for u, vs := range units {
			slices.Sort(vs)
			t.bench[name][u] = vs[len(vs)/2]
		}
	}
	return sc.Err()
}

func (t *tables) get(bench, unit string) (float64, bool) {
	v, ok := t.bench[bench][unit]
	return v, ok
}

// cases returns the side-by-side cases whose names start with prefix.
func (t *tables) cases(prefix string) []string {
	var out []string
	for _, n := range t.order {
		if strings.HasPrefix(n, prefix) {
			out = append(out, n)
		}
	}
	return out
}

func f2(v float64) string {
	switch {
	case v >= 100:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case v >= 10:
		return strconv.FormatFloat(v, 'f', 1, 64)
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func ratio(a, b float64) string {
	if b <= 0 {
		return "–"
	}
	return strconv.FormatFloat(a/b, 'f', 2, 64) + "×"
}

func (t *tables) write(w io.Writer) {
	t.writeWhole(w)
	t.writeKeystroke(w)
	t.writeScratch(w)
	t.writeEndToEnd(w)
	t.writeScan(w)
}

// writeWhole: ranking as whole processes, scout filter --stdin vs fzf.
func (t *tables) writeWhole(w io.Writer) {
	cs := t.cases("rank/")
	if len(cs) == 0 {
		return
	}
	fmt.Fprintln(w, "Ranking, whole processes (start, read the list from stdin, rank, sort every match, print), process start included for both:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| list | query | `scout filter --stdin` min / median ms | CPU ms | `fzf --filter` min / median ms | CPU ms | scout ÷ fzf: median, CPU |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, c := range cs {
		rs := t.side[c]
		if len(rs) < 2 {
			continue
		}
		_, list, q := split3(c)
		s, z := rs[0], rs[1]
		fmt.Fprintf(w, "| %s | `%s` | %s / %s | %s | %s / %s | %s | **%s**, %s |\n", list, q,
			f2(s.min), f2(s.med), f2(s.cpu), f2(z.min), f2(z.med), f2(z.cpu), ratio(s.med, z.med), ratio(s.cpu, z.cpu))
	}
	if st := t.side["start"]; len(st) == 2 {
		fmt.Fprintf(w, "\nProcess start alone (empty input): scout %s ms median, %s ms CPU; fzf %s ms, %s ms CPU.\n",
			f2(st[0].med), f2(st[0].cpu), f2(st[1].med), f2(st[1].cpu))
	}
	fmt.Fprintln(w)
}

// fzfWork is fzf's median time for a list and query minus its start.
func (t *tables) fzfWork(list, q string) (float64, bool) {
	rs, st := t.side["rank/"+list+"/"+q], t.side["start"]
	if len(rs) < 2 || len(st) < 2 {
		return 0, false
	}
	return rs[1].med - st[1].med, true
}

var (
	benchLists   = []string{"gotree", "gen10k", "gotree100k", "gen100k"}
	benchQueries = []string{"s", "srv", "server", "internalhttp"}
)

func qname(q string) string { return fmt.Sprintf("q%02d", len(q)) }

// writeKeystroke: per keystroke in process against fzf's work.
func (t *tables) writeKeystroke(w io.Writer) {
	fmt.Fprintln(w, "Ranking per keystroke, in process (process start excluded for both): the query typed one rune at a time on a cold cache, the picker's 50 best. `p50` is the median keystroke, `first` the first (which sees every path; the median over sessions), `CPU` the mean CPU time of a keystroke (all threads). `no cache` types the same keys with the cache emptied before each (what narrowing saves), `fzf work` is `fzf --filter` from scratch minus fzf's own start (the table above), plain `sahilm/fuzzy.Find` is run on every keystroke.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| list | query | scout p50 / first ms | scout CPU ms | no cache p50 ms | sahilm p50 ms | fzf work ms | scout p50 ÷ fzf work | scout p50 ÷ sahilm |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|")
	for _, l := range benchLists {
		for _, q := range benchQueries {
			base := "BenchmarkRank/" + l + "/" + qname(q)
			p50, ok := t.get(base+"/scout-typed", "p50-ms/key")
			if !ok {
				continue
			}
			first, _ := t.get(base+"/scout-typed", "max-ms/key")
			cpu, _ := t.get(base+"/scout-typed", "cpu-ms/key")
			sp50, sok := t.get(base+"/sahilm-typed", "p50-ms/key")
			fw, fok := t.fzfWork(l, q)
			row := []string{l, "`" + q + "`", f2(p50) + " / " + f2(first), f2(cpu), "–", "–", "–", "–", "–"}
			if v, ok := t.get(base+"/scout-retyped", "p50-ms/key"); ok {
				row[4] = f2(v)
			}
			if sok {
				row[5], row[8] = f2(sp50), ratio(p50, sp50)
			}
			if fok {
				row[6], row[7] = f2(fw), "**"+ratio(p50, fw)+"**"
			}
			fmt.Fprintln(w, "| "+strings.Join(row, " | ")+" |")
		}
	}
	fmt.Fprintln(w)
}

// writeScratch: one query from scratch in process.
func (t *tables) writeScratch(w io.Writer) {
	fmt.Fprintln(w, "One query from scratch, in process (cold cache): the picker's best 50, and the complete order `scout filter` prints (`Order(q, 0)`, no highlight positions), next to plain `sahilm/fuzzy.Find` (which also sorts every match). Preparing the list (`rank.New`, once per snapshot) is given per list.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| list | query | scout top 50 ms | scout all ms | sahilm ms | fzf work ms | scout all ÷ fzf work | scout all ÷ sahilm |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, l := range benchLists {
		for _, q := range benchQueries {
			base := "BenchmarkRank/" + l + "/" + qname(q)
			top, ok := t.get(base+"/scout-top50", "ns/op")
			if !ok {
				continue
			}
			all, _ := t.get(base+"/scout-order", "ns/op")
			sh, sok := t.get(base+"/sahilm", "ns/op")
			fw, fok := t.fzfWork(l, q)
			row := []string{l, "`" + q + "`", f2(top / 1e6), f2(all / 1e6), "–", "–", "–", "–"}
			if sok {
				row[4], row[7] = f2(sh/1e6), ratio(all, sh)
			}
			if fok {
				row[5], row[6] = f2(fw), ratio(all/1e6, fw)
			}
			fmt.Fprintln(w, "| "+strings.Join(row, " | ")+" |")
		}
	}
	var news []string
	for _, l := range benchLists {
		if v, ok := t.get("BenchmarkNew/"+l, "ns/op"); ok {
			news = append(news, fmt.Sprintf("%s %s ms", l, f2(v/1e6)))
		}
	}
	if len(news) > 0 {
		fmt.Fprintf(w, "\n`rank.New`: %s.\n", strings.Join(news, ", "))
	}
	fmt.Fprintln(w)
}

// writeEndToEnd: scout filter on a tree against fd | fzf.
func (t *tables) writeEndToEnd(w io.Writer) {
	cs := t.cases("e2e/")
	if len(cs) == 0 {
		return
	}
	fmt.Fprintln(w, "Scan and rank end to end, whole processes: `scout filter Q` (start, spawn and initialize `scout backend`, project.files, rank, print) against `fdfind --type f . | fzf --filter Q` (two processes joined by a pipe, started without a shell), in the tree:")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| tree | query | `scout filter` min / median ms | CPU ms | `fd \\| fzf` min / median ms | CPU ms | scout ÷ fd\\|fzf: median, CPU |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|")
	for _, c := range cs {
		rs := t.side[c]
		if len(rs) < 2 {
			continue
		}
		_, tree, q := split3(c)
		s, z := rs[0], rs[1]
		fmt.Fprintf(w, "| %s | `%s` | %s / %s | %s | %s / %s | %s | **%s**, %s |\n", tree, q,
			f2(s.min), f2(s.med), f2(s.cpu), f2(z.min), f2(z.med), f2(z.cpu), ratio(s.med, z.med), ratio(s.cpu, z.cpu))
	}
	fmt.Fprintln(w)
}

// writeScan: project.files against fd listing the tree.
func (t *tables) writeScan(w io.Writer) {
	cs := t.cases("scan/")
	if len(cs) == 0 {
		return
	}
	fmt.Fprintln(w, "project.files against fd, whole processes: `scanbench DIR` (one scan with the full default policy, the report encoded to stdout) against `fdfind -H -I . DIR` (everything, no ignore rules) and `fdfind . DIR` (ignore rules, no hidden files), each listing the whole tree. `warm` is the same scan in a running backend (`BenchmarkScan*`, report built, not encoded).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| tree | scan min / median ms | CPU ms | warm ms | `fd -H -I` min / median ms | CPU ms | `fd` min / median ms | CPU ms | scan ÷ fd -H -I: median, CPU | scan ÷ fd: median | warm ÷ fd -H -I |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|")
	warm := map[string]string{"scan/goroot": "BenchmarkScanGoroot", "scan/tree100k": "BenchmarkScanGenerated"}
	for _, c := range cs {
		rs := t.side[c]
		if len(rs) < 3 {
			continue
		}
		s, a, b := rs[0], rs[1], rs[2]
		wm, wr := "–", "–"
		if v, ok := t.get(warm[c], "ns/op"); ok {
			wm, wr = f2(v/1e6), ratio(v/1e6, a.med)
		}
		fmt.Fprintf(w, "| %s | %s / %s | %s | %s | %s / %s | %s | %s / %s | %s | **%s**, %s | %s | %s |\n", strings.TrimPrefix(c, "scan/"),
			f2(s.min), f2(s.med), f2(s.cpu), wm, f2(a.min), f2(a.med), f2(a.cpu), f2(b.min), f2(b.med), f2(b.cpu),
			ratio(s.med, a.med), ratio(s.cpu, a.cpu), ratio(s.med, b.med), wr)
	}
	fmt.Fprintln(w)
}

func split3(c string) (string, string, string) {
	f := strings.SplitN(c, "/", 3)
	for len(f) < 3 {
		f = append(f, "")
	}
	return f[0], f[1], f[2]
}

// replace puts body between the markers of the file at path.
func replace(path, body string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	s := string(data)
	i, j := strings.Index(s, beginMark), strings.Index(s, endMark)
	if i < 0 || j < i {
		return fmt.Errorf("%s has no %q ... %q", path, beginMark, endMark)
	}
	s = s[:i+len(beginMark)] + "\n" + body + s[j:]
	return os.WriteFile(path, []byte(s), 0o644)
}
