//! Lints: a variant's compiled rules read for a designer's likely mistakes, without a game
//! played. `check` prints them before its invariants.
//!
//! - `stuck-piece`: a piece that can stand where it has no move at all: where it starts, where
//!   one of its own moves ends without a promotion it must take, or where it may be dropped.
//!   Such a piece stands there for ever (Shogi forbids it: a Pawn or Lance on the last rank
//!   must promote and may not be dropped there).
//! - `royal-by-promotion`: a piece that promotes to a royal kind where a side's royal pieces
//!   each count (no `last-royal` or `royal-succession` rule): the promoted side would be in
//!   check whenever either royal piece is attacked, a second King that only weakens it.

use std::sync::Arc;

use crate::geometry::{Color, Square};
use crate::moves::{EMPTY, MoveList, code, kind_of};
use crate::position::{Position, Ruleset, Setup};

/// One likely mistake.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lint {
    /// The lint's name (`stuck-piece`).
    pub name: &'static str,
    /// What was found, naming the piece and the squares.
    pub message: String,
    /// What the designer may have meant.
    pub hint: String,
}

/// Every lint, in the order `check` prints them.
pub const NAMES: [&str; 2] = crate::variant::LINT_NAMES;

/// The lints of `rules`, each lint's findings in the variant's piece order, but for those the
/// variant file allows (`allow-lints`).
pub fn lints(rules: &Arc<Ruleset>) -> Vec<Lint> {
    let mut out = Vec::new();
    stuck_pieces(rules, &mut out);
    royal_by_promotion(rules, &mut out);
    out.retain(|l| !rules.variant.allowed_lints.iter().any(|a| a == l.name));
    out
}

/// Whether a piece of `kind` and `color` on `sq` has no move on any board: no entry of its
/// move tables leads anywhere.
fn no_move(rules: &Ruleset, kind: usize, color: Color, sq: Square) -> bool {
    rules
        .tables
        .entries_at(kind, color, sq)
        .iter()
        .all(|e| e.sq_len == 0)
}

/// The squares where a piece of `kind` may be dropped by `color`, found by asking the rules:
/// the start position's royal pieces alone on the board, one piece of `kind` in hand.
pub fn drop_squares(rules: &Arc<Ruleset>, kind: usize, color: Color) -> Vec<Square> {
    if !rules.has_hands() || rules.is_royal_kind(kind) {
        return Vec::new();
    }
    let mut setup = Setup::start(rules);
    for c in setup.board.iter_mut() {
        if *c != EMPTY && !rules.is_royal_kind(kind_of(*c)) {
            *c = EMPTY;
        }
    }
    setup.side = color;
    setup.rights = 0;
    setup.hand[color.index()][kind] = 1;
    let Ok(mut pos) = Position::from_setup(rules, &setup) else {
        return Vec::new();
    };
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    list.iter()
        .filter(|m| m.dropped() == Some(kind))
        .map(|m| m.to)
        .collect()
}

/// `stuck-piece`, for each kind: White's squares, or Black's where White has none.
fn stuck_pieces(rules: &Arc<Ruleset>, out: &mut Vec<Lint>) {
    let g = rules.geometry;
    let names = |squares: &[Square]| -> String {
        let mut s: Vec<Square> = squares.to_vec();
        s.sort_by_key(|&sq| (g.rank(sq), g.file(sq)));
        s.dedup();
        s.iter()
            .map(|&sq| g.name(sq).to_string())
            .collect::<Vec<_>>()
            .join(", ")
    };
    for kind in 0..rules.variant.pieces.len() {
        let name = &rules.variant.pieces[kind].name;
        for color in [Color::White, Color::Black] {
            let stuck = |sq: Square| no_move(rules, kind, color, sq);
            let starts: Vec<Square> = g
                .squares()
                .filter(|&sq| rules.start[sq.index()] == code(kind, color) && stuck(sq))
                .collect();
            let mut arrives = Vec::new();
            for from in g.squares() {
                for e in rules.tables.entries_at(kind, color, from) {
                    for &to in rules.tables.squares_of(e) {
                        if rules.arrival(kind, color, to).stay && stuck(to) {
                            arrives.push(to);
                        }
                    }
                }
            }
            let drops: Vec<Square> = drop_squares(rules, kind, color)
                .into_iter()
                .filter(|&sq| stuck(sq))
                .collect();
            let side = match color {
                Color::White => "White's",
                Color::Black => "Black's",
            };
            // Each way it gets there: the squares, how the message says it, and the hint.
            let ways: [(&[Square], &str, &str); 3] = [
                (
                    &starts,
                    "starts on {} where it has no move",
                    "start it where it can move, or give it a move from there",
                ),
                (
                    &arrives,
                    "can move to {} and stay there, with no move from there",
                    "make it promote there (`compulsory-where-stuck` in `[rules.promotion]`), \
                     or give it a move from there",
                ),
                (
                    &drops,
                    "can be dropped on {}, where it has no move",
                    "forbid those ranks (`no-drop-ranks` in `[rules.drops]`)",
                ),
            ];
            let mut found = false;
            for (squares, what, hint) in ways {
                if squares.is_empty() {
                    continue;
                }
                found = true;
                out.push(Lint {
                    name: "stuck-piece",
                    message: format!("{side} {name} {}", what.replace("{}", &names(squares))),
                    hint: hint.into(),
                });
            }
            // Black's findings mirror White's in a game the same for both sides.
            if found {
                break;
            }
        }
    }
}

/// `royal-by-promotion`.
fn royal_by_promotion(rules: &Ruleset, out: &mut Vec<Lint>) {
    if rules.check_needs_every_royal() || rules.royal_succession() {
        return;
    }
    let pieces = &rules.variant.pieces;
    for (kind, p) in pieces.iter().enumerate() {
        if rules.is_royal_kind(kind) {
            continue;
        }
        for &to in &p.promotes_to {
            if rules.is_royal_kind(to) {
                out.push(Lint {
                    name: "royal-by-promotion",
                    message: format!(
                        "{} promotes to {}, a royal piece: the side then has two, and is in \
                         check whenever either is attacked",
                        p.name, pieces[to].name
                    ),
                    hint: "promote to a piece that is not royal, or add `[rules.last-royal]` \
                           (only the last royal piece counts) or `[rules.royal-succession]`"
                        .into(),
                });
            }
        }
    }
}
