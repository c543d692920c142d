//! Positions and moves as text, below the game record, the protocols and the command line:
//! coordinate notation, what counts as a capture, board drawings ([`board`]), FEN reading and
//! writing ([`fen`]), and the SAN-like form ([`san`], which the game record re-exports).
//!
//! **Every legal move has its own name.** A move is written `from` `to` and, for a promotion,
//! the promoted piece's letter in lower case (`e2e4`, `a10a12`, `e11e12q`). When an
//! en-passant capture shares its squares with a non-capturing move of the same piece (a
//! Terachess I Corporal steps diagonally forward and also captures en passant diagonally
//! forward, so both land on the en-passant square), the capture takes the suffix
//! [`EP_SUFFIX`]: `d9e10` is the step and `d9e10ep` the capture, in coordinate notation, UCI
//! and CECP alike, and `Oxe10ep` in the SAN-like form. An en-passant capture with no such twin
//! (a chess pawn's `e5d6`) is written without it, and reading accepts the suffix on any
//! en-passant capture. In the same way a named rule move (castling) whose piece has an ordinary
//! move between the same squares carries the suffix its rule gave it: a Wildebeest King that
//! castles one square writes `f1g1oo`, its plain step `f1g1`. A drop from the hand is written
//! `P@e4` (the piece's name in upper case, `@`, the square: `N'@e4` for a piece written with
//! a letter and a prime), as UCI and CECP write drops.
//! A locust move (one that takes a piece on a square it passes and goes on: the Chu Lion's
//! double capture) is written with that square between the two (`e5e6e7`; `e5e6e5` for the
//! Lion's capture without moving), as USI writes Lion moves, and `Lxe6xe7` / `Lxe6-e5` in
//! the SAN-like form.
//! A promotion to a piece that is the promoted form of its mover (`demotes-to`, written `+X`
//! in a FEN: Shogi's) takes the suffix `+` instead of a letter (`b2h8+`), as Fairy-Stockfish
//! writes it; a promotion to a piece written `+X` that other pieces promote to as well takes
//! its name in lower case (`e7e8+r`), and so does one to a piece written `N'` (`e7e8n'`). Reading also takes `c3d4=`, the move that declines such
//! a promotion, as XBoard writes it in Shogi.

pub mod board;
pub mod fen;
pub mod san;

use crate::moves::{Move, MoveKind};
use crate::position::Position;
use crate::position::Ruleset;

/// The suffix of an en-passant capture whose squares a non-capturing move shares.
pub const EP_SUFFIX: &str = "ep";

/// Whether the move's written name carries [`EP_SUFFIX`].
pub fn needs_ep_suffix(mv: Move) -> bool {
    mv.kind == MoveKind::EnPassant && mv.aux == crate::position::movegen::EP_NAMED
}

/// `e2e4`, `a10a12`, promotions `e7e8q` (the promoted piece's name in lower case, `e7e8n'`;
/// `+` for the mover's own promoted form, `b2h8+`, see
/// [`crate::variant::Variant::plus_promotion`]), a locust move by its three squares
/// (`e5e6e7`: from, the square it takes on the way, to), `d9e10ep` for an en-passant capture
/// that needs telling apart from a step, and `P@e4` (`N'@e4`) for a drop.
pub fn coord(rules: &Ruleset, mv: Move) -> String {
    let g = rules.geometry;
    if let Some(k) = mv.dropped() {
        let symbol = rules
            .variant
            .pieces
            .get(k)
            .map_or("?", |p| p.symbol.as_str());
        return format!("{symbol}@{}", g.name(mv.to));
    }
    let mut s = match mv.locust_square() {
        Some(mid) => format!("{}{}{}", g.name(mv.from), g.name(mid), g.name(mv.to)),
        None => format!("{}{}", g.name(mv.from), g.name(mv.to)),
    };
    if let Some(k) = mv.promotion() {
        if rules.variant.plus_promotion(k) {
            s.push('+');
        } else {
            s.push_str(&rules.variant.pieces[k].symbol.to_ascii_lowercase());
        }
    }
    if needs_ep_suffix(mv) {
        s.push_str(EP_SUFFIX);
    }
    if let Some(sp) = rules.special_for(mv) {
        s.push_str(sp.coord_suffix);
    }
    s
}

/// Whether a move of `pos`'s side to move takes a piece (en passant included; castling never,
/// its partner being the mover's own): [`Position::capture_square`], the square that a
/// move's capture effect names. The search's ordering calls it too.
#[inline]
pub fn is_capture(pos: &Position, mv: Move) -> bool {
    pos.capture_square(mv).is_some()
}
