//! Hand-built positions for the rules that no shipped game uses yet: several royal pieces of
//! which the last counts, boards with holes, a setup chosen by one side and mirrored.

use std::collections::BTreeSet;
use std::sync::Arc;

use polymachy::position::{Position, Ruleset};
use polymachy::variant::Variant;

use crate::common::{compile, legal_names, play};

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
    compile(&text, "mini.toml")
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
    assert!(legal_names(&mut pos).contains("a1a2"));
    // Both attacked (rooks on the a- and h-files): check.
    let mut pos = Position::from_fen(&rs, "r3k2r/8/8/8/8/8/8/K6K w - - 0 1").unwrap();
    assert!(pos.in_check(), "both kings attacked is check");
    // Every legal move must leave one king safe: a1a2 stays on the a-file (attacked) while h1
    // is attacked too, so it is illegal; a1b2 leaves the a-file.
    let moves = legal_names(&mut pos);
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
    let moves = legal_names(&mut pos);
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
    let moves = legal_names(&mut pos);
    assert!(!moves.contains("a1a2"), "{moves:?}");
    assert!(moves.contains("h1g2"), "{moves:?}");
}

// ---- holes ------------------------------------------------------------------------------

/// 5×5 with a hole on c3, and two leapers over it: `D` (Dabbaba) and the lame `nD`.
fn holed() -> Arc<Ruleset> {
    mini(
        5,
        5,
        "k4/5/2*2/5/4K",
        r#"
[[piece]]
name = "Dabbaba"
letter = "D"
betza = "D"
[[piece]]
name = "Lame Dabbaba"
letter = "L"
betza = "nD"
"#,
    )
}

#[test]
fn a_hole_stops_rays_and_takes_no_piece_but_leaps_pass_over_it() {
    let rs = holed();
    assert!(rs.geometry.is_hole(rs.geometry.parse_square("c3").unwrap()));
    // Rook on a3: along rank 3 it stops before the hole.
    let mut pos = Position::from_fen(&rs, "4k/5/R1*2/5/4K w - - 0 1").unwrap();
    let rook: BTreeSet<String> = legal_names(&mut pos)
        .into_iter()
        .filter(|m| m.starts_with("a3"))
        .collect();
    let want: BTreeSet<String> = ["a3b3", "a3a1", "a3a2", "a3a4", "a3a5"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    assert_eq!(rook, want);
    // Knight on b1: a3 and d2, never the hole c3.
    let mut pos = Position::from_fen(&rs, "k4/5/2*2/5/1N2K w - - 0 1").unwrap();
    let knight: BTreeSet<String> = legal_names(&mut pos)
        .into_iter()
        .filter(|m| m.starts_with("b1"))
        .collect();
    assert_eq!(
        knight,
        ["b1a3", "b1d2"].iter().map(|s| s.to_string()).collect()
    );
    // A Dabbaba leaps over the hole (c2-c4); the lame one may not pass it.
    let mut pos = Position::from_fen(&rs, "k4/5/2*2/1DL2/4K w - - 0 1").unwrap();
    let moves = legal_names(&mut pos);
    assert!(
        !moves.contains("c2c4"),
        "the lame Dabbaba passed the hole: {moves:?}"
    );
    let mut pos = Position::from_fen(&rs, "k4/5/2*2/2D2/4K w - - 0 1").unwrap();
    assert!(legal_names(&mut pos).contains("c2c4"));
}

#[test]
fn no_attack_crosses_a_hole() {
    let rs = holed();
    // The rook on a3 would check the king on e3 but for the hole on c3.
    let pos = Position::from_fen(&rs, "5/k4/r1*1K/5/5 w - - 0 1").unwrap();
    assert!(!pos.in_check());
    let pos = Position::from_fen(&rs, "5/k4/2*1K/5/r4 w - - 0 1").unwrap();
    assert!(!pos.in_check());
    let pos = Position::from_fen(&rs, "5/k4/2*rK/5/5 w - - 0 1").unwrap();
    assert!(pos.in_check());
}

#[test]
fn holes_are_written_and_read_as_stars() {
    let rs = holed();
    let pos = Position::start(&rs);
    assert_eq!(pos.fen(), "k4/5/2*2/5/4K w - - 0 1");
    let back = Position::from_fen(&rs, &pos.fen()).unwrap();
    assert_eq!(back.fen(), pos.fen());
    let e = Position::from_fen(&rs, "k4/5/5/5/4K w - - 0 1")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("c3 is a hole of this board: write `*` there"),
        "{e}"
    );
    let e = Position::from_fen(&rs, "k4/5/2*1*/5/4K w - - 0 1")
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("`*` on e3, which is not a hole of this board"),
        "{e}"
    );
    // The terminal board leaves the hole blank.
    let text = polymachy::text::board::render(
        &pos,
        None,
        polymachy::text::board::Style {
            ascii: true,
            ..Default::default()
        },
        &[],
    );
    let row3 = text
        .lines()
        .find(|l| l.trim_start().starts_with("3 "))
        .unwrap();
    assert_eq!(row3.trim_end(), "  3  .  .     .  .", "{text}");
}

// ---- a setup chosen by one side and mirrored ----------------------------------------------

#[test]
fn zanzibar_black_arranges_and_white_mirrors() {
    let v = Variant::load("zanzibar-xxl").unwrap();
    let rs = Ruleset::new(&v, Some("UQOFDKGL")).unwrap();
    let pos = Position::start(&rs);
    let g = rs.geometry;
    let at = |name: &str| rs.symbol(pos.piece_at(g.parse_square(name).unwrap()));
    // Black's letters on e12 f12 g12 h12 e11 f11 g11 h11, in that order.
    let black: String = ["e12", "f12", "g12", "h12", "e11", "f11", "g11", "h11"]
        .iter()
        .map(|s| at(s))
        .collect();
    assert_eq!(black, "uqofdkgl");
    // White's copy: the same files, ranks mirrored.
    let white: String = ["e1", "f1", "g1", "h1", "e2", "f2", "g2", "h2"]
        .iter()
        .map(|s| at(s))
        .collect();
    assert_eq!(white, "UQOFDKGL");
    // The King's files are checked on the chooser's squares too.
    let e = Ruleset::new(&v, Some("KQUFOLGD")).unwrap_err().to_string();
    assert!(e.contains("puts the King on the e file"), "{e}");
}

/// The invariants of `check` hold with several royal pieces of which the last counts (a Pawn
/// may even become a King): random games of a two-King chess.
#[test]
fn two_kings_pass_the_invariants() {
    let v = Variant::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/two-kings.toml"
    ))
    .unwrap();
    let rs = Ruleset::new(&v, None).unwrap();
    assert!(rs.check_needs_every_royal());
    let report = polymachy::testing::check_variant(&rs, 60, 80, 3);
    assert_eq!(report.failed(), 0, "{}", report.first_failure().unwrap());
}

// Pieces in hand at the start, written after the start placement as in FEN: Crazyhouse with a
// Queen in each hand. Its start position is the FEN's, hands and all, and the move tree from
// it is Fairy-Stockfish's (11.1 through pyffish 0.0.90, its crazyhouse from
// `rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1`, legal moves counted
// recursively).
#[test]
fn a_start_position_may_hold_pieces_in_hand() {
    let text = crate::common::builtin_text("crazyhouse").replacen(
        "start = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR\"",
        "start = \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq]\"",
        1,
    );
    let rs = compile(&text, "hands.toml");
    let mut p = Position::start(&rs);
    assert_eq!(
        p.fen(),
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR[Qq] w KQkq - 0 1"
    );
    let mut perft = polymachy::perft::Perft::new();
    let counts: Vec<u64> = (1..=3).map(|d| perft.count(&mut p, d)).collect();
    assert_eq!(counts, [52, 2652, 110_989]);
    // A hand needs a rule that gives the sides hands; a royal piece is never in one; its
    // letters are checked like the board's.
    let refused = |from: &str, to: &str, name: &str| {
        let t = crate::common::builtin_text(name).replacen(from, to, 1);
        assert_ne!(t, crate::common::builtin_text(name));
        match Variant::from_toml(&t, "h.toml") {
            Err(e) => e.to_string(),
            Ok(v) => match Ruleset::new(&v, None) {
                Err(e) => e.to_string(),
                Ok(_) => panic!("{to} was accepted"),
            },
        }
    };
    let e = refused("RNBQKBNR\"", "RNBQKBNR[Qq]\"", "chess");
    assert!(
        e.contains("pieces in hand, but this variant has no hands"),
        "{e}"
    );
    let e = refused("RNBQKBNR\"", "RNBQKBNR[K]\"", "crazyhouse");
    assert!(
        e.contains(
            "h.toml:21:54: start position: a royal piece (King) in hand, but no rule brings it onto the board"
        ) && e.contains("hint: list K in `[rules.drops]`'s `kinds`"),
        "{e}"
    );
    let e = refused("RNBQKBNR\"", "RNBQKBNR[Qz]\"", "crazyhouse");
    assert!(
        e.contains("h.toml:21:55: start position: `z` in hand: no piece has the letter 'z'"),
        "{e}"
    );
}

/// Sittuyin's setup phase (`tests/data/sittuyin-setup.toml`): each side places its King and
/// pieces from its hand, one a turn, on its first three ranks (Rooks on the first), and moves
/// nothing before its hand is empty. The numbers and move lists are Fairy-Stockfish's
/// "sittuyin" (11.1's `go perft`; pyffish 0.0.90's moves), through the setup, where no Pawn
/// can promote.
#[test]
fn a_setup_phase_places_the_king_and_pieces_from_the_hand() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/sittuyin-setup.toml"
    ))
    .unwrap();
    // A royal kind to drop, where the start's hand holds none, could never be dropped.
    let kingless = text.replace(
        "8/8/4pppp/pppp4/4PPPP/PPPP4/8/8[KFRRSSNNkfrrssnn]",
        "4k3/8/4pppp/pppp4/4PPPP/PPPP4/8/4K3[FRRSSNNfrrssnn]",
    );
    let e = match Variant::from_toml(&kingless, "k.toml") {
        Err(e) => e.to_string(),
        Ok(v) => Ruleset::new(&v, None).map_or_else(|e| e.to_string(), |_| String::new()),
    };
    assert!(e.contains("King is royal: it never goes to a hand"), "{e}");
    let rs = crate::common::compile(&text, "sittuyin-setup.toml");
    let mut p = Position::start(&rs);
    assert!(!p.in_check());
    let mut perft = polymachy::perft::Perft::new();
    let counts: Vec<u64> = (1..=3).map(|d| perft.count(&mut p, d)).collect();
    assert_eq!(counts, [88, 7744, 580_096]);
    let drops = [
        "K@e2", "K@e7", "F@d2", "F@d7", "R@a1", "R@a8", "R@h1", "R@h8", "S@c2", "S@c7", "S@f2",
        "S@f7", "N@b1", "N@b8", "N@g1",
    ];
    crate::common::play_coords(&mut p, &drops);
    assert_eq!(
        p.fen(),
        "rn5r/2sfks2/4pppp/pppp4/4PPPP/PPPP4/2SFKS2/RN4NR[n] b - - 0 8"
    );
    // Black still holds a Knight: it must drop it (no Pawn or King move).
    let mut names = crate::common::legal_names(&mut p)
        .into_iter()
        .collect::<Vec<_>>();
    names.sort();
    let mut want = [
        "N@g8", "N@f8", "N@e8", "N@d8", "N@c8", "N@h7", "N@g7", "N@b7", "N@a7", "N@d6", "N@c6",
        "N@b6", "N@a6",
    ]
    .map(String::from)
    .to_vec();
    want.sort();
    assert_eq!(names, want);
    crate::common::play_coords(&mut p, &["N@g8"]);
    // Both hands empty: the game proper.
    let mut names = crate::common::legal_names(&mut p)
        .into_iter()
        .collect::<Vec<_>>();
    names.sort();
    let mut want = [
        "a3a4", "b3b4", "c3c4", "d3d4", "e4e5", "f4f5", "g4g5", "h4h5", "e4d5", "g1f3", "g1h3",
        "a1a2", "h1h2", "h1h3", "d2c1", "d2e1", "d2e3", "c2d1", "f2e1", "f2e3", "f2f3", "f2g3",
        "e2d1", "e2e1", "e2f1", "e2e3", "e2f3",
    ]
    .map(String::from)
    .to_vec();
    want.sort();
    assert_eq!(names, want);
}

#[test]
fn the_structure_key_follows_the_pawn_like_pieces_alone() {
    let rs = crate::common::rules("chess");
    let key = |fen: &str| Position::from_fen(&rs, fen).unwrap().structure_hash();
    let start = key("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
    // Pieces, side to move and rights elsewhere: the same key.
    assert_eq!(
        start,
        key("r1bqk2r/pppppppp/2n2n2/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 3 4")
    );
    // A pawn elsewhere, or one fewer: another key.
    assert_ne!(
        start,
        key("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1")
    );
    assert_ne!(
        start,
        key("rnbqkbnr/ppppppp1/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
    // Kept through make (a pawn's capture, a promotion) and restored by unmake.
    let mut pos = Position::from_fen(&rs, "4k3/1P6/8/3p4/4P3/8/8/4K3 w - - 0 1").unwrap();
    let before = pos.structure_hash();
    for mv in ["e4d5", "b7b8q"] {
        play(&mut pos, mv);
        assert_eq!(
            pos.structure_hash(),
            pos.structure_hash_from_scratch(),
            "{mv}"
        );
        assert_ne!(pos.structure_hash(), before, "{mv}");
        pos.unmake();
        assert_eq!(pos.structure_hash(), before, "{mv}");
    }
}

#[test]
fn where_no_piece_promotes_the_structure_key_follows_the_most_numerous_kind() {
    // Xiangqi's Soldiers never promote: the key follows them (five a side at the start).
    let rs = crate::common::rules("xiangqi");
    let mut pos = Position::start(&rs);
    let start = pos.structure_hash();
    assert_ne!(start, 0);
    play(&mut pos, "h3e3");
    assert_eq!(pos.structure_hash(), start, "a Cannon's move");
    play(&mut pos, "a7a6");
    assert_ne!(pos.structure_hash(), start, "a Soldier's step");
    assert_eq!(pos.structure_hash(), pos.structure_hash_from_scratch());
}
