//! `promotion-by-move`: a piece that promotes only by some of its moves.
//!
//! ```toml
//! [rules.promotion-by-move]
//! T = "fmWfcF"   # piece letter = the components (XBetza) whose moves promote
//! ```
//! The Terachess II Troll (`GHfmWfcF`) promotes when its pawn-like step or capture reaches the
//! last rank, never by a leap. Each component named must be one of the piece's own. Requires the
//! `promotion` rule (for the zone) and a `promotes-to` list on the piece.

use super::{Registered, spec_as};
use crate::notation::{self, words};
use crate::position::hooks::{Builder, Params, Rule, RuleSpec, Ruleset, Val, Variant};

pub const REGISTERED: Registered = Registered {
    name: "promotion-by-move",
    about: "pieces that promote only by some of their moves",
    parse: |p, v| PromotionByMoveSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| compile(spec_as::<PromotionByMoveSpec>(s)?, b),
};

/// The promotion-by-move table as read.
#[derive(Clone, Debug)]
pub struct PromotionByMoveSpec {
    /// (kind, indices of the piece's components that promote).
    pub pieces: Vec<(usize, Vec<usize>)>,
}

impl RuleSpec for PromotionByMoveSpec {
    fn name(&self) -> &'static str {
        "promotion-by-move"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
    /// After `promotion`, whose marks it narrows.
    fn order(&self) -> u8 {
        2
    }
}

/// Compiling is all this rule does: it narrows the promoting entries of its pieces to the
/// components named. In play it does nothing more; it keeps its table for its explanation.
#[derive(Clone, Debug)]
struct PromotionByMove {
    pieces: Vec<(usize, Vec<usize>)>,
}

impl Rule for PromotionByMove {
    fn name(&self) -> &'static str {
        "promotion-by-move"
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let mut out = Vec::new();
        for (kind, comps) in &self.pieces {
            let piece = &rs.variant.pieces[*kind];
            let moves = notation::Betza {
                components: comps
                    .iter()
                    .filter_map(|&i| piece.betza.components.get(i).cloned())
                    .collect(),
            };
            out.push(format!(
                "The {} promotes only when one of these moves ends in the promotion zone: it {} \
                 (`{moves}`). Its other moves never promote it, even when they end there.",
                piece.name,
                words::clauses(&moves).join("; or it ")
            ));
        }
        out.join(" ")
    }
}

fn compile(spec: &PromotionByMoveSpec, b: &mut Builder<'_>) -> Result<Box<dyn Rule>, String> {
    for (kind, comps) in &spec.pieces {
        b.edit_entries(*kind, |e| {
            e.set_promotes(comps.contains(&(e.component as usize)));
        });
    }
    Ok(Box::new(PromotionByMove {
        pieces: spec.pieces.clone(),
    }))
}

impl PromotionByMoveSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<PromotionByMoveSpec> {
        let mut pieces = Vec::new();
        for (key, kspan, val) in p.all() {
            let kind = v.kind_by_symbol(key);
            let Some(kind) = kind else {
                p.error(
                    kspan.clone(),
                    format!("`rules.promotion-by-move.{key}`: no piece has the letter `{key}`"),
                    Some(crate::variant::params_letter_hint(v)),
                );
                continue;
            };
            let Val::Str(text) = &val.val else {
                p.error(
                    val.span.clone(),
                    "expected the XBetza of the promoting moves, as a string",
                    None,
                );
                continue;
            };
            let parsed = match notation::parse(text) {
                Ok(b) => b,
                Err(e) => {
                    p.error(val.span.clone(), format!("bad notation: {e}"), None);
                    continue;
                }
            };
            let own = &v.pieces[kind].betza.components;
            let mut idx = Vec::new();
            for c in &parsed.components {
                match own.iter().position(|o| o == c) {
                    Some(i) => idx.push(i),
                    None => p.error(
                        val.span.clone(),
                        format!(
                            "`{}` is not one of {}'s moves (`{}`)",
                            notation::Betza {
                                components: vec![c.clone()]
                            },
                            v.pieces[kind].name,
                            v.pieces[kind].betza_text
                        ),
                        Some("name components exactly as the piece's betza writes them".into()),
                    ),
                }
            }
            pieces.push((kind, idx));
        }
        Some(PromotionByMoveSpec { pieces })
    }
}
