#!/usr/bin/env bash
# Runs every fuzz target of the module for a set time, one target at a
# time, each with one worker (-parallel 1): the machines this runs on are
# shared. Prints one line per target with its time and executions, and
# fails if any target fails (its crasher is then in the package's
# testdata/fuzz/<Target>/, to be fixed and kept as a regression seed).
#
#   scripts/fuzz.sh            # 300 seconds per target
#   scripts/fuzz.sh 30         # 30 seconds per target
#   scripts/fuzz.sh 60 Cursor  # only targets whose name matches Cursor
set -uo pipefail
cd "$(dirname "$0")/.."

seconds=${1:-300}
filter=${2:-.}
# Minimizing each new interesting input may otherwise take a minute of the
# budget on a loaded machine, during which nothing new is explored.
minimize=${FUZZ_MINIMIZE:-5s}
log=$(mktemp -d)
trap 'rm -rf "$log"' EXIT

targets=$(grep -r -o -E --include='*_test.go' '^func Fuzz[A-Za-z0-9_]+' . |
  sed -E 's|^(.*)/[^/]+_test\.go:func (Fuzz[A-Za-z0-9_]+)$|\1 \2|' | sort -u)

failed=0
printf '%-26s %-20s %9s %8s %12s  %s\n' target package fuzzed wall_s execs result
while read -r pkg name; do
  [ -n "$name" ] || continue
  echo "$name" | grep -q -E -- "$filter" || continue
  out="$log/$name.txt"
  start=$(date +%s)
  go test -run '^$' -fuzz "^${name}\$" -fuzztime "${seconds}s" -fuzzminimizetime "$minimize" -parallel 1 "$pkg" >"$out" 2>&1
  rc=$?
  took=$(( $(date +%s) - start ))
  execs=$(grep -o -E 'execs: [0-9]+' "$out" | tail -1 | cut -d' ' -f2)
  fuzzed=$(grep -o -E 'elapsed: [0-9hms.]+' "$out" | tail -1 | cut -d' ' -f2)
  result=ok
  if [ $rc -ne 0 ]; then
    result=FAIL
    failed=1
  fi
  printf '%-26s %-20s %9s %8s %12s  %s\n' "$name" "${pkg#./}" "${fuzzed:-?}" "$took" "${execs:-?}" "$result"
  if [ $rc -ne 0 ]; then
    grep -v -E '^fuzz: elapsed' "$out" | tail -30
  fi
done <<<"$targets"
exit $failed
