# scout key bindings for zsh. Add to ~/.zshrc:  eval "$(scout shell zsh)"
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

__scout_bin=@SCOUT_BIN@

# The pickers run in command substitutions, which keep them in the
# terminal's foreground process group (a process substitution would be
# stopped as soon as it reads the terminal); zsh keeps NUL bytes there.

__scout-ctrl-t-widget() {
  emulate -L zsh
  local out
  out=$("$__scout_bin" --multi --print0 </dev/tty)
  if [[ -n $out ]]; then
    local -a picked
    picked=("${(@0)out%$'\0'}")
    LBUFFER+="${(j: :)${(@q)picked}} "
  fi
  zle reset-prompt
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
  zle -N __scout-alt-s-widget
  for __scout_map in emacs viins vicmd; do
    bindkey -M $__scout_map '^T' __scout-ctrl-t-widget
    bindkey -M $__scout_map '\es' __scout-alt-s-widget
  done
  unset __scout_map
fi
