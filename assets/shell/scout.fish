# scout key bindings for fish. Add to ~/.config/fish/config.fish:
#   scout shell fish | source
#
#   Ctrl-T  pick files (Tab marks several) and insert them at the cursor,
#           each shell-quoted and followed by a space
#   Alt-C   pick a folder of the project and change into it
#   Alt-S   pick a session of this directory (any agent's) and insert the
#           command that resumes it (claude --resume ID, codex resume ID, ...;
#           the id alone for scout's own sessions)
#
# The file and folder pickers open under the prompt in 40% of the
# terminal; SCOUT_CTRL_T_OPTS and SCOUT_ALT_C_OPTS replace that
# (`--height 15`; empty for the full screen), split at spaces.
#
# They run the scout that printed them (its absolute path below), or the
# scout on PATH when it was printed by a temporary `go run` build. Paths
# travel NUL-separated (--print0), so any name the picker shows survives.

set -g __scout_bin @SCOUT_BIN@

# __scout_opts prints the words of the options variable $argv[1], or
# --height 40% when it is not set.
function __scout_opts
    if set -q $argv[1]
        string split -n ' ' -- $$argv[1]
    else
        string split ' ' -- '--height 40%'
    end
end

# __scout_below runs a picker on the rows under the prompt: it starts on
# the next line and leaves the cursor back on the prompt's, where fish
# draws the command line again.
function __scout_below
    printf '\r\n' >/dev/tty
    $argv </dev/tty
    set -l rc $status
    printf '\e[A' >/dev/tty
    return $rc
end

function __scout_ctrl_t -d 'scout: insert picked files at the cursor'
    set -l picked (__scout_below $__scout_bin --multi --print0 (__scout_opts SCOUT_CTRL_T_OPTS) | string split0)
    if test (count $picked) -gt 0
        commandline -i -- (string join ' ' -- (string escape -- $picked))' '
    end
    commandline -f repaint
end

function __scout_alt_c -d 'scout: change into a picked folder'
    set -l dir (__scout_below $__scout_bin --dirs --print0 (__scout_opts SCOUT_ALT_C_OPTS) | string split0)
    if test -n "$dir[1]"
        string match -q '/*' -- $dir[1]; or set dir[1] $PWD/$dir[1]
        builtin cd -- $dir[1]
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
        bind -M $__scout_mode \ec __scout_alt_c
        bind -M $__scout_mode \es __scout_alt_s
    end
    set -e __scout_mode
end
