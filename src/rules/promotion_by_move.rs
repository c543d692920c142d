//! `promotion-by-move`: a piece that promotes only by some of its moves.
//!
//! ```toml
//! [rules.promotion-by-move]
//! T = "fmWfcF"   # piece letter = the components (XBetza) whose moves promote
//! ```
//! The Terachess II Troll (`GHfmWfcF`) promotes when its pawn-like step or capture reaches the
//! last rank, never by a leap. Each component named must be one of the piece's own. Requires the
//! `promotion` rule (for the zone) and a `promotes-to` list on the piece.

use super::Rule;
use crate::geometry::Color;
use crate::notation;
use crate::ruleset::Ruleset;
use crate::tables::PROMOTES;
use crate::variant::{Params, Val, Variant};

#[derive(Clone, Debug)]
pub struct PromotionByMoveRule {
    /// (kind, indices of the piece's components that promote).
    pub pieces: Vec<(usize, Vec<usize>)>,
}

impl PromotionByMoveRule {
    pub fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<PromotionByMoveRule> {
        let mut pieces = Vec::new();
        for (key, kspan, val) in p.all() {
            let kind = key
                .chars()
                .next()
                .filter(|_| key.chars().count() == 1)
                .and_then(|c| v.kind_by_letter(c));
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
        Some(PromotionByMoveRule { pieces })
    }
}

impl Rule for PromotionByMoveRule {
    fn name(&self) -> &'static str {
        "promotion-by-move"
    }
    fn clone_box(&self) -> Box<dyn Rule> {
        Box::new(self.clone())
    }
    fn configure_order(&self) -> u8 {
        1
    }

    fn configure(&mut self, rs: &mut Ruleset, _index: u8) -> Result<(), String> {
        let g = rs.geometry;
        for (kind, comps) in &self.pieces {
            for color in [Color::White, Color::Black] {
                for sq in g.squares() {
                    let (s, n) = rs.tables.index[rs.tables.slot(*kind, color, sq)];
                    for e in &mut rs.tables.entries[s as usize..(s + n as u32) as usize] {
                        if comps.contains(&(e.component as usize)) {
                            e.flags |= PROMOTES;
                        } else {
                            e.flags &= !PROMOTES;
                        }
                    }
                }
            }
        }
        Ok(())
    }
}
