#!/bin/sh
# Fairy-Max 5.0b as packaged by Debian reads the CECP command `computer` (which XBoard sends
# when the opponent is a program) as a move and crashes on the out-of-range square it decodes
# ("co" -> rank 'o'): `printf 'xboard\nprotover 2\nnew\ncomputer\nquit\n' | fairymax`
# segfaults in most runs. This filter drops that one informational line and passes every
# other line through unchanged. Arguments go to fairymax.
FAIRYMAX="${FAIRYMAX:-$(command -v fairymax || echo /usr/games/fairymax)}"
sed -u '/^computer$/d' | "$FAIRYMAX" "$@"
