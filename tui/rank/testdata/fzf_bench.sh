#!/bin/sh
# fzf_bench.sh times `fzf --filter` over the benchmarks' path lists and
# queries (bench_test.go), to put next to scout's numbers in
# docs/performance.md. Each run is a whole process: start, read the list,
# match, sort and print everything (like Rank(query, 0) from scratch plus
# New). Needs go, fzf and hyperfine.
set -eu
cd "$(dirname "$0")"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
go run ./genpaths -n 10000 >"$dir/gen10k.txt"
go run ./genpaths -n 100000 >"$dir/gen100k.txt"
(cd "$(go env GOROOT)/src" && find . -type f | sed 's|^\./||' | LC_ALL=C sort) >"$dir/gotree.txt"
echo "fzf $(fzf --version), $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
printf 'list\tquery\tmedian ms\tmean ms\tstddev ms\tuser+sys ms\n'
for list in gotree gen10k gen100k; do
	for query in s srv server internalhttp; do
		hyperfine --style none --warmup 3 --min-runs 20 --export-csv "$dir/out.csv" \
			"fzf --filter '$query' <'$dir/$list.txt' >/dev/null" >/dev/null 2>&1
		# command,mean,stddev,median,user,system,min,max (seconds)
		tail -n 1 "$dir/out.csv" | awk -F, -v l="$list" -v q="$query" \
			'{printf "%s\t%s\t%.1f\t%.1f\t%.1f\t%.1f\n", l, q, $(NF-4)*1000, $(NF-6)*1000, $(NF-5)*1000, ($(NF-3)+$(NF-2))*1000}'
	done
done
