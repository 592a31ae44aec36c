#!/bin/sh
# indexahead.sh measures project.index's walk with a read-ahead within
# each step (commit AHEAD, default e0cc6f5: a helper goroutine reads the
# next queued directory's names while the step filters, sorts and emits
# the current one; reverted since) against the sequential walk of the
# working tree: each round runs BenchmarkIndexGenerated once in each
# build, the first rotating (bench/sidebyside), on the 100,000-file and
# the 1,000,000-file trees of bench/index.sh, and reports wall and CPU
# time of the whole processes. docs/performance.md ("The whole tree:
# project.index (issue 15)") records a run.
#
#   sh bench/indexahead.sh [rounds] [AHEAD]
set -eu
rounds=${1:-9}
ahead=${2:-e0cc6f5}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${SCOUT_BENCH_OUT:-${TMPDIR:-/tmp}/scout-bench}
mkdir -p "$out"
cd "$root"
echo "load at the start: $(cut -d' ' -f1-3 /proc/loadavg)"

src="$out/indexahead-$ahead"
if [ ! -d "$src" ]; then
	mkdir -p "$src"
	git archive "$ahead" | tar -x -C "$src"
fi
(cd "$src" && go test -c -o "$out/index-ahead.test" ./backend/files)
go test -c -o "$out/index-sequential.test" ./backend/files
go build -o "$out/sidebyside" ./bench/sidebyside
go run ./internal/cmd/gentree -n 100000 "$out/tree100k-index"
go run ./internal/cmd/gentree -n 1000000 "$out/tree1m"

for t in tree100k-index:30 tree1m:3; do
	tree=${t%:*}
	cmd="-test.run ^\$ -test.bench ^BenchmarkIndexGenerated\$ -test.benchtime ${t#*:}x"
	SCOUT_BENCH_TREE="$out/$tree" "$out/sidebyside" -name "index/$tree" -runs "$rounds" -warmup 1 -- \
		"$out/index-sequential.test $cmd" "$out/index-ahead.test $cmd"
done
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
