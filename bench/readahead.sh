#!/bin/sh
# readahead.sh measures project.files's scan with the read-ahead goroutines
# (as of commit BASE, default 9f8678a, the last with them) against the
# sequential reading that replaced them (the working tree), side by side:
# each round runs BenchmarkScanGoroot and BenchmarkScanGenerated (100,000
# files) once in each build, the first rotating (bench/sidebyside), and
# reports wall and CPU time of the whole processes. docs/performance.md
# ("The read-ahead") records a run.
#
#   sh bench/readahead.sh [rounds] [BASE]
set -eu
rounds=${1:-15}
base=${2:-9f8678a}
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
(cd "$src" && go test -c -o "$out/scan-before.test" ./backend/files)
go test -c -o "$out/scan-after.test" ./backend/files
go build -o "$out/sidebyside" ./bench/sidebyside
SCOUT_BENCH_TREE="$out/tree100k" "$out/scan-after.test" -test.run '^$' -test.bench '^BenchmarkScanGenerated$' -test.benchtime 1x >/dev/null

for b in Goroot Generated; do
	cmd="-test.run ^\$ -test.bench ^BenchmarkScan$b\$ -test.benchtime 30x"
	SCOUT_BENCH_TREE="$out/tree100k" "$out/sidebyside" -name "scan/$b" -runs "$rounds" -warmup 1 -- \
		"$out/scan-after.test $cmd" "$out/scan-before.test $cmd"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
