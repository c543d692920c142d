//! Royal succession (Tamerlane II): hand-counted positions, the last heir's royalty, the
//! Ship's corner promotion, and make / unmake / hash through captures of royal pieces.

use polymachy::game::{Termination, outcome};
use polymachy::moves::MoveList;
use polymachy::perft::Perft;
use polymachy::position::{Position, Ruleset};
use polymachy::text::coord;
use polymachy::variant::Variant;
use std::sync::Arc;

use crate::common::{legal_names, pos, rules, two_plies_restore};

fn tamerlane() -> Arc<Ruleset> {
    rules("tamerlane2")
}

/// The legal moves in coordinate notation, in order.
fn legal(p: &mut Position) -> Vec<String> {
    legal_names(p).into_iter().collect()
}

/// White King a1 and Prince k1 against a Black King and a Rook on the b-file.
const KING_AND_PRINCE: &str = "5k5/11/11/11/11/11/1r9/11/11/11/K9I w - - 0 1";

#[test]
fn a_king_with_a_prince_behind_it_may_be_left_attacked() {
    let rules = tamerlane();
    let mut p = pos(&rules, KING_AND_PRINCE);
    // By hand: the King steps to a2, b1 or b2 (the last two on the Rook's file), the Prince to
    // j1, j2 or k2: 6. Black answers each with 5 King steps and the Rook's 10 moves along rank
    // 5, 6 up the file and 4 down to b1 (3 after Kb2, which it then takes, as it takes the King
    // on b1): 25 + 25 + 24 + 3 * 25 = 149.
    assert_eq!(Perft::new().count(&mut p, 1), 6);
    assert_eq!(Perft::new().count(&mut p, 2), 149);
    assert!(!p.in_check());
    assert_eq!(p.royal_square(polymachy::geometry::Color::White), None);
}

#[test]
fn the_last_heir_is_royal() {
    let rules = tamerlane();
    // The King is gone: the Prince alone may not step onto the Rook's file.
    let mut p = pos(&rules, "5k5/11/11/11/11/11/1r9/11/11/11/I10 w - - 0 1");
    assert_eq!(legal(&mut p), ["a1a2"]);
    assert!(!p.in_check());
    // Checked on the a-file with the b-file covered: checkmate, which wins.
    let mut p = pos(&rules, "5k5/11/11/11/11/11/rr9/11/11/11/I10 w - - 0 1");
    assert!(p.in_check());
    assert!(legal(&mut p).is_empty());
    let o = outcome(&mut p).unwrap();
    assert_eq!(o.reason, Termination::Checkmate);
    // The same attack on a King whose Prince remains is no check: every step is legal.
    let mut p = pos(&rules, "5k5/11/11/11/11/11/rr9/11/11/11/K9I w - - 0 1");
    assert!(!p.in_check());
    assert_eq!(legal(&mut p).len(), 6);
}

#[test]
fn capturing_the_king_hands_royalty_to_the_prince() {
    let rules = tamerlane();
    let mut p = pos(&rules, "5k5/11/11/11/11/11/1r9/11/11/11/1K8I b - - 0 1");
    let before = (p.fen(), p.hash());
    let mut list = MoveList::new();
    p.legal_moves(&mut list);
    let take = *list
        .as_slice()
        .iter()
        .find(|&&m| coord(&rules, m) == "b5b1")
        .expect("the Rook takes the King");
    p.make(take);
    // The Prince on k1 now reigns: it is the tracked royal square, and the hash is the hash
    // of the position as read afresh.
    assert_eq!(
        p.royal_square(polymachy::geometry::Color::White),
        Some(rules.geometry.parse_square("k1").unwrap())
    );
    assert_eq!(p.hash(), pos(&rules, &p.fen()).hash());
    assert_eq!(p.hash(), p.hash_from_scratch());
    // The Rook on b1 attacks the first rank: the Prince may not stay on it.
    assert_eq!(legal(&mut p), ["k1j2", "k1k2"]);
    p.unmake();
    assert_eq!((p.fen(), p.hash()), before);
    assert_eq!(p.royal_square(polymachy::geometry::Color::White), None);
}

#[test]
fn the_last_heir_never_promotes() {
    let rules = tamerlane();
    // A lone Prince on c10 may not enter the last rank (it would promote its royalty away).
    let mut p = pos(&rules, "11/2I8/11/11/11/11/11/11/11/11/7k3 w - - 0 1");
    assert_eq!(
        legal(&mut p),
        ["c10b10", "c10b9", "c10c9", "c10d10", "c10d9"]
    );
    // With the King behind it, it promotes to a Queen on each of its three squares: 3 + 5 + 3.
    let mut p = pos(&rules, "11/2I8/11/11/11/11/11/11/11/11/K6k3 w - - 0 1");
    let moves = legal(&mut p);
    assert_eq!(moves.len(), 11, "{moves:?}");
    assert!(moves.contains(&"c10c11q".to_string()), "{moves:?}");
}

#[test]
fn the_ship_promotes_only_in_the_far_corners() {
    let rules = tamerlane();
    // Ship b10: its first steps a11, c11, a9, c9, then down the a-file to a2 (the King is on
    // a1) and down the c-file to c1: 4 + 7 + 8 = 19 moves; only a11 is a corner.
    let mut p = pos(&rules, "11/1S9/11/11/11/11/11/11/11/11/K6k3 w - - 0 1");
    let ship: Vec<String> = legal(&mut p)
        .into_iter()
        .filter(|m| m.starts_with("b10"))
        .collect();
    assert_eq!(ship.len(), 19, "{ship:?}");
    assert!(ship.contains(&"b10a11g".to_string()), "{ship:?}");
    assert!(ship.contains(&"b10c11".to_string()), "{ship:?}");
    assert!(!ship.contains(&"b10a11".to_string()), "{ship:?}");
}

/// Every move two plies deep from positions where Kings and Princes are captured: make and
/// unmake restore the FEN and the hash, and the incremental hash equals the hash of the FEN.
#[test]
fn make_unmake_and_hash_through_successions() {
    let rules = tamerlane();
    for fen in [
        KING_AND_PRINCE,
        "5k5/11/11/11/11/11/rr9/11/11/11/K9I w - - 0 1",
        "4kik4/11/11/11/4R6/11/11/11/11/11/4K1I4 w - - 0 1",
        "1i3k3i1/1R9/11/11/11/11/11/11/11/11/4KI5 w - - 0 1",
    ] {
        two_plies_restore(&mut pos(&rules, fen));
    }
}

#[test]
fn succession_needs_its_successors() {
    let v = Variant::load("tamerlane2").unwrap();
    let text = include_str!(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/tamerlane2.toml"
    ));
    assert!(v.pieces.iter().any(|p| p.name == "Prince"));
    let broken = text.replace("successors = \"I\"", "successors = \"\"");
    let e = Variant::from_toml(&broken, "t.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("names no piece"), "{e}");
    let broken = text.replace("successors = \"I\"\n", "");
    let e = Variant::from_toml(&broken, "t.toml")
        .unwrap_err()
        .to_string();
    assert!(e.contains("needs `successors`"), "{e}");
}
