//! Board geometry: squares, files, ranks and colours.
//!
//! Squares are numbered `rank * files + file` from a1 = 0, so a 16×16 board uses every value of
//! a `u8`. Files are named `a`..`p`, ranks `1`..`16`.

use std::fmt;

/// A square: its index `rank * files + file` on the board, a1 = 0.
///
/// A type of its own so that a square is never taken for a file, a rank, a piece code or a
/// count; [`Square::index`] gives the number for indexing tables.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Square(u8);

impl Square {
    /// The square with index `index` (`rank * files + file`).
    #[inline]
    pub const fn new(index: u8) -> Square {
        Square(index)
    }

    /// The square with index `index`, which must be below [`MAX_SQUARES`].
    #[inline]
    pub const fn from_index(index: usize) -> Square {
        debug_assert!(index < MAX_SQUARES);
        Square(index as u8)
    }

    /// The index, for tables of one entry per square.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The index as a byte, as it is packed into a move.
    #[inline]
    pub const fn byte(self) -> u8 {
        self.0
    }
}

/// The largest board side Polymachy supports.
pub const MAX_SIDE: u8 = 16;
/// The largest number of squares.
pub const MAX_SQUARES: usize = 256;

/// The side to move or the owner of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// The side that moves first.
    White = 0,
    /// The other side.
    Black = 1,
}

impl Color {
    /// The other side.
    #[inline]
    pub fn flip(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The colour with index `i & 1`.
    #[inline]
    pub fn from_index(i: usize) -> Color {
        if i & 1 == 0 {
            Color::White
        } else {
            Color::Black
        }
    }

    /// "white" or "black".
    pub fn name(self) -> &'static str {
        match self {
            Color::White => "white",
            Color::Black => "black",
        }
    }
}

/// The size of a board, its holes, and the arithmetic on its squares.
///
/// A hole is a square that does not exist (written `*` in a start placement and a FEN): no
/// piece stands on it or lands on it, a ray stops before it as at the edge, and a step or a
/// condition that needs it cannot be made; a leap may still pass over it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Number of files (columns), 1 to [`MAX_SIDE`].
    pub files: u8,
    /// Number of ranks (rows), 1 to [`MAX_SIDE`].
    pub ranks: u8,
    /// One bit per square that is a hole.
    holes: [u64; 4],
}

impl Geometry {
    /// A board of `files` × `ranks`; both must be in 1..=16.
    pub fn new(files: u8, ranks: u8) -> Geometry {
        assert!((1..=MAX_SIDE).contains(&files) && (1..=MAX_SIDE).contains(&ranks));
        Geometry {
            files,
            ranks,
            holes: [0; 4],
        }
    }

    /// A board of `files` × `ranks` without the squares `holes`.
    pub fn with_holes(files: u8, ranks: u8, holes: &[Square]) -> Geometry {
        let mut g = Geometry::new(files, ranks);
        for &h in holes {
            if h.index() < g.size() {
                g.holes[h.index() / 64] |= 1 << (h.index() % 64);
            }
        }
        g
    }

    /// Whether `sq` is a hole (a square that does not exist).
    #[inline]
    pub fn is_hole(&self, sq: Square) -> bool {
        self.holes[sq.index() / 64] >> (sq.index() % 64) & 1 != 0
    }

    /// Whether the board has any hole.
    #[inline]
    pub fn has_holes(&self) -> bool {
        self.holes != [0; 4]
    }

    /// Number of squares.
    #[inline]
    pub fn size(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Every square of the board, a1 first, holes left out.
    #[inline]
    pub fn squares(&self) -> impl Iterator<Item = Square> + use<> {
        let g = *self;
        (0..self.size())
            .map(Square::from_index)
            .filter(move |&s| !g.is_hole(s))
    }

    /// The square on `file`, `rank` (both 0-based).
    #[inline]
    pub fn square(&self, file: u8, rank: u8) -> Square {
        Square::from_index(rank as usize * self.files as usize + file as usize)
    }

    /// 0-based file of `sq`.
    #[inline]
    pub fn file(&self, sq: Square) -> u8 {
        (sq.index() % self.files as usize) as u8
    }

    /// 0-based rank of `sq`.
    #[inline]
    pub fn rank(&self, sq: Square) -> u8 {
        (sq.index() / self.files as usize) as u8
    }

    /// The square `(df, dr)` away from `sq`, if it is on the board (and not a hole).
    #[inline]
    pub fn offset(&self, sq: Square, df: i32, dr: i32) -> Option<Square> {
        let f = self.file(sq) as i32 + df;
        let r = self.rank(sq) as i32 + dr;
        if f >= 0 && r >= 0 && f < self.files as i32 && r < self.ranks as i32 {
            let s = self.square(f as u8, r as u8);
            (!self.is_hole(s)).then_some(s)
        } else {
            None
        }
    }

    /// The square with the same file on the mirrored rank (`ranks + 1 - r`).
    #[inline]
    pub fn mirror_rank(&self, sq: Square) -> Square {
        self.square(self.file(sq), self.ranks - 1 - self.rank(sq))
    }

    /// The name of `sq`, such as `e4` or `l12`.
    pub fn name(&self, sq: Square) -> SquareName {
        SquareName {
            file: self.file(sq),
            rank: self.rank(sq),
        }
    }

    /// Parses a square name such as `a1` or `p16`; `None` when malformed or off the board.
    pub fn parse_square(&self, s: &str) -> Option<Square> {
        let mut chars = s.chars();
        let f = chars.next()?;
        if !f.is_ascii_lowercase() {
            return None;
        }
        let file = f as u8 - b'a';
        let digits = chars.as_str();
        if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        if digits.starts_with('0') {
            return None;
        }
        let rank: u8 = digits.parse().ok()?;
        if file >= self.files || rank == 0 || rank > self.ranks {
            return None;
        }
        Some(self.square(file, rank - 1))
    }

    /// The file letter of 0-based file `f`.
    pub fn file_char(f: u8) -> char {
        (b'a' + f) as char
    }
}

/// Displays a square as its algebraic name.
#[derive(Clone, Copy, Debug)]
pub struct SquareName {
    file: u8,
    rank: u8,
}

impl fmt::Display for SquareName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", Geometry::file_char(self.file), self.rank + 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_on_the_largest_board() {
        let g = Geometry::new(16, 16);
        for sq in (0..=255u8).map(Square::new) {
            let name = g.name(sq).to_string();
            assert_eq!(g.parse_square(&name), Some(sq), "{name}");
        }
        assert_eq!(g.parse_square("p16"), Some(Square::new(255)));
        assert_eq!(g.parse_square("q1"), None);
        assert_eq!(g.parse_square("a17"), None);
        assert_eq!(g.parse_square("a0"), None);
        assert_eq!(g.parse_square("a01"), None);
    }

    #[test]
    fn offsets_stop_at_the_edges() {
        let g = Geometry::new(10, 8);
        let a1 = g.parse_square("a1").unwrap();
        assert_eq!(g.offset(a1, -1, 0), None);
        assert_eq!(g.offset(a1, 9, 7), g.parse_square("j8"));
        assert_eq!(g.offset(a1, 10, 0), None);
        assert_eq!(g.mirror_rank(a1), g.parse_square("a8").unwrap());
    }
}
