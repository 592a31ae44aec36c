# scout key bindings for fish. Add to ~/.config/fish/config.fish:
#   scout shell fish | source
#
#   Ctrl-T  pick files (Tab marks several) and insert them at the cursor,
#           each shell-quoted and followed by a space
#   Alt-S   pick a session of this directory (any agent's) and insert the
#           command that resumes it (claude --resume ID, codex resume ID, ...;
#           the id alone for scout's own sessions)
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

# The resume command is made of the agent's name, its flags and the
# session id ([A-Za-z0-9_-]): words that need no quoting.
function __scout_alt_s -d 'scout: insert the resume command of a picked session at the cursor'
    set -l line ($__scout_bin sessions --command </dev/tty)
    if test -n "$line[1]"
        commandline -i -- $line[1]' '
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
