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
//! perpetual-check = "draw"  # "draw" (default) or "loses": a repetition in which one side
//!                      # gave check in every position loses for that side (Shogi, as
//!                      # Fairy-Stockfish plays it); the game's verdict and the search
//!                      # judge it alike
//! repetition-loser = "white"  # "white" or "black", default none: a repetition that is not
//!                      # a perpetual check loses for that side instead of drawing
//!                      # (Minishogi: White, who moves first, as Fairy-Stockfish plays it)
//! ```
//! Without a `[rules.draw]` table these defaults apply (FIDE's rules).

use super::{Registered, kinds, spec_as};
use crate::position::hooks::{Color, Draws, Params, Rule, RuleSpec, Ruleset, Stalemate, Variant};

pub const REGISTERED: Registered = Registered {
    name: "draw",
    about: "stalemate, repetition and the move-count rule",
    parse: |p, v| DrawSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| {
        let draws = spec_as::<DrawSpec>(s)?.draws;
        b.set_draws(draws);
        Ok(Box::new(DrawRule { draws }))
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

/// The draw rules live in the ruleset (`Ruleset::draws`), read by the game and the search;
/// the rule keeps a copy for its explanation.
#[derive(Clone, Debug)]
struct DrawRule {
    draws: Draws,
}

impl Rule for DrawRule {
    fn name(&self) -> &'static str {
        "draw"
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let d = self.draws;
        let mut out = vec![match d.stalemate {
            Stalemate::Draw => "A side that has no legal move while not in check is stalemated: the game is a draw.".to_owned(),
            Stalemate::Win => "A side that has no legal move while not in check is stalemated, and wins the game.".to_owned(),
            Stalemate::Loss => "A side that has no legal move while not in check is stalemated, and loses the game (stalemating the opponent wins).".to_owned(),
        }];
        if d.repetition > 0 {
            let ends = match d.repetition_loser {
                None => "draws the game at once".to_owned(),
                Some(c) => format!("ends the game at once: {c:?} loses"),
            };
            out.push(format!(
                "The same position (same side to move, same castling or leap rights and \
                 en-passant squares) occurring {} times {ends}.",
                d.repetition
            ));
            if d.perpetual_check_loses {
                out.push(
                    "But when one side gave check in every position of the repetition, that \
                     side loses instead (perpetual check)."
                        .to_owned(),
                );
            }
        }
        if d.move_limit > 0 {
            let forward: Vec<usize> = (0..rs.irreversible.len())
                .filter(|&k| rs.irreversible[k])
                .collect();
            let pieces = if forward.is_empty() {
                String::new()
            } else {
                format!(", a move of {}", kinds(rs, &forward, "or"))
            };
            out.push(format!(
                "{} moves by each side without a capture{pieces} or a promotion draw the game \
                 (unless the last of them gives checkmate).",
                d.move_limit
            ));
        } else {
            out.push("There is no limit on moves without a capture.".to_owned());
        }
        out.join(" ")
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
        if let Some((s, span)) = p.string("perpetual-check") {
            d.perpetual_check_loses = match s.as_str() {
                "draw" => false,
                "loses" => true,
                _ => {
                    p.error(
                        span,
                        format!("`rules.draw.perpetual-check` is \"{s}\""),
                        Some(
                            "use \"draw\" or \"loses\" (the side that checked throughout loses)"
                                .into(),
                        ),
                    );
                    false
                }
            };
        }
        if let Some((s, span)) = p.string("repetition-loser") {
            d.repetition_loser = match s.as_str() {
                "white" => Some(Color::White),
                "black" => Some(Color::Black),
                _ => {
                    p.error(
                        span,
                        format!("`rules.draw.repetition-loser` is \"{s}\""),
                        Some(
                            "use \"white\" or \"black\" (the side a repetition loses for), or leave it out for a draw"
                                .into(),
                        ),
                    );
                    None
                }
            };
        }
        Some(DrawSpec { draws: d })
    }
}
