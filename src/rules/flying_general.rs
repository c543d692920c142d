//! `flying-general`: the two sides' royal pieces may not face each other on an open file.
//!
//! ```toml
//! [rules.flying-general]
//! # no parameters
//! ```
//! Xiangqi's rule: a move that leaves the two Kings (Generals) on one file with no piece between
//! them is illegal, as if each attacked the other along the file. It pins a lone piece between
//! the Kings to that file and forbids a King to step onto the other's open file. A King never
//! really flies across the board: a position where it could has just been made by an illegal
//! move. With several royal pieces a side, the first one on the board is the one that counts.
//! A special move that also moves a second piece (castling) is judged by its main piece alone.

use super::{Registered, spec_as};
use crate::position::hooks::{EMPTY, Move, Position, Rule, RuleSpec, Ruleset};

pub const REGISTERED: Registered = Registered {
    name: "flying-general",
    about: "the royal pieces may not face each other on a file with nothing between them",
    parse: |_, _| Some(Box::new(FlyingGeneralSpec)),
    compile: |s, b| {
        spec_as::<FlyingGeneralSpec>(s)?;
        b.veto_every_move();
        Ok(Box::new(FlyingGeneral))
    },
};

/// The flying-general table (it has no parameters).
#[derive(Clone, Debug)]
pub struct FlyingGeneralSpec;

impl RuleSpec for FlyingGeneralSpec {
    fn name(&self) -> &'static str {
        "flying-general"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

/// In play: a veto of every move that opens the file between the royal pieces.
#[derive(Clone, Debug)]
struct FlyingGeneral;

impl Rule for FlyingGeneral {
    fn name(&self) -> &'static str {
        "flying-general"
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let names: Vec<&str> = rs
            .variant
            .pieces
            .iter()
            .zip(&rs.royalty.by_kind)
            .filter(|(_, r)| **r)
            .map(|(p, _)| p.name.as_str())
            .collect();
        format!(
            "The two {} may never face each other on a file with nothing between them: no move \
             may leave them so. A lone piece standing between them is therefore pinned to that \
             file, and a {} may not step onto a file the other one holds open.",
            if names.len() == 1 {
                format!("{}s", names[0])
            } else {
                "royal pieces".to_string()
            },
            names.first().copied().unwrap_or("royal piece")
        )
    }

    fn veto(&self, pos: &Position, mv: Move) -> bool {
        let side = pos.side();
        let (Some(mut mine), Some(theirs)) =
            (pos.royal_square(side), pos.royal_square(side.flip()))
        else {
            return true;
        };
        if mv.from == mine {
            mine = mv.to;
        }
        if mv.to == theirs {
            return true;
        }
        let g = pos.rules().geometry;
        if g.file(mine) != g.file(theirs) {
            return true;
        }
        let (lo, hi) = {
            let (a, b) = (g.rank(mine), g.rank(theirs));
            (a.min(b), a.max(b))
        };
        (lo + 1..hi).any(|r| {
            let s = g.square(g.file(mine), r);
            s == mv.to || (s != mv.from && pos.piece_at(s) != EMPTY)
        })
    }
}
