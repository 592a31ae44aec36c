#!/bin/sh
# samereport.sh checks that this tree's backend answers project.files with
# the same bytes as revision REV's (default: main), "ts" aside, on the Go
# source tree, the benchmark trees of compare.sh (when they exist) and
# this repository: the selection of docs/protocol.md §5 is normative, so a
# faster scan must not change a byte of it.
#
#   sh bench/samereport.sh [REV]
set -eu
rev=${1:-main}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${SCOUT_BENCH_OUT:-${TMPDIR:-/tmp}/scout-bench}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$root"
git archive "$rev" | tar -x -C "$work"
(cd "$work" && go build -o "$work/scout.old" ./cmd/scout)
go build -o "$work/scout.new" ./cmd/scout
mkdir -p "$work/home"
req='{"jsonrpc":"2.0","id":"1","method":"initialize","params":{"protocol_version":1,"required_capabilities":["project.files"]}}
{"jsonrpc":"2.0","id":"2","method":"project.files","params":{}}'
answer() { # binary dir: the response lines, ts removed
	(cd "$2" && { printf '%s\n' "$req"; sleep 2; } | SCOUT_HOME="$work/home" "$1" backend | sed 's/"ts":"[^"]*"//g')
}
status=0
for dir in "$(go env GOROOT)/src" "$out/tree10k" "$out/tree100k" "$root"; do
	[ -d "$dir" ] || continue
	a=$(answer "$work/scout.old" "$dir" | sha256sum | cut -c1-16)
	b=$(answer "$work/scout.new" "$dir" | sha256sum | cut -c1-16)
	n=$(answer "$work/scout.new" "$dir" | tail -n 1 | grep -o '{"path":' | wc -l)
	if [ "$a" = "$b" ]; then
		echo "same    $dir ($n entries, $b)"
	else
		echo "DIFFER  $dir ($rev $a, this tree $b)"
		status=1
	fi
done
exit $status
