//! `bare-king`: a side left with only its royal piece(s) loses (Shatranj, Courier chess), as
//! Fairy-Stockfish plays those games.
//!
//! ```toml
//! [rules.bare-king]
//! answer = true   # boolean, default true: a side that is bared has one move to bare the
//!                 # other side in return; false: it loses at once
//! ```
//!
//! A side is *bare* when every piece it has on the board is royal and it holds nothing in
//! hand. After each move, with `S` to move and `M` the side that just moved:
//! 1. `M` bare and `S` not: `S` wins (`M` was bared and its move did not bare `S` back);
//! 2. `S` bare and `M` holding so many pieces that one move cannot bare it (two pieces or more
//!    besides its royal ones; with `answer = false`, one or more): `S` loses at once;
//! 3. otherwise the game goes on; a bare side facing a single piece gets its move, and when it
//!    takes that piece both sides are bare and the game goes on to the draw rules.
//!
//! This is Fairy-Stockfish's extinction rule as its Shatranj and Courier set it
//! (`extinctionValue = loss`, every piece type, `extinctionPieceCount = 1`,
//! `extinctionOpponentPieceCount = 2`, `extinctionClaim = true`, in
//! `Position::is_immediate_game_end`), with "pieces besides the royal ones" for its count of
//! pieces (the same in a game with one King). The ending comes before checkmate and stalemate
//! ([`crate::position::hooks::Builder::ends_games_at_once`]): a bared side that cannot move
//! still loses by the bare King, the side that bared it still wins, and perft counts no move
//! past it, as in Fairy-Stockfish.

use super::{Registered, royal_name, spec_as};
use crate::position::hooks::{
    Code, Color, GameResult, Outcome, Params, Position, Rule, RuleSpec, Ruleset, Termination,
    Variant, code,
};

pub const REGISTERED: Registered = Registered {
    name: "bare-king",
    about: "a side left with only its royal pieces loses",
    parse: |p, v| BareKingSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| {
        let spec = spec_as::<BareKingSpec>(s)?.clone();
        let rs = b.rules();
        let royal: Vec<[Code; 2]> = rs
            .royal_kinds()
            .map(|k| [code(k, Color::White), code(k, Color::Black)])
            .collect();
        if royal.is_empty() {
            return Err("the bare-King rule needs a royal piece".into());
        }
        let kinds = rs.variant.pieces.len();
        b.ends_games_at_once();
        Ok(Box::new(BareKing {
            answer: spec.answer,
            royal,
            kinds,
        }))
    },
};

/// The bare-king table as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BareKingSpec {
    /// Whether a bared side has one move to bare the other in return.
    pub answer: bool,
}

impl RuleSpec for BareKingSpec {
    fn name(&self) -> &'static str {
        "bare-king"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

impl BareKingSpec {
    fn build(p: &mut Params<'_, '_>, _v: &Variant) -> Option<BareKingSpec> {
        let answer = p.boolean("answer").unwrap_or(true);
        Some(BareKingSpec { answer })
    }
}

/// In play: the royal codes, to count a side's other pieces.
#[derive(Clone, Debug)]
struct BareKing {
    answer: bool,
    /// Each royal kind's codes, White's and Black's.
    royal: Vec<[Code; 2]>,
    /// How many kinds there are (for the hands).
    kinds: usize,
}

impl BareKing {
    /// The pieces of `c` that are not royal, on the board and in hand.
    #[inline]
    fn others(&self, pos: &Position, c: Color) -> u32 {
        let royal: u32 = self.royal.iter().map(|r| pos.count(r[c.index()])).sum();
        let hand: u32 = (0..self.kinds).map(|k| pos.hand(c, k)).sum();
        pos.occupied(c).len() - royal + hand
    }
}

/// The words of the ending.
const BARE: &str = "Bare King";

impl Rule for BareKing {
    fn name(&self) -> &'static str {
        "bare-king"
    }

    fn ending(&self, pos: &Position) -> Option<Outcome> {
        let s = pos.side();
        let m = s.flip();
        let (ms, ss) = (self.others(pos, m), self.others(pos, s));
        let winner = if ms == 0 && ss > 0 {
            s
        } else if ss == 0 && ms > self.answer as u32 {
            m
        } else {
            return None;
        };
        Some(Outcome {
            result: GameResult::win_for(winner),
            reason: Termination::Rule(BARE),
        })
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let royal = royal_name(rs);
        let answer = if self.answer {
            format!(
                " A side whose last other piece is taken has one move to answer: if it takes \
                 the other side's last piece in return, both {royal}s are bare and the game goes \
                 on to the draw rules; otherwise it loses, and it loses at once when the other \
                 side keeps two pieces or more besides its {royal}."
            )
        } else {
            " It loses at once, whatever it could take in return.".to_owned()
        };
        format!(
            "Bare {royal}: a side left with only its {royal} (no other piece on the board or in \
             hand) loses the game.{answer} This comes before checkmate and stalemate."
        )
    }
}
