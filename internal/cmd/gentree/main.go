// Command gentree makes a generated tree of empty files for benchmarks
// (bench/index.sh): N files spread evenly over 1,000 folders three levels
// down (pkgNN/modNN/partNN/fileNNNNNNN.go), made with makefs.Bulk. A tree
// already made (its .generated marker) is left as it is.
//
//	gentree -n 1000000 DIR
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/scoutdev/scout/internal/makefs"
)

func main() {
	n := flag.Int("n", 100000, "files to make")
	flag.Parse()
	if flag.NArg() != 1 || *n < 1 {
		fmt.Fprintln(os.Stderr, "usage: gentree -n N DIR")
		os.Exit(2)
	}
	if err := generate(flag.Arg(0), *n); err != nil {
		fmt.Fprintln(os.Stderr, "gentree:", err)
		os.Exit(1)
	}
}

func generate(dir string, n int) error {
	marker := filepath.Join(dir, ".generated")
	if _, err := os.Stat(marker); err == nil {
		return nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	paths := make([]string, 0, n)
	for leaf := range 1000 { // one folder at a time: Bulk keeps its descriptor
		for i := leaf; i < n; i += 1000 {
			paths = append(paths, fmt.Sprintf("pkg%02d/mod%02d/part%02d/file%07d.go", leaf/100, leaf/10%10, leaf%10, i))
		}
	}
	if err := makefs.Bulk(dir, paths); err != nil {
		return err
	}
	return os.WriteFile(marker, nil, 0o644)
}
