//! Seirawan chess's gating: moves named and written as Fairy-Stockfish names and writes them,
//! the FEN's gates, and when a gate closes. The names, SAN and FENs are pyffish's (0.0.90,
//! Fairy-Stockfish's "seirawan"), never Polymachy's own.

use polymachy::position::{Position, Ruleset};
use polymachy::text::san::{parse_move, san};
use polymachy::variant::Variant;

fn seirawan(fen: &str) -> Position {
    let v = Variant::load("seirawan").unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    Position::from_fen(&rs, fen).unwrap()
}

const CASTLING: &str = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[HEhe] w KQkq - 0 1";

#[test]
fn gating_moves_are_named_and_written_as_fairy_stockfish_does() {
    let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[HEhe] w KQBCDFGkqbcdfg - 0 1";
    let mut pos = seirawan(start);
    assert_eq!(pos.fen(), start.replace("[HEhe]", "[EHeh]"));
    let mv = parse_move(&mut pos, "b1c3e").unwrap();
    assert_eq!(san(&mut pos, mv), "Nc3/E");
    assert_eq!(parse_move(&mut pos, "Nc3/E").unwrap(), mv);
    assert_ne!(parse_move(&mut pos, "Nc3").unwrap(), mv);
    pos.make(mv);
    assert_eq!(
        pos.fen(),
        "rnbqkbnr/pppppppp/8/8/8/2N5/PPPPPPPP/REBQKBNR[Heh] b KQCDFGkqbcdfg - 1 1"
    );
    let mut pos = seirawan(CASTLING);
    for (uci, written, after) in [
        (
            "e1g1h",
            "O-O/He1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3HRK1[Eeh] b Akq - 1 1",
        ),
        (
            "h1e1h",
            "O-O/Hh1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RKH[Eeh] b Akq - 1 1",
        ),
        (
            "a1e1e",
            "O-O-O/Ea1",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/E1KR3R[Heh] b Hkq - 1 1",
        ),
        (
            "e1d1h",
            "Kd1/H",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R2KH2R[Eeh] b AHkq - 1 1",
        ),
        (
            "a1b1h",
            "Rb1/H",
            "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/HR2K2R[Eeh] b Kkq - 1 1",
        ),
    ] {
        let mv = parse_move(&mut pos, uci).unwrap();
        assert_eq!(polymachy::text::coord(pos.rules(), mv), uci);
        assert_eq!(san(&mut pos, mv), written, "{uci}");
        assert_eq!(parse_move(&mut pos, written).unwrap(), mv, "{written}");
        pos.make(mv);
        assert_eq!(pos.fen(), after, "{uci}");
        let back = Position::from_fen(pos.rules(), after).unwrap();
        assert_eq!(back.hash(), pos.hash(), "{uci}");
        pos.unmake();
        assert_eq!(pos.fen(), CASTLING.replace("[HEhe]", "[EHeh]"));
    }
}

#[test]
fn a_gate_closes_when_its_piece_moves_or_is_taken_or_the_hand_empties() {
    let mut pos = seirawan("r3k2r/1ppppppp/8/8/8/8/1PPPPPPP/R3K2R[Hh] w KQkq - 0 1");
    for (uci, after) in [
        // White's a1 gate left with its Rook.
        (
            "a1a7",
            "r3k2r/Rppppppp/8/8/8/8/1PPPPPPP/4K2R[Hh] b Kkq - 1 1",
        ),
        // Black's a8 gate left with its Rook, which took.
        ("a8a7", "4k2r/rppppppp/8/8/8/8/1PPPPPPP/4K2R[Hh] w Kk - 0 2"),
        // The Hawk went in: White has nothing left to gate and writes no gate.
        ("e1f1h", "4k2r/rppppppp/8/8/8/8/1PPPPPPP/4HK1R[h] b k - 1 2"),
    ] {
        let mv = parse_move(&mut pos, uci).unwrap();
        pos.make(mv);
        assert_eq!(pos.fen(), after, "{uci}");
        assert_eq!(
            Position::from_fen(pos.rules(), after).unwrap().hash(),
            pos.hash()
        );
    }
    let mv = parse_move(&mut pos, "h8g8").unwrap();
    pos.make(mv);
    let mut list = polymachy::moves::MoveList::new();
    pos.legal_moves(&mut list);
    assert!(list.as_slice().iter().all(|m| !m.is_rule_made()));
}
