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

# Shogi: Fairy-Stockfish's SAN names the four small promoted pieces `G` (it makes them Golds
# with a promoted flag) and always writes the Pawn's letter; Polymachy names every promoted
# piece by its own letter and omits the Pawn's. So a Shogi move is matched by what it does:
# the piece on its origin in pyffish's FEN (`+P` read as Polymachy's T...), its destination,
# whether it promotes (pyffish's `+` suffix), and any origin file or rank the SAN gives.
SHOGI_PROMOTED = {"+P": "T", "+L": "Y", "+N": "E", "+S": "V", "+B": "H", "+R": "D"}
SHOGI_SAN = re.compile(r"^([A-Z])?([a-i]?)([1-9]?)[x-]?([a-i][1-9])(?:=?([A-Z]))?$")

def shogi_board(fen):
    """Square name -> piece (upper case, `+X` for a promoted one) of a Shogi FEN."""
    board = {}
    rows = fen.split()[0].split("[")[0].split("/")
    for i, row in enumerate(rows):
        rank, file, promoted = 9 - i, 0, False
        for c in row:
            if c.isdigit():
                file += int(c)
            elif c == "+":
                promoted = True
            elif c.isalpha():
                board["abcdefghi"[file] + str(rank)] = ("+" if promoted else "") + c.upper()
                file, promoted = file + 1, False
    return board

def shogi_hits(legal, fen, san):
    san = san.rstrip("+#")
    if "@" in san:
        return [m for m in legal if m == san.upper()[0] + san[1:]]
    m = SHOGI_SAN.match(san)
    if not m:
        return []
    letter, ofile, orank, to, promo = m.groups()
    letter = letter or "P"
    board = shogi_board(fen)
    hits = []
    for mv in legal:
        if "@" in mv:
            continue
        frm, dst = mv[:2], mv[2:4]
        piece = board.get(frm, "")
        if SHOGI_PROMOTED.get(piece, piece) != letter or dst != to:
            continue
        if mv.endswith("+") != bool(promo):
            continue
        if (ofile and frm[0] != ofile) or (orank and frm[1] != orank):
            continue
        hits.append(mv)
    return hits

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
            if variant == "shogi":
                hits = shogi_hits(legal, now, san)
            else:
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
