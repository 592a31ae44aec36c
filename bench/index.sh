#!/bin/sh
# index.sh measures the whole-tree index (issue 15) next to fd and fzf on
# the same trees, in one run, and prints the results for docs/performance.md
# ("The whole tree: project.index"):
#
#   sh bench/index.sh [runs] [parts]
#
# runs: rounds of the 100k case (default 10; the 1M case runs a third as
# many); parts: which of (a)-(d) below to run, as letters (default abcd:
# `sh bench/index.sh 5 a` runs only the side-by-side of scout filter).
# fzf built from its Go module is installed into a temporary GOBIN unless
# SCOUT_BENCH_FZF_GO names one already built. $SCOUT_BENCH_BASE names
# another scout binary (say, main's) that (a) runs as one more command,
# interleaved with the rest, for a before/after in the same run.
#
# It builds scout (no -race), makes two trees of empty files in
# $SCOUT_BENCH_OUT (default $TMPDIR/scout-bench; kept between runs) with
# internal/cmd/gentree: tree100k-index (100,000 files) and tree1m (1,000,000
# files), each in 1,000 folders three levels down, and runs:
#   (a) `scout filter Q` (snapshot, then project.index to the end, rank,
#       print) against `fdfind --type f -H . | fzf --filter Q`, with
#       Debian's fzf 0.38 and fzf built from its Go module (the newest the
#       module proxy serves, installed into a temporary GOBIN), for a selective
#       query and for one every file matches; interleaved (bench/sidebyside),
#       wall and CPU time of every process;
#   (b) the first ranked frame of the picker in tree1m against the
#       10,000-entry tree (BenchmarkFirstRankedFrameIndexed, interleaved);
#   (c) the peak resident set of the picker (frontend and backend) holding
#       the whole index of tree1m, against each fzf holding the same paths
#       read from stdin (TestIndexPeakRSS, in tmux; runs rounds, at most 3);
#   (d) a whole index walk in a warm backend (BenchmarkIndex*, the Go tree
#       and tree100k-index), and project.files with the read-ahead gone.
# Needs go, fdfind, fzf, tmux.
set -eu
runs=${1:-10}
parts=${2:-abcd}
part() { case $parts in *"$1"*) return 0 ;; esac; return 1; }
root=$(cd "$(dirname "$0")/.." && pwd)
out=${SCOUT_BENCH_OUT:-${TMPDIR:-/tmp}/scout-bench}
mkdir -p "$out"
cd "$root"

load() { cut -d' ' -f1-3 /proc/loadavg; }
echo "load at the start: $(load)"
if [ -z "${SCOUT_BENCH_FZF_GO:-}" ]; then
	gobin=$(mktemp -d)
	trap 'rm -rf "$gobin"' EXIT
	GOBIN="$gobin" go install github.com/junegunn/fzf@latest
	export SCOUT_BENCH_FZF_GO="$gobin/fzf"
fi
echo "go $(go env GOVERSION), $(fzf --version | cut -d' ' -f1) and $("$SCOUT_BENCH_FZF_GO" --version | cut -d' ' -f1) , $(fdfind --version)"

go build -o "$out/scout" ./cmd/scout
go build -o "$out/sidebyside" ./bench/sidebyside
go run ./internal/cmd/gentree -n 100000 "$out/tree100k-index"
go run ./internal/cmd/gentree -n 1000000 "$out/tree1m"
export SCOUT_HOME="$out/home"
mkdir -p "$SCOUT_HOME"

fzfs="fzf $SCOUT_BENCH_FZF_GO"
if part a; then
echo
echo "(a) scout filter against fdfind | fzf --filter, the whole tree"
big=$(( (runs + 2) / 3 ))
for tree in tree100k-index tree1m; do
	n=$runs
	[ "$tree" = tree1m ] && n=$big
	for q in part05file12 file; do
		set -- "$out/scout filter $q"
		[ -n "${SCOUT_BENCH_BASE:-}" ] && set -- "$@" "$SCOUT_BENCH_BASE filter $q"
		for f in $fzfs; do set -- "$@" "fdfind --type f -H . | $f --filter $q"; done
		"$out/sidebyside" -name "$tree/$q" -dir "$out/$tree" -runs "$n" -warmup 1 -- "$@"
	done
done
fi

if part b; then
echo
echo "(b) first ranked frame: tree1m against the 10,000-entry tree"
SCOUT_BENCH_TREE="$out/tree10k" SCOUT_BENCH_INDEX_TREE="$out/tree1m" \
	go test -count 1 -run '^$' -bench '^BenchmarkFirstRankedFrameIndexed$' -benchtime "${runs}x" ./cmd/scout | grep -E '^Benchmark|ms'

fi
if part c; then
echo
echo "(c) peak resident set holding the whole index of tree1m"
SCOUT_TEST_MEMORY=1 SCOUT_BENCH_INDEX_TREE="$out/tree1m" \
	go test -count "$(( runs < 3 ? runs : 3 ))" -run '^TestIndexPeakRSS$' -v ./cmd/scout | grep -E 'VmHWM|installed|ok|FAIL'

fi
if part d; then
echo
echo "(d) the walk in a warm backend; project.files without the read-ahead"
SCOUT_BENCH_TREE="$out/tree100k-index" go test -count 3 -run '^$' -bench '^BenchmarkIndex(Goroot|Generated)$' -benchtime 5x ./backend/files | grep -E '^Benchmark'
SCOUT_BENCH_TREE="$out/tree100k" go test -count 5 -run '^$' -bench '^BenchmarkScan(Goroot|Generated)$' -benchtime 20x ./backend/files | grep -E '^Benchmark'
fi
echo
echo "load at the end: $(load)"
