//! `royal-swap`: once per game the royal piece changes places with one of its own pieces
//! (Timur's chess: the King escaping check, checkmate or stalemate).
//!
//! ```toml
//! [rules.royal-swap]
//! with = "I"          # letters, or "any" (default): the kinds the royal piece may swap with
//! when = "in-check"   # "in-check" (default), "in-check-or-stalemate" or "always"
//! letter = "S"        # the rights letter (default "S": `S` White, `s` Black)
//! ```
//! Each side holds the right from the start (FEN rights `S` / `s`) and loses it when it
//! swaps; a side whose royal piece is gone (captured under royal succession) keeps a right it
//! cannot use. The swap is a move of a piece of a royal kind (`royal = true`) onto the square of
//! one of its side's pieces of the `with` kinds, which goes to the royal piece's square. It
//! never captures and never promotes (a piece it puts on a promotion square stays what it
//! is, and a piece that could not stay what it is there, such as a Pawn on its last rank, is
//! not swapped onto it), and it is legal only if the side's royal pieces are not attacked
//! afterwards. With `when = "in-check"` it is played only by a side in check; with
//! `"in-check-or-stalemate"` also by a side that has no other legal move; with `"always"` at
//! any time. It is written as the royal piece's move onto the partner's square (`e1f1`, SAN
//! `Kf1`): no other move of a royal piece ends on a square of its own side, so the squares
//! name it.
//! The rights letter may be neither `K` nor `Q` nor a file letter of the board (castling and
//! the king leap use those).

use super::{Registered, kinds, royal_name, spec_as};
use crate::position::hooks::{
    Builder, Code, Color, EMPTY, Effect, Effects, Move, MoveKind, MoveList, Params, Position, Rule,
    RuleSpec, Ruleset, Square, Val, Variant, color_of, kind_of,
};

pub const REGISTERED: Registered = Registered {
    name: "royal-swap",
    about: "once per game the royal piece changes places with one of its own pieces",
    parse: |p, v| RoyalSwapSpec::build(p, v).map(|s| Box::new(s) as Box<dyn RuleSpec>),
    compile: |s, b| RoyalSwap::compile(spec_as::<RoyalSwapSpec>(s)?, b).map(|r| Box::new(r) as _),
};

/// When the swap may be played.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum When {
    /// Only by a side in check.
    InCheck,
    /// By a side in check or with no other legal move.
    InCheckOrStalemate,
    /// At any time.
    Always,
}

/// The royal-swap table as read.
#[derive(Clone, Debug)]
pub struct RoyalSwapSpec {
    /// The partner kinds; `None`: any piece.
    pub with: Option<Vec<usize>>,
    /// When it may be played.
    pub when: When,
    /// The rights letter (upper case; Black's is the lower case).
    pub letter: char,
}

impl RuleSpec for RoyalSwapSpec {
    fn name(&self) -> &'static str {
        "royal-swap"
    }
    fn clone_spec(&self) -> Box<dyn RuleSpec> {
        Box::new(self.clone())
    }
}

impl RoyalSwapSpec {
    fn build(p: &mut Params<'_, '_>, v: &Variant) -> Option<RoyalSwapSpec> {
        let span = p.span.clone();
        if !v.pieces.iter().any(|pc| pc.royal) {
            p.error(
                span,
                "`rules.royal-swap` needs a royal piece (`royal = true`) to swap",
                None,
            );
            return None;
        }
        let with = match p.get("with").map(|s| &s.val) {
            Some(Val::Str(s)) if s == "any" => None,
            Some(_) => Some(p.letters("with", v)?),
            None => None,
        };
        if with.as_ref().is_some_and(|w| w.is_empty()) {
            p.error(
                span.clone(),
                "`rules.royal-swap.with` names no piece",
                Some("with = \"I\", or with = \"any\"".into()),
            );
            return None;
        }
        let when = match p.string("when") {
            None => When::InCheck,
            Some((s, sp)) => match s.as_str() {
                "in-check" => When::InCheck,
                "in-check-or-stalemate" => When::InCheckOrStalemate,
                "always" => When::Always,
                _ => {
                    p.error(
                        sp,
                        format!("`rules.royal-swap.when` is \"{s}\""),
                        Some("\"in-check\", \"in-check-or-stalemate\" or \"always\"".into()),
                    );
                    return None;
                }
            },
        };
        let (text, sp) = p
            .string("letter")
            .unwrap_or_else(|| ("S".to_owned(), span.clone()));
        let mut cs = text.chars();
        let letter = match (cs.next(), cs.next()) {
            (Some(c), None) if c.is_ascii_alphabetic() => c.to_ascii_uppercase(),
            _ => '?',
        };
        let file =
            letter.is_ascii_uppercase() && ((letter as u8 - b'A') as usize) < v.files as usize;
        if letter == '?' || letter == 'K' || letter == 'Q' || file {
            p.error(
                sp,
                format!(
                    "`rules.royal-swap` would write its right as \"{text}\": it needs one \
                     letter, neither K nor Q nor a file letter of this board (castling and the \
                     king leap use those)"
                ),
                Some("letter = \"W\"".into()),
            );
            return None;
        }
        Some(RoyalSwapSpec { with, when, letter })
    }
}

/// The royal swap, compiled.
#[derive(Clone, Debug)]
pub struct RoyalSwap {
    /// Rights bit of White; Black's is the next.
    first_bit: u16,
    /// Per kind: whether it is a royal kind as the variant declares it (the mover).
    mover: Vec<bool>,
    /// Per kind: whether it may be the partner.
    partner: Vec<bool>,
    /// The partner kinds as configured (`None`: any), for the explanation.
    with: Option<Vec<usize>>,
    when: When,
    letter: char,
    /// This rule's index (`aux` of its moves).
    index: u8,
    /// Per kind: the squares of its zone by side where it is `confined` (a swap never takes
    /// it out).
    confine: Vec<Option<[crate::moves::SquareSet; 2]>>,
}

impl RoyalSwap {
    fn bit(&self, c: Color) -> u16 {
        1 << (self.first_bit + c.index() as u16)
    }

    fn compile(spec: &RoyalSwapSpec, b: &mut Builder<'_>) -> Result<RoyalSwap, String> {
        let v = &b.rules().variant;
        let n = v.pieces.len();
        let mover: Vec<bool> = v.pieces.iter().map(|p| p.royal).collect();
        let partner: Vec<bool> = (0..n)
            .map(|k| spec.with.as_ref().is_none_or(|w| w.contains(&k)))
            .collect();
        let confine: Vec<_> = v
            .pieces
            .iter()
            .map(|p| p.confined.map(|z| v.zones[z].squares))
            .collect();
        let first_bit = b.claim_rights(2)?;
        let index = b.index();
        b.add_moves();
        b.moves_have_effects()?;
        Ok(RoyalSwap {
            first_bit,
            mover,
            partner,
            with: spec.with.clone(),
            when: spec.when,
            letter: spec.letter,
            index,
            confine,
        })
    }

    /// Whether the piece `c` of `side` may stand on `sq` as far as its confinement goes.
    fn stays_inside(&self, c: Code, sq: Square, side: Color) -> bool {
        self.confine
            .get(kind_of(c))
            .and_then(|z| z.as_ref())
            .is_none_or(|z| z[side.index()].contains(sq))
    }

    fn is_mover(&self, c: Code) -> bool {
        c != EMPTY && self.mover.get(kind_of(c)).copied().unwrap_or(false)
    }

    /// Whether the side to move has a legal move other than a swap (a copy of the position
    /// is searched: only asked for a swap out of stalemate, never in the common case).
    fn has_other_move(&self, pos: &Position) -> bool {
        let mut p = pos.snapshot();
        let mut list = MoveList::new();
        p.pseudo_legal_moves(&mut list);
        list.iter()
            .any(|&m| !(m.is_rule_made() && m.aux == self.index) && p.is_legal_pseudo(m))
    }
}

impl Rule for RoyalSwap {
    fn name(&self) -> &'static str {
        "royal-swap"
    }

    fn start_rights(&self, rs: &Ruleset) -> u16 {
        let mut r = 0;
        for c in [Color::White, Color::Black] {
            if rs
                .start
                .iter()
                .any(|&p| self.is_mover(p) && color_of(p) == c)
            {
                r |= self.bit(c);
            }
        }
        r
    }

    fn parse_right(&self, _rs: &Ruleset, c: char) -> Option<u16> {
        if c == self.letter {
            Some(self.bit(Color::White))
        } else if c == self.letter.to_ascii_lowercase() {
            Some(self.bit(Color::Black))
        } else {
            None
        }
    }

    fn write_rights(&self, _rs: &Ruleset, rights: u16, out: &mut String) {
        if rights & self.bit(Color::White) != 0 {
            out.push(self.letter);
        }
        if rights & self.bit(Color::Black) != 0 {
            out.push(self.letter.to_ascii_lowercase());
        }
    }

    fn generate(&self, pos: &Position, out: &mut MoveList) {
        let me = pos.side();
        if pos.rights() & self.bit(me) == 0 {
            return;
        }
        if self.when == When::InCheck && !pos.in_check() {
            return;
        }
        let own = pos.occupied(me);
        for from in own.iter() {
            let king = pos.piece_at(from);
            if !self.is_mover(king) {
                continue;
            }
            for to in own.iter() {
                let other = pos.piece_at(to);
                if to == from || other == king || !self.partner[kind_of(other)] {
                    continue;
                }
                // The partner never promotes, so it may not land where it would have to.
                if !pos.rules().arrival(kind_of(other), me, from).stay {
                    continue;
                }
                // Neither piece leaves the zone it is confined to.
                if !self.stays_inside(king, to, me) || !self.stays_inside(other, from, me) {
                    continue;
                }
                out.push(Move {
                    from,
                    to,
                    promo: 0,
                    kind: MoveKind::Rule,
                    aux: self.index,
                });
            }
        }
    }

    fn move_word(&self) -> &'static str {
        "swap"
    }

    /// A swap out of stalemate needs the side to have no other legal move.
    fn allows(&self, pos: &Position, _mv: Move) -> bool {
        self.when != When::InCheckOrStalemate || pos.in_check() || !self.has_other_move(pos)
    }

    /// The royal piece goes to its partner's square and the partner to the royal piece's
    /// (both lift first, then both land); the side's swap right and the partner's rights go,
    /// and the move-count clock restarts.
    fn effects(&self, pos: &Position, mv: Move, fx: &mut Effects) {
        let partner = pos.piece_at(mv.to);
        fx.push(Effect::Move {
            from: mv.from,
            to: mv.to,
        });
        fx.push(Effect::Relocate {
            from: mv.to,
            to: mv.from,
        });
        fx.push(Effect::LoseRights {
            bits: pos.rules().rights.code_clears[partner.index()] | self.bit(pos.side()),
        });
        fx.push(Effect::Irreversible);
    }

    fn explain(&self, rs: &Ruleset) -> String {
        let king = royal_name(rs);
        let partner = match &self.with {
            None => "any other piece of its own side".to_owned(),
            Some(w) => format!("{} of its own side", kinds(rs, w, "or")),
        };
        let when = match self.when {
            When::InCheck => "only to get out of check",
            When::InCheckOrStalemate => {
                "only to get out of check, or when its side has no other legal move"
            }
            When::Always => "at any time",
        };
        let g = rs.geometry;
        let example = rs
            .start
            .iter()
            .enumerate()
            .find(|&(_, &p)| self.is_mover(p) && color_of(p) == Color::White)
            .map(|(s, _)| g.name(Square::from_index(s)).to_string());
        let written = match example {
            Some(sq) => format!(
                "It is written as the {king}'s move onto the partner's square (from {sq}: \
                 {sq} followed by that square)"
            ),
            None => format!("It is written as the {king}'s move onto the partner's square"),
        };
        format!(
            "Once per game, each side's {king} may change places with {partner}, {when}: the \
             {king} goes to that piece's square and the piece to the {king}'s. The swap never \
             captures, the piece moved does not promote, and the {king} may not be left \
             attacked. {written}. The right is written {} (White) and {} (Black) in the FEN's \
             rights field and is lost once used.",
            self.letter,
            self.letter.to_ascii_lowercase()
        )
    }
}
