#!/usr/bin/env bash
# What the SQLite driver (modernc.org/sqlite, for crush's and opencode's
# session stores) costs scout: the binary's size and the start-up time of
# `scout version`, built from BASE (a revision without the driver) and
# from HEAD, measured side by side with hyperfine.
#
#   scripts/sqlite-cost.sh BASE [RUNS]
set -euo pipefail
cd "$(dirname "$0")/.."
base=${1:?usage: scripts/sqlite-cost.sh BASE_REVISION [RUNS]}
runs=${2:-50}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for rev in "$base" HEAD; do
  src="$tmp/src-$rev"
  mkdir -p "$src"
  git archive "$rev" | tar -x -C "$src"
  (cd "$src" && go build -trimpath -o "$tmp/scout-$rev" ./cmd/scout)
  printf '%-12s %s bytes\n' "$rev" "$(stat -c %s "$tmp/scout-$rev")"
done
uptime
hyperfine -N --warmup 10 --runs "$runs" "$tmp/scout-$base version" "$tmp/scout-HEAD version"
