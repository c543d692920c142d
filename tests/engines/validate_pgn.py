#!/usr/bin/env python3
"""Re-validates a PGN file with pyffish (Fairy-Stockfish's rules, not Polymachy's).

Every SAN move of every game must be the SAN that pyffish gives to exactly one of its legal
moves in that position (check marks aside); a game that ends by the rules ("normal"
termination) must end where pyffish also sees the game over, with the same result.
Prints one line per game and exits 1 at the first disagreement.
"""
import re
import sys

import pyffish

def games(text):
    for block in re.split(r"\n\s*\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', block, re.M))
        body = "\n".join(l for l in block.splitlines() if not l.startswith("["))
        body = re.sub(r"\{[^}]*\}", " ", body)
        toks = [t for t in body.split() if not re.match(r"^\d+\.(\.\.)?$", t)]
        yield tags, toks, block

# Fairy-Stockfish's SAN names some pieces by other letters than its FEN does (Xiangqi's
# Elephant is B in a FEN but E in SAN, the Horse N and H); Polymachy writes the FEN letters in
# both. These map pyffish's SAN letter to the FEN letter.
SAN_LETTERS = {"xiangqi": {"E": "B", "H": "N"}}

def norm(s, variant=""):
    s = s.rstrip("+#").replace("=", "")
    m = SAN_LETTERS.get(variant, {})
    if s and s[0] in m:
        s = m[s[0]] + s[1:]
    return s

def main(path):
    n = 0
    for tags, toks, block in games(open(path).read()):
        n += 1
        variant = tags["Variant"]
        fen = tags.get("FEN") or pyffish.start_fen(variant)
        result = toks.pop() if toks and toks[-1] in ("1-0", "0-1", "1/2-1/2", "*") else "*"
        moves = []
        now = fen
        for san in toks:
            legal = pyffish.legal_moves(variant, now, [])
            # Only the moves to the SAN's destination square need their SAN computed.
            dest = re.findall(r"[a-z][0-9]+", san)
            # A move's destination is its last square (`e2e4`, `e7e8q`, a drop `P@e4`).
            cands = [m for m in legal if not dest or re.findall(r"[a-z][0-9]+", m)[-1] == dest[-1]]
            if not dest or not cands:
                cands = legal
            hits = [m for m in cands if norm(pyffish.get_san(variant, now, m, False, pyffish.NOTATION_SAN), variant) == norm(san)]
            if len(hits) != 1:
                print(f"game {n}: move {len(moves) + 1} `{san}` matches {hits} among {len(legal)} legal moves")
                return 1
            moves.append(hits[0])
            now = pyffish.get_fen(variant, now, [hits[0]])
        legal = pyffish.legal_moves(variant, fen, moves)
        if tags.get("Termination") == "normal" and "resigned" not in block:
            if legal:
                opt, r = pyffish.is_optional_game_end(variant, fen, moves)
                if not opt:
                    print(f"game {n}: ends {result} after {len(moves)} plies but pyffish sees it go on")
                    return 1
            else:
                r = pyffish.game_result(variant, fen, moves)
                want = {"1-0": 1, "0-1": -1, "1/2-1/2": 0}[result]
                side = 1 if pyffish.get_fen(variant, fen, moves).split()[1] == "w" else -1
                got = 0 if r == 0 else (1 if r > 0 else -1) * side
                if got != want:
                    print(f"game {n}: result {result}, pyffish gives {r} for the side to move")
                    return 1
        print(f"game {n}: {variant}, {len(moves)} plies, {result}: every move legal for pyffish")
    if n == 0:
        print("no games")
        return 1
    return 0

if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
