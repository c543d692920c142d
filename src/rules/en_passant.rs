//! `en-passant`: who may capture en passant, and who may be captured.
//!
//! ```toml
//! [rules.en-passant]
//! capturers = "P"   # letters; default: every piece whose notation has `e`
//! victims = "PI"    # letters; default: every piece with an `nn` or `in` step
//! ```
//! The notation carries the geometry: `fceF` is a capture that may also take en passant, and
//! `fmnnD` is a double step that leaves en-passant rights on the square passed. This rule only
//! narrows who may use them.

use super::{Registered, kinds, spec_as};
use crate::position::hooks::{Builder, Params, Rule, RuleSpec, Ruleset, Variant};
use crate::variant::PieceDef;

pub const REGISTERED: Registered = Registered {
    name: "en-passant",
    about: "who may capture en passant and who may be captured",
    parse: |p, v| EnPassantSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| compile(spec_as::<EnPassantSpec>(s)?, b),
};

/// The en-passant table as read.
#[derive(Clone, Debug)]
pub struct EnPassantSpec {
    /// The kinds that may capture en passant (`None`: any with an `e` move).
    pub capturers: Option<Vec<usize>>,
    /// The kinds that may be captured so (`None`: any that made an `nn`/`in` step).
    pub victims: Option<Vec<usize>>,
}

impl EnPassantSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<EnPassantSpec> {
        let capturers = p.letters("capturers", v);
        let victims = p.letters("victims", v);
        // A capturer must have an `e` move, a victim an `nn` or `in` step: otherwise naming it
        // does nothing, which is surely a mistake.
        let span = p.span.clone();
        for (list, what, needs, has) in [
            (
                &capturers,
                "capturers",
                "an en-passant capture (`e`)",
                has_e as fn(&PieceDef) -> bool,
            ),
            (
                &victims,
                "victims",
                "a step that leaves en-passant rights (`nn` or `in`)",
                leaves_ep,
            ),
        ] {
            for &k in list.iter().flatten() {
                let piece = &v.pieces[k];
                if !has(piece) {
                    p.error(
                        span.clone(),
                        format!(
                            "`rules.en-passant.{what}` names {} ({}), whose movement `{}` lacks {needs}",
                            piece.name, piece.symbol, piece.betza_text
                        ),
                        None,
                    );
                }
            }
        }
        Some(EnPassantSpec { capturers, victims })
    }
}

fn has_e(p: &PieceDef) -> bool {
    p.betza
        .components
        .iter()
        .any(|c| c.legs.iter().any(|l| l.mods.e))
}

fn leaves_ep(p: &PieceDef) -> bool {
    p.betza.components.iter().any(|c| {
        c.legs
            .first()
            .is_some_and(|l| l.mods.n >= 2 || (l.mods.initial && l.mods.n >= 1))
    })
}

impl RuleSpec for EnPassantSpec {
    fn name(&self) -> &'static str {
        "en-passant"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

/// Compiling is all this rule does: it clears the en-passant marks of the pieces not named.
/// It keeps who may capture and who may be taken, for its explanation.
#[derive(Clone, Debug)]
struct EnPassant {
    capturers: Vec<usize>,
    victims: Vec<usize>,
}

impl Rule for EnPassant {
    fn name(&self) -> &'static str {
        "en-passant"
    }

    fn explain(&self, rs: &Ruleset) -> String {
        if self.capturers.is_empty() || self.victims.is_empty() {
            return "No piece captures en passant in this game.".to_owned();
        }
        let victims = kinds(rs, &self.victims, "or");
        let capturers = kinds(rs, &self.capturers, "or");
        format!(
            "When {victims} makes a step of two or more squares that leaves en-passant rights (a \
             double step), an enemy piece that could capture on a square it passed may, on the \
             very next move only, capture it by moving to that square, as if it had stopped \
             there. Only {capturers} captures en passant, and only {victims} can be taken this way."
        )
    }
}

fn compile(spec: &EnPassantSpec, b: &mut Builder<'_>) -> Result<Box<dyn Rule>, String> {
    for kind in 0..b.rules().variant.pieces.len() {
        if spec.capturers.as_ref().is_some_and(|c| !c.contains(&kind)) {
            b.edit_entries(kind, |e| e.forbid_en_passant());
        }
        if spec.victims.as_ref().is_some_and(|c| !c.contains(&kind)) {
            b.edit_entries(kind, |e| e.forbid_leaving_ep());
        }
    }
    let all = &b.rules().variant.pieces;
    let named = |list: &Option<Vec<usize>>, has: fn(&PieceDef) -> bool| -> Vec<usize> {
        (0..all.len())
            .filter(|&k| has(&all[k]) && list.as_ref().is_none_or(|l| l.contains(&k)))
            .collect()
    };
    let rule = EnPassant {
        capturers: named(&spec.capturers, has_e),
        victims: named(&spec.victims, leaves_ep),
    };
    Ok(Box::new(rule))
}
