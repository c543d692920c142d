//! Static exchange evaluation (SEE) from the variant's own attack data.
//!
//! The exchange on a square is played out on a scratch copy of the board: each side in turn
//! recaptures with its least valuable attacker, found by running the compiled reverse attack
//! probes of [`crate::tables`] (leapers, lame leapers, riders, hoppers, grasshoppers and bent
//! multi-leg riders alike) against the scratch board. Since every probe is re-run after each
//! capture, pieces uncovered behind a capturer (x-rays), screens that appear or vanish for
//! hoppers, and blocked or freed lame legs are all seen as the exchange goes on. A royal piece
//! captures last, and only onto a square no enemy attacks any more.
//!
//! Not modelled: pins, promotions during the exchange, and captures that do not land on the
//! victim's square (en passant): such moves are answered by the plain material balance.

use super::Evaluator;
use crate::geometry::{Color, Square};
use crate::moves::{Code, EMPTY, MAX_CODES, Move, MoveKind, kind_of};
use crate::position::Position;
use crate::position::Ruleset;
use crate::position::movegen::probe_attacker;
use crate::tables::Tables;

/// The value a royal piece counts for in an exchange (it is never given up).
pub const ROYAL_VALUE: i32 = 50_000;

/// Piece values by code, for exchanges.
#[derive(Clone, Debug)]
pub struct SeeValues {
    /// Value of each code (0 for the empty square), [`ROYAL_VALUE`] for royal pieces.
    pub by_code: [i32; MAX_CODES],
    /// Bit per royal code.
    pub royal: u128,
}

impl SeeValues {
    /// The values of `eval`, royal pieces at [`ROYAL_VALUE`].
    pub fn new(rules: &Ruleset, eval: &Evaluator) -> SeeValues {
        let mut v = SeeValues {
            by_code: [0; MAX_CODES],
            royal: 0,
        };
        for c in (2..MAX_CODES as u8).map(Code::from_byte) {
            if kind_of(c) < eval.kinds() {
                // With royal succession a royal piece may be given up while an heir remains.
                if rules.is_royal(c) && !rules.royal_succession() {
                    v.by_code[c.index()] = ROYAL_VALUE;
                    v.royal |= 1 << c.index();
                } else {
                    v.by_code[c.index()] = eval.value_of(c);
                }
            }
        }
        v
    }
}

/// The least valuable piece of `by` attacking `target` on `board`: its square and code.
#[inline]
fn least_attacker(
    t: &Tables,
    board: &[Code; 256],
    target: Square,
    by: Color,
    v: &SeeValues,
) -> Option<(Square, Code)> {
    let mut best: Option<(Square, Code)> = None;
    let mut best_value = i32::MAX;
    for p in t.probes_at(by, target) {
        if let Some(s) = probe_attacker(t, board, p) {
            let c = board[s.index()];
            let value = v.by_code[c.index()];
            if value < best_value {
                best_value = value;
                best = Some((s, c));
            }
        }
    }
    best
}

/// Whether the exchange that `mv` starts wins at least `threshold` for the side to move,
/// both sides recapturing on the square with their least valuable piece and each free to
/// stop. Quiet moves count as exchanges that start by putting the piece on an empty square.
pub fn see_ge(pos: &Position, mv: Move, threshold: i32, v: &SeeValues) -> bool {
    if mv.promo != 0 || !matches!(mv.kind, MoveKind::Normal | MoveKind::Double) {
        // Promotions, en passant, castling and hooked moves: not played out.
        return threshold <= 0;
    }
    let board = pos.board();
    let to = mv.to;
    let mut swap = v.by_code[(board[to.index()]).index()] - threshold;
    if swap < 0 {
        return false;
    }
    let mover = board[mv.from.index()];
    swap = v.by_code[mover.index()] - swap;
    if swap <= 0 {
        return true;
    }
    let t = &pos.rules().tables;
    let mut b = *board;
    b[mv.from.index()] = EMPTY;
    b[to.index()] = mover;
    let mut stm = pos.side();
    let mut res = 1;
    loop {
        stm = stm.flip();
        let Some((sq, c)) = least_attacker(t, &b, to, stm, v) else {
            break;
        };
        res ^= 1;
        if v.royal >> c.index() & 1 != 0 {
            // A royal piece may take only when nothing of the other side attacks the square.
            b[sq.index()] = EMPTY;
            b[to.index()] = c;
            return if least_attacker(t, &b, to, stm.flip(), v).is_some() {
                res ^ 1 != 0
            } else {
                res != 0
            };
        }
        swap = v.by_code[c.index()] - swap;
        if swap < res {
            break;
        }
        b[sq.index()] = EMPTY;
        b[to.index()] = c;
    }
    res != 0
}
