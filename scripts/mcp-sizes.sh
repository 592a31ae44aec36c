#!/usr/bin/env bash
# How big `scout mcp`'s project_fs_list answers are on the Go distribution
# (GOROOT, some 16,000 entries): one line per call with the response line's
# bytes, the text content's characters and the entries returned.
#
#   scripts/mcp-sizes.sh SCOUT                          # recursive, no limit
#   scripts/mcp-sizes.sh SCOUT '{"recursive":true,"limit":10000}' ...
set -euo pipefail
bin=$(realpath "$1"); shift
[ $# -gt 0 ] || set -- '{"recursive":true}'
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
cd "$(go env GOROOT)"
{
  echo '{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"sizes","version":"0"}}}'
  echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  n=0
  for args in "$@"; do
    n=$((n + 1))
    echo '{"jsonrpc":"2.0","id":"'$n'","method":"tools/call","params":{"name":"project_fs_list","arguments":'"$args"'}}'
  done
} | SCOUT_HOME="$home" "$bin" mcp | python3 -c '
import json, sys
args = sys.argv[1:]
for line in sys.stdin:
    m = json.loads(line)
    if m.get("id") == "init":
        continue
    r = m["result"]
    s = r.get("structuredContent") or {}
    print(args[int(m["id"]) - 1], "line", len(line.encode()), "bytes, text", len(r["content"][0]["text"]),
          "chars,", s.get("count"), "entries, truncated", s.get("truncated"))
' "$@"
