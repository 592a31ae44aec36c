#!/bin/sh
# compare.sh measures scout next to fzf on the same work, in one run
# (issue 17), and prints the tables of docs/performance.md ("scout vs
# fzf"); with -w it also writes them there, between the markers.
#
#   sh bench/compare.sh [-w] [rounds [rounds1m]]   # interleaved rounds a case (default 20; 5 at 1M)
#
# Equal work only: `scout filter --stdin Q` against `fzf --filter Q`, the
# same list on standard input, every match printed, whole processes
# (start included for all). Two fzf: Debian's (`fzf` on PATH, 0.38) and
# fzf built from its Go module at the newest version the module proxy
# serves, installed here into a temporary GOBIN. Lists, from the committed
# tui/rank/testdata/gotree.txt (the Go tree, 11,478 paths): gotree, the
# same nine times under go1.18/ to go1.26/ (gotree100k, 103,302) and 88
# times under go1.0/ to go1.87/ (gotree1m, 1,010,064); and pytree.txt (the
# Python library tree, 46,267). Queries of 1, 3, 7, 6 and 12 runes: s,
# srv, httpsrv, ssagen, internalhttp. Cases run interleaved
# (bench/sidebyside), so that the load of a shared machine hits every
# side alike; CPU time (user + system, from wait4) is the steadier
# measure there.
#
# In process (no fzf counterpart, so no ratio): the picker's keystrokes
# (BenchmarkRank, BenchmarkRankSyntax, BenchmarkRank1M), Add at a million
# paths (BenchmarkAdd) and New (BenchmarkNew).
#
# Elsewhere: `scout filter` in a tree against `fdfind --type f -H . | fzf
# --filter` over the same tree (bench/index.sh), and launch to the
# complete file count in a terminal (bench/firstframe.sh). Needs go and
# fzf.
set -eu
write=0
if [ "${1:-}" = -w ]; then
	write=1
	shift
fi
rounds=${1:-20}
rounds1m=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${SCOUT_BENCH_OUT:-${TMPDIR:-/tmp}/scout-bench}
mkdir -p "$out"
gobin=$(mktemp -d)
trap 'rm -rf "$gobin"' EXIT
cd "$root"

load() { cut -d' ' -f1-3 /proc/loadavg; }
load0=$(load)

echo "building into $out; fzf@latest into $gobin" >&2
go build -o "$out/scout" ./cmd/scout
go build -o "$out/sidebyside" ./bench/sidebyside
go build -o "$out/benchtable" ./bench/benchtable
latest=$(cd "$gobin" && go list -m -f '{{.Version}}' github.com/junegunn/fzf@latest)
GOBIN="$gobin" go install "github.com/junegunn/fzf@$latest"
newfzf=$gobin/fzf
oldfzf=$(command -v fzf)

echo "data" >&2
lists=tui/rank/testdata
cp "$lists/gotree.txt" "$lists/pytree.txt" "$out/"
for v in 18 19 20 21 22 23 24 25 26; do sed "s|^|go1.$v/|" "$out/gotree.txt"; done >"$out/gotree100k.txt"
v=0
while [ $v -lt 88 ]; do
	sed "s|^|go1.$v/|" "$out/gotree.txt"
	v=$((v + 1))
done >"$out/gotree1m.txt"

side="$out/side.tsv"
: >"$side"
sbs() { "$out/sidebyside" -tsv "$side" "$@"; }

echo "whole processes" >&2
sbs -name start -runs "$rounds" -stdin /dev/null -- "$out/scout filter --stdin s" "$newfzf --filter s" "$oldfzf --filter s"
for list in gotree pytree gotree100k gotree1m; do
	n=$rounds
	[ "$list" = gotree1m ] && n=$rounds1m
	for q in s srv httpsrv ssagen internalhttp; do
		sbs -name "rank/$list/$q" -runs "$n" -warmup 1 -stdin "$out/$list.txt" -- \
			"$out/scout filter --stdin $q" "$newfzf --filter $q" "$oldfzf --filter $q"
	done
done

echo "in process" >&2
go test -count 3 -run '^$' -bench '^BenchmarkRank$/.*/.*/^scout-typed$' -benchtime 20x ./tui/rank >"$out/rank.txt"
go test -count 3 -run '^$' -bench '^BenchmarkRankSyntax$' -benchtime 10x ./tui/rank >>"$out/rank.txt"
go test -count 3 -run '^$' -bench '^BenchmarkRank1M$' -benchtime 5x ./tui/rank >>"$out/rank.txt"
go test -count 3 -run '^$' -bench '^BenchmarkAdd$' -benchtime 20x ./tui/rank >>"$out/rank.txt"
go test -count 3 -run '^$' -bench '^BenchmarkNew$' -benchtime 10x ./tui/rank >>"$out/rank.txt"

header="Measured $(date -u +%Y-%m-%d) by \`sh bench/compare.sh -w $rounds $rounds1m\`: $(nproc) cores, load average $load0 at the start and $(load) at the end; $(go version | cut -d' ' -f3), fzf $latest (from its module) and fzf $("$oldfzf" --version | cut -d' ' -f1) (Debian)."
if [ "$write" = 1 ]; then
	"$out/benchtable" -side "$side" -rank "$out/rank.txt" -header "$header" -doc docs/performance.md
	echo "wrote docs/performance.md" >&2
fi
"$out/benchtable" -side "$side" -rank "$out/rank.txt" -header "$header"
