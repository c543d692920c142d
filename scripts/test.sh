#!/usr/bin/env bash
# The test suite, then the tests that skipped and why: `cargo test` with the arguments given
# (`scripts/test.sh --release`, `scripts/test.sh --test lib perft::`). A test whose outside
# program (XBoard, Fairy-Stockfish, Fairy-Max, Chromium, pyffish, HyperQueue) is missing
# prints a `SKIPPED TEST: reason` line and adds it to target/skipped-tests.txt (under
# $CARGO_TARGET_DIR when that is set), which this script empties first and lists at the end.
# Under CI (set by .ci/run) a missing program fails its test instead. Exits with cargo's status.
set -uo pipefail
cd "$(dirname "$0")/.."
skipped="${CARGO_TARGET_DIR:-target}/skipped-tests.txt"
rm -f "$skipped"
cargo test "$@"
status=$?
echo
if [ -s "$skipped" ]; then
  n=$(wc -l <"$skipped")
  if [ "$n" -eq 1 ]; then echo "1 test skipped:"; else echo "$n tests skipped:"; fi
  sort "$skipped" | sed 's/^/  /'
else
  echo "No test skipped."
fi
exit "$status"
