// Command genpaths prints the generated path lists of the benchmarks, one
// path per line, so that fzf_bench.sh can time fzf on the same input:
//
//	go run ./tui/rank/testdata/genpaths -n 10000 > gen10k.txt
package main

import (
	"bufio"
	"flag"
	"os"

	"github.com/scoutdev/scout/tui/internal/pathgen"
)

func main() {
	n := flag.Int("n", 10000, "number of paths")
	seed := flag.Uint64("seed", 1, "generator seed (the benchmarks use 1)")
	flag.Parse()
	w := bufio.NewWriter(os.Stdout)
	for _, p := range pathgen.Paths(*n, *seed) {
		w.WriteString(p)
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		os.Exit(1)
	}
}
