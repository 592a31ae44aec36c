// Command benchtable turns the measurements of bench/compare.sh into the
// markdown tables of docs/performance.md: the side-by-side runs of
// bench/sidebyside (-side, its -tsv file) and the output of go test -bench
// for tui/rank (-rank). With -doc it replaces the part of that file
// between the compare.sh markers; otherwise it prints the tables.
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
	header := flag.String("header", "", "a line to put above the tables")
	doc := flag.String("doc", "", "replace the marked part of this file")
	flag.Parse()
	var t tables
	if err := t.load(*side, *rank); err != nil {
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

func (t *tables) load(side, rank string) error {
	t.side, t.bench = map[string][]run{}, map[string]map[string]float64{}
	if side != "" {
		if err := t.loadSide(side); err != nil {
			return err
		}
	}
	if rank != "" {
		return t.loadBench(rank)
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
	t.writeTargets(w)
	t.writeKeystroke(w)
}

// writeWhole: scout filter --stdin against both fzf --filter.
func (t *tables) writeWhole(w io.Writer) {
	cs := t.cases("rank/")
	if len(cs) == 0 {
		return
	}
	fmt.Fprintln(w, "Whole processes on the same work: the list on standard input, every match printed (start, read, rank, sort, print), medians of interleaved rounds. `new` is fzf from its module, `old` Debian's; ratios are scout's figure divided by fzf's (below 1: scout is faster or smaller).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| list | query | scout median ms (CPU) | RSS MiB | fzf new median ms (CPU) | RSS MiB | fzf old median ms (CPU) | RSS MiB | scout ÷ new: median, CPU | scout ÷ old: median, CPU |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, c := range cs {
		rs := t.side[c]
		if len(rs) < 3 {
			continue
		}
		_, list, q := split3(c)
		s, n, o := rs[0], rs[1], rs[2]
		fmt.Fprintf(w, "| %s | `%s` | %s (%s) | %s | %s (%s) | %s | %s (%s) | %s | **%s**, %s | %s, %s |\n", list, q,
			f2(s.med), f2(s.cpu), f2(s.rss), f2(n.med), f2(n.cpu), f2(n.rss), f2(o.med), f2(o.cpu), f2(o.rss),
			ratio(s.med, n.med), ratio(s.cpu, n.cpu), ratio(s.med, o.med), ratio(s.cpu, o.cpu))
	}
	if st := t.side["start"]; len(st) == 3 {
		fmt.Fprintf(w, "\nProcess start alone (empty input), median (CPU) ms: scout %s (%s), fzf new %s (%s), fzf old %s (%s).\n",
			f2(st[0].med), f2(st[0].cpu), f2(st[1].med), f2(st[1].cpu), f2(st[2].med), f2(st[2].cpu))
	}
	fmt.Fprintln(w)
}

// writeTargets sums the whole-process ratios against the newest fzf per
// list: the median and the largest over the queries, and peak RSS.
func (t *tables) writeTargets(w io.Writer) {
	lists := map[string][][2]float64{} // list -> (wall, cpu) ratios
	rss := map[string][2]float64{}     // list -> largest RSS of scout, fzf new
	var order []string
	for _, c := range t.cases("rank/") {
		rs := t.side[c]
		if len(rs) < 3 {
			continue
		}
		_, list, _ := split3(c)
		if _, ok := lists[list]; !ok {
			order = append(order, list)
		}
		lists[list] = append(lists[list], [2]float64{rs[0].med / rs[1].med, rs[0].cpu / rs[1].cpu})
		r := rss[list]
		rss[list] = [2]float64{max(r[0], rs[0].rss), max(r[1], rs[1].rss)}
	}
	if len(order) == 0 {
		return
	}
	fmt.Fprintln(w, "Against the newest fzf, per list, over the queries above: the median and the largest ratio, and the largest peak RSS of any query.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| list | median ratio: wall, CPU | largest ratio: wall, CPU | largest RSS scout / fzf MiB |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, l := range order {
		var wall, cpu []float64
		for _, r := range lists[l] {
			wall, cpu = append(wall, r[0]), append(cpu, r[1])
		}
		slices.Sort(wall)
		slices.Sort(cpu)
		fmt.Fprintf(w, "| %s | **%.2f×**, %.2f× | %.2f×, %.2f× | %s / %s |\n", l, wall[len(wall)/2], cpu[len(cpu)/2],
			wall[len(wall)-1], cpu[len(cpu)-1], f2(rss[l][0]), f2(rss[l][1]))
	}
	fmt.Fprintln(w)
}

var (
	benchLists   = []string{"gotree", "gen10k", "gotree100k", "gen100k"}
	benchQueries = []string{"s", "srv", "server", "internalhttp"}
	syntaxNames  = []string{"`http server`", "`srv !test`", "`'internal go$`", "`server | client go`"}
	millionQ     = []string{"s", "srv", "httpsrv", "ssagen", "internalhttp"}
)

func qname(q string) string { return fmt.Sprintf("q%02d", len(q)) }

// typed formats a typing benchmark's keystrokes: p50 / slowest, CPU.
func (t *tables) typed(bench string) (string, bool) {
	p50, ok := t.get(bench, "p50-ms/key")
	if !ok {
		return "", false
	}
	slow, _ := t.get(bench, "max-ms/key")
	cpu, _ := t.get(bench, "cpu-ms/key")
	return f2(p50) + " / " + f2(slow) + " | " + f2(cpu), true
}

// writeKeystroke: the picker's keystrokes in process.
func (t *tables) writeKeystroke(w io.Writer) {
	fmt.Fprintln(w, "The picker, in process (no fzf counterpart): each query typed one rune at a time on a cold cache, the best 50 a keystroke. `p50` is the median keystroke, `slowest` the median over sessions of a session's slowest, `CPU` the mean CPU time of a keystroke (all threads, GC included); wall times under load are inflated, CPU less so.")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| list | query | p50 / slowest ms | CPU ms |")
	fmt.Fprintln(w, "|---|---|---|---|")
	for _, l := range benchLists {
		for _, q := range benchQueries {
			if v, ok := t.typed("BenchmarkRank/" + l + "/" + qname(q) + "/scout-typed"); ok {
				fmt.Fprintf(w, "| %s | `%s` | %s |\n", l, q, v)
			}
		}
		for i, q := range syntaxNames {
			if v, ok := t.typed(fmt.Sprintf("BenchmarkRankSyntax/%s/s%d", l, i)); ok {
				fmt.Fprintf(w, "| %s | %s | %s |\n", l, q, v)
			}
		}
	}
	for _, q := range millionQ {
		if v, ok := t.typed("BenchmarkRank1M/" + qname(q)); ok {
			fmt.Fprintf(w, "| gotree1m | `%s` | %s |\n", q, v)
		}
	}
	if v, ok := t.get("BenchmarkAdd/10k-into-1M", "ns/op"); ok {
		r, _ := t.get("BenchmarkAdd/10k-into-1M-then-rank", "ns/op")
		fmt.Fprintf(w, "\n`Add` of 10,000 paths to a Ranker of a million: %s ms; with the next keystroke's ranking (its cached result extended): %s ms.\n", f2(v/1e6), f2(r/1e6))
	}
	var news []string
	for _, l := range benchLists {
		if v, ok := t.get("BenchmarkNew/"+l, "ns/op"); ok {
			news = append(news, fmt.Sprintf("%s %s ms", l, f2(v/1e6)))
		}
	}
	if len(news) > 0 {
		fmt.Fprintf(w, "\n`rank.New` (once per snapshot): %s.\n", strings.Join(news, ", "))
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
