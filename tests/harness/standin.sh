#!/bin/sh
# A stand-in agent. Started through a symlink named like the agent
# (`claude`, `node`, ...), so the kernel gives the process that name and tmux
# reports it as the pane's command. It draws what its control FIFO tells it,
# using shell builtins only, so no child process ever takes the foreground.
#   draw FILE    clear the screen and print FILE (a fixture body)
#   title TEXT   set the pane title
#   exit         leave
fifo="$1"
cr=$(printf '\r')
nl='
'
# Held open read-write, the FIFO never reports end-of-file and never loses a
# line written between two reads.
exec 3<> "$fifo"
while :; do
  if IFS=' ' read -r cmd arg <&3; then
    case "$cmd" in
      draw)
        printf '\033[H\033[2J'
        sep=''
        while IFS= read -r line || [ -n "$line" ]; do printf '%s%s' "$sep" "$line"; sep="$cr$nl"; done < "$arg"
        ;;
      title) printf '\033]2;%s\033\\' "$arg" ;;
      exit) exit 0 ;;
    esac
  fi
done
