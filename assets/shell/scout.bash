# scout key bindings for bash. Add to ~/.bashrc:  eval "$(scout shell bash)"
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

# __scout_insert inserts $1 into the command line at the cursor.
__scout_insert() {
  READLINE_LINE="${READLINE_LINE:0:READLINE_POINT}$1${READLINE_LINE:READLINE_POINT}"
  READLINE_POINT=$((READLINE_POINT + ${#1}))
}

__scout_ctrl_t() {
  local item quoted out= opts
  read -r -a opts <<<"${SCOUT_CTRL_T_OPTS---height 40%}"
  while IFS= read -r -d '' item; do
    printf -v quoted '%q' "$item"
    out+="$quoted "
  done < <("$__scout_bin" --multi --print0 "${opts[@]}" </dev/tty)
  __scout_insert "$out"
}

# Alt-C runs three steps as one macro: pick a folder and cd there while
# the command line is set aside, accept the empty line (bash prints a
# fresh prompt, PROMPT_COMMAND included, in the new directory), then put
# the command line back.
__scout_alt_c() {
  local dir opts
  read -r -a opts <<<"${SCOUT_ALT_C_OPTS---height 40%}"
  __scout_line=$READLINE_LINE __scout_point=$READLINE_POINT
  READLINE_LINE= READLINE_POINT=0
  IFS= read -r -d '' dir < <("$__scout_bin" --dirs --print0 "${opts[@]}" </dev/tty)
  if [[ -n $dir ]]; then
    [[ $dir == /* ]] || dir=$PWD/$dir
    builtin cd -- "$dir" || return
  fi
}

__scout_alt_c_restore() {
  READLINE_LINE=$__scout_line READLINE_POINT=$__scout_point
  unset __scout_line __scout_point
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
    bind -m "$__scout_map" -x '"\C-x\C-_c": __scout_alt_c'
    bind -m "$__scout_map" -x '"\C-x\C-_r": __scout_alt_c_restore'
    bind -m "$__scout_map" '"\ec": "\C-x\C-_c\C-m\C-x\C-_r"'
    bind -m "$__scout_map" -x '"\es": __scout_alt_s'
  done
  unset __scout_map
fi
