//! Pieces on the board, moves and move lists.

use crate::geometry::{Color, Square};

/// The most piece types a variant may define.
pub const MAX_KINDS: usize = 60;

/// What stands on a square: nothing, or a piece of one kind and colour, packed in one byte
/// (0 for an empty square, otherwise `2 + 2 * kind + colour`). Kinds index the variant's piece
/// list.
///
/// A type of its own so that a piece is never taken for a square, a kind or a count;
/// [`Code::index`] gives the number for tables of one entry per code.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(transparent)]
pub struct Code(u8);

/// The empty square.
pub const EMPTY: Code = Code(0);

/// The number of codes a table of one entry per code needs.
pub const MAX_CODES: usize = 2 + 2 * MAX_KINDS;

impl Code {
    /// The code with byte `byte`, as a move record or a data file stores it.
    #[inline]
    pub const fn from_byte(byte: u8) -> Code {
        Code(byte)
    }

    /// The byte, as a data file stores it.
    #[inline]
    pub const fn byte(self) -> u8 {
        self.0
    }

    /// The number, for tables of one entry per code (below [`MAX_CODES`]).
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }
}

/// The code of a piece of `kind` and `color`.
#[inline]
pub fn code(kind: usize, color: Color) -> Code {
    debug_assert!(kind < MAX_KINDS);
    Code((2 + 2 * kind + color.index()) as u8)
}

/// The kind of a non-empty code.
#[inline]
pub fn kind_of(code: Code) -> usize {
    (code.0 as usize - 2) >> 1
}

/// The colour of a non-empty code.
#[inline]
pub fn color_of(code: Code) -> Color {
    Color::from_index(code.0 as usize & 1)
}

/// What a move does beyond taking the piece from `from` to `to`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[repr(u8)]
pub enum MoveKind {
    /// An ordinary move or capture.
    #[default]
    Normal = 0,
    /// A step that leaves en-passant rights on `aux` (the square passed over).
    Double = 1,
    /// An en-passant capture: the captured piece is the one that made the last double step.
    EnPassant = 2,
    /// A move a rule made (castling, a king's leap, a royal swap...): `aux` is the index of
    /// the rule (`Ruleset::compiled_rules`), which vetoes it (`Rule::allows`) and, when its move does
    /// more than an ordinary one, says what it does (`Rule::effects`).
    Rule = 3,
    /// A piece put from the mover's hand on the empty square `to` (`from` equals `to`):
    /// `aux` is the kind dropped. Only variants with hands (the `drops` rule) have them.
    Drop = 4,
    /// A move that takes a piece on a square it passes and goes on (a locust capture: the
    /// Chu Shogi Lion's double capture, a checkers jump): `aux` is that square; the piece may
    /// take another on `to`, and `to` may be `from` (the Lion's capture without moving).
    Locust = 5,
}

/// A move: from, to, promotion (0 = none, else kind + 1), kind and a kind-specific byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Move {
    /// The origin square.
    pub from: Square,
    /// The destination square.
    pub to: Square,
    /// The promotion: 0 for none, else the kind promoted to plus 1.
    pub promo: u8,
    /// How the move is played.
    pub kind: MoveKind,
    /// Kind-specific: the passed square of a double step, the index of the rule that made a
    /// rule's move, the kind a drop puts down, the square a locust move takes a piece on.
    pub aux: u8,
}

impl Move {
    /// A plain move from `from` to `to`.
    #[inline]
    pub fn new(from: Square, to: Square) -> Move {
        Move {
            from,
            to,
            promo: 0,
            kind: MoveKind::Normal,
            aux: 0,
        }
    }

    /// A drop of a piece of `kind` from the mover's hand on `to`.
    #[inline]
    pub fn drop(kind: usize, to: Square) -> Move {
        Move {
            from: to,
            to,
            promo: 0,
            kind: MoveKind::Drop,
            aux: kind as u8,
        }
    }

    /// Whether a rule made this move ([`MoveKind::Rule`]): the one test for every rule's moves.
    #[inline]
    pub fn is_rule_made(&self) -> bool {
        self.kind == MoveKind::Rule
    }

    /// The kind a drop puts on the board (`None` for every other move).
    #[inline]
    pub fn dropped(&self) -> Option<usize> {
        (self.kind == MoveKind::Drop).then_some(self.aux as usize)
    }

    /// The square a locust move takes a piece on before it goes on ([`MoveKind::Locust`]).
    #[inline]
    pub fn locust_square(&self) -> Option<Square> {
        (self.kind == MoveKind::Locust).then_some(Square::new(self.aux))
    }

    /// The piece kind this move promotes to.
    #[inline]
    pub fn promotion(&self) -> Option<usize> {
        if self.promo == 0 {
            None
        } else {
            Some(self.promo as usize - 1)
        }
    }
}

/// A reusable list of moves. Clearing keeps the capacity, so a list reused across calls
/// allocates nothing once it has grown to the largest move count seen.
#[derive(Clone, Debug, Default)]
pub struct MoveList {
    moves: Vec<Move>,
}

impl MoveList {
    /// An empty list with room for a typical large-variant position.
    pub fn new() -> MoveList {
        MoveList {
            moves: Vec::with_capacity(512),
        }
    }

    /// Empties the list, keeping its capacity.
    #[inline]
    pub fn clear(&mut self) {
        self.moves.clear();
    }

    /// Adds a move at the end.
    #[inline]
    pub fn push(&mut self, m: Move) {
        self.moves.push(m);
    }

    /// Keeps the first `n` moves.
    #[inline]
    pub fn truncate(&mut self, n: usize) {
        self.moves.truncate(n);
    }

    /// The number of moves.
    #[inline]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// Whether the list holds no move.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The moves.
    #[inline]
    pub fn as_slice(&self) -> &[Move] {
        &self.moves
    }

    /// The moves, to reorder or change.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Move] {
        &mut self.moves
    }

    /// Keeps the moves for which `f` is true.
    #[inline]
    pub fn retain(&mut self, f: impl FnMut(&Move) -> bool) {
        self.moves.retain(f);
    }

    /// The moves in order.
    pub fn iter(&self) -> std::slice::Iter<'_, Move> {
        self.moves.iter()
    }
}

impl<'a> IntoIterator for &'a MoveList {
    type Item = &'a Move;
    type IntoIter = std::slice::Iter<'a, Move>;
    fn into_iter(self) -> Self::IntoIter {
        self.moves.iter()
    }
}

/// A set of squares on boards up to 16×16.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct SquareSet([u64; 4]);

impl SquareSet {
    /// Whether `sq` is in the set.
    #[inline]
    pub fn contains(&self, sq: Square) -> bool {
        self.0[sq.index() >> 6] >> (sq.index() & 63) & 1 != 0
    }

    /// Adds `sq`.
    #[inline]
    pub fn insert(&mut self, sq: Square) {
        self.0[sq.index() >> 6] |= 1 << (sq.index() & 63);
    }

    /// The squares in both sets.
    #[inline]
    pub fn intersection(&self, other: &SquareSet) -> SquareSet {
        let mut out = *self;
        for (w, o) in out.0.iter_mut().zip(other.0) {
            *w &= o;
        }
        out
    }

    /// Whether the set has no square.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 4]
    }

    /// How many squares the set holds.
    #[inline]
    pub fn len(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }

    /// Removes `sq`.
    #[inline]
    pub fn remove(&mut self, sq: Square) {
        self.0[sq.index() >> 6] &= !(1 << (sq.index() & 63));
    }

    /// The squares in the set, lowest first.
    #[inline]
    pub fn iter(&self) -> impl Iterator<Item = Square> + '_ {
        self.0.iter().enumerate().flat_map(|(w, &bits)| {
            let mut b = bits;
            std::iter::from_fn(move || {
                if b == 0 {
                    return None;
                }
                let i = b.trailing_zeros();
                b &= b - 1;
                Some(Square::from_index(w * 64 + i as usize))
            })
        })
    }
}

/// Generations of a position's legal moves asked for by the front-ends (through the game,
/// the game sessions and the SAN writer; not those of the search or of the rules' own
/// verdicts), counted so that a front-end can measure what one request costs.
static LEGAL_GENERATIONS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Counts one generation of legal moves (see [`legal_generations`]).
pub fn count_generation() {
    LEGAL_GENERATIONS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// The legal-move generations counted so far in this process.
pub fn legal_generations() -> u64 {
    LEGAL_GENERATIONS.load(std::sync::atomic::Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_keeps_its_kind_and_colour() {
        for kind in 0..MAX_KINDS {
            for color in [Color::White, Color::Black] {
                let c = code(kind, color);
                assert!(c != EMPTY && c.index() < MAX_CODES);
                assert_eq!((kind_of(c), color_of(c)), (kind, color));
                assert_eq!(Code::from_byte(c.byte()), c);
            }
        }
        assert_eq!(EMPTY, Code::default());
        // The royal and mask tables keep one bit per code in a u128.
        const { assert!(MAX_CODES <= 128) };
    }

    #[test]
    fn a_square_set_lists_its_squares_in_order() {
        let mut s = SquareSet::default();
        for i in [255u8, 0, 64, 63, 130] {
            s.insert(Square::new(i));
        }
        s.remove(Square::new(64));
        let got: Vec<usize> = s.iter().map(Square::index).collect();
        assert_eq!(got, [0, 63, 130, 255]);
        assert!(s.contains(Square::new(130)) && !s.contains(Square::new(64)));
    }
}
