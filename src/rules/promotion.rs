//! `promotion`: where pieces promote and whether they must.
//!
//! ```toml
//! [rules.promotion]
//! zone = 1          # integer, default 1: the last `zone` ranks (seen from each side)
//! optional = false  # boolean, default false: promotion is compulsory
//! ```
//! What each piece may become is the piece's own `promotes-to` list; a piece without one
//! never promotes. A move that ends in the zone promotes.

use super::Rule;
use crate::geometry::Color;
use crate::ruleset::Ruleset;
use crate::tables::PROMOTES;
use crate::variant::{Params, Variant};

#[derive(Clone, Debug)]
pub struct PromotionRule {
    pub zone: u8,
    pub optional: bool,
}

impl PromotionRule {
    pub fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<PromotionRule> {
        let zone = p.int("zone", 1, v.ranks as i64).unwrap_or(1) as u8;
        let optional = p.boolean("optional").unwrap_or(false);
        Some(PromotionRule { zone, optional })
    }
}

impl Rule for PromotionRule {
    fn name(&self) -> &'static str {
        "promotion"
    }
    fn clone_box(&self) -> Box<dyn Rule> {
        Box::new(self.clone())
    }
    fn configure(&mut self, rs: &mut Ruleset, _index: u8) -> Result<(), String> {
        let g = rs.geometry;
        for sq in g.squares() {
            let r = g.rank(sq);
            if r >= g.ranks - self.zone {
                rs.promo_zone[Color::White.index()].insert(sq);
            }
            if r < self.zone {
                rs.promo_zone[Color::Black.index()].insert(sq);
            }
        }
        rs.promo_optional = self.optional;
        for kind in 0..rs.variant.pieces.len() {
            if rs.promo_choices[kind].is_empty() {
                continue;
            }
            for color in [Color::White, Color::Black] {
                for sq in g.squares() {
                    let (s, n) = rs.tables.index[rs.tables.slot(kind, color, sq)];
                    for e in &mut rs.tables.entries[s as usize..(s + n as u32) as usize] {
                        e.flags |= PROMOTES;
                    }
                }
            }
        }
        Ok(())
    }
}
