#!/bin/sh
# firstframe.sh measures launch to the first frame that shows the complete
# file count (issue 17), in a real terminal: a tmux window is opened on
# the command and its screen is polled (tmux capture-pane) until the count
# of every file is on it. Three commands in DIR (default: the Go source
# tree), round by round, the first one rotating so that the load of a
# shared machine hits each alike:
#   scout                        the picker, whose query line says "N files"
#                                once the whole index is in (N: what
#                                `scout filter ''` lists, the policy's files);
#   fzf                          fzf's own walker (no input): "N/N", N the
#                                files `fdfind --type f -H .` lists;
#   fdfind --type f -H . | fzf   the same fzf fed by fd: "N/N".
# fzf is built from its Go module at the newest version the module proxy
# serves, into a temporary GOBIN ($SCOUT_BENCH_FZF names another instead).
# $SCOUT_BENCH_BASE names another scout binary (say, main's) to run as a
# fourth command, "scout base", for a before/after in the same run.
# Wall time only (the poll adds the same few milliseconds to every side);
# medians and minimums over the rounds. The poll runs `tmux capture-pane`
# back to back, which keeps about one core busy: $SCOUT_BENCH_POLL_MS
# (default 0) sleeps that long between screens instead, leaving the
# commands both cores and adding up to that much to every side's time.
#
#   sh bench/firstframe.sh [rounds [DIR]]   # default 10 rounds
#
# Needs go, tmux, fdfind.
set -eu
rounds=${1:-10}
dir=${2:-$(go env GOROOT)/src}
root=$(cd "$(dirname "$0")/.." && pwd)
out=${SCOUT_BENCH_OUT:-${TMPDIR:-/tmp}/scout-bench}
mkdir -p "$out"
work=$(mktemp -d)
sock="scout-firstframe-$$"
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$sock"; rm -rf "$work"' EXIT
cd "$root"
go build -o "$out/scout" ./cmd/scout
fzf=${SCOUT_BENCH_FZF:-}
if [ -z "$fzf" ]; then
	GOBIN="$work" go install github.com/junegunn/fzf@latest
	fzf=$work/fzf
fi
export SCOUT_HOME="$work/home"
mkdir -p "$SCOUT_HOME"

cd "$dir"
nscout=$("$out/scout" filter '' | wc -l)
nfd=$(fdfind --type f -H . | wc -l)
echo "load at the start: $(cut -d' ' -f1-3 /proc/loadavg); poll every ${SCOUT_BENCH_POLL_MS:-0} ms"
echo "$dir: scout lists $nscout files, fdfind --type f -H $nfd; fzf $("$fzf" --version | cut -d' ' -f1), $(fdfind --version)"

tmux -L "$sock" -f /dev/null new-session -d -s bench -x 120 -y 40 cat
set -- "scout#$out/scout#$nscout files" \
	"fzf#$fzf#$nfd/$nfd" \
	"fd | fzf#fdfind --type f -H . | $fzf#$nfd/$nfd"
names="scout;fzf;fd | fzf"
if [ -n "${SCOUT_BENCH_BASE:-}" ]; then
	set -- "$@" "scout base#$SCOUT_BENCH_BASE#$nscout files"
	names="$names;scout base"
fi
ncmd=$#
poll=$(awk -v ms="${SCOUT_BENCH_POLL_MS:-0}" 'BEGIN { print ms / 1000 }')

# once NAME COMMAND MARKER prints NAME and the milliseconds from opening
# the window to the first screen holding MARKER (or "timeout" after 60 s).
once() {
	t0=$(date +%s%N)
	tmux -L "$sock" new-window -d -t bench -n run "$2"
	while ! tmux -L "$sock" capture-pane -p -t bench:run 2>/dev/null | grep -qF -- "$3"; do
		if [ "$poll" != 0 ]; then sleep "$poll"; fi
		if [ $(( ($(date +%s%N) - t0) / 1000000 )) -gt 60000 ]; then
			echo "$1	timeout"
			tmux -L "$sock" kill-window -t bench:run
			return
		fi
	done
	t1=$(date +%s%N)
	tmux -L "$sock" kill-window -t bench:run
	echo "$1	$(( (t1 - t0) / 1000 ))"
}

: >"$work/times"
r=0
while [ "$r" -lt "$rounds" ]; do
	i=0
	while [ "$i" -lt "$ncmd" ]; do
		k=$(( (r + i) % ncmd + 1 ))
		eval "c=\${$k}"
		name=${c%%#*}
		rest=${c#*#}
		once "$name" "${rest%#*}" "${rest##*#}" >>"$work/times"
		i=$((i + 1))
	done
	r=$((r + 1))
done

echo "launch to the complete count, $rounds rounds (ms): min / median"
echo "$names" | tr ';' '\n' | while read -r name; do
	awk -F'\t' -v n="$name" '$1 == n && $2 != "timeout" { print $2 }' "$work/times" | sort -n >"$work/one"
	n=$(wc -l <"$work/one")
	if [ "$n" -eq 0 ]; then
		echo "| \`$name\` | timeout |"
		continue
	fi
	min=$(head -n 1 "$work/one")
	med=$(sed -n "$(( (n + 1) / 2 ))p" "$work/one")
	printf '| `%s` | %d.%02d / %d.%02d |\n' "$name" $((min / 1000)) $((min % 1000 / 10)) $((med / 1000)) $((med % 1000 / 10))
done
echo "timeouts: $(grep -c timeout "$work/times" || true)"
echo "load at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
