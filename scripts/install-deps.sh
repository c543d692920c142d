#!/usr/bin/env bash
# Installs the outside programs that Polymachy's GUI, browser, match and cluster tests use:
#   xboard, xvfb (xvfb-run)  XBoard run headless (tests/xboard_gui.rs)
#   fairy-stockfish          a UCI opponent with built-in Shako and chess (tests/referee.rs)
#   fairymax                 a CECP opponent
#   chromium                 headless browser for the page test (tests/browser.rs)
#   pyffish (pip)            Fairy-Stockfish's rules in Python, re-validates match PGNs
#   hyperqueue (pip)         the HyperQueue scheduler's Python client and local cluster, for
#                            scripts/cluster.py and its test (tests/cluster.rs)
# Debian/Ubuntu (apt-get) as root or through sudo. Safe to run again: what is already
# installed is left as it is.
set -euo pipefail

say() { echo "install-deps: $*"; }

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    say "not root and no sudo: install xboard xvfb fairy-stockfish fairymax chromium yourself"; exit 1
  fi
fi

need=()
for pkg in xboard xvfb fairy-stockfish fairymax chromium python3 python3-pip; do
  if dpkg -s "$pkg" >/dev/null 2>&1; then
    say "$pkg already installed"
  else
    need+=("$pkg")
  fi
done
if [ "${#need[@]}" -gt 0 ]; then
  if ! command -v apt-get >/dev/null 2>&1; then
    say "no apt-get: install ${need[*]} with your package manager"; exit 1
  fi
  say "apt-get install ${need[*]}"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${need[@]}"
fi

if python3 -c "import pyffish" >/dev/null 2>&1; then
  say "pyffish already installed"
else
  say "pip install pyffish"
  # Debian marks its Python as externally managed; the module is only used by the tests.
  python3 -m pip install --quiet pyffish 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages pyffish
fi
if python3 -c "import hyperqueue" >/dev/null 2>&1; then
  say "hyperqueue already installed"
else
  say "pip install hyperqueue"
  python3 -m pip install --quiet hyperqueue 2>/dev/null \
    || python3 -m pip install --quiet --break-system-packages hyperqueue
fi
say "done"
