//! `initial-ranks`: the ranks from which a piece may make its `i` (initial) moves.
//!
//! ```toml
//! [rules.initial-ranks]
//! P = { ranks = [2, 3], moves = "ifmnD" }  # piece letter = where its `i` moves start
//! ```
//! - `ranks`: an integer or a list of integers, each side counting from its own first rank
//!   (rank 2 is White's second rank and Black's second-to-last);
//! - `moves`: the piece's `i` components this applies to, written as its `betza` writes them
//!   (default: all of them).
//!
//! Without this rule a piece may make its `i` moves only from a square where the start
//! position has a piece like it (the usual "has not moved yet", for pieces that start on the
//! squares they may leave by an `i` move). With it, the components named may start from any
//! square of the ranks listed, whatever the piece did before; the others keep the default.
//!
//! Wildebeest: a Pawn (`fmWfceFifmnDifmnH`) moves one, two or three squares from rank 2, and
//! a Pawn on rank 3 that has made only a one-square move may still double-step. A Pawn on
//! rank 3 can only have got there by one single move (a step or a capture from rank 2), so
//! `P = { ranks = [2, 3], moves = "ifmnD" }` says exactly that; the triple step keeps the
//! default (rank 2, where every Pawn starts).
//!
//! The decision is made when the move tables are compiled, before any rule is compiled
//! ([`RuleSpec::initial_moves`]), so the moves it allows are in the tables that every other
//! rule edits (en passant, promotion) and in the attack probes.

use super::{Registered, a, join, spec_as};
use crate::geometry::{Color, Geometry, Square};
use crate::notation::{self, words};
use crate::position::hooks::{Builder, Params, Rule, RuleSpec, Ruleset, Val, Variant};

pub const REGISTERED: Registered = Registered {
    name: "initial-ranks",
    about: "the ranks from which a piece may make its initial (`i`) moves",
    parse: |p, v| InitialRanksSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| compile(spec_as::<InitialRanksSpec>(s)?, b),
};

/// One piece's entry: its `i` components named and the ranks (0-based, from the side's own
/// first rank) they may start from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PieceRanks {
    pub kind: usize,
    pub components: Vec<usize>,
    pub ranks: Vec<u8>,
}

/// The initial-ranks table as read.
#[derive(Clone, Debug)]
pub struct InitialRanksSpec {
    pub pieces: Vec<PieceRanks>,
}

impl RuleSpec for InitialRanksSpec {
    fn name(&self) -> &'static str {
        "initial-ranks"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
    fn initial_moves(
        &self,
        variant: &Variant,
        kind: usize,
        component: usize,
        color: Color,
        sq: Square,
    ) -> Option<bool> {
        let p = self
            .pieces
            .iter()
            .find(|p| p.kind == kind && p.components.contains(&component))?;
        let g = Geometry::new(variant.files, variant.ranks);
        let rank = match color {
            Color::White => g.rank(sq),
            Color::Black => variant.ranks - 1 - g.rank(sq),
        };
        Some(p.ranks.contains(&rank))
    }
}

/// Everything this rule does happens while the tables are compiled; in play it does nothing.
/// It keeps its table for its explanation.
#[derive(Clone, Debug)]
struct InitialRanks {
    pieces: Vec<PieceRanks>,
}

impl Rule for InitialRanks {
    fn name(&self) -> &'static str {
        "initial-ranks"
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let mut out = Vec::new();
        for p in &self.pieces {
            let piece = &rs.variant.pieces[p.kind];
            for &i in &p.components {
                let Some(c) = piece.betza.components.get(i) else {
                    continue;
                };
                let mut plain = c.clone();
                plain.legs[0].mods.initial = false;
                let move_words = words::clauses(&notation::Betza {
                    components: vec![plain],
                })
                .join("; ");
                let white: Vec<String> = p.ranks.iter().map(|r| (r + 1).to_string()).collect();
                let black: Vec<String> = p
                    .ranks
                    .iter()
                    .map(|r| (rs.geometry.ranks - r).to_string())
                    .collect();
                out.push(format!(
                    "{} may make its first-move option `{}` (it {move_words}) from any square of \
                     rank {} (White) or rank {} (Black), even if it has moved before.",
                    a(&piece.name),
                    notation::Betza {
                        components: vec![c.clone()]
                    },
                    join(&white, "or"),
                    join(&black, "or")
                ));
            }
        }
        let mut text = out.join(" ");
        if let Some(first) = text.get(..1) {
            text = first.to_uppercase() + &text[1..];
        }
        text
    }
}

fn compile(spec: &InitialRanksSpec, _b: &mut Builder<'_>) -> Result<Box<dyn Rule>, String> {
    Ok(Box::new(InitialRanks {
        pieces: spec.pieces.clone(),
    }))
}

impl InitialRanksSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<InitialRanksSpec> {
        let mut pieces = Vec::new();
        for (key, kspan, val) in p.all() {
            let kind = v
                .kind_by_symbol(key)
                .filter(|_| !key.chars().any(|c| c.is_ascii_lowercase()));
            let Some(kind) = kind else {
                p.error(
                    kspan.clone(),
                    format!("`rules.initial-ranks.{key}`: no piece has the letter `{key}`"),
                    Some(crate::variant::params_letter_hint(v)),
                );
                continue;
            };
            let piece = &v.pieces[kind];
            let own = &piece.betza.components;
            let Val::Table(entries) = &val.val else {
                p.error(
                    val.span.clone(),
                    format!(
                        "`rules.initial-ranks.{key}` must be a table, found {}",
                        val.val.type_name()
                    ),
                    Some(format!("write `{key} = {{ ranks = [2, 3] }}`")),
                );
                continue;
            };
            let mut ranks = None;
            let mut components = None;
            for (k, span, value) in entries {
                match k.as_str() {
                    "ranks" => {
                        ranks = p.ranks(
                            &format!("rules.initial-ranks.{key}.ranks"),
                            value,
                            v.ranks,
                            false,
                            "counted from each side's own first rank",
                            "ranks = [2, 3]",
                        )
                    }
                    "moves" => components = read_moves(p, key, value, piece),
                    _ => p.error(
                        span.clone(),
                        format!("unknown key `{k}` in `rules.initial-ranks.{key}`"),
                        Some("known keys: moves, ranks".into()),
                    ),
                }
            }
            let Some(ranks) = ranks else {
                if !entries.iter().any(|(k, _, _)| k == "ranks") {
                    p.error(
                        val.span.clone(),
                        format!("`rules.initial-ranks.{key}` needs `ranks`"),
                        Some(format!("write `{key} = {{ ranks = [2, 3] }}`")),
                    );
                }
                continue;
            };
            let components = match components {
                Some(c) => c,
                None if entries.iter().any(|(k, _, _)| k == "moves") => continue,
                None => {
                    let all: Vec<usize> = (0..own.len())
                        .filter(|&i| own[i].legs[0].mods.initial)
                        .collect();
                    if all.is_empty() {
                        p.error(
                            kspan.clone(),
                            format!(
                                "`rules.initial-ranks.{key}`: {} (`{}`) has no `i` move",
                                piece.name, piece.betza_text
                            ),
                            None,
                        );
                        continue;
                    }
                    all
                }
            };
            pieces.push(PieceRanks {
                kind,
                components,
                ranks,
            });
        }
        Some(InitialRanksSpec { pieces })
    }
}

/// `moves`: components of the piece's own notation, each an `i` one; their indices.
fn read_moves(
    p: &mut Params<'_, '_>,
    key: &str,
    value: &crate::variant::SVal,
    piece: &crate::variant::PieceDef,
) -> Option<Vec<usize>> {
    let Val::Str(text) = &value.val else {
        p.error(
            value.span.clone(),
            format!(
                "`rules.initial-ranks.{key}.moves` must be XBetza as a string, found {}",
                value.val.type_name()
            ),
            None,
        );
        return None;
    };
    let parsed = match notation::parse(text) {
        Ok(b) => b,
        Err(e) => {
            p.error(value.span.clone(), format!("bad notation: {e}"), None);
            return None;
        }
    };
    let own = &piece.betza.components;
    let mut idx = Vec::new();
    let mut ok = true;
    for c in &parsed.components {
        let written = notation::Betza {
            components: vec![c.clone()],
        };
        match own.iter().position(|o| o == c) {
            Some(i) if own[i].legs[0].mods.initial => idx.push(i),
            Some(_) => {
                p.error(
                    value.span.clone(),
                    format!("`{written}` is not an initial (`i`) move"),
                    Some("only `i` moves have a place they may start from".into()),
                );
                ok = false;
            }
            None => {
                p.error(
                    value.span.clone(),
                    format!(
                        "`{written}` is not one of {}'s moves (`{}`)",
                        piece.name, piece.betza_text
                    ),
                    Some("name components exactly as the piece's betza writes them".into()),
                );
                ok = false;
            }
        }
    }
    ok.then_some(idx)
}
