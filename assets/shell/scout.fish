# scout key bindings for fish. Add to ~/.config/fish/config.fish:
#   scout shell fish | source
#
#   Ctrl-T  pick files (Tab marks several) and insert them at the cursor,
#           each shell-quoted and followed by a space
#   Alt-S   pick a session of this directory and insert its id
#
# They run the scout that printed them (its absolute path below), or the
# scout on PATH when it was printed by a temporary `go run` build. Paths
# travel NUL-separated (--print0), so any name the picker shows survives.

set -g __scout_bin @SCOUT_BIN@

function __scout_ctrl_t -d 'scout: insert picked files at the cursor'
    set -l picked ($__scout_bin --multi --print0 </dev/tty | string split0)
    if test (count $picked) -gt 0
        commandline -i -- (string join ' ' -- (string escape -- $picked))' '
    end
    commandline -f repaint
end

function __scout_alt_s -d 'scout: insert a picked session id at the cursor'
    set -l id ($__scout_bin sessions </dev/tty)
    if test -n "$id[1]"
        commandline -i -- (string escape -- $id[1])' '
    end
    commandline -f repaint
end

if status is-interactive
    for __scout_mode in default insert
        bind -M $__scout_mode \ct __scout_ctrl_t
        bind -M $__scout_mode \es __scout_alt_s
    end
    set -e __scout_mode
end
