#!/usr/bin/env python3
"""Search speed of two engine builds side by side, per game, over UCI.

    scripts/benchcompare.py "NEW/polymachy uci" "OLD/polymachy uci" [--rounds 2]

Each build searches the positions of `polymachy bench --search` (the start position and
middlegame positions of chess, Shako, Lions and Unicorns, Metamachy and Terachess II) to the
same fixed depths, from a new game each time (`ucinewgame`), one position at a time; the builds
take turns, position by position, so that both see the machine alike. Prints, per game, each
build's nodes, seconds and nodes per second (the best of `--rounds` runs), and the ratio. Works
with any build that speaks UCI, also one older than `bench --search`.
"""

import argparse
import os
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import uci_engine  # noqa: E402

# The same positions and depths as `polymachy bench --search` (src/cli/bench.rs).
SUITE = [
    ("chess", 12, [
        "startpos",
        "fen r1b1k2r/1pqppp2/8/pB4p1/4Q3/8/PPP2PPb/R1B2RK1 w q - 0 16",
        "fen r1bq1k2/2pp1pp1/p4p2/7r/1n2Q2p/5N2/1BPPPPPP/4KB1R w K - 2 16",
    ]),
    ("shako", 10, [
        "startpos",
        "fen 1r7c/2nb1kb1r1/ppp1ppeppC/3q6/2Np3E2/2eP1Q4/10/cPP1PPPPPP/1R1B1KBN2/C7R1 w Qk - 3 16",
        "fen 3r5c/2Qbqkb1r1/ppp1p1pppC/10/2Npp1eE2/2eP3n2/10/cPP1PPPPPP/2RB1KBN2/C7R1 w k - 1 16",
    ]),
    ("lions-and-unicorns", 10, [
        "startpos",
        "fen l3r5/1pppkpp1p1/2nc6/4pL1p1b/L3P3l1/2N1Q1P3/1PPP1PP1P1/1R1B1KB1b1 w Q - 6 16",
        "fen 1r2qkbr2/1ppp1pppp1/2n1pcl3/l6R2/2L3U3/2N3P3/1PPPPPP1P1/1R1BQKL3 w Qq - 13 16",
    ]),
    ("metamachy", 9, [
        "startpos",
        "fen c4qk4c/1r3i1i1nr1/Bppp1pp1pppp/2enp2g1e2/3m1b1pm3/5l1b4/5Q6/7P4/2M1PB1GPENM/PPPP1PPL1PPP/ERN1I1KI2R1/C10C w k - 1 16",
        "fen c4qk4c/1r3i1i1nr1/pppp1pp1pppp/1ne1p2g1e2/3m1b1pm3/3B1l1b4/1Q10/7P4/2M1PB1GPENM/PPPP1PPL1PPP/ERN1I1KI2R1/C10C w k - 7 16",
    ]),
    ("terachess2", 6, [
        "startpos",
        "fen sjyhx1doodf1hyjs/cmztuvl2l1utzmc/ern1wigkq1iwbnre/pppp1p1p1p2pppp/5b10/4p2fp1pp4/Q12a2/12X3/3x12/16/4A2P8/4P1P3BP4/PPPP1P2PPP1PPPP/ERNBWI2KGIW1NRE/CMZTU1L2LVUTZMC/SJYH1FD1ODFXHYJS w - - 2 16",
    ]),
]


class Engine(uci_engine.Engine):
    def __init__(self, cmd):
        super().__init__(cmd, "benchcompare")

    def search(self, position, depth):
        """Nodes and seconds of one search from a new game."""
        self.send("ucinewgame")
        self.send(f"position {position}")
        self.send("isready")
        self.until("readyok")
        start = time.perf_counter()
        self.send(f"go depth {depth}")
        lines = self.until("bestmove")
        secs = time.perf_counter() - start
        infos = [l.split() for l in lines if l.startswith("info depth")]
        nodes = int(infos[-1][infos[-1].index("nodes") + 1]) if infos else 0
        return nodes, secs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("new", help="the first build's UCI command line")
    ap.add_argument("old", help="the second build's UCI command line")
    ap.add_argument("--rounds", type=int, default=2, help="runs of each search; the best counts")
    a = ap.parse_args()
    engines = [Engine(a.new), Engine(a.old)]
    print(f"{'variant':<20} {'depth':>5} {'nodes new':>11} {'nodes/s new':>12} "
          f"{'nodes old':>11} {'nodes/s old':>12} {'ratio':>6}")
    for name, depth, positions in SUITE:
        for e in engines:
            e.variant(name)
        nodes = [0, 0]
        secs = [0.0, 0.0]
        for pos in positions:
            best = [None, None]
            for _ in range(max(1, a.rounds)):
                for i, e in enumerate(engines):
                    n, s = e.search(pos, depth)
                    if best[i] is None or s < best[i][1]:
                        best[i] = (n, s)
            for i in range(2):
                nodes[i] += best[i][0]
                secs[i] += best[i][1]
        nps = [nodes[i] / max(secs[i], 1e-9) for i in range(2)]
        print(f"{name:<20} {depth:>5} {nodes[0]:>11} {nps[0]:>12.0f} {nodes[1]:>11} "
              f"{nps[1]:>12.0f} {nps[0] / max(nps[1], 1e-9):>6.2f}")
    for e in engines:
        e.quit()


if __name__ == "__main__":
    main()
