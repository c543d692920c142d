//! `draw`: how games end without checkmate.
//!
//! ```toml
//! [rules.draw]
//! stalemate = "draw"   # "draw" (default), "win" (for the stalemated side's opponent) or "loss"
//! repetition = 3       # integer, default 3: the same position this many times draws; 0 = off
//! move-limit = 50      # integer, default 50: moves by each side without capture or
//!                      # irreversible move (a piece that only moves forward) draw; 0 = off
//! ```
//! Without a `[rules.draw]` table these defaults apply (FIDE's rules).

use super::Rule;
use crate::variant::{Params, Variant};

/// The result of a stalemate for the side that cannot move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stalemate {
    Draw,
    /// The stalemated side wins.
    Win,
    /// The stalemated side loses.
    Loss,
}

/// Draw settings of a variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Draws {
    pub stalemate: Stalemate,
    /// Occurrences of one position that draw (0 = never).
    pub repetition: u32,
    /// Moves per side without capture or irreversible move that draw (0 = never).
    pub move_limit: u32,
}

impl Default for Draws {
    fn default() -> Self {
        Draws {
            stalemate: Stalemate::Draw,
            repetition: 3,
            move_limit: 50,
        }
    }
}

#[derive(Clone, Debug)]
pub struct DrawRule {
    pub draws: Draws,
}

impl DrawRule {
    pub fn build(p: &mut Params<'_, '_>, _v: &Variant) -> Option<DrawRule> {
        let mut d = Draws::default();
        if let Some((s, span)) = p.string("stalemate") {
            d.stalemate = match s.as_str() {
                "draw" => Stalemate::Draw,
                "win" => Stalemate::Win,
                "loss" => Stalemate::Loss,
                _ => {
                    p.error(
                        span,
                        format!("`rules.draw.stalemate` is \"{s}\""),
                        Some("use \"draw\", \"win\" or \"loss\"".into()),
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
        Some(DrawRule { draws: d })
    }
}

impl Rule for DrawRule {
    fn name(&self) -> &'static str {
        "draw"
    }
    fn clone_box(&self) -> Box<dyn Rule> {
        Box::new(self.clone())
    }
    fn draws(&self) -> Option<Draws> {
        Some(self.draws)
    }
}
