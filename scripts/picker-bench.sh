#!/bin/sh
# Side-by-side measurements of the picker for docs/performance.md
# ("Picker over standard input", "Idle"). Run from the repository's root:
#
#   scripts/picker-bench.sh stdin   # 1,000,000 lines: in process, then fzf --filter and scout filter --stdin per keystroke
#   scripts/picker-bench.sh first   # 1,000,000 lines: the real pickers in tmux, to the first rows and to every line
#   scripts/picker-bench.sh idle    # CPU of the real pickers in tmux over 60 s with nothing happening
#
# FZF names the fzf to compare with (default: fzf on PATH); RUNS the runs
# of each side (default 5). Needs go, tmux, hyperfine, python3. Every
# temporary file goes into one directory, removed at the end.
set -eu

cmd=${1:?usage: scripts/picker-bench.sh stdin|first|idle}
fzf=${FZF:-fzf}
runs=${RUNS:-5}
tmp=$(mktemp -d)
sock=picker-bench-$$
trap 'tmux -L "$sock" kill-server 2>/dev/null || true; rm -rf "$tmp"' EXIT
export SCOUT_HOME="$tmp/home" XDG_STATE_HOME="$tmp/state"
go build -o "$tmp/scout" ./cmd/scout
uptime

lines() {
	SCOUT_BENCH_LINES="$tmp/lines.txt" go test -run '^$' -bench StdinMillion -benchtime "${1:-1}x" -count "${2:-1}" ./tui/files
}

# cpu PID: the user and system ticks of a process (and none once it is gone).
cpu() { awk '{print $14 + $15}' "/proc/$1/stat" 2>/dev/null || echo 0; }

# screen: the tmux window's plain screen.
screen() { tmux -L "$sock" capture-pane -p -t 0 2>/dev/null || true; }

# until_screen PATTERN: milliseconds until the screen matches PATTERN
# (grep -E), polled every 5 ms, from $start (ms since the epoch).
until_screen() {
	while ! screen | grep -Eq "$1"; do sleep 0.005; done
	echo $(($(date +%s%3N) - start))
}

# first NAME COMMAND: one run of COMMAND in a 120x40 tmux window: ms to
# the first rows, then to every line counted.
first() {
	start=$(date +%s%3N)
	tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 "$2"
	a=$(until_screen "$3")
	b=$(until_screen "$4")
	tmux -L "$sock" kill-server
	echo "$1 first-rows-ms $a all-lines-ms $b"
}

case $cmd in
stdin)
	lines 3 3
	for q in s sr srv srvh srvht srvhtt srvhttp; do
		hyperfine -N -w 1 -r "$runs" --export-json "$tmp/$q.json" \
			"sh -c '$fzf --filter $q < $tmp/lines.txt > /dev/null'" \
			"sh -c '$tmp/scout filter --stdin $q < $tmp/lines.txt > /dev/null'" > /dev/null
		python3 - "$tmp/$q.json" "$q" <<-'PY'
			import json, sys
			for r in json.load(open(sys.argv[1]))["results"]:
			    name = "fzf --filter" if "fzf" in r["command"] else "scout filter --stdin"
			    print(f'{sys.argv[2]:8} {name:22} median {r["median"]*1000:7.1f} ms  cpu {(r["user"]+r["system"])*1000:7.1f} ms')
		PY
	done
	;;
first)
	lines 1 1 > /dev/null
	i=0
	while [ "$i" -lt "$runs" ]; do
		first scout "$tmp/scout < $tmp/lines.txt" 'internal/' '1000000/1000000'
		first fzf "$fzf < $tmp/lines.txt" 'internal/' '1000000/1000000'
		i=$((i + 1))
	done
	;;
idle)
	# The same project for both: the repository itself, as git lists it.
	git ls-files > "$tmp/files.txt"
	for name in scout fzf; do
		if [ "$name" = scout ]; then run="$tmp/scout"; else run="$fzf < $tmp/files.txt"; fi
		tmux -L "$sock" -f /dev/null new-session -d -x 120 -y 40 "$run"
		sleep 3
		pid=$(tmux -L "$sock" display-message -p -t 0 '#{pane_pid}')
		# The pane's process, its children and theirs (scout's backend).
		kids=$(pgrep -P "$pid" || true)
		procs=$(for p in $pid $kids; do echo "$p"; pgrep -P "$p" || true; done | sort -un | tr '\n' ' ')
		before=0; for p in $procs; do before=$((before + $(cpu "$p"))); done
		sleep 60
		after=0; for p in $procs; do after=$((after + $(cpu "$p"))); done
		tmux -L "$sock" kill-server
		echo "$name idle 60 s: $((after - before)) ticks of $(getconf CLK_TCK)/s (processes: $procs)"
	done
	;;
*)
	echo "usage: scripts/picker-bench.sh stdin|first|idle" >&2
	exit 2
	;;
esac
