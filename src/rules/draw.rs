//! `draw`: how games end without checkmate.
//!
//! ```toml
//! [rules.draw]
//! stalemate = "draw"   # "draw" (default), "stalemated-wins" or "stalemated-loses"; the short
//!                      # forms "win" and "loss" mean the same (the result of the side that is
//!                      # stalemated, as Fairy-Stockfish's `stalemateValue` counts it)
//! repetition = 3       # integer, default 3: the same position this many times draws; 0 = off
//! move-limit = 50      # integer, default 50: moves by each side without capture or
//!                      # irreversible move (a piece that only moves forward) draw; 0 = off
//! ```
//! Without a `[rules.draw]` table these defaults apply (FIDE's rules).

use super::{Registered, spec_as};
use crate::position::hooks::{Draws, Params, Rule, RuleSpec, Stalemate, Variant};

pub const REGISTERED: Registered = Registered {
    name: "draw",
    about: "stalemate, repetition and the move-count rule",
    parse: |p, v| DrawSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| {
        b.set_draws(spec_as::<DrawSpec>(s)?.draws);
        Ok(Box::new(DrawRule))
    },
};

/// The draw table as read.
#[derive(Clone, Debug)]
pub struct DrawSpec {
    pub draws: Draws,
}

impl RuleSpec for DrawSpec {
    fn name(&self) -> &'static str {
        "draw"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

/// The draw rules live in the ruleset (`Ruleset::draws`), read by the game and the search.
#[derive(Clone, Debug)]
struct DrawRule;

impl Rule for DrawRule {
    fn name(&self) -> &'static str {
        "draw"
    }
}

impl DrawSpec {
    fn build(p: &mut Params<'_, '_>, _v: &Variant) -> Option<DrawSpec> {
        let mut d = Draws::default();
        if let Some((s, span)) = p.string("stalemate") {
            d.stalemate = match s.as_str() {
                "draw" => Stalemate::Draw,
                "stalemated-wins" | "win" => Stalemate::Win,
                "stalemated-loses" | "loss" => Stalemate::Loss,
                _ => {
                    p.error(
                        span,
                        format!("`rules.draw.stalemate` is \"{s}\""),
                        Some(
                            "use \"draw\", \"stalemated-wins\" (the side that cannot move wins) or \"stalemated-loses\" (it loses)"
                                .into(),
                        ),
                    );
                    Stalemate::Draw
                }
            };
        }
        if let Some(n) = p.int("repetition", 0, 100) {
            d.repetition = n as u32;
        }
        if let Some(n) = p.int("move-limit", 0, 10_000) {
            d.move_limit = n as u32;
        }
        Some(DrawSpec { draws: d })
    }
}
