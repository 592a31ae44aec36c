# scout key bindings for bash. Add to ~/.bashrc:  eval "$(scout shell bash)"
#
#   Ctrl-T  pick files (Tab marks several) and insert them at the cursor,
#           each shell-quoted and followed by a space
#   Alt-S   pick a session of this directory and insert its id
#
# They run the scout that printed them (its absolute path below), or the
# scout on PATH when it was printed by a temporary `go run` build. Paths
# travel NUL-separated (--print0), so any name the picker shows survives.

__scout_bin=@SCOUT_BIN@

# __scout_insert inserts $1 into the command line at the cursor.
__scout_insert() {
  READLINE_LINE="${READLINE_LINE:0:READLINE_POINT}$1${READLINE_LINE:READLINE_POINT}"
  READLINE_POINT=$((READLINE_POINT + ${#1}))
}

__scout_ctrl_t() {
  local item quoted out=
  while IFS= read -r -d '' item; do
    printf -v quoted '%q' "$item"
    out+="$quoted "
  done < <("$__scout_bin" --multi --print0 </dev/tty)
  __scout_insert "$out"
}

__scout_alt_s() {
  local id quoted
  IFS= read -r id < <("$__scout_bin" sessions </dev/tty)
  if [[ -n $id ]]; then
    printf -v quoted '%q' "$id"
    __scout_insert "$quoted "
  fi
}

if [[ $- == *i* ]] && ((BASH_VERSINFO[0] >= 4)); then
  for __scout_map in emacs-standard vi-insert vi-command; do
    bind -m "$__scout_map" -x '"\C-t": __scout_ctrl_t'
    bind -m "$__scout_map" -x '"\es": __scout_alt_s'
  done
  unset __scout_map
fi
