//! What a move does, as a short list of effects: the one description of every move kind that
//! make, unmake, the changed squares an evaluation follows, the hash and the notation read.
//!
//! [`Position::effects`] turns a move into its [`Effects`]; make applies them in two phases
//! (every piece the move lifts or takes comes off first, then every piece it puts down lands),
//! so that the effects of one move act at once and their squares may overlap (a castling king
//! landing where its rook stood, a royal piece swapping places with another).

use crate::geometry::Square;
use crate::moves::{Code, EMPTY, Move, MoveKind, code, color_of, kind_of};

use super::Position;

/// One thing a move does to the board or the hands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Effect {
    /// Nothing (a free slot of [`Effects`]).
    #[default]
    None,
    /// The enemy piece on `sq` is taken off the board.
    Capture {
        /// The square it stood on.
        sq: Square,
    },
    /// The enemy piece on `sq` is taken off the board and goes to the captor's hand as `kind`
    /// (with hands; a hand already full keeps its count).
    CaptureToHand {
        /// The square it stood on.
        sq: Square,
        /// The kind it becomes in the hand.
        kind: u8,
    },
    /// The moving piece goes from `from` to `to`.
    Move {
        /// Where it stood.
        from: Square,
        /// Where it lands.
        to: Square,
    },
    /// A second piece of the mover goes from `from` to `to` (a castling partner, the partner
    /// of a royal swap).
    Relocate {
        /// Where it stood.
        from: Square,
        /// Where it lands.
        to: Square,
    },
    /// A piece of `kind` from the mover's hand is put on the empty square `to`.
    Drop {
        /// The kind dropped.
        kind: u8,
        /// Where it lands.
        to: Square,
    },
    /// The piece that landed on `sq` becomes a `kind` of the mover.
    Promote {
        /// Its square.
        sq: Square,
        /// The kind it becomes.
        kind: u8,
    },
    /// The rights `bits` are lost (beyond those the squares and pieces touched clear).
    LoseRights {
        /// The rights bits.
        bits: u16,
    },
    /// The move restarts the move-count clock, whatever it captures or moves.
    Irreversible,
}

/// Most effects one move has.
pub const MAX_EFFECTS: usize = 6;

/// The effects of one move, in order: a fixed-size list that allocates nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Effects {
    list: [Effect; MAX_EFFECTS],
    len: u8,
}

impl Effects {
    /// Adds an effect at the end (ignored when the list is full).
    #[inline]
    pub fn push(&mut self, e: Effect) {
        if let Some(slot) = self.list.get_mut(self.len as usize) {
            *slot = e;
            self.len += 1;
        }
    }

    /// The effects in order.
    #[inline]
    pub fn as_slice(&self) -> &[Effect] {
        &self.list[..self.len as usize]
    }

    /// The square of the piece the move takes, if it takes one.
    pub fn capture(&self) -> Option<Square> {
        self.as_slice().iter().find_map(|e| match *e {
            Effect::Capture { sq } | Effect::CaptureToHand { sq, .. } => Some(sq),
            _ => None,
        })
    }

    /// The kind the move promotes to, if it promotes.
    pub fn promotion(&self) -> Option<usize> {
        self.as_slice().iter().find_map(|e| match *e {
            Effect::Promote { kind, .. } => Some(kind as usize),
            _ => None,
        })
    }

    /// The kind the move drops from the hand, if it is a drop.
    pub fn dropped(&self) -> Option<usize> {
        self.as_slice().iter().find_map(|e| match *e {
            Effect::Drop { kind, .. } => Some(kind as usize),
            _ => None,
        })
    }

    /// The squares a second piece goes between, if the move relocates one (castling).
    pub fn relocation(&self) -> Option<(Square, Square)> {
        self.as_slice().iter().find_map(|e| match *e {
            Effect::Relocate { from, to } => Some((from, to)),
            _ => None,
        })
    }
}

impl Position {
    /// The square of the piece a board move of the side to move takes, if any: the en-passant
    /// victim for an en-passant capture, the square a locust move takes on the way (it may
    /// take a second piece on its destination: [`Position::effects`] lists both), else the
    /// destination when an enemy piece stands there. The one place that says where a move
    /// captures.
    #[inline]
    pub fn capture_square(&self, mv: Move) -> Option<Square> {
        match mv.kind {
            MoveKind::Drop => None,
            MoveKind::EnPassant => Some(self.ep_victim),
            MoveKind::Locust => {
                // A pass through an empty square takes nothing there.
                let c = self.board[mv.aux as usize];
                (c != EMPTY && color_of(c) != self.side).then_some(Square::new(mv.aux))
            }
            _ => {
                let c = self.board[mv.to.index()];
                (c != EMPTY && color_of(c) != self.side).then_some(mv.to)
            }
        }
    }

    /// Where a board move would take a piece: [`Position::capture_square`] without the test
    /// that a piece stands there (the legality test's board-only make reads it).
    #[inline(always)]
    pub(super) fn taken_square(&self, mv: Move) -> Square {
        match mv.kind {
            MoveKind::EnPassant => self.ep_victim,
            _ => mv.to,
        }
    }

    /// What `mv` (pseudo-legal for the side to move) does, as effects in order: a capture,
    /// the mover's move (or the drop), a second piece relocated, a promotion, rights lost. The
    /// one description of each move: make, unmake, [`Position::move_changes`] and the
    /// notation follow it. A rule's move that does more than an ordinary move gets its
    /// effects from its rule ([`super::hooks::Rule::effects`]).
    #[inline]
    pub fn effects(&self, mv: Move) -> Effects {
        let mut fx = Effects::default();
        match mv.kind {
            MoveKind::Drop => fx.push(Effect::Drop {
                kind: mv.aux,
                to: mv.to,
            }),
            MoveKind::Rule if self.rules.rule_has_effects(mv.aux) => {
                self.rules.dispatch.hooks[mv.aux as usize].effects(self, mv, &mut fx)
            }
            _ => self.ordinary_effects(mv, &mut fx),
        }
        fx
    }

    /// The board after `mv`, laid on a copy as make lays it (what the move lifts or takes
    /// comes off, then what it puts down lands), and the royal piece it carries, if any, as
    /// (from, to): for rules that judge a move before it is made. Allocates nothing.
    pub fn board_after(&self, mv: Move) -> ([Code; 256], Option<(Square, Square)>) {
        let fx = self.effects(mv);
        let mut board = self.board;
        let (mut moved, mut other) = (EMPTY, EMPTY);
        for &e in fx.as_slice() {
            match e {
                Effect::Capture { sq } | Effect::CaptureToHand { sq, .. } => {
                    board[sq.index()] = EMPTY;
                }
                Effect::Move { from, .. } => {
                    moved = board[from.index()];
                    board[from.index()] = EMPTY;
                }
                Effect::Relocate { from, .. } => {
                    other = board[from.index()];
                    board[from.index()] = EMPTY;
                }
                _ => {}
            }
        }
        let mut royal = None;
        for &e in fx.as_slice() {
            let (from, to, piece) = match e {
                Effect::Move { from, to } => match fx.promotion() {
                    Some(k) => (from, to, code(k, self.side)),
                    None => (from, to, moved),
                },
                Effect::Relocate { from, to } => (from, to, other),
                Effect::Drop { kind, to } => (to, to, code(kind as usize, self.side)),
                _ => continue,
            };
            board[to.index()] = piece;
            if from != to && self.rules.is_royal(self.board[from.index()]) {
                royal = Some((from, to));
            }
        }
        (board, royal)
    }

    /// The move that `mv` is written as when a rule made it as an addition to another move
    /// ([`super::hooks::Rule::written_as`]).
    pub fn written_as(&self, mv: Move) -> Option<Move> {
        if !mv.is_rule_made() {
            return None;
        }
        let rule = self.rules.dispatch.hooks.get(mv.aux as usize)?;
        rule.written_as(self, mv)
    }

    /// The effects of an ordinary board move: a capture on its square (or en passant, or on
    /// the way and then on its square for a locust move), the mover's move, a promotion. A
    /// rule's effects may start from them.
    #[inline]
    pub fn ordinary_effects(&self, mv: Move, fx: &mut Effects) {
        if let Some(sq) = self.capture_square(mv) {
            fx.push(self.capture_effect(sq));
            if mv.kind == MoveKind::Locust {
                let c = self.board[mv.to.index()];
                if mv.to != mv.from && c != EMPTY && color_of(c) != self.side {
                    fx.push(self.capture_effect(mv.to));
                }
            }
        }
        fx.push(Effect::Move {
            from: mv.from,
            to: mv.to,
        });
        if mv.promo != 0 {
            fx.push(Effect::Promote {
                sq: mv.to,
                kind: mv.promo - 1,
            });
        }
    }

    /// Taking the piece on `sq`: to the captor's hand when the variant's captures go there
    /// (as the kind it promoted from, when it is marked promoted; a royal piece never goes).
    #[inline]
    pub fn capture_effect(&self, sq: Square) -> Effect {
        let rs = &*self.rules;
        if !rs.hands.captures_to_hand {
            return Effect::Capture { sq };
        }
        let c = self.board[sq.index()];
        if c == EMPTY {
            return Effect::Capture { sq };
        }
        let mut k = kind_of(c);
        if self.promoted.contains(sq) {
            k = rs.promotion.unpromoted[k] as usize;
        }
        // A promoted kind of its own (Shogi's Tokin) goes to the hand as its base kind.
        if let Some(base) = rs.variant.pieces[k].demotes_to {
            k = base;
        }
        if rs.is_royal_kind(k) {
            Effect::Capture { sq }
        } else {
            Effect::CaptureToHand { sq, kind: k as u8 }
        }
    }
}
