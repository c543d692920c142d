#!/usr/bin/env python3
"""The FENs Fairy-Stockfish (pyffish) writes after given moves, for tests/pyffish.rs.

Arguments: VARIANT, then an ini file defining it or `-` for a built-in variant. Standard
input: a start FEN on the first line, then one game a line (moves in UCI notation, separated
by spaces). Standard output: Fairy-Stockfish's start FEN of the variant, then for each game
`fen FEN` (the FEN after all of its moves, from the start FEN) or, at the first move
Fairy-Stockfish does not list as legal, `illegal PLY MOVE FEN LEGAL-MOVES`.
"""
import sys

import pyffish


def main(variant, ini):
    if ini != "-":
        with open(ini) as f:
            pyffish.load_variant_config(f.read())
    lines = sys.stdin.read().splitlines()
    start, games = lines[0], lines[1:]
    out = [pyffish.start_fen(variant)]
    for line in games:
        moves = line.split()
        try:
            out.append("fen " + pyffish.get_fen(variant, start, moves))
            continue
        except (ValueError, SystemError):
            pass
        # Some move is not legal for Fairy-Stockfish: find the first.
        now = start
        for i, m in enumerate(moves):
            legal = pyffish.legal_moves(variant, now, [])
            if m not in legal:
                out.append("illegal %d %s %s %s" % (i, m, now, " ".join(sorted(legal))))
                break
            now = pyffish.get_fen(variant, now, [m])
        else:
            out.append("illegal ? - %s -" % now)
    print("\n".join(out))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
