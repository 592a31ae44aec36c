#!/usr/bin/env bash
# Regenerates the screen captures of README.md ("What the pages look
# like"): builds scout, runs `scout demo` on this repository in a private
# tmux server at a fixed size for each page, captures the screen as text
# (tmux capture-pane, no colours) and rewrites each block between
#
#   <!-- readme-captures: NAME -->  and  <!-- /readme-captures -->
#
# in README.md. Captures: files-tree (80x20: the tree, assets/ opened),
# files-query (80x20: `shell` typed), sessions (80x14: Alt-2), providers
# (80x24: Alt-3, Down, r on rate-limited).
#
#   scripts/readme-captures.sh           # rewrite README.md
#   scripts/readme-captures.sh --check   # exit 1 if README.md would change
#
# It leaves no trace: the binary, the demo's home, HOME, the XDG
# directories and tmux's socket are in one temporary directory removed at
# the end, the tmux server is killed, and the demo and tmux see only a few
# variables (no provider key, no agent store, no user configuration). Only
# the go command's own build cache is used as usual. What varies from one
# run to the next is what the repository holds (file counts, the files
# ranked for `shell`), nothing else: the demo's times are relative to its
# start and the demo never uses the network.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
check=0
case "${1:-}" in
  --check) check=1 ;;
  "") ;;
  *) echo "usage: $0 [--check]" >&2; exit 2 ;;
esac
command -v tmux >/dev/null || { echo "readme-captures: tmux is not installed" >&2; exit 2; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/scout-captures.XXXXXX")
sock="scout-captures-$$"
cleanup() {
  TMUX_TMPDIR="$tmp" tmux -L "$sock" kill-server 2>/dev/null || true
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP
mkdir -p "$tmp/home" "$tmp/tmp" "$tmp/out"

(cd "$repo" && go build -o "$tmp/scout" ./cmd/scout)

# t runs a tmux client command against the private server.
t() { TMUX_TMPDIR="$tmp" tmux -L "$sock" "$@"; }

# start NAME W H runs `scout demo` in the repository in a new session of a
# W x H window, with a clean environment (HOME and XDG_* in $tmp).
start() {
  local name=$1 w=$2 h=$3 cmd
  cmd=$(printf '%q demo 2>>%q' "$tmp/scout" "$tmp/out/$name.err")
  env -i PATH="$PATH" HOME="$tmp/home" TMPDIR="$tmp/tmp" TMUX_TMPDIR="$tmp" \
    XDG_CONFIG_HOME="$tmp/home/.config" XDG_DATA_HOME="$tmp/home/.local/share" \
    XDG_STATE_HOME="$tmp/home/.local/state" XDG_CACHE_HOME="$tmp/home/.cache" \
    LANG=C.UTF-8 LC_ALL=C.UTF-8 TZ=UTC \
    tmux -u -L "$sock" -f /dev/null new-session -d -s "$name" -x "$w" -y "$h" -c "$repo" "$cmd"
}

# screen NAME prints the session's screen as text.
screen() { t capture-pane -p -t "$1"; }

# wait_for NAME WHAT REGEX... waits until some line of the screen matches
# each extended regular expression REGEX and the screen stays the same for
# 300 ms, and prints it.
wait_for() {
  local name=$1 what=$2 s again re ok
  shift 2
  for _ in $(seq 300); do
    if ! t has-session -t "$name" 2>/dev/null; then
      echo "readme-captures: the demo ended while waiting for $what:" >&2
      cat "$tmp/out/$name.err" >&2
      exit 1
    fi
    s=$(screen "$name")
    ok=1
    for re in "$@"; do
      grep -qE -- "$re" <<<"$s" || { ok=0; break; }
    done
    if [ "$ok" = 1 ]; then
      sleep 0.3
      again=$(screen "$name")
      if [ "$again" = "$s" ]; then
        printf '%s\n' "$s"
        return
      fi
    fi
    sleep 0.1
  done
  echo "readme-captures: timed out waiting for $what; screen:" >&2
  screen "$name" >&2
  exit 1
}

# focus_row NAME TEXT presses Down until the focused row (marked ▌) holds
# TEXT.
focus_row() {
  local name=$1 text=$2
  for _ in $(seq 60); do
    if screen "$name" | grep '^▌' | grep -qF -- "$text"; then
      return
    fi
    t send-keys -t "$name" Down
    sleep 0.1
  done
  echo "readme-captures: no row holds $text; screen:" >&2
  screen "$name" >&2
  exit 1
}

# finish NAME saves the capture in $tmp/out/NAME.txt (trailing blank lines
# dropped), ends the demo with Esc and waits for it to remove its home.
finish() {
  local name=$1
  sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$tmp/out/$name.txt"
  t send-keys -t "$name" Escape
  for _ in $(seq 100); do
    t has-session -t "$name" 2>/dev/null || return 0
    sleep 0.1
  done
  echo "readme-captures: the demo did not end after Esc" >&2
  exit 1
}

ready='● ready · gen [0-9]+ · [0-9]+ files'

start files-tree 80 20
wait_for files-tree "the first snapshot" "$ready" >/dev/null
focus_row files-tree 'assets/'
t send-keys -t files-tree Right
wait_for files-tree "assets/ opened" '^▌ ▾ assets/' '│ assets$' '│ demo/$' | finish files-tree

start files-query 80 20
wait_for files-query "the first snapshot" "$ready" >/dev/null
t send-keys -t files-query -l shell
wait_for files-query "the ranking of shell" '^> shell +[0-9]+/[0-9]+$' >/dev/null
# The preview follows the focus after it rests; wait for its heading.
first=$(screen files-query | sed -n 's/^▌ \([^ ]*\) .*/\1/p')
wait_for files-query "the preview of $first" "^▌ .*│ $first" | finish files-query

start sessions 80 14
wait_for sessions "the first snapshot" '● ready' >/dev/null
t send-keys -t sessions M-2
wait_for sessions "complete discovery" 'sessions here' | finish sessions

start providers 80 24
wait_for providers "the first snapshot" '● ready' >/dev/null
t send-keys -t providers M-3
wait_for providers "the providers" '^Providers · [0-9]+' >/dev/null
focus_row providers 'rate-limited'
t send-keys -t providers r
wait_for providers "the refresh's outcome" '^rate-limited: refresh failed' | finish providers

# Rewrite every marked block of README.md with its capture.
awk -v dir="$tmp/out" '
  /^<!-- readme-captures: [a-z-]+ -->$/ {
    print
    name = $3
    file = dir "/" name ".txt"
    if ((getline line < file) <= 0) { print "readme-captures: no capture " name > "/dev/stderr"; exit 1 }
    print "```text"
    print line
    while ((getline line < file) > 0) print line
    print "```"
    skip = 1
    seen[name] = 1
    next
  }
  /^<!-- \/readme-captures -->$/ { skip = 0 }
  !skip { print }
  END {
    n = split("files-tree files-query sessions providers", want, " ")
    for (i = 1; i <= n; i++) if (!(want[i] in seen)) { print "readme-captures: README.md has no block " want[i] > "/dev/stderr"; exit 1 }
  }
' "$repo/README.md" >"$tmp/README.md"

if cmp -s "$tmp/README.md" "$repo/README.md"; then
  echo "readme-captures: README.md is up to date"
  exit 0
fi
if [ "$check" = 1 ]; then
  diff -u "$repo/README.md" "$tmp/README.md" || true
  exit 1
fi
cat "$tmp/README.md" >"$repo/README.md"
echo "readme-captures: README.md rewritten"
