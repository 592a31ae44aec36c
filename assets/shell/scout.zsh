# scout key bindings for zsh. Add to ~/.zshrc:  eval "$(scout shell zsh)"
#
#   Ctrl-T  pick files (Tab marks several) and insert them at the cursor,
#           each shell-quoted and followed by a space
#   Alt-S   pick a session of this directory and insert its id
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

__scout-alt-s-widget() {
  emulate -L zsh
  local id
  id=$("$__scout_bin" sessions </dev/tty)
  id=${id%%$'\n'*}
  if [[ -n $id ]]; then
    LBUFFER+="${(q)id} "
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
