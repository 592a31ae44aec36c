# scout key bindings for bash. Add to ~/.bashrc:  eval "$(scout shell bash)"
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

# The resume command is made of the agent's name, its flags and the
# session id ([A-Za-z0-9_-]): words that need no quoting.
__scout_alt_s() {
  local line
  IFS= read -r line < <("$__scout_bin" sessions --command </dev/tty)
  if [[ -n $line ]]; then
    __scout_insert "$line "
  fi
}

if [[ $- == *i* ]] && ((BASH_VERSINFO[0] >= 4)); then
  for __scout_map in emacs-standard vi-insert vi-command; do
    bind -m "$__scout_map" -x '"\C-t": __scout_ctrl_t'
    bind -m "$__scout_map" -x '"\es": __scout_alt_s'
  done
  unset __scout_map
fi
