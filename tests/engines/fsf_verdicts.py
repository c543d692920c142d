#!/usr/bin/env python3
"""The FEN and verdict Fairy-Stockfish (pyffish) gives after every move of given games, for
tests/pyffish.rs: Makruk's counting, and Shatranj's and Courier's bare King.

Argument: VARIANT, one of Fairy-Stockfish's built-in variants. Standard input: one game a
line, `FEN|MOVES` (moves in UCI notation, separated by spaces). Standard output: one line a
game, `FEN=VERDICT` for the start and after each move, joined by `|`; VERDICT is `-` while the
game goes on, else `draw`, `white` or `black` (who won), or `?` for an ending by choice that
is not a draw. A game is over where pyffish lists no legal move (it lists none once a rule
such as the bare King has ended it: `game_result` then scores that ending, else checkmate or
stalemate), or where `is_optional_game_end` ends it (repetition, the move-count rule, the
counting rules).
"""
import sys

import pyffish as sf


def main(variant):
    for line in sys.stdin:
        fen, moves = line.rstrip("\n").split("|")
        moves = moves.split() if moves else []
        out = []
        for n in range(len(moves) + 1):
            ms = moves[:n]
            f = sf.get_fen(variant, fen, ms)
            if not sf.legal_moves(variant, fen, ms):
                r = sf.game_result(variant, fen, ms)
                white = f.split()[1] == "w"
                v = "draw" if r == 0 else ("white" if (r > 0) == white else "black")
            else:
                end, r = sf.is_optional_game_end(variant, fen, ms)
                v = "draw" if end and r == 0 else ("-" if not end else "?")
            out.append(f + "=" + v)
        print("|".join(out))


if __name__ == "__main__":
    main(sys.argv[1])
