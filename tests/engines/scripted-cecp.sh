#!/bin/sh
# A CECP "engine" that plays a fixed game, for testing what XBoard accepts:
#   scripted-cecp.sh POLYMACHY MOVES
# MOVES is a file of moves (XBoard's text, any whitespace between them), White's and
# Black's in turn from the start position. Both players of a match run this script with the
# same file: each plays the game's next move when it is its turn, and resigns when the list
# is done. The first engine describes the variant as Polymachy does: on `variant NAME` it
# passes on Polymachy's own `setup` and `piece` lines.
poly=$1
moves=$(cat "$2")
ply=0
force=0
next() {
    set -- $moves
    shift "$ply" 2>/dev/null || set --
    if [ $# -eq 0 ]; then
        echo "resign"
    else
        echo "move $1"
        ply=$((ply + 1))
    fi
}
while read -r cmd arg rest; do
    case $cmd in
    protover)
        echo "feature myname=\"Scripted\" variants=\"$(printf 'xboard\nprotover 2\nquit\n' |
            "$poly" xboard | sed -n 's/.*variants="\([^"]*\)".*/\1/p')\" setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 reuse=0 done=1"
        ;;
    variant)
        printf 'xboard\nprotover 2\nvariant %s\nquit\n' "$arg" | "$poly" xboard |
            grep -E '^(setup|piece) '
        ;;
    ping) echo "pong $arg" ;;
    new) ply=0 force=0 ;;
    force) force=1 ;;
    go) force=0 && next ;;
    usermove)
        ply=$((ply + 1))
        [ "$force" = 1 ] || next
        ;;
    quit) exit 0 ;;
    esac
done
