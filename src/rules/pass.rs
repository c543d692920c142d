//! `pass`: a side may pass its turn (Janggi), as Fairy-Stockfish plays it.
//!
//! ```toml
//! [rules.pass]
//! ends-game = 2   # integer, default 2: that many passes in a row end the game, drawn
//!                 # (0: never)
//! ```
//!
//! - A pass changes nothing on the board: the other side is to move. It is written with the
//!   royal piece's square twice, as Fairy-Stockfish writes it (`e2e2` in coordinates, UCI and
//!   CECP; SAN `Ke2`). A side without exactly one royal piece has no pass.
//! - A side in check may not pass (its royal piece would stay attacked).
//! - A pass is a reversible move: the move-count clock runs on.
//! - `ends-game` passes in a row (one by each side, by default) end the game at once, drawn.
//!
//! The passes in a row are a word of rule state, not hashed (positions are the same whatever
//! passes led to them, as Fairy-Stockfish counts repetitions) and not written in the FEN.

use super::{Registered, spec_as};
use crate::position::hooks::{
    Code, Effects, GameResult, Move, MoveKind, MoveList, Outcome, Params, Position, Rule, RuleSpec,
    Ruleset, StateWords, Termination, Variant,
};

pub const REGISTERED: Registered = Registered {
    name: "pass",
    about: "a side may pass its turn (Janggi)",
    parse: |p, v| PassSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| {
        let spec = spec_as::<PassSpec>(s)?.clone();
        if b.rules().royal_kinds().next().is_none() {
            return Err(
                "a pass is written with the royal piece's square: the variant has no royal piece"
                    .into(),
            );
        }
        let passes = b.claim_state(1, false)?;
        b.add_moves();
        b.moves_have_effects()?;
        b.update_state_on_make();
        if spec.ends_game > 0 {
            b.ends_games_at_once();
        }
        Ok(Box::new(Pass {
            spec,
            index: b.index(),
            passes,
        }))
    },
};

/// The rule as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PassSpec {
    /// How many passes in a row end the game (0: never).
    pub ends_game: u16,
}

impl RuleSpec for PassSpec {
    fn name(&self) -> &'static str {
        "pass"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

impl PassSpec {
    fn build(p: &mut Params<'_, '_>, _v: &Variant) -> Option<PassSpec> {
        let ends_game = p.int("ends-game", 0, 100).unwrap_or(2) as u16;
        Some(PassSpec { ends_game })
    }
}

/// In play.
#[derive(Clone, Debug)]
struct Pass {
    spec: PassSpec,
    /// This rule's index (`aux` of its moves).
    index: u8,
    /// The state slot of the passes in a row.
    passes: usize,
}

/// The game's words for the ending.
const PASSES: &str = "Passes in a row";

impl Rule for Pass {
    fn name(&self) -> &'static str {
        "pass"
    }

    fn generate(&self, pos: &Position, out: &mut MoveList) {
        if let Some(sq) = pos.royal_square(pos.side()) {
            out.push(Move {
                from: sq,
                to: sq,
                promo: 0,
                kind: MoveKind::Rule,
                aux: self.index,
            });
        }
    }

    /// A pass does nothing to the board.
    fn effects(&self, _pos: &Position, _mv: Move, _fx: &mut Effects) {}

    fn move_word(&self) -> &'static str {
        "pass"
    }

    fn on_make(&self, _pos: &Position, mv: Move, _captured: Code, state: &mut StateWords) {
        state[self.passes] = if mv.is_rule_made() && mv.aux == self.index {
            state[self.passes].saturating_add(1)
        } else {
            0
        };
    }

    fn ending(&self, pos: &Position) -> Option<Outcome> {
        (self.spec.ends_game > 0 && pos.state()[self.passes] >= self.spec.ends_game).then_some(
            Outcome {
                result: GameResult::Draw,
                reason: Termination::Rule(PASSES),
            },
        )
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let royal = super::royal_name(rs);
        let end = match self.spec.ends_game {
            0 => String::new(),
            1 => " A pass ends the game, drawn.".to_owned(),
            n => format!(" {n} passes in a row end the game, drawn."),
        };
        format!(
            "Pass: instead of moving, a side may pass its turn, except in check; a pass is \
             written with the {royal}'s square twice (e2e2).{end}"
        )
    }
}
