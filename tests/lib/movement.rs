//! Movement features not covered by the shipped games, each on a hand-built position with the
//! expected destinations worked out by hand.

use std::collections::BTreeSet;

use polymachy::position::Ruleset;

use crate::common::{self, compile, pos, set};

/// An 8x8 test game: King, Pawn, and the extra pieces given as (letter, betza).
fn game(extra: &[(&str, &str)], promotion: &str) -> std::sync::Arc<Ruleset> {
    let mut text = String::from(
        "name = \"Test\"\nfiles = 8\nranks = 8\nstart = \"4k3/8/8/8/8/8/8/4K3\"\n\
         [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
         [[piece]]\nname = \"Pawn\"\nletter = \"P\"\nbetza = \"fmWfcF\"\n\
         [[piece]]\nname = \"Queen\"\nletter = \"Q\"\nbetza = \"Q\"\n",
    );
    for (l, b) in extra {
        text.push_str(&format!(
            "[[piece]]\nname = \"Piece {l}\"\nletter = \"{l}\"\nbetza = \"{b}\"\n"
        ));
    }
    if !promotion.is_empty() {
        // The pawn promotes to a Queen where the promotion rule says.
        text = text.replace(
            "betza = \"fmWfcF\"\n",
            "betza = \"fmWfcF\"\npromotes-to = \"Q\"\n",
        );
        text.push_str(promotion);
    }
    compile(&text, "test.toml")
}

/// The destinations of the piece on `from` in `fen`, in coordinate notation.
fn moves_from(rules: &std::sync::Arc<Ruleset>, fen: &str, from: &str) -> BTreeSet<String> {
    common::moves_from(&mut pos(rules, fen), from)
}

#[test]
fn grasshopper_lands_just_beyond_the_first_piece() {
    // G (gQ) on d4; white pawn b6, black pawn d6, kings a1 and h8.
    // Up the d-file: d5 empty, d6 the screen, d7 empty: lands on d7.
    // Up-left: c5 empty, b6 the screen (own pawn), a7 empty: lands on a7.
    // Up-right: e5 f6 g7 empty, h8 the screen with nothing beyond: no move.
    // Down-left: c3 b2 empty, a1 (own king) the screen at the edge: no move.
    // Every other line meets no piece: no move.
    let rules = game(&[("G", "gQ")], "");
    let got = moves_from(&rules, "7k/8/1P1p4/8/3G4/8/8/K7 w - - 0 1", "d4");
    assert_eq!(got, set(&["d4d7", "d4a7"]));
}

#[test]
fn j_rider_skips_its_first_square() {
    // S (jR) on d4, black pawn d6, own pawn d5 (skipped), kings a1 and h8.
    // Up: d5 skipped whatever stands there, d6 enemy: captures d6 and stops.
    // Right: e4 skipped, then f4 g4 h4. Down: d3 skipped, d2 d1. Left: c4 skipped, b4 a4.
    let rules = game(&[("S", "jR")], "");
    let got = moves_from(&rules, "7k/8/3p4/3P4/3S4/8/8/K7 w - - 0 1", "d4");
    assert_eq!(
        got,
        set(&[
            "d4d6", "d4f4", "d4g4", "d4h4", "d4d2", "d4d1", "d4b4", "d4a4"
        ])
    );
}

#[test]
fn lame_knight_is_blocked_beside_it() {
    // H (nN, the Xiangqi horse) on d4 with an own pawn on d5: the two leaps whose long leg
    // goes up the file (c6, e6) are blocked; the other six are free (b3 b5 via c4, f3 f5 via
    // e4, c2 e2 via d3).
    let rules = game(&[("H", "nN")], "");
    let got = moves_from(&rules, "7k/8/8/3P4/3H4/8/8/K7 w - - 0 1", "d4");
    assert_eq!(got, set(&["d4b3", "d4b5", "d4f3", "d4f5", "d4c2", "d4e2"]));
}

#[test]
fn optional_promotion_keeps_the_plain_move() {
    // Pawn on a7, kings e1 and e8 (the king's moves are filtered out by the `from` square).
    let compulsory = game(&[], "[rules.promotion]\nzone = 1\n");
    assert_eq!(
        moves_from(&compulsory, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7"),
        set(&["a7a8q"])
    );
    let optional = game(&[], "[rules.promotion]\nzone = 1\noptional = true\n");
    assert_eq!(
        moves_from(&optional, "4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7"),
        set(&["a7a8", "a7a8q"])
    );
    // A deeper zone: promotion already on the sixth rank for White.
    let deep = game(&[], "[rules.promotion]\nzone = 3\n");
    assert_eq!(
        moves_from(&deep, "4k3/8/8/P7/8/8/8/4K3 w - - 0 1", "a5"),
        set(&["a5a6q"])
    );
}

#[test]
fn limited_range_and_directions() {
    // R2 on d4 (own king a1, black king h8): two squares each way: d5 d6, d3 d2, e4 f4, c4 b4.
    let rules = game(&[("T", "R2"), ("V", "fsW"), ("W", "ffN")], "");
    assert_eq!(
        moves_from(&rules, "7k/8/8/8/3T4/8/8/K7 w - - 0 1", "d4"),
        set(&[
            "d4d5", "d4d6", "d4d3", "d4d2", "d4e4", "d4f4", "d4c4", "d4b4"
        ])
    );
    // fsW: forward and sideways one step (the Xiangqi soldier across the river).
    assert_eq!(
        moves_from(&rules, "7k/8/8/8/3V4/8/8/K7 w - - 0 1", "d4"),
        set(&["d4d5", "d4c4", "d4e4"])
    );
    // Black's directions are turned 180 degrees: a black fsW on d4 goes to d3, c4, e4.
    assert_eq!(
        moves_from(&rules, "7k/8/8/8/3v4/8/8/K7 b - - 0 1", "d4"),
        set(&["d4d3", "d4c4", "d4e4"])
    );
    // ffN: the two steep forward knight leaps, c6 and e6.
    assert_eq!(
        moves_from(&rules, "7k/8/8/8/3W4/8/8/K7 w - - 0 1", "d4"),
        set(&["d4c6", "d4e6"])
    );
}
