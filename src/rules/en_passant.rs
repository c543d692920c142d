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

use super::Rule;
use crate::geometry::Color;
use crate::ruleset::Ruleset;
use crate::tables::{EP, MAKES_EP};
use crate::variant::{Params, PieceDef, Variant};

#[derive(Clone, Debug)]
pub struct EnPassantRule {
    pub capturers: Option<Vec<usize>>,
    pub victims: Option<Vec<usize>>,
}

impl EnPassantRule {
    pub fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<EnPassantRule> {
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
                            piece.name, piece.letter, piece.betza_text
                        ),
                        None,
                    );
                }
            }
        }
        Some(EnPassantRule { capturers, victims })
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

impl Rule for EnPassantRule {
    fn name(&self) -> &'static str {
        "en-passant"
    }
    fn clone_box(&self) -> Box<dyn Rule> {
        Box::new(self.clone())
    }
    fn configure(&mut self, rs: &mut Ruleset, _index: u8) -> Result<(), String> {
        let g = rs.geometry;
        for kind in 0..rs.variant.pieces.len() {
            let mut clear = 0;
            if self.capturers.as_ref().is_some_and(|c| !c.contains(&kind)) {
                clear |= EP;
            }
            if self.victims.as_ref().is_some_and(|c| !c.contains(&kind)) {
                clear |= MAKES_EP;
            }
            if clear == 0 {
                continue;
            }
            for color in [Color::White, Color::Black] {
                for sq in g.squares() {
                    let (s, n) = rs.tables.index[rs.tables.slot(kind, color, sq)];
                    for e in &mut rs.tables.entries[s as usize..(s + n as u32) as usize] {
                        e.flags &= !clear;
                    }
                }
            }
        }
        Ok(())
    }
}
