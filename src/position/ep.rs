//! The en-passant squares of a position: every square the last `nn` / `in` step passed.

use std::fmt;

use crate::geometry::{Geometry, Square};

/// The most squares one step can pass over (a leap across a 16-square board).
pub const MAX_EP_SQUARES: usize = 15;

/// The en-passant squares: every square the last move passed over when it was a step that
/// leaves en-passant rights (`nn` / `in`): one for a double step, two for a triple step. A
/// fixed array, so that make copies it without allocating. The squares are kept in increasing
/// order (rank by rank from White's side), the order the FEN writes them in, as
/// Fairy-Stockfish does (`e7e8` after a Black triple step from e9).
#[derive(Clone, Copy, Default)]
pub struct EpSquares {
    len: u8,
    squares: [Square; MAX_EP_SQUARES],
}

impl EpSquares {
    /// No en-passant square.
    pub const NONE: EpSquares = EpSquares {
        len: 0,
        squares: [Square::new(0); MAX_EP_SQUARES],
    };

    /// One square.
    pub fn one(sq: Square) -> EpSquares {
        let mut e = EpSquares::NONE;
        e.push(sq);
        e
    }

    /// Adds a square; returns false (and adds nothing) when the set is full or holds it.
    pub fn push(&mut self, sq: Square) -> bool {
        if self.len as usize >= MAX_EP_SQUARES || self.contains(sq) {
            return false;
        }
        let mut i = self.len as usize;
        while i > 0 && self.squares[i - 1] > sq {
            self.squares[i] = self.squares[i - 1];
            i -= 1;
        }
        self.squares[i] = sq;
        self.len += 1;
        true
    }

    /// The squares, in order.
    #[inline]
    pub fn as_slice(&self) -> &[Square] {
        &self.squares[..self.len as usize]
    }

    /// Whether `sq` is one of them.
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.as_slice().contains(&sq)
    }

    /// Whether there is none.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The lowest square, if any.
    #[inline]
    pub fn first(&self) -> Option<Square> {
        self.as_slice().first().copied()
    }

    /// The squares passed by a step from `from` to `to` whose first passed square is `first`
    /// (a `MoveKind::Double` move's `aux`): every square on the straight line between them
    /// when `to` lies on the line from `from` through `first`, else `first` alone (a lame
    /// knight's step passes one square).
    #[inline]
    pub fn passed(g: Geometry, from: Square, first: Square, to: Square) -> EpSquares {
        let e = EpSquares::one(first);
        // The double step, most steps made: `to` twice as far as `first` (by square index),
        // so one square passed (also true of a lame knight's step). No division needed.
        if to.index() as i32 - from.index() as i32
            == 2 * (first.index() as i32 - from.index() as i32)
        {
            return e;
        }
        Self::passed_long(g, from, first, to, e)
    }

    fn passed_long(
        g: Geometry,
        from: Square,
        first: Square,
        to: Square,
        mut e: EpSquares,
    ) -> EpSquares {
        let (ff, fr) = (g.file(from) as i32, g.rank(from) as i32);
        let (ux, uy) = (g.file(first) as i32 - ff, g.rank(first) as i32 - fr);
        let (dx, dy) = (g.file(to) as i32 - ff, g.rank(to) as i32 - fr);
        let k = if ux != 0 {
            dx / ux
        } else if uy != 0 {
            dy / uy
        } else {
            0
        };
        if k >= 2 && (ux * k, uy * k) == (dx, dy) {
            for i in 2..k {
                if let Some(s) = g.offset(from, ux * i, uy * i) {
                    e.push(s);
                }
            }
        }
        e
    }
}

impl PartialEq for EpSquares {
    fn eq(&self, o: &Self) -> bool {
        self.as_slice() == o.as_slice()
    }
}

impl Eq for EpSquares {}

impl fmt::Debug for EpSquares {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}
