#!/usr/bin/env bash
# Compares the wall and CPU time of one `go test -race -count=1` run of the
# same packages in two checkouts of scout, alternately (A, B, A, B, ...) so
# both sides see the same load, and prints every run and the medians.
#
#   scripts/testsuite-bench.sh BEFORE_DIR AFTER_DIR [ROUNDS [PACKAGE...]]
#   RUN='^TestA$|^TestB$' scripts/testsuite-bench.sh ...   # only these tests
#
# ROUNDS defaults to 3; the packages default to the ones that drive the real
# binary most. Each run gets a fresh, empty TMPDIR (removed afterwards), so no
# run finds a scout binary an earlier run built (internal/scouttest keeps its
# shared build there): both sides build from the same warm Go build cache,
# which is the cost of a run after any source change. CPU is user+system of
# the go command and everything it ran. A side that fails prints FAIL and its
# failures; its times still count.
#
# A checkout of the "before" side, e.g.:
#   mkdir /tmp/before && git archive main | tar -x -C /tmp/before
set -euo pipefail

[ $# -ge 2 ] || { sed -n 2,18p "$0"; exit 2; }
sides=("$(cd "$1" && pwd)" "$(cd "$2" && pwd)")
rounds=${3:-3}
shift $(( $# < 3 ? $# : 3 ))
pkgs=("$@")
[ ${#pkgs[@]} -gt 0 ] || pkgs=(./backend ./backend/sessions ./backend/catalog ./backend/mcp ./rpcclient)

results=$(mktemp)
trap 'rm -f "$results"' EXIT
echo "load: $(uptime)"
echo "packages: ${pkgs[*]}${RUN:+ (-run $RUN)}"
for ((r = 1; r <= rounds; r++)); do
  for i in 0 1; do
    tmp=$(mktemp -d)
    chmod 755 "$tmp" # as /tmp is: unprivileged runs (internal/asuser) reach their files
    log="$tmp.log"
    start=$(date +%s.%N)
    status=ok
    /usr/bin/time -f '%U %S' -o "$tmp.cpu" \
      env TMPDIR="$tmp" go -C "${sides[$i]}" test -race -count=1 ${RUN:+-run "$RUN"} "${pkgs[@]}" >"$log" 2>&1 || status=FAIL
    wall=$(echo "$(date +%s.%N) - $start" | bc)
    cpu=$(tail -1 "$tmp.cpu" | awk '{print $1 + $2}') # after "Command exited with ..."
    printf 'round %d side %s: wall %6.1f s  cpu %6.1f s  %s\n' "$r" "$i" "$wall" "$cpu" "$status"
    if [ "$status" != ok ]; then
      grep -E '^(--- FAIL|FAIL|panic:)|_test\.go:[0-9]+:' "$log" | head -20 || true
    fi
    echo "$i $wall $cpu" >>"$results"
    rm -rf "$tmp" "$tmp.cpu" "$log"
  done
done
for i in 0 1; do
  median() { awk -v i="$i" -v col="$1" '$1 == i {print $col}' "$results" | sort -n | awk '{a[NR] = $1} END {print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2}'; }
  printf 'side %s (%s): median wall %.1f s, median cpu %.1f s\n' "$i" "${sides[$i]}" "$(median 2)" "$(median 3)"
done
echo "load: $(uptime)"
