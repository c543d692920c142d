#!/usr/bin/env python3
"""Perft by Fairy-Stockfish (pyffish): the oracle of some tests/perft files.

Arguments: an ini file, the variant's name in it, a depth, then FENs (each one argument).
Prints `fen FEN` and `perft D NODES` for D from 1 to the depth, counting legal moves
recursively. With `--random N SEED` before the FENs, it first plays N random legal moves from
each FEN (Python's generator seeded with SEED) and counts from the position reached.
"""
import random
import sys

import pyffish


def perft(variant, fen, depth):
    moves = pyffish.legal_moves(variant, fen, [])
    if depth == 1:
        return len(moves)
    return sum(perft(variant, pyffish.get_fen(variant, fen, [m]), depth - 1) for m in moves)


def main(args):
    ini, variant, depth = args[0], args[1], int(args[2])
    rest = args[3:]
    plies, rng = 0, None
    if rest and rest[0] == "--random":
        plies, rng = int(rest[1]), random.Random(int(rest[2]))
        rest = rest[3:]
    with open(ini) as f:
        pyffish.load_variant_config(f.read())
    for fen in rest:
        for _ in range(plies):
            moves = pyffish.legal_moves(variant, fen, [])
            if not moves:
                break
            fen = pyffish.get_fen(variant, fen, [rng.choice(sorted(moves))])
        print("fen", fen)
        for d in range(1, depth + 1):
            print("perft", d, perft(variant, fen, d), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
