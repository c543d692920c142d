#!/usr/bin/env python3
"""Compares Polymachy's static evaluation with Fairy-Stockfish's on quiet positions.

    scripts/evalcompare.py --variant shako --positions 300 [--polymachy CMD] [--fsf CMD]

Positions come from games Polymachy plays against itself at a few thousand nodes a move, from
random openings (pyffish draws the random plies and writes each position's FEN). A position is
kept when it is quiet: the side to move is not in check, the move that led to it was not a
capture, and the move the engine chose from it is not one either. Both engines are then asked
for their static evaluation of each kept position (`eval`, White's view) and the script prints
the number of positions, the Pearson and Spearman correlations, the least-squares slope of
Fairy-Stockfish's score on Polymachy's and the mean absolute difference after that scaling.
`--out FILE` writes the pairs as CSV (fen, polymachy_cp, fsf_pawns).

Needs pyffish (pip install pyffish) and Fairy-Stockfish (apt-get install fairy-stockfish).
"""

import argparse
import csv
import math
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import uci_engine  # noqa: E402


class Uci(uci_engine.Engine):
    def __init__(self, cmd, variant):
        super().__init__(cmd, "evalcompare")
        self.variant(variant)

    def eval_white(self, fen):
        self.send(f"position fen {fen}")
        self.send("eval")
        self.send("isready")
        for line in self.until("readyok"):
            for head in ("Total evaluation:", "Final evaluation:"):
                if line.startswith(head):
                    word = line[len(head):].split()[0]
                    try:
                        return float(word)
                    except ValueError:
                        return None
        return None

    def best(self, fen, nodes):
        self.send(f"position fen {fen}")
        self.send(f"go nodes {nodes}")
        return self.until("bestmove")[-1].split()[1]


def positions(ff, variant, engine, count, nodes, seed):
    rng = random.Random(seed)
    start = ff.start_fen(variant)
    found = []
    while len(found) < count:
        moves = []
        for _ in range(4):
            legal = ff.legal_moves(variant, start, moves)
            if not legal:
                break
            moves.append(rng.choice(sorted(legal)))
        last_capture = True
        for _ply in range(160):
            fen = ff.get_fen(variant, start, moves)
            legal = ff.legal_moves(variant, start, moves)
            if not legal or ff.is_optional_game_end(variant, start, moves)[0]:
                break
            mv = engine.best(fen, nodes)
            if mv not in legal:
                break
            quiet = (not last_capture and not ff.is_capture(variant, start, moves, mv)
                     and not ff.gives_check(variant, start, moves))
            if quiet and len(moves) >= 12 and rng.random() < 0.25:
                found.append(fen)
                if len(found) >= count:
                    break
            last_capture = ff.is_capture(variant, start, moves, mv)
            moves.append(mv)
        print(f"evalcompare: {len(found)}/{count} positions", file=sys.stderr)
    return found


def ranks(xs):
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2
        i = j + 1
    return r


def pearson(xs, ys):
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx > 0 and syy > 0 else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--variant", default="shako")
    ap.add_argument("--positions", type=int, default=300)
    ap.add_argument("--nodes", type=int, default=3000, help="nodes a move of the self-play")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--polymachy", default="polymachy uci")
    ap.add_argument("--fsf", default="fairy-stockfish")
    ap.add_argument("--out", help="write the pairs as CSV")
    a = ap.parse_args()
    try:
        import pyffish as ff
    except ImportError:
        sys.exit("evalcompare: needs pyffish (pip install pyffish)")
    poly = Uci(a.polymachy, a.variant)
    fsf = Uci(a.fsf, a.variant)
    fens = positions(ff, a.variant, poly, a.positions, a.nodes, a.seed)
    pairs = []
    for fen in fens:
        p, f = poly.eval_white(fen), fsf.eval_white(fen)
        if p is not None and f is not None:
            pairs.append((fen, p * 100, f))
    poly.quit()
    fsf.quit()
    if len(pairs) < 3:
        sys.exit("evalcompare: too few positions with both evaluations")
    xs = [p for _, p, _ in pairs]
    ys = [f for _, _, f in pairs]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx else float("nan")
    mad = sum(abs(y - (my + slope * (x - mx))) for x, y in zip(xs, ys)) / len(xs)
    print(f"variant {a.variant}: {len(pairs)} quiet positions")
    print(f"pearson {pearson(xs, ys):.3f}")
    print(f"spearman {pearson(ranks(xs), ranks(ys)):.3f}")
    print(f"slope {slope * 100:.3f} (Fairy-Stockfish pawns per Polymachy pawn)")
    print(f"mean absolute residual {mad:.3f} Fairy-Stockfish pawns")
    if a.out:
        with open(a.out, "w", newline="") as fh:
            w = csv.writer(fh)
            w.writerow(["fen", "polymachy_cp", "fsf_pawns"])
            w.writerows(pairs)


if __name__ == "__main__":
    main()
