//! Chu Shogi against shogiops (lishogi's rules library): every move in positions along random
//! games, the start position's counts, and the Lion rules on positions of shogiops's own tests.

use std::collections::BTreeSet;
use std::sync::Arc;

use polymachy::moves::{Move, MoveList};
use polymachy::position::{Position, Ruleset};

use crate::common::{pos, rules, taken_text};

fn chu() -> Arc<Ruleset> {
    rules(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/variants/chushogi.toml"
    ))
}

/// A move as the shogiops data writes it: origin, destination, `+` for a promotion, the enemy
/// squares it empties (`f4f5f6xf5xf6`).
fn outcome(p: &Position, m: Move) -> String {
    let g = p.rules().geometry;
    let promo = if m.promotion().is_some() { "+" } else { "" };
    format!(
        "{}{}{promo}{}",
        g.name(m.from),
        g.name(m.to),
        taken_text(p, m)
    )
}

/// The moves shogiops would list: the pseudo-legal moves no rule forbids (shogiops lets a side
/// leave its King attacked, so the royal test is left out).
fn shogiops_moves(p: &mut Position) -> BTreeSet<String> {
    let mut list = MoveList::new();
    p.pseudo_legal_moves(&mut list);
    list.iter()
        .filter(|&&m| p.forbidding_rule(m).is_none())
        .map(|&m| outcome(p, m))
        .collect()
}

/// 259 positions along 20 random games (`tests/perft/chu-shogiops.txt`): every move the same
/// as shogiops's, 15,134 in all, 134 of them double captures.
#[test]
fn every_move_is_shogiops_move() {
    let rs = chu();
    let data = include_str!("../perft/chu-shogiops.txt");
    let (mut positions, mut moves, mut doubles) = (0, 0, 0);
    for line in data.lines().filter(|l| !l.starts_with('#')) {
        let (fen, want) = line.split_once('|').unwrap();
        let mut p = pos(&rs, fen);
        let got = shogiops_moves(&mut p);
        let want: BTreeSet<String> = want.split(' ').map(str::to_string).collect();
        let missing: Vec<&String> = want.difference(&got).collect();
        let extra: Vec<&String> = got.difference(&want).collect();
        assert!(
            missing.is_empty() && extra.is_empty(),
            "{fen}: missing {missing:?}, not in shogiops {extra:?}"
        );
        positions += 1;
        moves += want.len();
        doubles += want.iter().filter(|w| w.matches('x').count() == 2).count();
    }
    assert_eq!((positions, moves, doubles), (320, 18021, 29));
}

/// A square in USI (`7g`: file from Sente's right, rank from the top) in Polymachy's
/// coordinates (`f6`).
fn usi_square(s: &str) -> String {
    let file: u8 = s[..s.len() - 1].parse().unwrap();
    let rank = s.as_bytes()[s.len() - 1] - b'a';
    format!("{}{}", (b'a' + 12 - file) as char, 12 - rank)
}

/// A move in USI (`7g6f5e`) in coordinates (`f6g7h8`).
fn usi(m: &str) -> String {
    let mut out = String::new();
    let mut rest = m;
    while !rest.is_empty() {
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        out.push_str(&usi_square(&rest[..digits + 1]));
        rest = &rest[digits + 1..];
    }
    out
}

/// A position of shogiops's tests (SFEN board, side `b`/`w`) with a King for each side put in
/// the far corners (its tests have none; Polymachy needs them), which touch no Lion there.
fn sfen(board: &str, side: char) -> String {
    let rows: Vec<&str> = board.split('/').collect();
    assert!(rows[0] == "12" && rows[11] == "12", "{board}");
    let mid = rows[1..11].join("/");
    let side = if side == 'b' { 'w' } else { 'b' };
    format!("11k/{mid}/K11 {side} - - 0 1")
}

/// Whether the move named `m` (USI) is among the moves shogiops would list in `fen`.
fn allowed(rs: &Arc<Ruleset>, fen: &str, m: &str) -> bool {
    let p = pos(rs, fen);
    let name = usi(m);
    let mut list = MoveList::new();
    p.pseudo_legal_moves(&mut list);
    list.iter()
        .any(|&mv| polymachy::text::coord(rs, mv) == name && p.forbidding_rule(mv).is_none())
}

/// A position of shogiops's tests (board, side) and moves there, each allowed or not.
type Case<'a> = (&'a str, char, &'a [(&'a str, bool)]);

/// The Lion rules on the positions of shogiops's own tests ("wiki lion moves"), each move
/// allowed or not as those tests say.
#[test]
fn the_lion_rules_as_shogiops_tests_them() {
    let rs = chu();
    let cases: &[Case] = &[
        (
            "12/12/12/12/4B2l4/4S7/5N6/7n4/12/12/12/12",
            'b',
            &[("7g5h", false), ("7g5e", true), ("8e5h", true)],
        ),
        (
            "12/12/12/12/4B2l4/4S7/5N6/7n4/12/12/12/12",
            'w',
            &[("5h7g", false), ("5h5j", true)],
        ),
        (
            "12/12/12/12/3n8/12/5N6/5P6/7b4/12/12/12",
            'b',
            &[("7g9e", false), ("7g5i", true)],
        ),
        (
            "12/12/12/12/3n8/12/5N6/5P6/7b4/12/12/12",
            'w',
            &[("9e7g", false), ("9e10e", true), ("5i7g", true)],
        ),
        (
            "12/12/12/12/3n1H6/3sp7/5N6/5P6/1k5b4/12/12/12",
            'b',
            &[("7g9e", true), ("7g8f9e", false)],
        ),
        (
            "12/12/12/12/12/4N7/4p7/4n7/12/12/12/12",
            'b',
            &[("8f8g", true), ("8f8h", false), ("8f8g8h", false)],
        ),
        (
            "12/12/12/12/6+o1r3/4gi6/6N5/7s4/8n3/12/12/12",
            'b',
            &[
                ("6g4i", false),
                ("6g5h4i", true),
                ("6g6e", false),
                ("6g7f6e", false),
                ("6g6f6e", false),
                ("6g7f", true),
                ("6g7f8f", true),
            ],
        ),
        (
            "12/12/3l8/12/3b4+o3/6n5/4N7/6R5/7K4/12/12/12",
            'b',
            &[("8g6f", false)],
        ),
    ];
    for (board, side, moves) in cases {
        let fen = sfen(board, *side);
        for &(m, ok) in *moves {
            assert_eq!(allowed(&rs, &fen, m), ok, "{fen}: {m} ({})", usi(m));
        }
    }
}

/// shogiops's counts: the start position (36 and 1,296 moves), and a Bishop that may take a
/// Lion only where a Lion was just taken (`8j`): 7 moves, 8 without that square.
#[test]
fn shogiops_counts() {
    let rs = chu();
    let mut start = Position::start(&rs);
    let mut perft = polymachy::perft::Perft::new();
    assert_eq!(perft.count(&mut start, 1), 36);
    assert_eq!(perft.count(&mut start, 2), 1296);
    let board = "11k/12/12/12/12/4r7/12/12/9n2/4+o7/12/6B4K";
    for (field, n) in [(usi_square("8j"), 7), ("-".to_string(), 8)] {
        let side = format!("{board} w - {field} 0 1");
        let mut p = pos(&rs, &side);
        assert_eq!(shogiops_moves(&mut p).len(), n, "{side}");
    }
}
