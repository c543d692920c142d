//! `promotion-in-place`: Sittuyin's promotion, as Fairy-Stockfish plays it.
//!
//! ```toml
//! [rules.promotion-in-place]
//! pieces = "P"        # letters, required: the kinds that promote so
//! to = "F"            # letter, required: the kind they become
//! zone = "diagonals"  # a zone of [zones], required: where they may (each side's copy)
//! last-anywhere = true  # boolean, default false: a side's last piece of `pieces` anywhere
//! limit = 1           # integer, default 1: only while the side has fewer of `to` on the board
//! no-attack = true    # boolean, default false: the promoted piece may attack no enemy piece
//! ```
//!
//! A piece of `pieces` standing in its side's copy of `zone` (or, with `last-anywhere`, the
//! side's only one) may, instead of moving, become a `to` where it stands, or step one square
//! diagonally (any of the four directions) to an empty square and become one there. Only while
//! the side has fewer than `limit` pieces of `to` on the board; with `no-attack`, never where
//! the promoted piece attacks an enemy piece, nor giving check by a piece the move uncovers
//! (Fairy-Stockfish's rule). It is optional: the piece may move as usual instead. Written with the promoted
//! piece's letter, as Fairy-Stockfish writes them: `d5d5f` in place, `d5e4f` by a step.

use super::{Registered, a, kinds, spec_as};
use crate::position::hooks::{
    Code, Color, EMPTY, Move, MoveKind, MoveList, Params, Position, Rule, RuleSpec, Ruleset, Shape,
    Square, SquareSet, Variant, code, color_of, kind_of,
};

pub const REGISTERED: Registered = Registered {
    name: "promotion-in-place",
    about: "Sittuyin's promotion: in place or by a diagonal step, on the zone's squares",
    parse: |p, v| PromotionInPlaceSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| {
        let spec = spec_as::<PromotionInPlaceSpec>(s)?.clone();
        let rs = b.rules();
        let zone = rs.variant.zones[spec.zone].squares;
        b.add_moves();
        b.moves_have_effects()?;
        Ok(Box::new(PromotionInPlace {
            index: b.index(),
            zone,
            spec,
        }))
    },
};

/// The rule as read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromotionInPlaceSpec {
    /// The kinds that promote.
    pub pieces: Vec<usize>,
    /// The kind they become.
    pub to: usize,
    /// The zone, an index into the variant's zones.
    pub zone: usize,
    /// Whether a side's last piece of `pieces` promotes anywhere.
    pub last_anywhere: bool,
    /// Promotion only while the side has fewer of `to` on the board.
    pub limit: u32,
    /// Whether the promoted piece may attack no enemy piece where it stands.
    pub no_attack: bool,
}

impl RuleSpec for PromotionInPlaceSpec {
    fn name(&self) -> &'static str {
        "promotion-in-place"
    }
    fn promotes_kind(&self, kind: usize) -> bool {
        self.pieces.contains(&kind)
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

impl PromotionInPlaceSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<PromotionInPlaceSpec> {
        let table = p.span.clone();
        let pieces = p.letters("pieces", v);
        let to = p.letters("to", v);
        let last_anywhere = p.boolean("last-anywhere").unwrap_or(false);
        let limit = p.int("limit", 1, 64).unwrap_or(1) as u32;
        let no_attack = p.boolean("no-attack").unwrap_or(false);
        let names: Vec<&str> = v.zones.iter().map(|z| z.name.as_str()).collect();
        let zone = match p.string("zone") {
            Some((name, span)) => {
                let i = names.iter().position(|n| *n == name);
                if i.is_none() {
                    p.error(
                        span,
                        format!("no zone is named `{name}`"),
                        Some(format!("the zones: {}", names.join(", "))),
                    );
                }
                i
            }
            None => None,
        };
        match (pieces, to, zone) {
            (Some(pieces), Some(to), Some(zone)) if to.len() == 1 => Some(PromotionInPlaceSpec {
                pieces,
                to: to[0],
                zone,
                last_anywhere,
                limit,
                no_attack,
            }),
            _ => {
                if !p.last_unknown {
                    p.error(
                        table,
                        "`rules.promotion-in-place` needs `pieces`, `to` (one letter) and `zone`",
                        Some("pieces = \"P\", to = \"F\", zone = \"diagonals\" (a zone of `[zones]`)".into()),
                    );
                }
                None
            }
        }
    }
}

/// In play.
#[derive(Clone, Debug)]
struct PromotionInPlace {
    spec: PromotionInPlaceSpec,
    /// This rule's index (`aux` of its moves).
    index: u8,
    /// The zone, by side.
    zone: [SquareSet; 2],
}

impl PromotionInPlace {
    /// Whether the piece on `sq` (of the side to move, of a kind that promotes) may promote.
    fn may_promote(&self, pos: &Position, sq: Square, last: bool) -> bool {
        self.zone[pos.side().index()].contains(sq) || (self.spec.last_anywhere && last)
    }
}

impl Rule for PromotionInPlace {
    fn name(&self) -> &'static str {
        "promotion-in-place"
    }

    fn generate(&self, pos: &Position, out: &mut MoveList) {
        let side = pos.side();
        if pos.count(code(self.spec.to, side)) >= self.spec.limit {
            return;
        }
        let g = pos.rules().geometry;
        let count: u32 = self
            .spec
            .pieces
            .iter()
            .map(|&k| pos.count(code(k, side)))
            .sum();
        let promo = self.spec.to as u8 + 1;
        for from in pos.occupied(side).iter() {
            let c = pos.piece_at(from);
            if !self.spec.pieces.contains(&kind_of(c)) || !self.may_promote(pos, from, count == 1) {
                continue;
            }
            let mut push = |to: Square| {
                out.push(Move {
                    from,
                    to,
                    promo,
                    kind: MoveKind::Rule,
                    aux: self.index,
                });
            };
            push(from);
            for (df, dr) in [(-1, -1), (1, -1), (-1, 1), (1, 1)] {
                if let Some(to) = g.offset(from, df, dr)
                    && pos.piece_at(to) == EMPTY
                {
                    push(to);
                }
            }
        }
    }

    /// With `no-attack`, no promotion after which the promoted piece attacks an enemy piece
    /// (its own captures from where it lands, the pawn's square left empty), nor one that gives
    /// check (a piece it uncovers).
    fn allows(&self, pos: &Position, mv: Move) -> bool {
        if !self.spec.no_attack {
            return true;
        }
        let side = pos.side();
        let rs = pos.rules();
        let (board, _) = pos.board_after(mv);
        let enemy = |c: Code| c != EMPTY && color_of(c) != side;
        // No check either, by the new piece or by one the move uncovers.
        if let Some(royal) = pos.royal_square(side.flip())
            && pos.attacked_on(&board, royal, side)
        {
            return false;
        }
        let t = &rs.tables;
        !t.entries_at(self.spec.to, side, mv.to)
            .iter()
            .filter(|e| e.modes().capture && t.conds_hold(&board, e.cond_start, e.cond_len))
            .any(|e| {
                let squares = t.squares_of(e);
                match e.shape() {
                    Shape::Leap => enemy(board[squares[0].index()]),
                    _ => squares
                        .iter()
                        .map(|&s| board[s.index()])
                        .find(|&c| c != EMPTY)
                        .is_some_and(enemy),
                }
            })
    }

    fn move_word(&self) -> &'static str {
        "promote"
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let v = &rs.variant;
        let to = a(&v.pieces[self.spec.to].name);
        let g = rs.geometry;
        let squares: Vec<String> = self.zone[Color::White.index()]
            .iter()
            .map(|sq| g.name(sq).to_string())
            .collect();
        let last = if self.spec.last_anywhere {
            ", or anywhere when it is its side's last one"
        } else {
            ""
        };
        let limit = match self.spec.limit {
            1 => format!(
                " while its side has no {} on the board",
                v.pieces[self.spec.to].name
            ),
            n => format!(
                " while its side has fewer than {n} of {} on the board",
                v.pieces[self.spec.to].name
            ),
        };
        let check = if self.spec.no_attack {
            " The new piece may not attack an enemy piece where it stands, and the promotion \
             may not give check."
        } else {
            ""
        };
        format!(
            "Promotion in place: {} on {} (White's squares; Black's are their mirror){last} may \
             become {to}{limit}, where it stands or by one diagonal step to an empty square, \
             instead of moving.{check}",
            kinds(rs, &self.spec.pieces, "or"),
            squares.join(", ")
        )
    }
}
