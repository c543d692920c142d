//! `promotion`: where pieces promote and whether they must.
//!
//! ```toml
//! [rules.promotion]
//! zone = 1             # integer, default 1: the last `zone` ranks (seen from each side);
//!                      # or the name of a zone of `[zones]` (its squares, each side its own)
//! piece-zones = { S = "corners" }  # optional: a zone of `[zones]` per piece letter, where
//!                      # that piece promotes instead (Tamerlane's Ship only in the corners)
//! optional = false     # boolean, default false: promotion is compulsory
//! compulsory-zone = 0  # integer, default 0: with `optional`, the last ranks of the zone where
//!                      # promotion is compulsory all the same (Grand Chess: zone 3, this 1)
//! lost-only = false    # boolean, default false: promote only to a kind the side has fewer
//!                      # of than in the start position
//! leaving = false      # boolean, default false: a move that starts in the zone promotes
//!                      # too, wherever it ends (Shogi)
//! compulsory-where-stuck = false  # boolean, default false: promotion is compulsory where
//!                      # the piece, unpromoted, would have no move at all (Shogi's Pawn and
//!                      # Lance on the last rank, Knight on the last two), read from the
//!                      # move tables
//! inside-by-capture = false  # boolean, default false: a move that starts in the zone
//!                      # promotes only when it captures, or where the piece, unpromoted,
//!                      # would have no move at all (Chu Shogi)
//! ```
//! What each piece may become is the piece's own `promotes-to` list; a piece without one
//! never promotes. A move that ends in the zone promotes. `compulsory-zone` counts ranks, so it
//! goes with a zone of ranks only; in a named zone promotion is compulsory unless `optional`. Where promotion is compulsory and
//! no choice is left (`lost-only`), the piece may not move there at all; where it is optional
//! and no choice is left, it moves there unpromoted.

use super::{Registered, kinds, spec_as};
use crate::position::hooks::{
    Arrival, Builder, Color, EMPTY, Move, Params, Position, Rule, RuleSpec, Ruleset, SquareSet,
    Val, Variant, code, color_of, kind_of,
};

pub const REGISTERED: Registered = Registered {
    name: "promotion",
    about: "promotion zone, compulsory or optional by rank, and promotion to lost pieces only",
    parse: |p, v| PromotionSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| Promotion::compile(spec_as::<PromotionSpec>(s)?, b).map(|r| Box::new(r) as _),
};

/// The promotion table as read.
#[derive(Clone, Debug)]
pub struct PromotionSpec {
    /// The zone's depth in ranks (unused when `named`).
    pub zone: u8,
    /// `zone` given by name: its index in the variant's zones (then `zone` is unused).
    pub named: Option<usize>,
    /// Per piece kind, a named zone where it promotes instead.
    pub piece_zones: Vec<(usize, usize)>,
    /// Promotion may be declined.
    pub optional: bool,
    /// With `optional`, the last ranks where it is compulsory all the same.
    pub compulsory_zone: u8,
    /// Only to kinds the side has fewer of than at the start.
    pub lost_only: bool,
    /// A move that starts in the zone promotes too.
    pub leaving: bool,
    /// Promotion is compulsory where the piece would have no move.
    pub where_stuck: bool,
    /// A move that starts in the zone promotes only by a capture (or where the piece would be
    /// stuck).
    pub inside_by_capture: bool,
}

impl RuleSpec for PromotionSpec {
    fn name(&self) -> &'static str {
        "promotion"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
    /// After the rules that make pieces royal (`royal-succession`), whose royal kinds it reads.
    fn order(&self) -> u8 {
        1
    }
}

impl PromotionSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<PromotionSpec> {
        let zone_by_name = |p: &mut Params<'_, '_>, name: &str, span| -> Option<usize> {
            let i = v.zones.iter().position(|z| z.name == name);
            if i.is_none() {
                let names: Vec<&str> = v.zones.iter().map(|z| z.name.as_str()).collect();
                p.error(
                    span,
                    format!("no zone is named `{name}`"),
                    Some(if names.is_empty() {
                        "declare it in a `[zones]` table, or give a number of ranks".to_string()
                    } else {
                        format!("the zones: {}", names.join(", "))
                    }),
                );
            }
            i
        };
        let (zone, named) = match p.get("zone").map(|x| (x.val.clone(), x.span.clone())) {
            Some((Val::Str(name), span)) => (1, zone_by_name(p, &name, span)),
            _ => (p.int("zone", 1, v.ranks as i64).unwrap_or(1) as u8, None),
        };
        let mut piece_zones = Vec::new();
        if let Some((t, _)) = p.table("piece-zones") {
            for (letter, lspan, val) in t {
                let kind = v.kind_by_symbol(letter);
                let Some(kind) = kind else {
                    p.error(
                        lspan.clone(),
                        format!("`piece-zones`: no piece has the letter `{letter}`"),
                        None,
                    );
                    continue;
                };
                match &val.val {
                    Val::Str(name) => {
                        if let Some(z) = zone_by_name(p, name, val.span.clone()) {
                            piece_zones.push((kind, z));
                        }
                    }
                    _ => p.error(
                        val.span.clone(),
                        format!("`piece-zones.{letter}` must name a zone"),
                        None,
                    ),
                }
            }
        }
        let optional = p.boolean("optional").unwrap_or(false);
        let compulsory_zone = p.int("compulsory-zone", 0, zone as i64).unwrap_or(0) as u8;
        if named.is_some() && compulsory_zone > 0 {
            let span = p.span.clone();
            p.error(
                span,
                "`compulsory-zone` counts ranks: it goes with a `zone` of ranks, not a named zone",
                None,
            );
        }
        let lost_only = p.boolean("lost-only").unwrap_or(false);
        let leaving = p.boolean("leaving").unwrap_or(false);
        let where_stuck = p.boolean("compulsory-where-stuck").unwrap_or(false);
        let inside_by_capture = p.boolean("inside-by-capture").unwrap_or(false);
        Some(PromotionSpec {
            leaving,
            where_stuck,
            inside_by_capture,
            zone,
            named,
            piece_zones,
            optional,
            compulsory_zone,
            lost_only,
        })
    }
}

/// Promotion, compiled: the arrivals are in the core's table; what stays here is the limit of
/// `lost-only`.
#[derive(Clone, Debug)]
pub struct Promotion {
    /// The table as read, for the explanation.
    spec: PromotionSpec,
    /// Per kind, per colour: how many of that kind a side may have after a promotion (its
    /// count in the start position), when promotion is only to lost pieces.
    limit: Option<Vec<[u32; 2]>>,
    /// The royal kinds, when some royal piece may promote to a piece that is not royal: such a
    /// promotion is allowed only while its side keeps another royal piece (a side never
    /// promotes its last royal piece away). Empty otherwise.
    royals: Vec<usize>,
    /// With `inside-by-capture`, by side: the squares a move starts on that promotes only
    /// by a capture, and where each kind would be stuck (by kind, side: squares).
    inside: Option<InsideByCapture>,
}

/// `inside-by-capture`, compiled.
#[derive(Clone, Debug)]
struct InsideByCapture {
    /// By side: the zone's squares (where a promoting move that starts needs a capture).
    zone: [SquareSet; 2],
    /// By kind, then side: the squares where the piece, unpromoted, has no move at all.
    stuck: Vec<[SquareSet; 2]>,
}

impl Promotion {
    fn compile(spec: &PromotionSpec, b: &mut Builder<'_>) -> Result<Promotion, String> {
        let rs = b.rules();
        let g = rs.geometry;
        let nkinds = rs.variant.pieces.len();
        let must = if spec.optional {
            spec.compulsory_zone
        } else {
            spec.zone
        };
        // Ranks counted from each side's far end: 0 is the last rank.
        let from_end = |color: Color, r: u8| match color {
            Color::White => g.ranks - 1 - r,
            Color::Black => r,
        };
        let choices: Vec<Vec<u8>> = rs
            .variant
            .pieces
            .iter()
            .map(|p| p.promotes_to.iter().map(|&k| k as u8).collect())
            .collect();
        // Where each side's moves start that promote only by a capture (`inside-by-capture`).
        let mut zone = [SquareSet::default(); 2];
        for (kind, choices) in choices.into_iter().enumerate() {
            if choices.is_empty() {
                continue;
            }
            let named = spec
                .piece_zones
                .iter()
                .find(|(k, _)| *k == kind)
                .map(|&(_, z)| z)
                .or(spec.named);
            for color in [Color::White, Color::Black] {
                for sq in g.squares() {
                    let d = from_end(color, g.rank(sq));
                    let (inside, stay) = match named {
                        Some(z) => (
                            b.rules().variant.zones[z].contains(color, sq),
                            spec.optional,
                        ),
                        None => (d < spec.zone, d >= must),
                    };
                    if !inside {
                        continue;
                    }
                    zone[color.index()].insert(sq);
                    let stuck = spec.where_stuck && stuck_on(b.rules(), kind, color, sq);
                    let arrival = Arrival {
                        stay: stay && !stuck,
                        choices: choices.clone(),
                    };
                    b.set_arrival(kind, color, sq, arrival);
                    if spec.leaving {
                        let departure = Arrival {
                            stay: spec.optional,
                            choices: choices.clone(),
                        };
                        b.set_departure(kind, color, sq, departure);
                    }
                }
            }
            b.edit_entries(kind, |e| e.set_promotes(true));
        }
        let limit = spec.lost_only.then(|| {
            let mut limit = vec![[0u32; 2]; nkinds];
            for &c in &b.rules().start {
                if c != EMPTY {
                    limit[kind_of(c)][color_of(c).index()] += 1;
                }
            }
            limit
        });
        let rs = b.rules();
        let demotes_royal = rs.variant.pieces.iter().enumerate().any(|(k, p)| {
            rs.is_royal_kind(k) && p.promotes_to.iter().any(|&to| !rs.is_royal_kind(to))
        });
        let royals: Vec<usize> = if demotes_royal {
            (0..nkinds).filter(|&k| rs.is_royal_kind(k)).collect()
        } else {
            Vec::new()
        };
        let inside = spec
            .inside_by_capture
            .then(|| InsideByCapture::new(b.rules(), zone));
        if limit.is_some() || !royals.is_empty() || inside.is_some() {
            b.veto_every_move();
        }
        Ok(Promotion {
            spec: spec.clone(),
            limit,
            royals,
            inside,
        })
    }
}

impl InsideByCapture {
    /// The zone's squares by side, and where each kind would be stuck, read from the tables.
    fn new(rs: &Ruleset, zone: [SquareSet; 2]) -> InsideByCapture {
        let stuck = (0..rs.variant.pieces.len())
            .map(|kind| {
                let mut by_side = [SquareSet::default(); 2];
                for color in [Color::White, Color::Black] {
                    for sq in rs.geometry.squares() {
                        if stuck_on(rs, kind, color, sq) {
                            by_side[color.index()].insert(sq);
                        }
                    }
                }
                by_side
            })
            .collect();
        InsideByCapture { zone, stuck }
    }
}

/// Whether a piece of `kind` and `color` on `sq` has no move at all, even on an empty board
/// (a Shogi Pawn on its last rank): its move tables reach no square from there.
fn stuck_on(rs: &Ruleset, kind: usize, color: Color, sq: crate::position::hooks::Square) -> bool {
    let t = &rs.tables;
    t.entries_at(kind, color, sq)
        .iter()
        .all(|e| t.squares_of(e).is_empty())
}

/// "the last rank (12)" or "the last 3 ranks (8 to 10)", for White.
fn ranks_words(n: u8, ranks: u8) -> String {
    if n == 1 {
        format!("the last rank (rank {ranks} for White, 1 for Black)")
    } else {
        format!(
            "the last {n} ranks (ranks {} to {ranks} for White, {n} to 1 for Black)",
            ranks + 1 - n
        )
    }
}

impl Rule for Promotion {
    fn name(&self) -> &'static str {
        "promotion"
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let s = &self.spec;
        let ranks = rs.geometry.ranks;
        let pieces = &rs.variant.pieces;
        // Pieces with the same choices in one sentence.
        let mut groups: Vec<(Vec<usize>, Vec<usize>)> = Vec::new();
        for (k, p) in pieces.iter().enumerate() {
            if p.promotes_to.is_empty() {
                continue;
            }
            match groups.iter_mut().find(|g| g.1 == p.promotes_to) {
                Some(g) => g.0.push(k),
                None => groups.push((vec![k], p.promotes_to.clone())),
            }
        }
        if groups.is_empty() {
            return "No piece promotes in this game.".to_owned();
        }
        let each: Vec<String> = groups
            .iter()
            .enumerate()
            .map(|(i, (who, to))| {
                let verb = if i == 0 { " promotes" } else { "" };
                format!("{}{verb} to {}", kinds(rs, who, "or"), kinds(rs, to, "or"))
            })
            .collect();
        let place = match s.named {
            Some(z) => format!("a square of `{}`", rs.variant.zones[z].name),
            None => ranks_words(s.zone, ranks),
        };
        let mut out = vec![format!(
            "Pieces promote on reaching {place}: {}.",
            each.join("; ")
        )];
        for &(k, z) in &s.piece_zones {
            out.push(format!(
                "The {} promotes only on a square of `{}`.",
                pieces[k].name, rs.variant.zones[z].name
            ));
        }
        out.push(
            "Any move that ends there promotes, a capture or a double step as well.".to_owned(),
        );
        if !s.optional {
            out.push("Promotion is compulsory.".to_owned());
        } else if s.compulsory_zone > 0 {
            out.push(format!(
                "Promotion is optional, except on {}, where it is compulsory.",
                ranks_words(s.compulsory_zone, ranks)
            ));
        } else {
            out.push("Promotion is optional: the piece may stay what it is.".to_owned());
        }
        if s.leaving {
            out.push("A move that starts there may promote as well, wherever it ends.".to_owned());
        }
        if s.inside_by_capture {
            out.push(
                "A move that starts in the zone promotes only when it captures, or where the \
                 piece would otherwise have no move at all."
                    .to_owned(),
            );
        }
        if s.where_stuck {
            out.push(
                "Where a piece that stays what it is would have no move at all (a piece that \
                 moves only forward, on the last rank), it must promote."
                    .to_owned(),
            );
        }
        if s.lost_only {
            out.push(
                "A piece may only promote to a kind its side has fewer of than at the start \
                 (one that has been captured); where promotion is compulsory and no such piece \
                 is left to choose, the piece may not move there at all."
                    .to_owned(),
            );
        }
        out.join(" ")
    }

    /// With `lost-only`: a promotion to a kind the side has as many of as at the start is
    /// forbidden (so where promotion is compulsory, a piece with no choice left cannot move).
    ///
    /// A royal piece promoting to a piece that is not royal must leave its side another royal
    /// piece.
    fn veto(&self, pos: &Position, mv: Move) -> bool {
        let Some(k) = mv.promotion() else {
            return true;
        };
        let side = pos.side();
        if let Some(inside) = &self.inside
            && inside.zone[side.index()].contains(mv.from)
            && pos.capture_square(mv).is_none()
            && !inside.stuck[kind_of(pos.piece_at(mv.from))][side.index()].contains(mv.to)
        {
            return false;
        }
        if !self.royals.is_empty() {
            let mover = kind_of(pos.piece_at(mv.from));
            if self.royals.contains(&mover) && !self.royals.contains(&k) {
                let royal_count: u32 = self.royals.iter().map(|&r| pos.count(code(r, side))).sum();
                if royal_count < 2 {
                    return false;
                }
            }
        }
        match &self.limit {
            Some(limit) => pos.count(code(k, side)) < limit[k][side.index()],
            None => true,
        }
    }
}
