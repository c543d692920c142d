//! Hand-built positions for the rules that no shipped game uses yet: several royal pieces of
//! which the last counts, boards with holes, a setup chosen by one side and mirrored.

use std::collections::BTreeSet;
use std::sync::Arc;

use polymachy::moves::MoveList;
use polymachy::position::{Position, Ruleset};
use polymachy::text::coord;
use polymachy::variant::Variant;

/// A small chess-like variant with the given extra TOML (rules).
fn mini(files: u8, ranks: u8, start: &str, extra: &str) -> Arc<Ruleset> {
    let text = format!(
        r#"
name = "Mini"
files = {files}
ranks = {ranks}
start = "{start}"
[[piece]]
name = "King"
letter = "K"
betza = "K"
royal = true
[[piece]]
name = "Rook"
letter = "R"
betza = "R"
[[piece]]
name = "Knight"
letter = "N"
betza = "N"
[[piece]]
name = "Bishop"
letter = "B"
betza = "B"
{extra}
"#
    );
    let v = Variant::from_toml(&text, "mini.toml").unwrap_or_else(|e| panic!("{e}"));
    Ruleset::new(&v, None).unwrap_or_else(|e| panic!("{e}"))
}

fn legal(pos: &mut Position) -> BTreeSet<String> {
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    l.iter().map(|&m| coord(pos.rules(), m)).collect()
}

fn play(pos: &mut Position, text: &str) {
    let mut l = MoveList::new();
    pos.legal_moves(&mut l);
    let mv = l
        .iter()
        .copied()
        .find(|&m| coord(pos.rules(), m) == text)
        .unwrap_or_else(|| panic!("{text} is not legal in {}", pos.fen()));
    pos.make(mv);
}

// ---- last-royal -------------------------------------------------------------------------

const TWO_KINGS: &str = "k7/8/8/8/8/8/8/K6K";

#[test]
fn with_last_royal_one_attacked_king_of_two_is_not_check() {
    let rs = mini(8, 8, TWO_KINGS, "[rules.last-royal]");
    // Black's rook attacks h1 only; a1 is safe.
    let mut pos = Position::from_fen(&rs, "k6r/8/8/8/8/8/8/K6K w - - 0 1").unwrap();
    assert!(!pos.in_check(), "one of two kings attacked is not check");
    // White may leave h1 where it is: a king move from a1 is legal.
    assert!(legal(&mut pos).contains("a1a2"));
    // Both attacked (rooks on the a- and h-files): check.
    let mut pos = Position::from_fen(&rs, "r3k2r/8/8/8/8/8/8/K6K w - - 0 1").unwrap();
    assert!(pos.in_check(), "both kings attacked is check");
    // Every legal move must leave one king safe: a1a2 stays on the a-file (attacked) while h1
    // is attacked too, so it is illegal; a1b2 leaves the a-file.
    let moves = legal(&mut pos);
    assert!(!moves.contains("a1a2"), "{moves:?}");
    assert!(moves.contains("a1b2"), "{moves:?}");
}

#[test]
fn with_last_royal_a_king_may_be_captured_while_another_remains() {
    let rs = mini(8, 8, TWO_KINGS, "[rules.last-royal]");
    // White's rook on b1 shields a1 from the rook once it stands on h1.
    let mut pos = Position::from_fen(&rs, "k6r/8/8/8/8/8/8/KR5K b - - 0 1").unwrap();
    play(&mut pos, "h8h1");
    // White has one king left: now the usual rules apply.
    assert_eq!(
        pos.royal_square(polymachy::geometry::Color::White),
        pos.rules().geometry.parse_square("a1")
    );
    assert!(!pos.in_check());
    assert_eq!(pos.hash(), pos.hash_from_scratch());
    pos.unmake();
    assert_eq!(pos.fen(), "k6r/8/8/8/8/8/8/KR5K b - - 0 1");
    // The last king attacked is check again.
    let mut pos = Position::from_fen(&rs, "k7/r7/8/8/8/8/8/K7 w - - 0 1").unwrap();
    assert!(pos.in_check());
    let moves = legal(&mut pos);
    assert_eq!(
        moves,
        ["a1b1", "a1b2"].iter().map(|s| s.to_string()).collect()
    );
}

#[test]
fn without_last_royal_any_attacked_king_is_check() {
    let rs = mini(8, 8, TWO_KINGS, "");
    let mut pos = Position::from_fen(&rs, "k6r/8/8/8/8/8/8/K6K w - - 0 1").unwrap();
    assert!(
        pos.in_check(),
        "with several royal pieces and no rule, any attacked is check"
    );
    let moves = legal(&mut pos);
    assert!(!moves.contains("a1a2"), "{moves:?}");
    assert!(moves.contains("h1g2"), "{moves:?}");
}
