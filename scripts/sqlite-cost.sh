#!/usr/bin/env bash
# What reading crush's and opencode's SQLite session stores costs every
# scout process: the binary's size and the start-up time of `scout
# version`, built from BASE and from HEAD, measured side by side with
# hyperfine. It measured the modernc.org/sqlite driver against the
# revision before it (BASE 3032c66), then scout's own reader
# (backend/sessions/internal/sqlitefile, HEAD) against the driver (BASE
# 6490abb): docs/performance.md, "SQLite stores".
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
