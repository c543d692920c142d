//! `goal-squares`: a side whose piece reaches a goal square wins (King of the Hill), as
//! Fairy-Stockfish plays its flag games.
//!
//! ```toml
//! [rules.goal-squares]
//! zone = "hill"    # required: a zone of `[zones]`, each side its own copy
//! pieces = "K"     # letters, default: the royal pieces
//! ```
//!
//! After each move, when a piece of `pieces` of the side that moved stands in that side's copy
//! of the zone, that side wins at once. The ending comes before checkmate and stalemate
//! ([`crate::position::hooks::Builder::ends_games_at_once`]), and perft counts no move past
//! it. A piece may reach the zone only by a legal move, so a King does not win by stepping
//! into check there. This is Fairy-Stockfish's `flagPiece` with `flagRegionWhite` and
//! `flagRegionBlack` (its King of the Hill: the four centre squares), where only the side
//! that just moved is looked at.

use super::{Registered, kinds, spec_as};
use crate::position::hooks::{
    Code, Color, GameResult, Outcome, Params, Position, Rule, RuleSpec, Ruleset, SquareSet,
    Termination, Variant, code,
};

pub const REGISTERED: Registered = Registered {
    name: "goal-squares",
    about: "a side whose piece reaches a goal square wins",
    parse: |p, v| GoalSquaresSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| {
        let spec = spec_as::<GoalSquaresSpec>(s)?.clone();
        let rs = b.rules();
        let pieces: Vec<usize> = match &spec.pieces {
            Some(k) => k.clone(),
            None => rs.royal_kinds().collect(),
        };
        if pieces.is_empty() {
            return Err("the goal-squares rule needs `pieces`, or a royal piece".into());
        }
        let zone = rs.variant.zones[spec.zone].squares;
        let codes = pieces
            .iter()
            .map(|&k| [code(k, Color::White), code(k, Color::Black)])
            .collect();
        let zone_name = rs.variant.zones[spec.zone].name.clone();
        b.ends_games_at_once();
        Ok(Box::new(GoalSquares {
            zone,
            codes,
            pieces,
            zone_name,
        }))
    },
};

/// The goal-squares table as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalSquaresSpec {
    /// The zone, an index into the variant's zones.
    pub zone: usize,
    /// The kinds that win there; `None`: the royal kinds.
    pub pieces: Option<Vec<usize>>,
}

impl RuleSpec for GoalSquaresSpec {
    fn name(&self) -> &'static str {
        "goal-squares"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
    /// After the rules that make pieces royal, whose royal kinds it reads.
    fn order(&self) -> u8 {
        1
    }
}

impl GoalSquaresSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<GoalSquaresSpec> {
        let table = p.span.clone();
        let pieces = p.letters("pieces", v);
        let names: Vec<&str> = v.zones.iter().map(|z| z.name.as_str()).collect();
        let hint = if names.is_empty() {
            "declare the squares in a `[zones]` table (hill = { squares = [\"d4\", \"e4\"] }) \
             and name it: zone = \"hill\""
                .to_string()
        } else {
            format!("the zones: {}", names.join(", "))
        };
        let zone = match p.string("zone") {
            Some((name, span)) => {
                let i = names.iter().position(|n| *n == name);
                if i.is_none() {
                    p.error(span, format!("no zone is named `{name}`"), Some(hint));
                }
                i?
            }
            None => {
                if !p.last_unknown {
                    p.error(
                        table,
                        "`rules.goal-squares` needs `zone`: the zone of the goal squares",
                        Some(hint),
                    );
                }
                return None;
            }
        };
        Some(GoalSquaresSpec { zone, pieces })
    }
}

/// In play: the goal squares by side, and the codes of the pieces that win there.
#[derive(Clone, Debug)]
struct GoalSquares {
    zone: [SquareSet; 2],
    /// Each winning kind's codes, White's and Black's.
    codes: Vec<[Code; 2]>,
    pieces: Vec<usize>,
    zone_name: String,
}

impl GoalSquares {
    /// Whether a piece of `side` that wins there stands on one of its goal squares (asked
    /// after every move: the goal squares are few, the side's pieces may be many).
    fn reached(&self, pos: &Position, side: Color) -> bool {
        self.zone[side.index()].iter().any(|sq| {
            let c = pos.piece_at(sq);
            self.codes.iter().any(|k| k[side.index()] == c)
        })
    }
}

/// The words of the ending (a `[[test]]`'s `ending = "goal-squares"`).
const GOAL: &str = "Goal squares";

impl Rule for GoalSquares {
    fn name(&self) -> &'static str {
        "goal-squares"
    }

    fn ending(&self, pos: &Position) -> Option<Outcome> {
        let mover = pos.side().flip();
        self.reached(pos, mover).then(|| Outcome {
            result: GameResult::win_for(mover),
            reason: Termination::Rule(GOAL),
        })
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let g = rs.geometry;
        let squares: Vec<String> = self.zone[Color::White.index()]
            .iter()
            .map(|sq| g.name(sq).to_string())
            .collect();
        let black: Vec<String> = self.zone[Color::Black.index()]
            .iter()
            .map(|sq| g.name(sq).to_string())
            .collect();
        let whose = if squares == black {
            format!("{} (`{}`)", squares.join(", "), self.zone_name)
        } else {
            format!(
                "{} for White, {} for Black (`{}`)",
                squares.join(", "),
                black.join(", "),
                self.zone_name
            )
        };
        format!(
            "A side that brings {} to one of the goal squares {whose} wins at once, before \
             checkmate and stalemate are judged.",
            kinds(rs, &self.pieces, "or")
        )
    }
}
