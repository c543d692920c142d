//! Wildebeest Chess, hand-derived positions: the Pawn's triple step and its double step from
//! rank 3, en passant on every square a step passed (the FEN field that lists them), castling
//! by one to four squares (and its refusals), stalemate lost. Every expected list below is
//! worked out from the rules in `variants/wildebeest.toml`, square by square, in the comments.
//! The agreement with Fairy-Stockfish is in `tests/perft/wildebeest.perft`.

use std::collections::BTreeSet;
use std::sync::Arc;

use polymachy::game::{GameResult, Termination, outcome, parse_move, san};
use polymachy::moves::MoveKind;
use polymachy::position::{Position, Ruleset};
use polymachy::text::coord;
use polymachy::variant::Variant;

use crate::common::{legal, moves_from, piece, placement, play, position, rules, set};

fn wildebeest() -> Arc<Ruleset> {
    rules("wildebeest")
}

// ---------------------------------------------------------------------------------------------
// The Pawn's steps
// ---------------------------------------------------------------------------------------------

#[test]
fn start_position_has_45_moves_and_pawns_step_one_two_or_three() {
    // 11 Pawns x 3 steps = 33; Knights b1 (a3 c3) and j1 (i3 k3) = 4; Camels h1 (g4 i4) and
    // i1 (h4 j4) = 4; the Wildebeest g1 as a Knight (f3 h3) and a Camel (f4 h4) = 4; the rest
    // are blocked: 33 + 4 + 4 + 4 = 45.
    let rs = wildebeest();
    let mut pos = Position::start(&rs);
    assert_eq!(legal(&mut pos).len(), 45);
    assert_eq!(moves_from(&mut pos, "e2"), set(&["e2e3", "e2e4", "e2e5"]));
    assert_eq!(
        moves_from(&mut pos, "g1"),
        set(&["g1f3", "g1h3", "g1f4", "g1h4"])
    );
}

#[test]
fn triple_step_leaves_en_passant_rights_on_both_squares_passed() {
    let rs = wildebeest();
    // The start with Black's d-Pawn on d5, where it can take en passant on e4.
    let start = "rnccwkqbbnr/ppp1ppppppp/11/11/11/3p7/11/11/PPPPPPPPPPP/RNBBQKWCCNR w KQkq - 0 1";
    let mut pos = Position::from_fen(&rs, start).unwrap();
    let mv = play(&mut pos, "e2e5");
    assert_eq!(mv.kind, MoveKind::Double);
    let e3 = rs.geometry.parse_square("e3").unwrap();
    let e4 = rs.geometry.parse_square("e4").unwrap();
    assert_eq!(pos.ep_squares().as_slice(), &[e3, e4]);
    let fen = "rnccwkqbbnr/ppp1ppppppp/11/11/11/3pP6/11/11/PPPP1PPPPPP/RNBBQKWCCNR b KQkq e3e4 0 1";
    assert_eq!(pos.fen(), fen);
    // The field reads back to the same position, in either order, and is written in order.
    for written in ["e3e4", "e4e3"] {
        let f = fen.replace("e3e4", written);
        let back = Position::from_fen(&rs, &f).unwrap();
        assert_eq!(back.fen(), fen);
        assert_eq!(back.hash(), pos.hash(), "{f}");
        assert_eq!(back.hash(), back.hash_from_scratch());
    }
    assert_eq!(pos.hash(), pos.hash_from_scratch());
    // e3 alone is Fairy-Stockfish's form (only the squares a capture can land on) of this
    // step: no step passes only e3 here (it would land on e4, which is empty), and the triple
    // step passed it, so it reads to the same position. A set that no step passed is refused:
    // e3 with e6. But e4 alone is a position of its own: the e5 Pawn may have double-stepped
    // from e3.
    let back = Position::from_fen(&rs, &fen.replace("e3e4", "e3")).unwrap();
    assert_eq!(back, pos);
    for bad in ["e3e6", "e3e4e6"] {
        let f = fen.replace("e3e4", bad);
        let e = Position::from_fen(&rs, &f).expect_err(bad).to_string();
        assert!(
            e.contains("no piece of the side that just moved"),
            "{bad}: {e}"
        );
    }
    let f = fen.replace("e3e4", "e4");
    assert_eq!(Position::from_fen(&rs, &f).unwrap().fen(), f);
    // Malformed fields are errors, not panics.
    for bad in ["e3e", "3e", "e3-e4", "e3e3", "z3"] {
        let f = fen.replace("e3e4", bad);
        let e = Position::from_fen(&rs, &f).expect_err(bad).to_string();
        assert!(e.contains("en-passant square"), "{bad}: {e}");
    }
    pos.unmake();
    assert_eq!(pos, Position::from_fen(&rs, start).unwrap());
}

#[test]
fn a_pawn_on_its_third_rank_may_still_double_step_but_not_triple_step() {
    // White: K f1, Pawns c3 (moved once) and h4; Black: K f10, Pawns d5 and f8 (Black's third
    // rank). c3: c4 or c5 (two squares from rank 3), never c6; h4: one step only. Black f8:
    // f7 or f6, not f5.
    let rs = wildebeest();
    let pieces = [
        ("f1", 'K'),
        ("c3", 'P'),
        ("h4", 'P'),
        ("f10", 'k'),
        ("d5", 'p'),
        ("f8", 'p'),
    ];
    let mut pos = position(&rs, &pieces, "w - - 0 1");
    assert_eq!(moves_from(&mut pos, "c3"), set(&["c3c4", "c3c5"]));
    assert_eq!(moves_from(&mut pos, "h4"), set(&["h4h5"]));
    // The double step from rank 3 passes c4: the d5 Pawn takes en passant there.
    play(&mut pos, "c3c5");
    assert_eq!(
        pos.fen(),
        format!(
            "{} b - c4 0 1",
            placement(
                11,
                10,
                &[
                    ("f1", 'K'),
                    ("c5", 'P'),
                    ("h4", 'P'),
                    ("f10", 'k'),
                    ("d5", 'p'),
                    ("f8", 'p')
                ]
            )
        )
    );
    assert_eq!(moves_from(&mut pos, "d5"), set(&["d5d4", "d5c4"]));
    assert_eq!(moves_from(&mut pos, "f8"), set(&["f8f7", "f8f6"]));
    let mv = play(&mut pos, "d5c4");
    assert_eq!(mv.kind, MoveKind::EnPassant);
    assert_eq!(piece(&pos, "c5"), None);
    assert_eq!(piece(&pos, "c4"), Some('p'));
}

#[test]
fn en_passant_on_either_square_a_triple_step_passed() {
    // White: K f1, Pawn e2; Black: K f10, Pawns d4 and f5. After e2e5 (passing e3 and e4)
    // the d4 Pawn takes en passant on e3 and the f5 Pawn on e4; each removes the e5 Pawn.
    let rs = wildebeest();
    let pieces = [
        ("f1", 'K'),
        ("e2", 'P'),
        ("f10", 'k'),
        ("d4", 'p'),
        ("f5", 'p'),
    ];
    let mut pos = position(&rs, &pieces, "w - - 0 1");
    play(&mut pos, "e2e5");
    let after = format!(
        "{} b - e3e4 0 1",
        placement(
            11,
            10,
            &[
                ("f1", 'K'),
                ("e5", 'P'),
                ("f10", 'k'),
                ("d4", 'p'),
                ("f5", 'p')
            ]
        )
    );
    assert_eq!(pos.fen(), after);
    assert_eq!(moves_from(&mut pos, "d4"), set(&["d4d3", "d4e3"]));
    assert_eq!(moves_from(&mut pos, "f5"), set(&["f5f4", "f5e4"]));
    for (capture, lands) in [("d4e3", "e3"), ("f5e4", "e4")] {
        // From the FEN as well as after the move: the field alone carries the rights.
        for mut p in [pos.clone(), Position::from_fen(&rs, &after).unwrap()] {
            let mv = play(&mut p, capture);
            assert_eq!(mv.kind, MoveKind::EnPassant, "{capture}");
            assert_eq!(piece(&p, "e5"), None, "{capture} takes the e5 Pawn");
            assert_eq!(piece(&p, lands), Some('p'));
            assert!(p.ep_squares().is_empty());
            assert_eq!(p.hash(), p.hash_from_scratch());
            p.unmake();
            assert_eq!(p.fen(), after);
        }
    }
    // After the double step e2e4 only e3 was passed: d4xe3 en passant, and f5xe4 is an
    // ordinary capture of the Pawn standing there.
    let mut pos = position(&rs, &pieces, "w - - 0 1");
    play(&mut pos, "e2e4");
    assert_eq!(pos.fen().split(' ').nth(3), Some("e3"));
    let (d, f) = (
        play(&mut pos.clone(), "d4e3"),
        play(&mut pos.clone(), "f5e4"),
    );
    assert_eq!((d.kind, f.kind), (MoveKind::EnPassant, MoveKind::Normal));
}

// ---------------------------------------------------------------------------------------------
// Castling by one to four squares
// ---------------------------------------------------------------------------------------------

/// White K f1 with Rooks a1 and k1 and both rights; Black K f10; `more` added.
fn castling_position(rs: &Arc<Ruleset>, more: &[(&str, char)]) -> Position {
    let mut pieces = vec![("f1", 'K'), ("a1", 'R'), ("k1", 'R'), ("f10", 'k')];
    pieces.extend_from_slice(more);
    position(rs, &pieces, "w KQ - 0 1")
}

#[test]
fn the_king_castles_one_to_four_squares_each_way() {
    // Toward k1 the King lands on g1, h1, i1 or j1, the Rook on the square it passed next to
    // it (f1, g1, h1, i1); toward a1 on e1, d1, c1 or b1 with the Rook on f1, e1, d1, c1. With
    // the King's five steps (e1 e2 f2 g2 g1) that makes 13 moves from f1; the one-square
    // castles share their squares with a step and carry the suffix `oo`.
    let rs = wildebeest();
    let mut pos = castling_position(&rs, &[]);
    let want = set(&[
        "f1e1", "f1e2", "f1f2", "f1g2", "f1g1", "f1g1oo", "f1h1", "f1i1", "f1j1", "f1e1oo", "f1d1",
        "f1c1", "f1b1",
    ]);
    assert_eq!(moves_from(&mut pos, "f1"), want);
    let cases = [
        ("O-O/1", "f1g1oo", "g1", "f1", "k1"),
        ("O-O/2", "f1h1", "h1", "g1", "k1"),
        ("O-O/3", "f1i1", "i1", "h1", "k1"),
        ("O-O/4", "f1j1", "j1", "i1", "k1"),
        ("O-O-O/1", "f1e1oo", "e1", "f1", "a1"),
        ("O-O-O/2", "f1d1", "d1", "e1", "a1"),
        ("O-O-O/3", "f1c1", "c1", "d1", "a1"),
        ("O-O-O/4", "f1b1", "b1", "c1", "a1"),
    ];
    for (written, coordinate, king, rook, rook_from) in cases {
        let mut p = pos.clone();
        let mv = parse_move(&mut p, coordinate).unwrap();
        assert!(p.rules().special_for(mv).is_some(), "{coordinate}");
        // The Rook landing on f1 checks the King on f10.
        assert_eq!(san(&mut p, mv).trim_end_matches('+'), written);
        assert_eq!(parse_move(&mut p, written).unwrap(), mv, "{written}");
        p.make(mv);
        assert_eq!(piece(&p, king), Some('K'), "{written}");
        assert_eq!(piece(&p, rook), Some('R'), "{written}");
        if rook != rook_from {
            assert_eq!(piece(&p, rook_from), None, "{written}");
        }
        assert_eq!(
            p.fen().split(' ').nth(2),
            Some("-"),
            "{written} spends both rights"
        );
        assert_eq!(p.hash(), p.hash_from_scratch());
        p.unmake();
        assert_eq!(p, pos);
    }
    // The King's plain one-square steps are other moves with other names.
    let step = parse_move(&mut pos, "f1g1").unwrap();
    assert_eq!(step.kind, MoveKind::Normal);
    assert_eq!(san(&mut pos, step), "Kg1");
    // Plain `O-O` is ambiguous where four distances are possible.
    let e = parse_move(&mut pos, "O-O").unwrap_err().to_string();
    assert!(e.contains("ambiguous") && e.contains("O-O/4"), "{e}");
    // Every legal move has a name of its own, in coordinate notation and in SAN.
    let all = legal(&mut pos);
    let coords: BTreeSet<String> = all.iter().map(|&m| coord(&rs, m)).collect();
    let sans: BTreeSet<String> = all.iter().map(|&m| san(&mut pos, m)).collect();
    assert_eq!((coords.len(), sans.len()), (all.len(), all.len()));
}

#[test]
fn castling_is_refused_through_an_attacked_square_and_out_of_check() {
    let rs = wildebeest();
    // A Black Rook on h10 attacks h1 down the open h-file: toward k1 only the one-square
    // castle (f1, g1 untouched) remains; toward a1 all four.
    let mut pos = castling_position(&rs, &[("h10", 'r')]);
    let castles: BTreeSet<String> = legal(&mut pos)
        .into_iter()
        .filter(|m| rs.special_for(*m).is_some())
        .map(|m| san(&mut pos, m).trim_end_matches('+').to_string())
        .collect();
    assert_eq!(
        castles,
        set(&["O-O/1", "O-O-O/1", "O-O-O/2", "O-O-O/3", "O-O-O/4"])
    );
    let e = parse_move(&mut pos, "O-O/2").unwrap_err().to_string();
    assert!(e.contains("not possible"), "{e}");
    // A Black Rook on c5 attacks c1: toward a1 the King may stop on e1 or d1 only (c1 and
    // b1 are reached through or on c1).
    let mut pos = castling_position(&rs, &[("c5", 'r')]);
    let castles: BTreeSet<String> = legal(&mut pos)
        .into_iter()
        .filter(|m| rs.special_for(*m).is_some())
        .map(|m| san(&mut pos, m).trim_end_matches('+').to_string())
        .collect();
    assert_eq!(
        castles,
        set(&["O-O/1", "O-O/2", "O-O/3", "O-O/4", "O-O-O/1", "O-O-O/2"])
    );
    // In check from a Rook on f5: no castling at all.
    let mut pos = castling_position(&rs, &[("f5", 'r')]);
    assert!(pos.in_check());
    assert!(legal(&mut pos).iter().all(|m| !m.is_rule_made()));
    // A piece between King and Rook (a Knight on j1) forbids that wing, whatever the distance.
    let mut pos = castling_position(&rs, &[("j1", 'N')]);
    let castles: BTreeSet<String> = legal(&mut pos)
        .into_iter()
        .filter(|m| rs.special_for(*m).is_some())
        .map(|m| san(&mut pos, m).trim_end_matches('+').to_string())
        .collect();
    assert_eq!(castles, set(&["O-O-O/1", "O-O-O/2", "O-O-O/3", "O-O-O/4"]));
}

// ---------------------------------------------------------------------------------------------
// Stalemate
// ---------------------------------------------------------------------------------------------

#[test]
fn the_stalemated_side_loses() {
    // Black K a10, not in check; White Q b8 covers a9 (diagonal), b9 and b10 (b-file); White
    // K f1. Black has no move: stalemate, which Black loses.
    let rs = wildebeest();
    let mut pos = position(&rs, &[("a10", 'k'), ("b8", 'Q'), ("f1", 'K')], "b - - 0 1");
    assert!(!pos.in_check());
    assert!(legal(&mut pos).is_empty());
    let o = outcome(&mut pos).expect("the game is over");
    assert_eq!(o.result, GameResult::WhiteWins);
    assert_eq!(o.reason, Termination::Stalemate);
}

// ---------------------------------------------------------------------------------------------
// The initial-ranks rule's parameters
// ---------------------------------------------------------------------------------------------

#[test]
fn initial_ranks_parameters_are_checked() {
    let text = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "wildebeest")
        .unwrap()
        .1;
    let line = r#"P = { ranks = [2, 3], moves = "ifmnD" }"#;
    assert!(text.contains(line));
    for (bad, says) in [
        (r#"P = { ranks = [2, 11] }"#, "expected a rank from 1 to 10"),
        (
            r#"P = { ranks = [2], moves = "fmW" }"#,
            "not an initial (`i`) move",
        ),
        (
            r#"P = { ranks = [2], moves = "ifmnA" }"#,
            "is not one of Pawn's moves",
        ),
        (r#"X = { ranks = [2] }"#, "no piece has the letter `X`"),
        (r#"N = { ranks = [2] }"#, "has no `i` move"),
        (r#"P = { moves = "ifmnD" }"#, "needs `ranks`"),
        (r#"P = { ranks = [2], step = 1 }"#, "unknown key `step`"),
        (r#"P = 3"#, "must be a table"),
    ] {
        let e = Variant::from_toml(&text.replace(line, bad), "w.toml")
            .expect_err(bad)
            .to_string();
        assert!(e.contains(says), "{bad}: {e}");
    }
    // Without the rule, a Pawn on rank 3 makes no double step.
    let plain = text.replace(line, "");
    let v = Variant::from_toml(&plain, "w.toml").unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    let mut pos = position(&rs, &[("f1", 'K'), ("c3", 'P'), ("f10", 'k')], "w - - 0 1");
    assert_eq!(moves_from(&mut pos, "c3"), set(&["c3c4"]));
}

#[test]
fn castling_distances_are_checked() {
    let text = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "wildebeest")
        .unwrap()
        .1;
    let line = "king-distance = [1, 2, 3, 4]";
    assert!(text.contains(line));
    for (bad, says) in [
        ("king-distance = [1, 1]", "lists 1 twice"),
        (
            "king-distance = [0, 2]",
            "expected a whole number from 1 to 14",
        ),
        (
            "king-distance = \"1-4\"",
            "must be an integer or a list of integers",
        ),
        (
            "king-distance = []",
            "is an empty list: it takes an integer from 1 to 14 or a non-empty list of them",
        ),
    ] {
        let e = Variant::from_toml(&text.replace(line, bad), "w.toml")
            .expect_err(bad)
            .to_string();
        assert!(e.contains(says), "{bad}: {e}");
        // One problem, one message: the key after it is still read.
        assert!(!e.contains("unknown key `partner`"), "{bad}: {e}");
    }
    // Five squares toward k1 would land the King on its Rook: refused when compiling.
    let v = Variant::from_toml(&text.replace(line, "king-distance = [4, 5]"), "w.toml").unwrap();
    let e = Ruleset::new(&v, None).expect_err("distance 5").to_string();
    assert!(
        e.contains("king-distance 5: the king would reach or pass its partner on k1"),
        "{e}"
    );
    // One distance keeps the plain names: O-O is f1h1.
    let v = Variant::from_toml(&text.replace(line, "king-distance = 2"), "w.toml").unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    let mut pos = castling_position(&rs, &[]);
    let mv = parse_move(&mut pos, "O-O").unwrap();
    assert_eq!(coord(&rs, mv), "f1h1");
    assert_eq!(san(&mut pos, mv), "O-O");
}
