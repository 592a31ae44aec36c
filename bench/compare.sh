#!/bin/sh
# compare.sh measures scout next to fzf and fd on the same data, in one run
# (issue 10), and prints the tables of docs/performance.md ("scout vs fzf
# and fd"); with -w it also writes them there, between the markers.
#
#   sh bench/compare.sh [-w] [runs]      # runs: rounds per side-by-side case (default 30)
#
# It builds scout (no -race), generates the path lists and trees in
# $SCOUT_BENCH_OUT (default $TMPDIR/scout-bench; kept between runs), and
# runs:
#   (a) ranking: `scout filter --stdin Q` against `fzf --filter Q` on the
#       same list (whole processes), and in process (go test -bench
#       ./tui/rank) scout's ranker against plain sahilm/fuzzy.Find, on
#       gotree (the Go source tree's files), gen10k, gotree100k (gotree nine
#       times over) and gen100k, queries of 1, 3, 6 and 12 runes, typed
#       rune by rune and from scratch;
#   (b) `scout filter Q` in a tree against `fdfind --type f . | fzf --filter Q`;
#   (c) one project.files scan (internal/cmd/scanbench) against
#       `fdfind -H -I .` and `fdfind .` listing the same tree.
# Side-by-side cases run interleaved (bench/sidebyside), so that the load
# of a shared machine hits both sides alike. Needs go, fzf, fdfind.
set -eu
write=0
if [ "${1:-}" = -w ]; then
	write=1
	shift
fi
runs=${1:-30}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${SCOUT_BENCH_OUT:-${TMPDIR:-/tmp}/scout-bench}
mkdir -p "$out"
cd "$root"

load() { cut -d' ' -f1-3 /proc/loadavg; }
load0=$(load)

echo "building into $out" >&2
go build -o "$out/scout" ./cmd/scout
go build -o "$out/scanbench" ./internal/cmd/scanbench
go build -o "$out/sidebyside" ./bench/sidebyside
go build -o "$out/benchtable" ./bench/benchtable

echo "data" >&2
[ -s "$out/gen10k.txt" ] || go run ./tui/rank/testdata/genpaths -n 10000 >"$out/gen10k.txt"
[ -s "$out/gen100k.txt" ] || go run ./tui/rank/testdata/genpaths -n 100000 >"$out/gen100k.txt"
goroot=$(go env GOROOT)/src
(cd "$goroot" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$out/gotree.txt"
for v in 18 19 20 21 22 23 24 25 26; do sed "s|^|go1.$v/|" "$out/gotree.txt"; done >"$out/gotree100k.txt"
SCOUT_BENCH_TREE="$out/tree10k" go test -count=1 -run '^TestGenerateBenchTree$' ./cmd/scout >/dev/null
SCOUT_BENCH_TREE="$out/tree100k" go test -count=1 -run '^$' -bench '^BenchmarkScanGenerated$' -benchtime 1x ./backend/files >/dev/null
export SCOUT_HOME="$out/home"
mkdir -p "$SCOUT_HOME"

side="$out/side.tsv"
: >"$side"
sbs() { "$out/sidebyside" -runs "$runs" -tsv "$side" "$@"; }

echo "(a) ranking, whole processes" >&2
sbs -name start -stdin /dev/null -- "$out/scout filter --stdin s" "fzf --filter s"
for list in gotree gen10k gotree100k gen100k; do
	for q in s srv server internalhttp; do
		sbs -name "rank/$list/$q" -stdin "$out/$list.txt" -- "$out/scout filter --stdin $q" "fzf --filter $q"
	done
done

echo "(a) ranking, in process" >&2
go test -count 3 -run '^$' -bench '^BenchmarkRank$/^(gotree|gen10k)$/.*/^(scout-typed|scout-retyped|scout-top50|scout-order|sahilm-typed|sahilm)$' -benchtime 20x ./tui/rank >"$out/rank.txt"
go test -count 3 -run '^$' -bench '^BenchmarkRank$/^(gotree100k|gen100k)$/.*/^(scout-typed|scout-retyped|scout-top50|scout-order)$' -benchtime 10x ./tui/rank >>"$out/rank.txt"
go test -count 1 -run '^$' -bench '^BenchmarkRank$/^(gotree100k|gen100k)$/.*/^(sahilm-typed|sahilm)$' -benchtime 2x ./tui/rank >>"$out/rank.txt"
go test -count 3 -run '^$' -bench '^BenchmarkNew$' -benchtime 10x ./tui/rank >>"$out/rank.txt"

echo "(b) scan and rank end to end" >&2
sbs -name e2e/tree10k/srvhttp -dir "$out/tree10k" -- "$out/scout filter srvhttp" "fdfind --type f . | fzf --filter srvhttp"
sbs -name e2e/goroot/server -dir "$goroot" -- "$out/scout filter server" "fdfind --type f . | fzf --filter server"
sbs -name e2e/tree100k/mod3file9 -dir "$out/tree100k" -- "$out/scout filter mod3file9" "fdfind --type f . | fzf --filter mod3file9"

echo "(c) project.files against fd" >&2
for tree in tree100k goroot tree10k; do
	dir="$out/$tree"
	[ "$tree" = goroot ] && dir=$goroot
	sbs -name "scan/$tree" -- "$out/scanbench $dir" "fdfind -H -I . $dir" "fdfind . $dir"
done
SCOUT_BENCH_TREE="$out/tree100k" go test -count 5 -run '^$' -bench '^BenchmarkScan(Goroot|Generated)$' -benchtime 20x ./backend/files >"$out/scan.txt"

header="Measured $(date -u +%Y-%m-%d) by \`sh bench/compare.sh -w $runs\`: $(nproc) cores, load average $load0 at the start and $(load) at the end; $(go version | cut -d' ' -f3), fzf $(fzf --version | cut -d' ' -f1), fd $(fdfind --version | cut -d' ' -f2)."
if [ "$write" = 1 ]; then
	"$out/benchtable" -side "$side" -rank "$out/rank.txt" -scan "$out/scan.txt" -header "$header" -doc docs/performance.md
	echo "wrote docs/performance.md" >&2
fi
"$out/benchtable" -side "$side" -rank "$out/rank.txt" -scan "$out/scan.txt" -header "$header"
