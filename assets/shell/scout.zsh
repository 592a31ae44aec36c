# scout key bindings for zsh. Add to ~/.zshrc:  eval "$(scout shell zsh)"
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

__scout_bin=@SCOUT_BIN@

# The pickers run in command substitutions, which keep them in the
# terminal's foreground process group (a process substitution would be
# stopped as soon as it reads the terminal); zsh keeps NUL bytes there.

# __scout_below runs a picker on the rows under the prompt: it starts on
# the next line and leaves the cursor back on the prompt's, where zle
# draws the command line again.
__scout_below() {
  print -n '\r\n' >/dev/tty
  "$@" </dev/tty
  local rc=$?
  print -n '\e[A' >/dev/tty
  return $rc
}

__scout-ctrl-t-widget() {
  emulate -L zsh
  local out
  out=$(__scout_below "$__scout_bin" --multi --print0 ${=SCOUT_CTRL_T_OPTS---height 40%})
  if [[ -n $out ]]; then
    local -a picked
    picked=("${(@0)out%$'\0'}")
    LBUFFER+="${(j: :)${(@q)picked}} "
  fi
  zle reset-prompt
}

# Alt-C sets the command line aside (push-line brings it back at the next
# prompt) and runs the cd as a command line of its own, so the chpwd and
# precmd hooks run and the prompt is drawn in the new directory.
__scout-alt-c-widget() {
  emulate -L zsh
  local dir
  dir=$(__scout_below "$__scout_bin" --dirs --print0 ${=SCOUT_ALT_C_OPTS---height 40%})
  dir=${dir%$'\0'}
  if [[ -z $dir ]]; then
    zle redisplay
    return 0
  fi
  zle push-line
  BUFFER="builtin cd -- ${(q)dir:a}"
  zle accept-line
  local ret=$?
  zle reset-prompt
  return $ret
}

# The resume command is made of the agent's name, its flags and the
# session id ([A-Za-z0-9_-]): words that need no quoting.
__scout-alt-s-widget() {
  emulate -L zsh
  local line
  line=$("$__scout_bin" sessions --command </dev/tty)
  line=${line%%$'\n'*}
  if [[ -n $line ]]; then
    LBUFFER+="$line "
  fi
  zle reset-prompt
}

if [[ -o interactive ]]; then
  zle -N __scout-ctrl-t-widget
  zle -N __scout-alt-c-widget
  zle -N __scout-alt-s-widget
  for __scout_map in emacs viins vicmd; do
    bindkey -M $__scout_map '^T' __scout-ctrl-t-widget
    bindkey -M $__scout_map '\ec' __scout-alt-c-widget
    bindkey -M $__scout_map '\es' __scout-alt-s-widget
  done
  unset __scout_map
fi
