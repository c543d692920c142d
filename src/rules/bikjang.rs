//! `bikjang`: Janggi's facing Generals, as Fairy-Stockfish plays traditional Janggi.
//!
//! ```toml
//! [rules.bikjang]
//! ```
//!
//! - The two royal pieces may face each other on a file with nothing between them (bikjang):
//!   a move that leaves them so is legal.
//! - The side to move in bikjang must end it (a move after which they no longer face each
//!   other) or pass (the `pass` rule). Passing in bikjang ends the game at once, drawn, and is
//!   allowed in check too (as Fairy-Stockfish allows it).
//!
//! Whether the game ended so is a word of rule state (not hashed, not in the FEN).

use super::{Registered, spec_as};
use crate::position::hooks::{
    Code, Color, EMPTY, GameResult, Move, Outcome, Params, Position, Rule, RuleSpec, Ruleset,
    Square, StateWords, Termination, Variant,
};

pub const REGISTERED: Registered = Registered {
    name: "bikjang",
    about: "Janggi's facing Generals: end it or pass, and a pass in it draws",
    parse: |p, v| BikjangSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| {
        spec_as::<BikjangSpec>(s)?;
        if b.rules().royal_kinds().next().is_none() {
            return Err("bikjang needs a royal piece on each side".into());
        }
        let ended = b.claim_state(1, false)?;
        b.veto_every_move();
        b.may_exempt_from_check();
        b.update_state_on_make();
        b.ends_games_at_once();
        Ok(Box::new(Bikjang { ended }))
    },
};

/// The rule as read (no keys).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BikjangSpec;

impl RuleSpec for BikjangSpec {
    fn name(&self) -> &'static str {
        "bikjang"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

impl BikjangSpec {
    fn build(_p: &mut Params<'_, '_>, _v: &Variant) -> Option<BikjangSpec> {
        Some(BikjangSpec)
    }
}

/// In play.
#[derive(Clone, Debug)]
struct Bikjang {
    /// The state slot: 1 once a side passed in bikjang.
    ended: usize,
}

/// The game's words for the ending.
const BIKJANG: &str = "Bikjang";

/// Whether the royal pieces on `a` and `b` face each other on `board`: one file, nothing
/// between.
fn facing(pos: &Position, board: &[Code; 256], a: Square, b: Square) -> bool {
    let g = pos.rules().geometry;
    if g.file(a) != g.file(b) {
        return false;
    }
    let (lo, hi) = (g.rank(a).min(g.rank(b)), g.rank(a).max(g.rank(b)));
    ((lo + 1)..hi).all(|r| board[g.square(g.file(a), r).index()] == EMPTY)
}

/// Whether `mv` changes nothing on the board: a pass (the `pass` rule's, or any rule's that
/// gives a move no effect).
fn changes_nothing(pos: &Position, mv: Move) -> bool {
    pos.effects(mv).as_slice().is_empty()
}

/// The two royal squares of `pos`, when each side has exactly one.
fn royals(pos: &Position) -> Option<(Square, Square)> {
    Some((
        pos.royal_square(Color::White)?,
        pos.royal_square(Color::Black)?,
    ))
}

impl Rule for Bikjang {
    fn name(&self) -> &'static str {
        "bikjang"
    }

    /// In bikjang, only a pass (a move that changes nothing on the board) or a move that ends
    /// it.
    fn veto(&self, pos: &Position, mv: Move) -> bool {
        let Some((w, b)) = royals(pos) else {
            return true;
        };
        if !facing(pos, pos.board(), w, b) || changes_nothing(pos, mv) {
            return true;
        }
        let (board, carried) = pos.board_after(mv);
        let at = |sq: Square| match carried {
            Some((from, to)) if from == sq => to,
            _ => sq,
        };
        !facing(pos, &board, at(w), at(b))
    }

    fn on_make(&self, pos: &Position, mv: Move, _captured: Code, state: &mut StateWords) {
        let in_bikjang = royals(pos).is_some_and(|(w, b)| facing(pos, pos.board(), w, b));
        state[self.ended] = u16::from(changes_nothing(pos, mv) && in_bikjang);
    }

    /// A pass in bikjang ends the game: it is legal in check too (as in Fairy-Stockfish).
    fn exempts_from_check(&self, pos: &Position, mv: Move) -> bool {
        changes_nothing(pos, mv) && royals(pos).is_some_and(|(w, b)| facing(pos, pos.board(), w, b))
    }

    fn ending(&self, pos: &Position) -> Option<Outcome> {
        (pos.state()[self.ended] != 0).then_some(Outcome {
            result: GameResult::Draw,
            reason: Termination::Rule(BIKJANG),
        })
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let royal = super::royal_name(rs);
        format!(
            "Bikjang: the two {royal}s may face each other on a file with nothing between them. \
             The side to move then must end it or pass; a pass ends the game, drawn."
        )
    }
}
