//! The core of play: a compiled variant ([`Ruleset`]), positions, the generic move generator
//! ([`movegen`]) and the API rules are written against ([`hooks`]). These four depend on each
//! other (a ruleset holds its rules, a rule reads positions, a position shares its ruleset)
//! and form one module; everything else is a layer above or below (see `tests/lib/layers.rs`).
//!
//! This file: an unchecked [`Setup`], the checks that make it a [`Position`], make and
//! unmake, and the one legality predicate. FEN text is read and written in `text::fen` (a
//! layer above).

mod effects;
mod ep;
pub mod hooks;
pub mod movegen;
mod ruleset;
mod verdict;

pub use effects::{Effect, Effects, MAX_EFFECTS};
pub use ep::{EpSquares, MAX_EP_SQUARES};
pub use ruleset::{CompileError, CompileProblem, Ruleset};
pub use verdict::{FORBIDDEN_DROP_MATE, GameResult, Outcome, Termination};

use std::fmt;
use std::sync::Arc;

use crate::geometry::{Color, Square};
use crate::moves::{
    Code, EMPTY, MAX_KINDS, Move, MoveKind, MoveList, SquareSet, code, color_of, kind_of,
};
use crate::nnue::{Change, MAX_CHANGES};
use crate::tables::Shape;

/// What make needs to restore a position.
#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    /// What the move did ([`Position::effects`]).
    fx: Effects,
    moved: Code,
    /// The pieces taken, in the order of the move's capture effects (a locust move takes two).
    captured: [Code; 2],
    rights: u16,
    ep: EpSquares,
    ep_victim: Square,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    structure: u64,
    royal: [Square; 2],
    royal_count: [u8; 2],
    /// A null move (the side to move passed), for the search.
    null: bool,
    /// The second piece the move relocated (for [`Position::move_changes`]).
    other: Code,
    /// With hands: the kinds the captures put in the captor's hand (`NO_HAND`: none).
    hand_kind: [u8; 2],
    /// With hands: which promoted marks the move moved or removed ([`MARK_MOVED`],
    /// [`MARK_CAPTURED`], [`MARK_OTHER`], [`MARK_MADE`], [`MARK_CAPTURED_2`]).
    marks: u8,
    /// The rules' state words before the move.
    state: StateWords,
}

/// Most words of state the rules of one variant may claim ([`hooks::Builder::claim_state`]).
pub const MAX_STATE: usize = 4;

/// The words of state the rules keep in a position, by slot (slots a variant's rules did not
/// claim stay 0).
pub type StateWords = [u16; MAX_STATE];

/// [`Undo::hand_kind`] when no piece went to a hand.
const NO_HAND: u8 = u8::MAX;
/// The moving piece was marked promoted (the mark went with it).
const MARK_MOVED: u8 = 1;
/// The captured piece was marked promoted (the mark was removed).
const MARK_CAPTURED: u8 = 2;
/// The relocated second piece was marked promoted (the mark went with it).
const MARK_OTHER: u8 = 4;
/// The move promoted an unmarked piece (a mark was put on its destination).
const MARK_MADE: u8 = 8;
/// The second piece captured (a locust move's) was marked promoted.
const MARK_CAPTURED_2: u8 = 16;

/// The mark bit of the `n`-th piece a move captures (from 1).
#[inline]
fn capture_mark(n: usize) -> u8 {
    if n <= 1 {
        MARK_CAPTURED
    } else {
        MARK_CAPTURED_2
    }
}

/// Most pieces of one kind a hand may hold.
pub const MAX_IN_HAND: u8 = 200;

/// The largest halfmove clock or fullmove number: both count up to it and stay there (a FEN
/// written after any number of moves reads back).
pub const MAX_CLOCK: u32 = u32::MAX;

/// One thing wrong with a FEN or a [`Setup`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Problem {
    /// The FEN has no fields at all.
    Empty,
    /// A problem in the placement field (already a sentence).
    Placement(String),
    /// The side field is neither `w` nor `b`.
    Side(String),
    /// A rights letter that no rule of the variant owns.
    UnknownRight(char),
    /// A rights letter whose pieces are not where the right needs them.
    RightWithoutPieces {
        /// The rights letter.
        letter: char,
        /// What is missing, as the rest of a sentence.
        why: String,
    },
    /// The en-passant field is not a square of the board.
    EpNotASquare(String),
    /// No step of the side that just moved can have passed over the en-passant squares.
    EpNoVictim(String),
    /// The en-passant squares are some of those passed by two different steps.
    EpAmbiguous(String),
    /// The en-passant square is occupied.
    EpOccupied(String),
    /// The halfmove clock is not a number.
    HalfmoveNotANumber(String),
    /// The halfmove clock is over [`MAX_CLOCK`].
    HalfmoveTooLarge(String),
    /// The fullmove number is not a number from 1.
    FullmoveNotANumber(String),
    /// The fullmove number is over [`MAX_CLOCK`].
    FullmoveTooLarge(String),
    /// More than six fields.
    TooManyFields(usize),
    /// The board has the wrong number of squares for the variant.
    BoardSize {
        /// Squares the FEN gives.
        found: usize,
        /// Squares the variant's board has.
        expected: usize,
    },
    /// A side has no royal piece, on the board or in hand, in a variant that has royal pieces.
    NoRoyal(Color),
    /// The side that just moved is in check.
    NotToMoveInCheck(Color),
    /// Rights bits that no rule of the variant hands out.
    UnownedRights(u16),
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::Empty => write!(f, "empty FEN"),
            Problem::Placement(m) => write!(f, "{m}"),
            Problem::Side(s) => write!(f, "side to move must be `w` or `b`, found `{s}`"),
            Problem::UnknownRight(c) => write!(f, "rights: `{c}` means nothing in this variant"),
            Problem::RightWithoutPieces { letter, why } => write!(f, "rights: `{letter}` {why}"),
            Problem::EpNotASquare(e) => {
                write!(f, "en-passant square `{e}` is not a square of this board")
            }
            Problem::EpNoVictim(e) => write!(
                f,
                "en-passant square {e}: no piece of the side that just moved can have passed over it \
                 (the field lists every square one step passed, or some of them)"
            ),
            Problem::EpAmbiguous(e) => write!(
                f,
                "en-passant square {e}: two different steps of the side that just moved passed it \
                 and more; list every square the step passed"
            ),
            Problem::EpOccupied(e) => write!(f, "en-passant square {e} is occupied"),
            Problem::HalfmoveNotANumber(h) => write!(f, "halfmove clock `{h}` is not a number"),
            Problem::HalfmoveTooLarge(h) => {
                write!(f, "halfmove clock `{h}` is too large (at most {MAX_CLOCK})")
            }
            Problem::FullmoveNotANumber(n) => {
                write!(f, "fullmove number `{n}` must be a number from 1")
            }
            Problem::FullmoveTooLarge(n) => {
                write!(
                    f,
                    "fullmove number `{n}` is too large (at most {MAX_CLOCK})"
                )
            }
            Problem::TooManyFields(n) => write!(f, "{n} fields, at most 6 expected"),
            Problem::BoardSize { found, expected } => {
                write!(f, "the board has {found} squares, the variant {expected}")
            }
            Problem::NoRoyal(c) => write!(f, "{} has no royal piece", c.name()),
            Problem::NotToMoveInCheck(c) => {
                write!(f, "the side not to move ({}) is in check", c.name())
            }
            Problem::UnownedRights(b) => {
                write!(f, "rights bits {b:#06x} belong to no rule of this variant")
            }
        }
    }
}

/// Why a FEN or a setup was refused: every problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("invalid FEN: {}", messages(problems))]
pub struct FenError {
    /// Every problem, in the order found.
    pub problems: Vec<Problem>,
}

fn messages(ps: &[Problem]) -> String {
    ps.iter()
        .map(|p| p.to_string())
        .collect::<Vec<_>>()
        .join("; ")
}

impl FenError {
    /// Each problem as a sentence.
    pub fn messages(&self) -> Vec<String> {
        self.problems.iter().map(|p| p.to_string()).collect()
    }
}

/// An unchecked position: what a FEN, a variant's start position or a generator says, before
/// anything is checked. [`Position::from_setup`] checks it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// Piece codes, rank 1 first (`board[rank * files + file]`), one per square.
    pub board: Vec<Code>,
    /// The side to move.
    pub side: Color,
    /// Rights bits, as the variant's hooks hand them out.
    pub rights: u16,
    /// The en-passant squares (every square the last step passed over, or, as Fairy-Stockfish
    /// writes them, only those a capture can land on), if any.
    pub ep: EpSquares,
    /// Moves since the last capture or irreversible move, in plies.
    pub halfmove: u32,
    /// The move number, from 1, increased after Black's move.
    pub fullmove: u32,
    /// Pieces in hand, by colour index and kind (all zero in a variant without hands).
    pub hand: [[u8; MAX_KINDS]; 2],
    /// The squares whose piece got its kind by promotion (FEN `~`; kept only in a variant
    /// with hands: such a piece returns to a hand as the kind it promoted from).
    pub promoted: SquareSet,
    /// The rules' state words (see [`hooks::Builder::claim_state`]); all 0 at the start.
    pub state: StateWords,
}

impl Setup {
    /// The start position of a ruleset (after its setup choice), White to move, every right
    /// its hooks grant at the start.
    pub fn start(rules: &Ruleset) -> Setup {
        let rights = rules
            .dispatch
            .hooks
            .iter()
            .fold(0, |r, h| r | h.start_rights(rules));
        Setup {
            board: rules.start.clone(),
            side: Color::White,
            rights,
            ep: EpSquares::NONE,
            halfmove: 0,
            fullmove: 1,
            hand: {
                // The variant's pieces in hand at the start.
                let mut h = [[0u8; MAX_KINDS]; 2];
                for &(k, c) in &rules.variant.start_hand {
                    h[c.index()][k] = h[c.index()][k].saturating_add(1);
                }
                h
            },
            promoted: SquareSet::default(),
            state: {
                let mut state = [0; MAX_STATE];
                for h in &rules.dispatch.hooks {
                    h.start_state(rules, &rules.start, &mut state);
                }
                state
            },
        }
    }
}

/// The step that left en-passant rights on the squares `ep`, as (the square of the piece that
/// made it, the en-passant squares the position holds): a step of a piece of `mover` by one of
/// its `nn`/`in` moves, the piece standing where it lands, the start and every square passed
/// empty. `ep` is either every square the step passed (Polymachy's form) or some of them
/// (Fairy-Stockfish writes only those a capture can land on: `e3` alone after a triple step
/// to e5). A step that passed exactly `ep` is taken first (Wildebeest's `e4` with a Pawn on e5
/// and e3 empty is the double step from e3, whose captures are those of the triple step from
/// e2 that Fairy-Stockfish writes so); else the one step that passed them all and more, the
/// position then holding every square it passed, so both forms read to the same position. It
/// is read from the move tables, not guessed from geometry, so a triple step (`ifmnH`, two
/// squares) or a sideways one works like a pawn's double step. `Err(true)`: more than one step
/// passed them and more; `Err(false)`: none did.
fn ep_step(
    rules: &Ruleset,
    board: &[Code],
    ep: &EpSquares,
    mover: Color,
) -> Result<(Square, EpSquares), bool> {
    let t = &rules.tables;
    let g = rules.geometry;
    let mut longer: Vec<(Square, EpSquares)> = Vec::new();
    for kind in 0..rules.variant.pieces.len() {
        let c = code(kind, mover);
        for from in g.squares() {
            if board[from.index()] != EMPTY {
                continue;
            }
            for e in t.entries_at(kind, mover, from) {
                if !e.modes().leaves_ep || e.shape() != Shape::Leap {
                    continue;
                }
                let to = t.squares_of(e)[0];
                if board[to.index()] != c {
                    continue;
                }
                let passed = EpSquares::passed(g, from, e.ep, to);
                if passed == *ep {
                    return Ok((to, passed));
                }
                let covers = ep.as_slice().iter().all(|&s| passed.contains(s));
                let empty = passed.as_slice().iter().all(|&s| board[s.index()] == EMPTY);
                if covers && empty && !longer.contains(&(to, passed)) {
                    longer.push((to, passed));
                }
            }
        }
    }
    match longer.as_slice() {
        [] => Err(false),
        [one] => Ok(*one),
        _ => Err(true),
    }
}

/// A game position of some variant.
#[derive(Clone)]
pub struct Position {
    rules: Arc<Ruleset>,
    board: [Code; 256],
    side: Color,
    rights: u16,
    ep: EpSquares,
    ep_victim: Square,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    /// The structure key: the Zobrist keys of the pawn-like pieces alone (see
    /// [`Position::structure_hash`]).
    structure: u64,
    /// Square of each side's royal piece (valid when `royal_count` is 1).
    royal: [Square; 2],
    royal_count: [u8; 2],
    /// How many pieces of each code stand on the board.
    counts: [u16; 256],
    /// The squares each side occupies.
    occupied: [crate::moves::SquareSet; 2],
    /// Pieces in hand, by colour index and kind.
    hand: [[u8; MAX_KINDS]; 2],
    /// Squares whose piece got its kind by promotion (kept only with hands).
    promoted: SquareSet,
    /// The rules' state words (see [`hooks::Builder::claim_state`]).
    state: StateWords,
    stack: Vec<Undo>,
}

impl PartialEq for Position {
    fn eq(&self, o: &Self) -> bool {
        self.board[..] == o.board[..]
            && self.side == o.side
            && self.rights == o.rights
            && self.ep == o.ep
            && self.halfmove == o.halfmove
            && self.fullmove == o.fullmove
            && self.hash == o.hash
            && self.hand == o.hand
            && self.promoted == o.promoted
            && self.state == o.state
    }
}

impl Position {
    /// The start position of a ruleset. It was checked when the ruleset was compiled.
    pub fn start(rules: &Arc<Ruleset>) -> Position {
        Position::build(rules, &Setup::start(rules), Square::new(0))
    }

    /// A position from a setup that has been checked (`ep_victim`: see [`Position::ep_victim`]).
    fn build(rules: &Arc<Ruleset>, s: &Setup, ep_victim: Square) -> Position {
        let mut p = Position {
            rules: rules.clone(),
            board: [EMPTY; 256],
            side: s.side,
            rights: s.rights,
            ep: s.ep,
            ep_victim,
            halfmove: s.halfmove,
            fullmove: s.fullmove,
            hash: 0,
            structure: 0,
            royal: [Square::new(0); 2],
            royal_count: [0; 2],
            counts: [0; 256],
            occupied: Default::default(),
            hand: if rules.hands.on {
                s.hand
            } else {
                [[0; MAX_KINDS]; 2]
            },
            promoted: if rules.hands.on {
                s.promoted
            } else {
                SquareSet::default()
            },
            state: s.state,
            stack: Vec::with_capacity(256),
        };
        let n = s.board.len().min(256);
        p.board[..n].copy_from_slice(&s.board[..n]);
        p.refresh();
        // En-passant squares no piece of the side to move can take on are dropped, as make
        // drops them.
        if !p.ep.is_empty() && !p.ep_capturable(p.side) {
            p.ep = EpSquares::NONE;
            p.refresh();
        }
        p
    }

    /// Checks a setup: the board's size, each side's royal piece, the side not to move not in
    /// check, every right backed by its pieces, en-passant squares that are empty and that one
    /// step of the side that just moved passed (all of them or some: the position holds every
    /// square the step passed), clocks in range. Every problem is reported.
    pub fn from_setup(rules: &Arc<Ruleset>, s: &Setup) -> Result<Position, FenError> {
        let mut problems = Vec::new();
        let size = rules.geometry.size();
        if s.board.len() != size {
            return Err(FenError {
                problems: vec![Problem::BoardSize {
                    found: s.board.len(),
                    expected: size,
                }],
            });
        }
        let pieces = rules.variant.pieces.len();
        if s.board
            .iter()
            .any(|&c| c != EMPTY && (c.index() < 2 || kind_of(c) >= pieces))
        {
            problems.push(Problem::Placement(
                "a square holds no piece of this variant".into(),
            ));
            return Err(FenError { problems });
        }
        let g = rules.geometry;
        if let Some(h) =
            (0..size).find(|&q| s.board[q] != EMPTY && g.is_hole(Square::from_index(q)))
        {
            problems.push(Problem::Placement(format!(
                "a piece stands on {}, a hole of this board",
                g.name(Square::from_index(h))
            )));
            return Err(FenError { problems });
        }
        if s.fullmove == 0 {
            problems.push(Problem::FullmoveNotANumber("0".into()));
        }
        problems.extend(hand_problems(rules, s));
        problems.extend(unreachable(rules, s));
        let owned = if rules.rights.used >= 16 {
            u16::MAX
        } else {
            (1u16 << rules.rights.used) - 1
        };
        if s.rights & !owned != 0 {
            problems.push(Problem::UnownedRights(s.rights & !owned));
        }
        for h in &rules.dispatch.hooks {
            for (letter, why) in h.check_rights(rules, &s.board, s.rights) {
                problems.push(Problem::RightWithoutPieces { letter, why });
            }
        }
        let mut victim = Square::new(0);
        // Every square the step passed, when the field gives only some of them.
        let mut ep = s.ep;
        if !s.ep.is_empty() {
            let names: Vec<String> =
                s.ep.as_slice()
                    .iter()
                    .map(|&e| rules.geometry.name(e).to_string())
                    .collect();
            let mut fine = true;
            for (&e, name) in s.ep.as_slice().iter().zip(&names) {
                if e.index() >= size {
                    problems.push(Problem::EpNotASquare(name.clone()));
                    fine = false;
                } else if s.board[e.index()] != EMPTY {
                    problems.push(Problem::EpOccupied(name.clone()));
                    fine = false;
                }
            }
            if fine {
                match ep_step(rules, &s.board, &s.ep, s.side.flip()) {
                    Ok((v, passed)) => (victim, ep) = (v, passed),
                    Err(false) => problems.push(Problem::EpNoVictim(names.concat())),
                    Err(true) => problems.push(Problem::EpAmbiguous(names.concat())),
                }
            }
        }
        let full = Setup { ep, ..s.clone() };
        let p = Position::build(rules, &full, victim);
        let royals = rules.royalty.by_kind.iter().any(|&r| r);
        for c in [Color::White, Color::Black] {
            // A royal piece still in hand (placed in a setup phase) counts.
            let in_hand = (0..rules.variant.pieces.len().min(MAX_KINDS))
                .any(|k| rules.is_royal_kind(k) && s.hand[c.index()][k] > 0);
            if royals && p.royal_count[c.index()] == 0 && !in_hand {
                problems.push(Problem::NoRoyal(c));
            }
        }
        if problems.is_empty() && p.royal_in_check(p.side.flip()) {
            problems.push(Problem::NotToMoveInCheck(p.side.flip()));
        }
        if problems.is_empty() {
            Ok(p)
        } else {
            Err(FenError { problems })
        }
    }

    /// The unchecked setup of this position (its board, side, rights, e.p. square, clocks).
    pub fn setup(&self) -> Setup {
        Setup {
            board: self.board[..self.rules.geometry.size()].to_vec(),
            side: self.side,
            rights: self.rights,
            ep: self.ep,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hand: self.hand,
            promoted: self.promoted,
            state: self.state,
        }
    }

    /// Recomputes the hash and royal squares from scratch.
    fn refresh(&mut self) {
        let size = self.rules.geometry.size();
        self.royal_count = [0; 2];
        self.counts = [0; 256];
        self.occupied = Default::default();
        let mut h = 0;
        let mut structure = 0;
        for sq in 0..size {
            let c = self.board[sq];
            if c != EMPTY {
                self.counts[c.index()] += 1;
                self.occupied[color_of(c).index()].insert(Square::from_index(sq));
                let z = self.rules.keys.piece[c.index() * 256 + sq];
                h ^= z;
                structure ^= z & self.rules.keys.structure[c.index()];
                if self.rules.is_royal(c) {
                    let i = color_of(c).index();
                    self.royal[i] = Square::from_index(sq);
                    self.royal_count[i] += 1;
                }
            }
        }
        if self.side == Color::Black {
            h ^= self.rules.keys.side;
        }
        for b in 0..16 {
            if self.rights >> b & 1 != 0 {
                h ^= self.rules.keys.rights[b];
            }
        }
        for &e in self.ep.as_slice() {
            h ^= self.rules.keys.ep[e.index()];
        }
        if self.rules.hands.on {
            for c in [Color::White, Color::Black] {
                for k in 0..self.rules.variant.pieces.len().min(MAX_KINDS) {
                    for n in 1..=self.hand[c.index()][k] {
                        h ^= self.rules.z_hand(c, k, n);
                    }
                }
            }
            for sq in self.promoted.iter() {
                h ^= self.rules.keys.promoted[sq.index()];
            }
        }
        for (slot, &v) in self.state.iter().enumerate() {
            h ^= self.rules.z_state(slot, v);
        }
        self.hash = h;
        self.structure = structure;
    }

    /// The hash computed from scratch (for tests: it must equal [`Position::hash`]).
    pub fn hash_from_scratch(&self) -> u64 {
        self.refreshed().hash
    }

    /// The structure key computed from scratch (for tests: it must equal
    /// [`Position::structure_hash`]).
    pub fn structure_hash_from_scratch(&self) -> u64 {
        self.refreshed().structure
    }

    /// A copy with its keys, counts and royal squares computed from scratch.
    fn refreshed(&self) -> Position {
        let mut c = self.clone();
        c.refresh();
        c
    }

    /// The rules this position is played by.
    pub fn rules(&self) -> &Arc<Ruleset> {
        &self.rules
    }
    /// The side to move.
    #[inline]
    pub fn side(&self) -> Color {
        self.side
    }
    /// The piece code on `sq` (0: empty).
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Code {
        self.board[sq.index()]
    }
    /// Every square's piece code, by square index.
    #[inline]
    pub fn board(&self) -> &[Code; 256] {
        &self.board
    }
    /// The pieces in hand, by side, then kind.
    pub fn hands(&self) -> &[[u8; MAX_KINDS]; 2] {
        &self.hand
    }
    /// How many pieces of `kind` `color` holds in hand (0 in a variant without hands).
    #[inline]
    pub fn hand(&self, color: Color, kind: usize) -> u32 {
        self.hand[color.index()].get(kind).map_or(0, |&n| n as u32)
    }
    /// Whether the piece on `sq` got its kind by promotion (kept only in a variant with
    /// hands, where it returns to a hand as the kind it promoted from).
    #[inline]
    pub fn is_promoted(&self, sq: Square) -> bool {
        self.promoted.contains(sq)
    }
    /// The piece a move of the side to move moves: the dropped piece for a drop, else the
    /// piece on its origin.
    #[inline]
    pub fn mover(&self, mv: Move) -> Code {
        match mv.dropped() {
            Some(k) => code(k, self.side),
            None => self.board[mv.from.index()],
        }
    }
    /// How many pieces of code `c` stand on the board.
    #[inline]
    pub fn count(&self, c: Code) -> u32 {
        self.counts[c.index()] as u32
    }
    /// The squares occupied by `color`'s pieces.
    #[inline]
    pub fn occupied(&self, color: Color) -> &crate::moves::SquareSet {
        &self.occupied[color.index()]
    }
    /// The rights bits still held.
    #[inline]
    pub fn rights(&self) -> u16 {
        self.rights
    }
    /// The lowest en-passant square, if any (see [`Position::ep_squares`]).
    #[inline]
    pub fn ep_square(&self) -> Option<Square> {
        self.ep.first()
    }
    /// The en-passant squares: every square the last step passed over (none, one, or more
    /// for a triple step).
    #[inline]
    pub fn ep_squares(&self) -> &EpSquares {
        &self.ep
    }
    /// The Zobrist hash of the position.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }
    /// The structure key: the Zobrist keys of the pawn-like pieces (those that promote and
    /// are not royal; where none promotes, the non-royal kind most numerous at the start) on
    /// their squares, and nothing else. Positions with the same such pieces on the same
    /// squares share it (the search keys its evaluation's correction by it).
    #[inline]
    pub fn structure_hash(&self) -> u64 {
        self.structure
    }
    /// The rules' state words (see [`hooks::Builder::claim_state`]).
    #[inline]
    pub fn state(&self) -> &StateWords {
        &self.state
    }
    /// Plies since the last capture or irreversible move.
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }
    /// The move number, from 1.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }
    /// Number of moves made since this position was created (undo depth).
    pub fn ply_count(&self) -> usize {
        self.stack.len()
    }
    /// Hashes of the positions before each move made, oldest first (for repetition).
    pub fn history_hashes(&self) -> impl DoubleEndedIterator<Item = u64> + '_ {
        self.stack.iter().map(|u| u.hash)
    }
    /// The moves made so far from the position this one was created from.
    pub fn moves_made(&self) -> impl Iterator<Item = Move> + '_ {
        self.stack.iter().map(|u| u.mv)
    }

    /// The square of `color`'s royal piece, when it has exactly one.
    pub fn royal_square(&self, color: Color) -> Option<Square> {
        if self.royal_count[color.index()] == 1 {
            Some(self.royal[color.index()])
        } else {
            None
        }
    }

    /// Whether `color` is in check: its royal piece is attacked. With several royal pieces,
    /// any of them attacked, or, where a rule says only the last one counts
    /// (`Ruleset::check_needs_every_royal`), every one of them attacked; with royal succession
    /// (`Ruleset::royal_succession`), never.
    pub fn royal_in_check(&self, color: Color) -> bool {
        match self.royal_count[color.index()] {
            0 => false,
            1 => self.attacked(self.royal[color.index()], color.flip()),
            _ if self.rules.royalty.succession => false,
            _ => {
                let mut royals = self.occupied[color.index()]
                    .iter()
                    .filter(|&s| self.rules.is_royal(self.board[s.index()]));
                let hit = |s: Square| self.attacked(s, color.flip());
                if self.rules.royalty.check_needs_every {
                    royals.all(hit)
                } else {
                    royals.any(hit)
                }
            }
        }
    }

    /// Notes where `color`'s royal piece stands once it has exactly one left.
    fn find_royal(&mut self, color: Color) {
        let i = color.index();
        if self.royal_count[i] == 1
            && let Some(s) = self.occupied[i]
                .iter()
                .find(|&s| self.rules.is_royal(self.board[s.index()]))
        {
            self.royal[i] = s;
        }
    }

    /// After `me` made `mv`: whether its royal piece is left attacked, unless a rule exempts
    /// the move ([`hooks::Rule::exempts_from_check`]).
    #[inline]
    fn royal_left_attacked(&self, me: Color, mv: Move) -> bool {
        self.royal_in_check(me) && !self.exempt_from_check(mv)
    }

    /// Whether a rule lets `mv`, just made, leave its mover's royal piece attacked
    /// ([`hooks::Rule::exempts_from_check`]).
    #[cold]
    #[inline(never)]
    pub fn exempt_from_check(&self, mv: Move) -> bool {
        let rs = &*self.rules;
        rs.dispatch
            .check_exempting
            .iter()
            .any(|&i| rs.dispatch.hooks[i as usize].exempts_from_check(self, mv))
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.royal_in_check(self.side)
    }

    /// Whether `sq` is attacked by a piece of `by`.
    #[inline]
    pub fn attacked(&self, sq: Square, by: Color) -> bool {
        movegen::attacked_on(&self.rules.tables, &self.board, sq, by)
    }

    /// Whether `sq` would be attacked by a piece of `by` on this board with `changes` (square,
    /// new contents) made: for rules that test hypothetical boards.
    pub fn attacked_with(&self, changes: &[(Square, Code)], sq: Square, by: Color) -> bool {
        let mut b = self.board;
        for &(s, c) in changes {
            b[s.index()] = c;
        }
        self.attacked_on(&b, sq, by)
    }

    /// Whether `sq` is attacked by a piece of `by` on `board` (one of
    /// [`Position::board_after`]'s, or another hypothetical board of this variant).
    pub fn attacked_on(&self, board: &[Code; 256], sq: Square, by: Color) -> bool {
        movegen::attacked_on(&self.rules.tables, board, sq, by)
    }

    /// Plays a move (pseudo-legal moves are accepted; see [`Position::is_legal`]): its
    /// [`Position::effects`], applied in two phases (everything the move lifts or takes comes
    /// off the board, then everything it puts down lands), with the hash keys, counts,
    /// occupancy, royal squares, rights and clocks following.
    #[expect(
        clippy::too_many_lines,
        reason = "the two phases over the effects share the running hash, the clears and the pieces"
    )]
    pub fn make(&mut self, mv: Move) {
        let fx = self.effects(mv);
        self.push_undo(mv, fx, false);
        let rs = &*self.rules;
        let mut h = self.hash;
        let mut st = self.structure;
        let zp = |c: Code, s: Square| rs.keys.piece[c.index() * 256 + s.index()];
        let zs = |c: Code, s: Square| zp(c, s) & rs.keys.structure[c.index()];
        for &e in self.ep.as_slice() {
            h ^= rs.keys.ep[e.index()];
        }
        let side = self.side;
        let me = side.index();
        let (mut moved, mut other, mut captured) = (EMPTY, EMPTY, [EMPTY; 2]);
        let mut taken = 0;
        let mut clears = 0;
        let mut ruled_irreversible = false;
        for &e in fx.as_slice() {
            let (sq, lifted) = match e {
                Effect::Capture { sq } | Effect::CaptureToHand { sq, .. } => {
                    let c = self.board[sq.index()];
                    if let Some(slot) = captured.get_mut(taken) {
                        *slot = c;
                    }
                    taken += 1;
                    if c == EMPTY {
                        continue;
                    }
                    self.counts[c.index()] -= 1;
                    (sq, c)
                }
                Effect::Move { from, .. } => {
                    moved = self.board[from.index()];
                    clears |= rs.rights.code_clears[moved.index()];
                    (from, moved)
                }
                Effect::Relocate { from, .. } => {
                    other = self.board[from.index()];
                    (from, other)
                }
                Effect::LoseRights { bits } => {
                    clears |= bits;
                    continue;
                }
                Effect::Irreversible => {
                    ruled_irreversible = true;
                    continue;
                }
                _ => continue,
            };
            h ^= zp(lifted, sq);
            st ^= zs(lifted, sq);
            self.board[sq.index()] = EMPTY;
            self.occupied[color_of(lifted).index()].remove(sq);
            clears |= rs.rights.square_clears[sq.index()];
        }
        let mut placed = moved;
        // A royal piece relocated (a swap's partner) or captured: the royal squares are
        // counted again.
        let mut royal_change =
            rs.is_royal(captured[0]) || rs.is_royal(captured[1]) || rs.is_royal(other);
        for &e in fx.as_slice() {
            let (sq, piece) = match e {
                Effect::Move { to, .. } => (to, moved),
                Effect::Relocate { to, .. } => (to, other),
                Effect::Drop { kind, to } => {
                    let k = kind as usize;
                    let dropped = code(k, side);
                    // A drop alone is the move; beside a piece's move (a gating) it is a
                    // second piece that lands.
                    if moved == EMPTY {
                        moved = dropped;
                        placed = dropped;
                    }
                    if let Some(n) = self.hand[me].get_mut(k).filter(|n| **n > 0) {
                        h ^= rs.z_hand(side, k, *n);
                        *n -= 1;
                    }
                    self.counts[dropped.index()] += 1;
                    royal_change |= rs.is_royal(dropped);
                    (to, dropped)
                }
                Effect::Promote { sq, kind } => {
                    let was = self.board[sq.index()];
                    placed = code(kind as usize, side);
                    h ^= zp(was, sq) ^ zp(placed, sq);
                    st ^= zs(was, sq) ^ zs(placed, sq);
                    self.board[sq.index()] = placed;
                    self.counts[was.index()] -= 1;
                    self.counts[placed.index()] += 1;
                    royal_change |= rs.is_royal(placed) != rs.is_royal(was);
                    continue;
                }
                _ => continue,
            };
            self.board[sq.index()] = piece;
            self.occupied[color_of(piece).index()].insert(sq);
            h ^= zp(piece, sq);
            st ^= zs(piece, sq);
            if rs.is_royal(piece) {
                self.royal[color_of(piece).index()] = sq;
            }
        }
        self.structure = st;
        if let Some(u) = self.stack.last_mut() {
            u.moved = moved;
            u.captured = captured;
            u.other = other;
        }
        let h = self.rights_and_ep(mv, clears, h);
        let rs = &*self.rules;
        // A drop restarts the clock (the hand it came from never holds the same again), as in
        // Fairy-Stockfish.
        let irreversible = captured[0] != EMPTY
            || placed != moved
            || mv.kind == MoveKind::Drop
            || ruled_irreversible
            || (moved != EMPTY && rs.irreversible[kind_of(moved)]);
        self.end_turn(h ^ rs.keys.side, irreversible, royal_change);
        if self.rules.hands.on {
            self.hand_and_marks(&fx);
        }
        if !self.rules.dispatch.state_makers.is_empty() {
            self.update_state(mv, captured[0]);
        }
    }

    /// After make's board changes: the rights in `clears` (of the squares a piece left and the
    /// moving piece) are lost, and a double step leaves en-passant rights; both change the hash
    /// `h`, returned.
    #[inline(always)]
    fn rights_and_ep(&mut self, mv: Move, clears: u16, mut h: u64) -> u64 {
        let rs = &*self.rules;
        let lost = self.rights & clears;
        if lost != 0 {
            for b in 0..16 {
                if lost >> b & 1 != 0 {
                    h ^= rs.keys.rights[b];
                }
            }
            self.rights &= !clears;
        }
        // A double step that promotes leaves no en-passant rights: the piece that could be
        // taken is no longer the piece that stepped.
        // Rights that no enemy piece can use are no rights: the position is the same as
        // without them (FIDE's rule for repetitions).
        if mv.kind == MoveKind::Double && mv.promo == 0 {
            self.ep = EpSquares::passed(rs.geometry, mv.from, Square::new(mv.aux), mv.to);
            self.ep_victim = mv.to;
            if self.ep_capturable(self.side.flip()) {
                for &e in self.ep.as_slice() {
                    h ^= rs.keys.ep[e.index()];
                }
            } else {
                self.ep = EpSquares::NONE;
            }
        } else {
            self.ep = EpSquares::NONE;
        }
        h
    }

    /// Whether a piece of `by` has an en-passant capture onto one of the en-passant squares
    /// (pseudo-legal: a capture that would leave its own king attacked still counts, as in
    /// Fairy-Stockfish).
    fn ep_capturable(&self, by: Color) -> bool {
        let rs = &*self.rules;
        if rs.ep_capturers == 0 {
            return false;
        }
        let ep = self.ep;
        let mut found = false;
        for from in self.occupied[by.index()].iter() {
            let kind = kind_of(self.board[from.index()]);
            if kind >= 64 || rs.ep_capturers >> kind & 1 == 0 {
                continue;
            }
            for e in rs.tables.entries_at(kind, by, from) {
                if e.modes().en_passant && e.shape() == Shape::Leap {
                    rs.tables
                        .reach_into(e, &self.board, by, &mut |to: Square, l| {
                            found |= l == crate::tables::Landing::Empty && ep.contains(to);
                        });
                    if found {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Asks the rules that keep state to update it after `mv` (which took `captured`), and
    /// puts the change of the hashed words in the hash.
    #[inline(never)]
    fn update_state(&mut self, mv: Move, captured: Code) {
        let mut words = self.state;
        for &i in &self.rules.dispatch.state_makers {
            self.rules.dispatch.hooks[i as usize].on_make(self, mv, captured, &mut words);
        }
        let mut h = self.hash;
        for (slot, (&old, &new)) in self.state.iter().zip(&words).enumerate() {
            if old != new {
                h ^= self.rules.z_state(slot, old) ^ self.rules.z_state(slot, new);
            }
        }
        self.hash = h;
        self.state = words;
    }

    /// With hands, after make applied `fx` to the board: a piece captured to the hand goes
    /// there, and promoted marks follow their pieces (lifted first, then put down, as the
    /// board was). Saves what unmake needs in the last undo record.
    #[cold]
    #[inline(never)]
    fn hand_and_marks(&mut self, fx: &Effects) {
        let rs = &*self.rules;
        let me = self.side.flip();
        let mut h = self.hash;
        let mut marks = 0;
        let mut hand_kind = [NO_HAND; 2];
        let mut lifted = [false; 2];
        let mut taken = 0;
        for &e in fx.as_slice() {
            let (sq, bit, slot) = match e {
                Effect::Capture { sq } => {
                    taken += 1;
                    (sq, capture_mark(taken), None)
                }
                Effect::CaptureToHand { sq, kind } => {
                    if let Some(n) = self.hand[me.index()].get_mut(kind as usize)
                        && *n < MAX_IN_HAND
                    {
                        *n += 1;
                        h ^= rs.z_hand(me, kind as usize, *n);
                        if let Some(slot) = hand_kind.get_mut(taken) {
                            *slot = kind;
                        }
                    }
                    taken += 1;
                    (sq, capture_mark(taken), None)
                }
                Effect::Move { from, .. } => (from, MARK_MOVED, Some(0)),
                Effect::Relocate { from, .. } => (from, MARK_OTHER, Some(1)),
                _ => continue,
            };
            if self.promoted.contains(sq) {
                self.promoted.remove(sq);
                h ^= rs.keys.promoted[sq.index()];
                marks |= bit;
                if let Some(i) = slot {
                    lifted[i] = true;
                }
            }
        }
        for &e in fx.as_slice() {
            let (sq, bit) = match e {
                Effect::Move { to, .. } if lifted[0] => (to, 0),
                Effect::Relocate { to, .. } if lifted[1] => (to, 0),
                // A promoted kind of its own (Shogi's Tokin) carries no mark, nor does any
                // piece where captures never go to a hand (the mark says what a captured piece
                // becomes there).
                Effect::Promote { sq, kind }
                    if rs.hands.captures_to_hand
                        && !self.promoted.contains(sq)
                        && rs.variant.pieces[kind as usize].demotes_to.is_none() =>
                {
                    (sq, MARK_MADE)
                }
                _ => continue,
            };
            self.promoted.insert(sq);
            h ^= rs.keys.promoted[sq.index()];
            marks |= bit;
        }
        self.hash = h;
        if let Some(u) = self.stack.last_mut() {
            u.hand_kind = hand_kind;
            u.marks = marks;
        }
    }

    /// The end of make, for a board move or a drop: the move-count clock (restarted by an
    /// `irreversible` move), the move number, the side to move, the new `hash` (the side key
    /// already in it) and, after a `royal_change`, the royal squares counted again.
    #[inline(always)]
    fn end_turn(&mut self, hash: u64, irreversible: bool, royal_change: bool) {
        if irreversible {
            self.halfmove = 0;
        } else {
            self.halfmove = self.halfmove.saturating_add(1);
        }
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.hash = hash;
        if royal_change {
            self.recount_royals();
        }
    }

    /// Takes back what [`Position::hand_and_marks`] did (the undo record, already popped;
    /// the side to move is the mover again).
    #[cold]
    #[inline(never)]
    fn unmake_hand_and_marks(&mut self, u: &Undo) {
        let me = self.side.index();
        for &k in &u.hand_kind {
            if k != NO_HAND {
                self.hand[me][k as usize] -= 1;
            }
        }
        let has = |bit: u8| u.marks & bit != 0;
        for &e in u.fx.as_slice() {
            match e {
                Effect::Move { to, .. } if has(MARK_MOVED) => self.promoted.remove(to),
                Effect::Relocate { to, .. } if has(MARK_OTHER) => self.promoted.remove(to),
                Effect::Promote { sq, .. } if has(MARK_MADE) => self.promoted.remove(sq),
                _ => {}
            }
        }
        let mut taken = 0;
        for &e in u.fx.as_slice() {
            match e {
                Effect::Capture { sq } | Effect::CaptureToHand { sq, .. } => {
                    taken += 1;
                    if has(capture_mark(taken)) {
                        self.promoted.insert(sq)
                    }
                }
                Effect::Move { from, .. } if has(MARK_MOVED) => self.promoted.insert(from),
                Effect::Relocate { from, .. } if has(MARK_OTHER) => self.promoted.insert(from),
                _ => {}
            }
        }
    }

    /// Counts each side's royal pieces again (rare: a royal piece captured or made by
    /// promotion).
    #[cold]
    fn recount_royals(&mut self) {
        for c in [Color::White, Color::Black] {
            let n = self.occupied[c.index()]
                .iter()
                .filter(|&s| self.rules.is_royal(self.board[s.index()]))
                .count();
            self.royal_count[c.index()] = n as u8;
            self.find_royal(c);
        }
    }

    /// Saves what unmake needs.
    #[inline]
    fn push_undo(&mut self, mv: Move, fx: Effects, null: bool) {
        self.stack.push(Undo {
            mv,
            fx,
            moved: EMPTY,
            captured: [EMPTY; 2],
            rights: self.rights,
            ep: self.ep,
            ep_victim: self.ep_victim,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            structure: self.structure,
            royal: self.royal,
            royal_count: self.royal_count,
            null,
            other: EMPTY,
            hand_kind: [NO_HAND; 2],
            marks: 0,
            state: self.state,
        });
    }

    /// Passes the move to the other side (a null move, for the search's null-move pruning).
    /// The en-passant square is cleared and the move-count clock restarts, so that no
    /// repetition is counted across it. Take it back with [`Position::unmake`].
    pub fn make_null(&mut self) {
        self.push_undo(Move::default(), Effects::default(), true);
        for &e in self.ep.as_slice() {
            self.hash ^= self.rules.keys.ep[e.index()];
        }
        self.ep = EpSquares::NONE;
        self.halfmove = 0;
        if self.side == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.side = self.side.flip();
        self.hash ^= self.rules.keys.side;
    }

    /// The squares the `i`-th move made from the position this one was created from changed,
    /// with their contents before and after, in the order make changed them (a null move
    /// changes none); written to `out`, returning how many. What an incrementally updated
    /// evaluation follows: every kind of move is a list of such changes.
    pub fn move_changes(&self, i: usize, out: &mut [Change; MAX_CHANGES]) -> usize {
        let Some(u) = self.stack.get(i) else { return 0 };
        if u.null {
            return 0;
        }
        let mut n = 0;
        let mut push = |square: Square, before: Code, after: Code| {
            if let Some(slot) = out.get_mut(n) {
                *slot = Change {
                    square,
                    before,
                    after,
                };
                n += 1;
            }
        };
        let fx = u.fx.as_slice();
        let mut taken = u.captured.iter();
        for &e in fx {
            match e {
                Effect::Capture { sq } | Effect::CaptureToHand { sq, .. } => {
                    let c = taken.next().copied().unwrap_or(EMPTY);
                    if c != EMPTY {
                        push(sq, c, EMPTY);
                    }
                }
                Effect::Move { from, .. } => push(from, u.moved, EMPTY),
                Effect::Relocate { from, .. } => push(from, u.other, EMPTY),
                _ => {}
            }
        }
        for &e in fx {
            match e {
                Effect::Relocate { to, .. } => push(to, EMPTY, u.other),
                Effect::Drop { kind, to } => {
                    push(to, EMPTY, code(kind as usize, color_of(u.moved)));
                }
                Effect::Move { to, .. } => {
                    let placed = match u.fx.promotion() {
                        Some(k) => code(k, color_of(u.moved)),
                        None => u.moved,
                    };
                    push(to, EMPTY, placed);
                }
                _ => {}
            }
        }
        n
    }

    /// The hash of the position before the `i`-th move made from the one this position was
    /// created from (the current hash for `i` = [`Position::ply_count`]).
    pub fn hash_at(&self, i: usize) -> u64 {
        self.stack.get(i).map_or(self.hash, |u| u.hash)
    }

    /// Whether the last move made dropped a piece whose checkmate loses for its side
    /// ([`hooks::Builder::mate_by_drop_loses`]): when the side to move is checkmated, it wins.
    pub fn mated_by_losing_drop(&self) -> bool {
        let mask = self.rules.dispatch.mate_drop_loses;
        mask != 0
            && self
                .stack
                .last()
                .and_then(|u| u.mv.dropped())
                .is_some_and(|k| k < 64 && mask >> k & 1 != 0)
    }

    /// The pieces the last move made took, in the order of its capture effects (a locust
    /// move takes two; `EMPTY`: none), for rules that judge a move once it is made.
    pub fn last_captured(&self) -> [Code; 2] {
        self.stack.last().map_or([EMPTY; 2], |u| u.captured)
    }

    /// The piece the last move made moved, as it was before it moved (before a promotion;
    /// `EMPTY` after a null move).
    pub fn last_mover(&self) -> Code {
        self.stack.last().map_or(EMPTY, |u| u.moved)
    }

    /// Whether the last move made was a null move.
    pub fn last_was_null(&self) -> bool {
        self.stack.last().is_some_and(|u| u.null)
    }

    /// Takes back the last move made. Does nothing when no move was made.
    pub fn unmake(&mut self) {
        let Some(u) = self.stack.pop() else { return };
        if u.null {
            self.side = self.side.flip();
            self.fullmove = u.fullmove;
            self.ep = u.ep;
            self.ep_victim = u.ep_victim;
            self.halfmove = u.halfmove;
            self.hash = u.hash;
            self.state = u.state;
            return;
        }
        self.side = self.side.flip();
        self.fullmove = u.fullmove;
        self.revert(&u);
        self.rights = u.rights;
        self.ep = u.ep;
        self.ep_victim = u.ep_victim;
        self.halfmove = u.halfmove;
        self.hash = u.hash;
        self.structure = u.structure;
        self.royal = u.royal;
        self.royal_count = u.royal_count;
        self.state = u.state;
        if self.rules.hands.on {
            self.unmake_hand_and_marks(&u);
        }
    }

    /// Takes a move's effects back off the board (the side to move is the mover again):
    /// what landed is lifted, then what was lifted or taken is put back.
    #[inline(always)]
    fn revert(&mut self, u: &Undo) {
        let me = self.side.index();
        for &e in u.fx.as_slice() {
            match e {
                Effect::Move { to, .. } | Effect::Relocate { to, .. } => {
                    self.board[to.index()] = EMPTY;
                    self.occupied[me].remove(to);
                }
                Effect::Drop { kind, to } => {
                    self.board[to.index()] = EMPTY;
                    self.occupied[me].remove(to);
                    self.counts[code(kind as usize, self.side).index()] -= 1;
                    if let Some(n) = self.hand[me].get_mut(kind as usize) {
                        *n += 1;
                    }
                }
                Effect::Promote { kind, .. } => {
                    self.counts[code(kind as usize, self.side).index()] -= 1;
                    self.counts[u.moved.index()] += 1;
                }
                _ => {}
            }
        }
        let mut taken = u.captured.iter();
        for &e in u.fx.as_slice() {
            let (sq, piece) = match e {
                Effect::Move { from, .. } => (from, u.moved),
                Effect::Relocate { from, .. } => (from, u.other),
                Effect::Capture { sq } | Effect::CaptureToHand { sq, .. } => {
                    let c = taken.next().copied().unwrap_or(EMPTY);
                    if c == EMPTY {
                        continue;
                    }
                    self.counts[c.index()] += 1;
                    (sq, c)
                }
                _ => continue,
            };
            self.board[sq.index()] = piece;
            self.occupied[color_of(piece).index()].insert(sq);
        }
    }

    /// Whether any move value is legal here: exactly when [`Position::legal_moves`] lists it.
    /// Safe on any value (a random one, one from another position); it generates the
    /// pseudo-legal moves, so the search uses [`Position::make_if_legal`] instead.
    pub fn is_legal(&mut self, mv: Move) -> bool {
        let mut pseudo = MoveList::new();
        self.pseudo_legal_moves(&mut pseudo);
        pseudo.as_slice().contains(&mv) && self.is_legal_pseudo(mv)
    }

    /// Whether a pseudo-legal move (one that [`Position::pseudo_legal_moves`] lists) is legal.
    pub fn is_legal_pseudo(&mut self, mv: Move) -> bool {
        let checked = self.in_check();
        self.is_legal_with(mv, checked)
    }

    /// The rules' part of legality: every rule that vetoes any move allows it, and the rule
    /// that made it (a `MoveKind::Rule` move) allows it. Free when no rule vetoes.
    #[inline(always)]
    fn rules_allow(&self, mv: Move) -> bool {
        if self.rules.dispatch.vetoing.is_empty() && !mv.is_rule_made() {
            return true;
        }
        self.forbidding_rule_before(mv).is_none()
    }

    /// The name of the rule that forbids `mv` here before it is made (a vetoing rule, or the
    /// rule that added it), if any.
    #[inline(never)]
    fn forbidding_rule_before(&self, mv: Move) -> Option<&'static str> {
        let rs = &*self.rules;
        for &i in &rs.dispatch.vetoing {
            let h = &rs.dispatch.hooks[i as usize];
            if !h.veto(self, mv) {
                return Some(h.name());
            }
        }
        if !mv.is_rule_made() {
            return None;
        }
        let h = rs.dispatch.hooks.get(mv.aux as usize)?;
        (!h.allows(self, mv)).then(|| h.name())
    }

    /// The name of the rule that forbids `mv` here, if any: [`Position::is_legal_pseudo`]'s rule
    /// part (a vetoing rule, the rule that added the move, a rule that vetoes drops by the
    /// position they make), named for messages and checks.
    pub fn forbidding_rule(&self, mv: Move) -> Option<&'static str> {
        if let Some(name) = self.forbidding_rule_before(mv) {
            return Some(name);
        }
        if mv.kind != MoveKind::Drop || self.rules.dispatch.vetoing_drops.is_empty() {
            return None;
        }
        let mut after = self.snapshot();
        after.make(mv);
        let rules = self.rules.clone();
        rules
            .dispatch
            .vetoing_drops
            .iter()
            .map(|&i| &rules.dispatch.hooks[i as usize])
            .find(|h| !h.veto_made_drop(&mut after, mv))
            .map(|h| h.name())
    }

    /// Whether every rule that vetoes drops by the position they make allows the drop `mv`,
    /// just made (the position is left as it is).
    #[cold]
    #[inline(never)]
    fn made_drop_allowed(&mut self, mv: Move) -> bool {
        let rules = self.rules.clone();
        rules
            .dispatch
            .vetoing_drops
            .iter()
            .all(|&i| rules.dispatch.hooks[i as usize].veto_made_drop(self, mv))
    }

    /// Makes a pseudo-legal move when it is legal (the same predicate as
    /// [`Position::is_legal_pseudo`], by make and test); returns whether it was made. The
    /// search's way: the move is made anyway when it is legal.
    #[inline]
    pub fn make_if_legal(&mut self, mv: Move) -> bool {
        if !self.rules_allow(mv) {
            return false;
        }
        let me = self.side;
        self.make(mv);
        if self.royal_left_attacked(me, mv)
            || (mv.kind == MoveKind::Drop
                && !self.rules.dispatch.vetoing_drops.is_empty()
                && !self.made_drop_allowed(mv))
        {
            self.unmake();
            return false;
        }
        true
    }

    /// The legality predicate, when it is known whether the side to move is in check: the
    /// rules allow the move and it leaves no royal piece of the mover attacked. Shared by the
    /// generator ([`Position::legal_moves`]), the game, `check` and the search.
    #[inline]
    fn is_legal_with(&mut self, mv: Move, checked: bool) -> bool {
        if !self.rules_allow(mv) {
            return false;
        }
        let me = self.side;
        let n = self.royal_count[me.index()];
        if n >= 2
            && self.rules.royalty.succession
            && (mv.promo == 0 || !self.rules.is_royal(self.board[mv.from.index()]))
        {
            // Royal succession with two heirs or more: no move of this side leaves it in check,
            // unless a royal piece promotes away and leaves one.
            return true;
        }
        if n != 1
            || mv.kind == MoveKind::Drop
            || mv.kind == MoveKind::Locust
            || (mv.is_rule_made() && self.rules.rule_has_effects(mv.aux))
            || (mv.promo != 0 && self.rules.promotion.to_royal)
        {
            // A move that puts a royal piece on the board: a promotion to one, or its drop
            // from the hand (Sittuyin's setup).
            let becomes_royal = mv.promotion().is_some_and(|k| {
                self.rules.is_royal_kind(k) && !self.rules.is_royal(self.board[mv.from.index()])
            }) || mv.dropped().is_some_and(|k| self.rules.is_royal_kind(k));
            let drop_veto =
                mv.kind == MoveKind::Drop && !self.rules.dispatch.vetoing_drops.is_empty();
            if n == 0 && !becomes_royal && !drop_veto {
                return true;
            }
            self.make(mv);
            let bad =
                self.royal_left_attacked(me, mv) || (drop_veto && !self.made_drop_allowed(mv));
            self.unmake();
            return !bad;
        }
        let rs = &*self.rules;
        let size = rs.geometry.size();
        let moved = self.board[mv.from.index()];
        let royal_moves = rs.is_royal(moved);
        let king = if royal_moves {
            mv.to
        } else {
            self.royal[me.index()]
        };
        let victim = self.taken_square(mv);
        let enemy = me.flip();
        if !checked && !royal_moves {
            // Not in check: the move can expose the royal piece only by emptying or filling a
            // square that some attack probe depends on.
            let at = enemy.index() * size + king.index();
            let (vac, fill) = (&rs.tables.vacate_sets[at], &rs.tables.fill_sets[at]);
            if !vac.contains(mv.from)
                && !fill.contains(mv.to)
                && (victim == mv.to || !vac.contains(victim))
            {
                return true;
            }
        }
        // Board-only make, test, restore.
        let captured = self.board[victim.index()];
        let at_to = self.board[mv.to.index()];
        self.board[victim.index()] = EMPTY;
        self.board[mv.from.index()] = EMPTY;
        self.board[mv.to.index()] = moved;
        let t = &rs.tables;
        let bad = if checked || royal_moves {
            movegen::attacked_on(t, &self.board, king, enemy)
        } else {
            // Not in check before: only probes the changed squares can switch on matter.
            let vacated = [mv.from, victim];
            let n = if victim == mv.to { 1 } else { 2 };
            movegen::attacked_after(t, &self.board, king, enemy, &vacated[..n], mv.to)
        };
        self.board[mv.to.index()] = at_to;
        self.board[victim.index()] = captured;
        self.board[mv.from.index()] = moved;
        !bad
    }

    /// All legal moves.
    pub fn legal_moves(&mut self, out: &mut MoveList) {
        self.pseudo_legal_moves(out);
        let checked = self.in_check();
        let mut i = 0;
        let mut n = out.len();
        while i < n {
            let mv = out.as_slice()[i];
            if self.is_legal_with(mv, checked) {
                i += 1;
            } else {
                out.as_mut_slice().swap(i, n - 1);
                n -= 1;
            }
        }
        out.truncate(n);
    }

    /// Pseudo-legal moves: the notation's moves and the hooks' moves (drops included).
    pub fn pseudo_legal_moves(&self, out: &mut MoveList) {
        out.clear();
        movegen::generate(self, out);
        for &i in &self.rules.dispatch.generating {
            self.rules.dispatch.hooks[i as usize].generate(self, out);
        }
    }

    /// The pseudo-legal moves less (most of) the quiet ones: every capture, en-passant capture
    /// and promotion of [`Position::pseudo_legal_moves`], in its order, for a search of
    /// captures (which filters out what quiet moves remain: the hooks' moves, promoting
    /// pieces' plain moves).
    pub fn tactical_moves(&self, out: &mut MoveList) {
        out.clear();
        movegen::generate_tactical(self, out);
        for &i in &self.rules.dispatch.generating {
            self.rules.dispatch.hooks[i as usize].generate(self, out);
        }
    }

    /// A copy of this position with no move history (cheap to keep).
    pub fn snapshot(&self) -> Position {
        let mut p = self.clone();
        p.stack = Vec::with_capacity(256);
        p
    }
}

/// What no game of the variant reaches in `s`, each with the rule it breaks: a royal piece in
/// hand, a confined piece outside its zone unless a rule puts it there otherwise
/// ([`hooks::Rule::can_place`]: a drop), and what a rule forbids
/// ([`hooks::Rule::check_placement`]).
fn unreachable(rules: &Ruleset, s: &Setup) -> Vec<Problem> {
    let g = rules.geometry;
    let v = &rules.variant;
    let kinds = v.pieces.len().min(MAX_KINDS);
    let side = |c: Color| if c == Color::White { "White" } else { "Black" };
    let mut out = Vec::new();
    for c in [Color::White, Color::Black] {
        // A royal piece goes to no hand: only a rule that places it from the start's hand
        // (Sittuyin's drops) lets one stand there.
        let placed = |k: usize| {
            rules
                .dispatch
                .hooks
                .iter()
                .any(|h| g.squares().any(|sq| h.can_place(rules, k, c, sq)))
        };
        for k in (0..kinds).filter(|&k| rules.is_royal_kind(k) && s.hand[c.index()][k] > 0) {
            if !placed(k) {
                out.push(format!(
                    "a {} {} in hand: a royal piece never goes to a hand",
                    side(c),
                    v.pieces[k].name
                ));
            }
        }
    }
    if s.board.len() != g.size() {
        return out.into_iter().map(Problem::Placement).collect();
    }
    for sq in g.squares() {
        let code = s.board[sq.index()];
        if code == EMPTY || code.index() < 2 || kind_of(code) >= kinds {
            continue;
        }
        let (k, c) = (kind_of(code), color_of(code));
        let name = format!("{} {}", side(c), v.pieces[k].name);
        if rules
            .compiled_rules()
            .iter()
            .any(|h| h.can_place(rules, k, c, sq))
        {
            continue;
        }
        if let Some(z) = v.pieces[k].confined.and_then(|z| v.zones.get(z))
            && !z.squares[c.index()].contains(sq)
        {
            out.push(format!(
                "a {name} on {}, outside `{}`, the zone it never leaves (`confined`)",
                g.name(sq),
                z.name
            ));
        }
    }
    for h in rules.compiled_rules() {
        out.extend(h.check_placement(rules, &s.board));
    }
    out.into_iter().map(Problem::Placement).collect()
}

/// What is wrong with a setup's hands and promoted marks: pieces in hand or marks in a variant
/// without hands, a kind the variant lacks, a mark on an empty square.
fn hand_problems(rules: &Ruleset, s: &Setup) -> Vec<Problem> {
    let mut out = Vec::new();
    let kinds = rules.variant.pieces.len();
    let any_hand = s.hand.iter().any(|h| h.iter().any(|&n| n > 0));
    if !rules.hands.on {
        if any_hand {
            out.push(Problem::Placement(
                "pieces in hand, but this variant has no hands (no `drops` rule)".into(),
            ));
        }
        if !s.promoted.is_empty() {
            out.push(Problem::Placement(
                "a piece marked promoted (`~`), but this variant has no hands (no `drops` rule)"
                    .into(),
            ));
        }
        return out;
    }
    if s.hand
        .iter()
        .any(|h| h[kinds.min(MAX_KINDS)..].iter().any(|&n| n > 0))
    {
        out.push(Problem::Placement(
            "a piece in hand that this variant does not have".into(),
        ));
    }
    if s.hand.iter().any(|h| h.iter().any(|&n| n > MAX_IN_HAND)) {
        out.push(Problem::Placement(format!(
            "more than {MAX_IN_HAND} pieces of one kind in a hand"
        )));
    }
    if let Some(sq) = s
        .promoted
        .iter()
        .find(|&q| s.board.get(q.index()).is_none_or(|&c| c == EMPTY))
    {
        out.push(Problem::Placement(format!(
            "the promoted mark `~` on {}, an empty square",
            rules.geometry.name(sq)
        )));
    }
    out
}
