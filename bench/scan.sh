#!/bin/sh
# Times one project.files scan (internal/cmd/scanbench: full default policy,
# report encoded to stdout) side by side with fd on the Go source tree and
# on a generated 100,000-file tree. Prints median and minimum of each and
# the ratios scan/fd. Needs hyperfine, fdfind (Debian's fd-find) and jq.
# Usage: sh bench/scan.sh [runs]
set -eu
runs=${1:-60}
out=${TMPDIR:-/tmp}/scout-scanbench
mkdir -p "$out"
go build -o "$out/scanbench" ./internal/cmd/scanbench
SCOUT_BENCH_TREE="$out/tree100k" go test -run '^$' -bench BenchmarkScanGenerated -benchtime 1x ./backend/files >/dev/null
for tree in "$(go env GOROOT)/src" "$out/tree100k"; do
	hyperfine -N -w 5 -r "$runs" --export-json "$out/h.json" \
		"$out/scanbench $tree" "fdfind -H -I . $tree" "fdfind . $tree" >/dev/null
	echo "== $tree"
	jq -r '.results as $r | $r[] | "\(.command | split(" ")[0:3] | join(" "))\tmedian \(.median*1000 | floor) ms\tmin \(.min*1000*10 | floor / 10) ms\tratio(median) \(.median / $r[1].median * 100 | floor / 100)\tratio(min) \(.min / $r[1].min * 100 | floor / 100)"' "$out/h.json"
done
