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
echo "fzf $(fzf --version), $(nproc) cores"
for list in gotree gen10k gen100k; do
	for query in s srv server internalhttp; do
		hyperfine --style basic --warmup 3 --min-runs 20 \
			--export-markdown "$dir/out.md" \
			"fzf --filter '$query' <'$dir/$list.txt' >/dev/null" >/dev/null
		printf '%s\t%s\t' "$list" "$query"
		sed -n 3p "$dir/out.md" | cut -d'|' -f3
	done
done
