//! FEN positions that no game of the variant can reach are refused, each with the rule it
//! breaks: a royal piece in hand, two unpromoted Shogi Pawns on a file, a Xiangqi King outside
//! the palace; a piece where it must promote on arriving draws a warning (which the command
//! line and UCI show: `tests/cli.rs`).

use std::sync::Arc;

use polymachy::position::{Position, Ruleset};
use polymachy::variant::Variant;

use crate::common::rules;

/// The one problem of `fen`, which must be refused.
fn refusal(rs: &Arc<Ruleset>, fen: &str) -> String {
    match Position::from_fen(rs, fen) {
        Ok(_) => panic!("{fen} should be refused"),
        Err(e) => {
            let m = e.messages();
            assert_eq!(m.len(), 1, "{fen}: {m:#?}");
            m[0].clone()
        }
    }
}

#[test]
fn a_royal_piece_in_hand_is_refused() {
    let rs = rules("crazyhouse");
    let e = refusal(
        &rs,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[k] w KQkq - 0 1",
    );
    assert!(
        e.contains("a Black King in hand: a royal piece never goes to a hand"),
        "{e}"
    );
    // Other pieces in hand are fine.
    Position::from_fen(
        &rs,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qp] w KQkq - 0 1",
    )
    .unwrap();
}

/// The oddities of `fen`, which must be read.
fn oddities(rs: &Arc<Ruleset>, fen: &str) -> Vec<String> {
    Position::from_fen(rs, fen)
        .unwrap_or_else(|e| panic!("{fen}: {e}"))
        .oddities()
}

/// A piece where it must promote on arriving has no move there (a Shogi Pawn on the last
/// rank): no game reaches it, but such positions are read and played, with a warning, since
/// Fairy-Stockfish reads them and perft counts from them are compared (`tests/perft/`).
#[test]
fn a_piece_where_it_must_promote_draws_a_warning() {
    let shogi = rules("shogi");
    assert_eq!(
        oddities(&shogi, "P3k4/9/9/9/9/9/9/9/4K4[] b - - 0 1"),
        [
            "a White Pawn on a9: rule promotion makes it promote on arriving there, so no game puts it there"
        ]
    );
    let w = oddities(&shogi, "4k4/9/9/9/9/9/9/n8/4K4[] w - - 0 1");
    assert!(
        w.len() == 1 && w[0].starts_with("a Black Knight on a2: "),
        "{w:?}"
    );
    // Where promotion is optional, the piece may stand as it is.
    assert!(oddities(&shogi, "4k4/P8/9/9/9/9/9/9/4K4[] b - - 0 1").is_empty());
    let w = oddities(&rules("chess"), "P3k3/8/8/8/8/8/8/4K3 b - - 0 1");
    assert!(
        w.len() == 1 && w[0].starts_with("a White Pawn on a8: "),
        "{w:?}"
    );
    // Crazyhouse as Fairy-Stockfish plays it has no Pawn drop on the last rank; where Pawns
    // may be dropped anywhere, a Pawn there can have been dropped.
    let zh = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "crazyhouse")
        .unwrap()
        .1;
    let fen = "P3k3/8/8/8/8/8/8/4K3[] b - - 0 1";
    assert_eq!(oddities(&rules("crazyhouse"), fen).len(), 1);
    let anywhere = zh.replace("no-drop-ranks = { P = [1, 8] }\n", "");
    assert_ne!(anywhere, zh);
    let v = Variant::from_toml(&anywhere, "anywhere.toml").unwrap();
    assert!(oddities(&Ruleset::new(&v, None).unwrap(), fen).is_empty());
}

#[test]
fn two_unpromoted_shogi_pawns_on_a_file_are_refused() {
    let rs = rules("shogi");
    let e = refusal(&rs, "4k4/9/9/9/9/4P4/4P4/9/4K4[] w - - 0 1");
    assert!(
        e.starts_with("two White Pawns on the e-file: only a drop can put a second one there, and rule drops forbids it (`one-per-file`)"),
        "{e}"
    );
    // A Pawn and a Tokin (a promoted Pawn, another kind) may share a file.
    Position::from_fen(&rs, "4k4/9/9/9/9/4P4/4+P4/9/4K4[] w - - 0 1").unwrap();
    // Crazyhouse has no such rule.
    let zh = rules("crazyhouse");
    Position::from_fen(&zh, "4k3/8/8/8/4P3/4P3/8/4K3[] w - - 0 1").unwrap();
}

#[test]
fn a_xiangqi_king_outside_the_palace_is_refused() {
    let rs = rules("xiangqi");
    let e = refusal(&rs, "4k4/9/9/9/9/9/9/9/9/K8 w - - 0 1");
    assert!(
        e.contains("a White King on a1, outside `palace`, the zone it never leaves (`confined`)"),
        "{e}"
    );
    Position::from_fen(&rs, "4k4/9/9/9/9/9/9/9/9/3K5 w - - 0 1").unwrap();
}

#[test]
fn every_start_position_reads_back() {
    for (name, _) in polymachy::variant::BUILTIN {
        let rs = rules(name);
        let fen = Position::start(&rs).fen();
        Position::from_fen(&rs, &fen).unwrap_or_else(|e| panic!("{name}: {fen}: {e}"));
    }
}
