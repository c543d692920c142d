#!/usr/bin/env bash
# The regression gate: plays this tree's engine against the engine of an earlier commit.
#
#   scripts/sprt.sh COMMIT [options]
#
# COMMIT is built once, in release mode, into .cache/engines/<full hash>/polymachy (a git
# worktree of that commit in .cache/src, every commit sharing one target folder so that the
# crates are compiled once); a later call finds the binary there. This tree is built in release
# mode and copied beside it (.cache/engines/new/polymachy), so that a rebuild during the match
# cannot change the engine under it. Then `polymachy match` plays the two, the new engine
# first, each opening with both colours, and stops as soon as the SPRT decides.
#
# Options (defaults in brackets):
#   -v VARIANT       the game [metamachy]
#   --tc TC          time control per side [2+0.05]
#   --nodes N        each engine searches N nodes a move instead of playing on the clock:
#                    the match that a loaded machine cannot spoil (no engine is starved
#                    into a time loss), at the price of not seeing a change's speed
#   --games N        the most games if the SPRT decides nothing [400]
#   --sprt E0,E1     the hypotheses, in Elo [-10,5]: a refactor passes when it is no worse;
#                    use 0,10 for a change meant to gain
#   --concurrency C  games at once [the number of cores]
#   --seed S         the random openings' seed [1]
#   --plies K        random opening plies [4]
#   --pgn FILE       where the games go [.cache/sprt-<commit>-<tc>.pgn]
#   --new-bin PATH   play this binary instead of building the tree
#   --build-only     build (or find) the old engine, print its path and stop
#
# The last line of the match says what the SPRT accepted; docs/strength.md keeps one line per
# change with that line and its W-D-L.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

usage() { sed -n '2,30p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
[ $# -ge 1 ] || usage 2
case "$1" in -h|--help) usage 0 ;; esac
commit=$1; shift
variant=metamachy tc=2+0.05 nodes="" games=400 sprt=-10,5 seed=1 plies=4 pgn="" new_bin="" build_only=0
concurrency=$(nproc 2>/dev/null || echo 2)
while [ $# -gt 0 ]; do
  case "$1" in
    -v|--variant) variant=$2; shift 2 ;;
    --tc) tc=$2; shift 2 ;;
    --nodes) nodes=$2; shift 2 ;;
    --games) games=$2; shift 2 ;;
    --sprt) sprt=$2; shift 2 ;;
    --concurrency) concurrency=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --plies) plies=$2; shift 2 ;;
    --pgn) pgn=$2; shift 2 ;;
    --new-bin) new_bin=$2; shift 2 ;;
    --build-only) build_only=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "sprt.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

full=$(git rev-parse --verify --quiet "$commit^{commit}") \
  || { echo "sprt.sh: no commit $commit" >&2; exit 2; }
cache="$root/.cache"
old_bin="$cache/engines/$full/polymachy"
if [ ! -x "$old_bin" ]; then
  echo "sprt.sh: building $commit ($full) once into $old_bin"
  src="$cache/src/$full"
  rm -rf "$src"
  git worktree prune
  git worktree add --detach --force "$src" "$full" >/dev/null
  (cd "$src" && CARGO_TARGET_DIR="$cache/target" cargo build --release --locked --quiet)
  mkdir -p "$(dirname "$old_bin")"
  cp "$cache/target/release/polymachy" "$old_bin"
  git worktree remove --force "$src"
fi
if [ "$build_only" = 1 ]; then echo "$old_bin"; exit 0; fi

if [ -z "$new_bin" ]; then
  cargo build --release --locked --quiet
  mkdir -p "$cache/engines/new"
  cp target/release/polymachy "$cache/engines/new/polymachy"
  new_bin="$cache/engines/new/polymachy"
fi
limit=() control=$tc
if [ -n "$nodes" ]; then limit=(--limit "nodes=$nodes"); control="$nodes nodes a move"; fi
[ -n "$pgn" ] || pgn="$cache/sprt-${full:0:7}-$variant-${control// /-}.pgn"
echo "sprt.sh: $new_bin against $commit, $variant, $control, SPRT [$sprt], at most $games games, $concurrency at once"
exec "$new_bin" match -v "$variant" \
  --engine "$new_bin uci" --engine "$old_bin uci" \
  --games "$games" --tc "$tc" "${limit[@]}" --random-plies "$plies" --seed "$seed" \
  --concurrency "$concurrency" --sprt="$sprt" --pgn "$pgn"
