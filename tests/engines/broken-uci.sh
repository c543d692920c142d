#!/bin/sh
# A UCI engine that misbehaves on purpose, for the referee's tests. $1 says how:
#   illegal  answers every `go` with a move no variant allows (a1a1)
#   silent   never answers `go`
#   crash    exits at the first `go`
#   garbage  answers `go` with a line that is not a move
#   slow     answers `go` after a second (past a short clock, before the hang margin)
how="$1"
while read -r line; do
  case "$line" in
    uci) echo "id name broken-$how"; echo "uciok" ;;
    isready) echo "readyok" ;;
    go*)
      case "$how" in
        illegal) echo "bestmove a1a1" ;;
        silent) ;;
        crash) exit 3 ;;
        garbage) echo "bestmove" ;;
        slow) sleep 1; echo "bestmove a1a1" ;;
      esac ;;
    quit) exit 0 ;;
  esac
done
