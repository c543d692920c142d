//! `promotion`: where pieces promote and whether they must.
//!
//! ```toml
//! [rules.promotion]
//! zone = 1             # integer, default 1: the last `zone` ranks (seen from each side)
//! optional = false     # boolean, default false: promotion is compulsory
//! compulsory-zone = 0  # integer, default 0: with `optional`, the last ranks of the zone where
//!                      # promotion is compulsory all the same (Grand Chess: zone 3, this 1)
//! lost-only = false    # boolean, default false: promote only to a kind the side has fewer
//!                      # of than in the start position
//! ```
//! What each piece may become is the piece's own `promotes-to` list; a piece without one
//! never promotes. A move that ends in the zone promotes. Where promotion is compulsory and
//! no choice is left (`lost-only`), the piece may not move there at all; where it is optional
//! and no choice is left, it moves there unpromoted.

use super::Rule;
use crate::geometry::Color;
use crate::ruleset::Ruleset;
use crate::tables::PROMOTES;
use crate::variant::{Params, Variant};

#[derive(Clone, Debug)]
pub struct PromotionRule {
    pub zone: u8,
    pub optional: bool,
    pub compulsory_zone: u8,
    pub lost_only: bool,
}

impl PromotionRule {
    pub fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<PromotionRule> {
        let zone = p.int("zone", 1, v.ranks as i64).unwrap_or(1) as u8;
        let optional = p.boolean("optional").unwrap_or(false);
        let compulsory_zone = p.int("compulsory-zone", 0, zone as i64).unwrap_or(0) as u8;
        let lost_only = p.boolean("lost-only").unwrap_or(false);
        Some(PromotionRule {
            zone,
            optional,
            compulsory_zone,
            lost_only,
        })
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
        let must = if self.optional {
            self.compulsory_zone
        } else {
            self.zone
        };
        for sq in g.squares() {
            let r = g.rank(sq);
            if r >= g.ranks - self.zone {
                rs.promo_zone[Color::White.index()].insert(sq);
            }
            if r < self.zone {
                rs.promo_zone[Color::Black.index()].insert(sq);
            }
            if r >= g.ranks - must {
                rs.promo_compulsory[Color::White.index()].insert(sq);
            }
            if r < must {
                rs.promo_compulsory[Color::Black.index()].insert(sq);
            }
        }
        rs.promo_optional = self.optional && must == 0;
        if self.lost_only {
            let mut limit = vec![[0u8; 2]; rs.variant.pieces.len()];
            for &c in &rs.start {
                if c != crate::moves::EMPTY {
                    let k = crate::moves::kind_of(c);
                    let i = crate::moves::color_of(c).index();
                    limit[k][i] = limit[k][i].saturating_add(1);
                }
            }
            rs.promo_limit = Some(limit);
        }
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
