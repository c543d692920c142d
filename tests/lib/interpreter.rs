//! The attack probes (reverse walks, specialised for speed) against the one interpreter of the
//! move tables (`Tables::reach`): on random boards of the shipped games, a square is attacked
//! by a side exactly when some piece of that side reaches it, by the interpreter, as a capture
//! (or takes it on the way, for a locust leap).

use polymachy::geometry::{Color, Square};
use polymachy::moves::{Code, EMPTY, code, color_of, kind_of};
use polymachy::position::Ruleset;
use polymachy::position::movegen::attacked_on;
use polymachy::tables::Landing;
use proptest::prelude::*;

use crate::common::rules;

/// Whether a piece of `by` captures on `target` by the interpreter's walk.
fn reaches(rs: &Ruleset, board: &[Code; 256], target: Square, by: Color) -> bool {
    let t = &rs.tables;
    rs.geometry.squares().any(|from| {
        let c = board[from.index()];
        c != EMPTY && color_of(c) == by && {
            let mut hit = false;
            for e in t.entries_at(kind_of(c), by, from) {
                // A locust leap takes the piece on the square it passes whenever it lands.
                let on_the_way = e.locust() == Some(target);
                t.reach(e, board, by, |to, landing| {
                    hit |= on_the_way || (to == target && landing == Landing::Enemy);
                });
            }
            hit
        }
    })
}

/// A random board: the start position's pieces scattered (some removed), a target square
/// holding a piece of the side not attacking.
fn check(name: &str, seeds: &[(u16, u8, bool)], target: u16, target_kind: u8, by_white: bool) {
    let rs = rules(name);
    let g = rs.geometry;
    let size = g.size();
    let kinds = rs.variant.pieces.len();
    let mut board = [EMPTY; 256];
    for &(sq, k, white) in seeds {
        let sq = Square::from_index(sq as usize % size);
        if g.is_hole(sq) {
            continue;
        }
        let color = if white { Color::White } else { Color::Black };
        board[sq.index()] = code(k as usize % kinds, color);
    }
    let target = Square::from_index(target as usize % size);
    if g.is_hole(target) {
        return;
    }
    let by = if by_white { Color::White } else { Color::Black };
    board[target.index()] = code(target_kind as usize % kinds, by.flip());
    let probes = attacked_on(&rs.tables, &board, target, by);
    let walked = reaches(&rs, &board, target, by);
    assert_eq!(
        probes,
        walked,
        "{name}: {} attacked by {} — probes say {probes}, the interpreter {walked}",
        g.name(target),
        by.name()
    );
}

macro_rules! agree {
    ($test:ident, $name:expr) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
            #[test]
            fn $test(
                seeds in prop::collection::vec((any::<u16>(), any::<u8>(), any::<bool>()), 0..48),
                target in any::<u16>(),
                target_kind in any::<u8>(),
                by_white in any::<bool>(),
            ) {
                check($name, &seeds, target, target_kind, by_white);
            }
        }
    };
}

agree!(chess_probes_agree_with_the_interpreter, "chess");
agree!(metamachy_probes_agree_with_the_interpreter, "metamachy");
agree!(lions_and_unicorns_probes_agree, "lions-and-unicorns");
agree!(shako_probes_agree_with_the_interpreter, "shako");
agree!(terachess1_probes_agree_with_the_interpreter, "terachess1");
agree!(terachess2_probes_agree_with_the_interpreter, "terachess2");
agree!(gigachess2_probes_agree_with_the_interpreter, "gigachess2");
agree!(zanzibar_probes_agree_with_the_interpreter, "zanzibar-xxl");
agree!(wildebeest_probes_agree_with_the_interpreter, "wildebeest");
agree!(tamerlane2_probes_agree_with_the_interpreter, "tamerlane2");
agree!(zanzibar_s_probes_agree_with_the_interpreter, "zanzibar-s");
agree!(
    locust_probes_agree_with_the_interpreter,
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/locust.toml")
);

/// The comparison can fail: a capture the probes know of and the interpreter is asked about
/// on the wrong square disagrees.
#[test]
fn a_wrong_target_is_caught() {
    let rs = rules("chess");
    let g = rs.geometry;
    let mut board = [EMPTY; 256];
    let sq = |n: &str| g.parse_square(n).unwrap();
    board[sq("a1").index()] = code(rs.variant.kind_by_letter('R').unwrap(), Color::White);
    board[sq("a8").index()] = code(rs.variant.kind_by_letter('N').unwrap(), Color::Black);
    assert!(attacked_on(&rs.tables, &board, sq("a8"), Color::White));
    assert!(reaches(&rs, &board, sq("a8"), Color::White));
    assert!(!reaches(&rs, &board, sq("b8"), Color::White));
}
