#!/bin/sh
# readahead.sh measures a walk with read-ahead goroutines (as of commit
# BASE) against the sequential reading of the working tree, side by side.
# Two walks, WHAT:
#   scan  (default) project.files's scan: BASE defaults to 9f8678a, the
#         last commit with its reader goroutines; each round runs
#         BenchmarkScanGoroot and BenchmarkScanGenerated (100,000 files)
#         once in each build;
#   index project.index's walk: BASE defaults to e0cc6f5, whose steps read
#         the next queued directory's names on a helper goroutine
#         (reverted since); each round runs BenchmarkIndexGenerated on the
#         100,000-file and the 1,000,000-file trees of bench/index.sh.
# The first build rotates each round (bench/sidebyside), which reports
# wall and CPU time of the whole processes. docs/performance.md ("The
# read-ahead", and "The whole tree: project.index (issue 15)") records
# runs.
#
#   sh bench/readahead.sh [rounds] [BASE] [WHAT]
set -eu
rounds=${1:-15}
what=${3:-scan}
case $what in
scan) base=${2:-9f8678a} ;;
index) base=${2:-e0cc6f5} ;;
*) echo "readahead.sh: WHAT is scan or index" >&2; exit 2 ;;
esac
root=$(cd "$(dirname "$0")/.." && pwd)
out=${SCOUT_BENCH_OUT:-${TMPDIR:-/tmp}/scout-bench}
mkdir -p "$out"
cd "$root"
echo "load at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

src="$out/readahead-$base"
if [ ! -d "$src" ]; then
	mkdir -p "$src"
	git archive "$base" | tar -x -C "$src"
fi
(cd "$src" && go test -c -o "$out/$what-before.test" ./backend/files)
go test -c -o "$out/$what-after.test" ./backend/files
go build -o "$out/sidebyside" ./bench/sidebyside

# side NAME TREE BENCH N runs BENCH N times a process in each build.
side() {
	cmd="-test.run ^\$ -test.bench ^Benchmark$3\$ -test.benchtime $4x"
	SCOUT_BENCH_TREE="$out/$2" "$out/sidebyside" -name "$1" -runs "$rounds" -warmup 1 -- \
		"$out/$what-after.test $cmd" "$out/$what-before.test $cmd"
}
if [ "$what" = scan ]; then
	SCOUT_BENCH_TREE="$out/tree100k" "$out/scan-after.test" -test.run '^$' -test.bench '^BenchmarkScanGenerated$' -test.benchtime 1x >/dev/null
	for b in Goroot Generated; do side "scan/$b" tree100k "Scan$b" 30; done
else
	go run ./internal/cmd/gentree -n 100000 "$out/tree100k-index"
	go run ./internal/cmd/gentree -n 1000000 "$out/tree1m"
	side index/tree100k-index tree100k-index IndexGenerated 30
	side index/tree1m tree1m IndexGenerated 3
fi
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
