//! `drops`: hands, and pieces dropped from them (Crazyhouse).
//!
//! ```toml
//! [rules.drops]
//! kinds = "QRBNP"                   # letters of the kinds that may be dropped
//! no-drop-ranks = { P = [1, 8] }    # per letter: ranks where that kind may not be dropped
//! captures = true                   # a captured piece goes to the captor's hand
//! ```
//! - `kinds` (letters, default: every non-royal piece): the kinds a side may drop. A royal
//!   kind cannot be dropped (and never goes to a hand).
//! - `no-drop-ranks` (table, default: none): piece letter = a rank number or a list of them,
//!   each side counting from its own first rank (for White rank 1 is its first, for Black
//!   rank 8 of an 8-rank board is), where that kind may not be dropped. Crazyhouse's Pawns:
//!   `P = [1, 8]`.
//! - `captures` (boolean, true): a captured piece changes sides and goes to the captor's
//!   hand. A piece that got its kind by promotion (marked `~` in the FEN) goes there as the
//!   kind it promoted from: the first kind whose `promotes-to` lists its kind (a Queen made
//!   from a Pawn returns as a Pawn).
//!
//! With this rule the sides have hands: the position keeps, per side, how many pieces of each
//! kind it holds (the FEN writes them in brackets after the placement, `[Qp]`), and a move may
//! put one of them on any empty square the restrictions allow (`MoveKind::Drop`, written
//! `P@e4`). A drop is legal like any other move: it may block a check, it may give check or
//! mate. A dropped piece counts as never having moved: a Pawn dropped on its second rank may
//! double-step, as in Crazyhouse; a Rook dropped on its corner gains no castling right.

use super::{Registered, join, kinds, spec_as};
use crate::position::hooks::{
    Builder, Color, EMPTY, Move, MoveList, Params, Position, Rule, RuleSpec, Ruleset, Square,
    Variant,
};

pub const REGISTERED: Registered = Registered {
    name: "drops",
    about: "hands: captured pieces change sides and may be dropped on empty squares",
    parse: |p, v| DropsSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| compile(spec_as::<DropsSpec>(s)?, b),
};

/// The drops table as read.
#[derive(Clone, Debug)]
pub struct DropsSpec {
    /// The kinds that may be dropped.
    pub kinds: Vec<usize>,
    /// Per kind listed: the ranks (0-based, from the side's own first rank) where it may not
    /// be dropped.
    pub no_drop_ranks: Vec<(usize, Vec<u8>)>,
    /// Whether a captured piece goes to the captor's hand.
    pub captures: bool,
}

impl RuleSpec for DropsSpec {
    fn name(&self) -> &'static str {
        "drops"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

impl DropsSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<DropsSpec> {
        let kinds = match p.letters("kinds", v) {
            Some(ks) => ks,
            None => (0..v.pieces.len())
                .filter(|&k| !v.pieces[k].royal)
                .collect(),
        };
        let captures = p.boolean("captures").unwrap_or(true);
        let mut no_drop_ranks = Vec::new();
        if let Some((entries, _)) = p.table("no-drop-ranks") {
            for (key, kspan, val) in entries {
                let kind = key
                    .chars()
                    .next()
                    .filter(|c| key.chars().count() == 1 && c.is_ascii_uppercase())
                    .and_then(|c| v.kind_by_letter(c));
                let Some(kind) = kind else {
                    p.error(
                        kspan.clone(),
                        format!(
                            "`rules.drops.no-drop-ranks.{key}`: no piece has the letter `{key}`"
                        ),
                        Some(crate::variant::params_letter_hint(v)),
                    );
                    continue;
                };
                if let Some(ranks) = p.ranks(
                    &format!("rules.drops.no-drop-ranks.{key}"),
                    val,
                    v.ranks,
                    true,
                    "counted from each side's own first rank",
                    &format!("{key} = [1, {}]", v.ranks),
                ) {
                    no_drop_ranks.push((kind, ranks));
                }
            }
        }
        Some(DropsSpec {
            kinds,
            no_drop_ranks,
            captures,
        })
    }
}

/// The rule in play: the squares each droppable kind may be dropped on, per colour.
#[derive(Clone, Debug)]
struct Drops {
    /// (kind, squares for White, squares for Black), the kinds in the variant's order.
    targets: Vec<(usize, [Vec<Square>; 2])>,
    /// The spec, for the explanation.
    spec: DropsSpec,
}

fn compile(spec: &DropsSpec, b: &mut Builder<'_>) -> Result<Box<dyn Rule>, String> {
    let rs = b.rules();
    let g = rs.geometry;
    let mut kinds = spec.kinds.clone();
    kinds.sort_unstable();
    kinds.dedup();
    if let Some(&k) = kinds.iter().find(|&&k| rs.royal[k]) {
        return Err(format!(
            "{} is royal and cannot be dropped: leave it out of `kinds`",
            rs.variant.pieces[k].name
        ));
    }
    let mut targets = Vec::with_capacity(kinds.len());
    for &k in &kinds {
        let banned: Vec<u8> = spec
            .no_drop_ranks
            .iter()
            .filter(|(kind, _)| *kind == k)
            .flat_map(|(_, r)| r.iter().copied())
            .collect();
        let squares = |color: Color| -> Vec<Square> {
            g.squares()
                .filter(|&sq| {
                    let own = match color {
                        Color::White => g.rank(sq),
                        Color::Black => g.ranks - 1 - g.rank(sq),
                    };
                    !banned.contains(&own)
                })
                .collect()
        };
        targets.push((k, [squares(Color::White), squares(Color::Black)]));
    }
    b.use_hands(spec.captures);
    b.add_moves();
    Ok(Box::new(Drops {
        targets,
        spec: spec.clone(),
    }))
}

impl Rule for Drops {
    fn name(&self) -> &'static str {
        "drops"
    }

    fn generate(&self, pos: &Position, out: &mut MoveList) {
        let side = pos.side();
        for (k, squares) in &self.targets {
            if pos.hand(side, *k) == 0 {
                continue;
            }
            for &sq in &squares[side.index()] {
                if pos.piece_at(sq) == EMPTY {
                    out.push(Move::drop(*k, sq));
                }
            }
        }
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let ks: Vec<usize> = self.targets.iter().map(|(k, _)| *k).collect();
        let mut text = if self.spec.captures {
            "A captured piece changes sides: it goes to the captor's hand, a promoted piece as \
             the piece it promoted from. "
                .to_owned()
        } else {
            "Captured pieces leave the game; pieces in hand come only from the position. "
                .to_owned()
        };
        text.push_str(&format!(
            "Instead of moving, a side may drop a piece from its hand ({}) on any empty square",
            kinds(rs, &ks, "or")
        ));
        let mut limits = Vec::new();
        for (k, ranks) in &self.spec.no_drop_ranks {
            let white: Vec<String> = ranks.iter().map(|r| (r + 1).to_string()).collect();
            let black: Vec<String> = ranks
                .iter()
                .map(|r| (rs.geometry.ranks - r).to_string())
                .collect();
            limits.push(format!(
                "{} not on rank {} (White) or rank {} (Black)",
                super::a(&rs.variant.pieces[*k].name),
                join(&white, "or"),
                join(&black, "or")
            ));
        }
        if limits.is_empty() {
            text.push_str(", even to give check or mate.");
        } else {
            text.push_str(&format!(
                ", {}; a drop may give check or mate.",
                join(&limits, "and")
            ));
        }
        text
    }
}
