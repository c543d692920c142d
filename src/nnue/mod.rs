//! A learned evaluation: an efficiently updated neural network (NNUE) for any variant.
//!
//! **Inputs.** One feature per (piece kind, colour relative to the viewer, square as the viewer
//! sees it): `kinds × 2 × files × ranks` features, seen from each side. White sees the board
//! as it is; Black sees it with the ranks mirrored and the colours swapped, so that one set of
//! weights serves both sides. A 16×16 board with 26 kinds has 13,312 features; with 256 hidden
//! units the first layer is 6.8 MB of 16-bit weights. No king-square buckets: a variant may have
//! no royal piece, or several.
//!
//! **Layers.** Features → `hidden` units (one accumulator per viewer, the same weights) →
//! squared clipped ReLU → the side to move's units then the other side's → one output, from
//! one of `buckets` output layers chosen by the number of pieces on the board.
//!
//! **Accumulators** ([`Accumulator`]) are updated incrementally from the board changes of each
//! move ([`Change`]): whatever a move does (capture, promotion, e.p., castling, a rule's move) is
//! a list of squares whose contents changed, and each change removes one feature and adds
//! another. The search keeps one accumulator per ply ([`AccStack`]).
//!
//! **Integers.** Weights are 16-bit (first layer scaled by [`QA`], output by [`QB`]); the output
//! is summed in 32-bit integers that cannot overflow (the file check bounds the output
//! weights). AVX2 is used where the processor has it; the portable loop gives the same numbers
//! (integer sums in another order).
//!
//! The file format is in [`mod@format`]; training data in [`data`]; training in [`train`].

pub mod data;
pub mod format;
mod simd;
pub mod train;

use crate::geometry::{Color, Square};
use crate::moves::{Code, EMPTY, color_of, kind_of};
use crate::variant::Variant;

pub use format::NetError;

/// The first layer's quantisation: a float weight `w` is stored as `round(w * QA)`, and the
/// activation clips at `QA`.
pub const QA: i32 = 255;
/// The output layer's quantisation.
pub const QB: i32 = 64;
/// Network output units per centipawn: the float output times `SCALE` is the evaluation in
/// centipawns.
pub const SCALE: i32 = 400;
/// The largest evaluation the network returns, in centipawns (well below mate scores).
pub const EVAL_LIMIT: i32 = 20_000;
/// The widest hidden layer a file may have.
pub const MAX_HIDDEN: usize = 1024;
/// The most output buckets.
pub const MAX_BUCKETS: usize = 16;

/// A fingerprint of a variant's board and piece set: board size, holes, and each piece's
/// movement (canonical XBetza) and royalty, in order. A network trained for one piece set is
/// refused by a variant with another.
pub fn fingerprint(v: &Variant) -> u64 {
    let mut h = Fnv::default();
    h.bytes(&[v.files, v.ranks]);
    let mut holes = v.holes.clone();
    holes.sort_unstable();
    h.bytes(&holes.iter().map(|s| s.byte()).collect::<Vec<u8>>());
    h.bytes(&(v.pieces.len() as u32).to_le_bytes());
    for p in &v.pieces {
        h.bytes(p.betza.canonical().to_string().as_bytes());
        h.bytes(&[0, p.royal as u8]);
    }
    h.0
}

/// FNV-1a, 64 bits.
#[derive(Clone, Copy)]
pub(crate) struct Fnv(pub u64);

impl Default for Fnv {
    fn default() -> Fnv {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    pub fn bytes(&mut self, b: &[u8]) {
        for &x in b {
            self.0 ^= x as u64;
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
}

/// Where each (viewer, piece, square) falls among the inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// Files of the board.
    pub files: u8,
    /// Ranks of the board.
    pub ranks: u8,
    /// Piece kinds of the variant.
    pub kinds: usize,
}

impl Layout {
    /// The layout of a variant's board and pieces.
    pub fn of(v: &Variant) -> Layout {
        Layout {
            files: v.files,
            ranks: v.ranks,
            kinds: v.pieces.len(),
        }
    }

    /// Squares on the board (holes included: they simply never hold a piece).
    #[inline]
    pub fn size(&self) -> usize {
        self.files as usize * self.ranks as usize
    }

    /// Number of input features.
    #[inline]
    pub fn inputs(&self) -> usize {
        self.kinds * 2 * self.size()
    }

    /// The feature of piece `c` on `sq` seen by `viewer`.
    #[inline]
    pub fn feature(&self, viewer: Color, c: Code, sq: Square) -> usize {
        let size = self.size();
        let rel = (color_of(c) != viewer) as usize;
        let sq = if viewer == Color::White {
            sq.index()
        } else {
            let f = sq.index() % self.files as usize;
            let r = sq.index() / self.files as usize;
            (self.ranks as usize - 1 - r) * self.files as usize + f
        };
        (kind_of(c) * 2 + rel) * size + sq
    }
}

/// A loaded network, its weights quantised.
#[derive(Clone, Debug)]
pub struct Network {
    /// The variant it was trained for (its `id`), as the file says.
    pub variant: String,
    /// The fingerprint of that variant's board and pieces ([`fingerprint`]).
    pub fingerprint: u64,
    /// Where each (viewer, piece, square) falls among the inputs.
    pub layout: Layout,
    /// Hidden units per side.
    pub hidden: usize,
    /// Output buckets, chosen by the number of pieces on the board.
    pub buckets: usize,
    /// The piece count that maps to the last output bucket (the start position's count).
    pub max_pieces: u16,
    /// First layer: `inputs × hidden`, feature-major.
    pub(crate) l1_w: Vec<i16>,
    pub(crate) l1_b: Vec<i16>,
    /// Output layers: `buckets × 2·hidden` (the side to move's units first).
    pub(crate) l2_w: Vec<i16>,
    pub(crate) l2_b: Vec<i32>,
    /// Whether the AVX2 paths are used (detected at load; see [`Network::set_simd`]).
    simd: bool,
}

impl Network {
    /// The bytes of the network file, as [`format::read`] reads them back.
    pub fn to_bytes(&self) -> Vec<u8> {
        format::write(self)
    }

    /// Reads a network file and checks it against `variant` (its board and pieces).
    pub fn for_variant(bytes: &[u8], variant: &Variant) -> Result<Network, NetError> {
        let net = format::read(bytes)?;
        let fp = fingerprint(variant);
        if net.fingerprint != fp || net.layout != Layout::of(variant) {
            return Err(NetError::WrongVariant {
                net: net.variant.clone(),
                variant: variant.id.clone(),
            });
        }
        Ok(net)
    }

    /// Whether the AVX2 paths are in use.
    pub fn simd(&self) -> bool {
        self.simd
    }

    /// Uses the AVX2 paths (when the processor has them) or the portable loops. Both give the
    /// same numbers; this is for tests and benchmarks.
    pub fn set_simd(&mut self, on: bool) {
        self.simd = on && simd::available();
    }

    /// The output bucket for a board with `pieces` pieces.
    #[inline]
    pub fn bucket(&self, pieces: u32) -> usize {
        let max = self.max_pieces.max(1) as usize;
        ((pieces as usize).saturating_sub(1) * self.buckets / max).min(self.buckets - 1)
    }

    /// The weights' row of feature `f`.
    #[inline]
    fn row(&self, f: usize) -> &[i16] {
        &self.l1_w[f * self.hidden..(f + 1) * self.hidden]
    }

    /// Fills `acc` from scratch for `board` (codes, rank 1 first).
    pub fn refresh(&self, board: &[Code], acc: &mut Accumulator) {
        let h = self.hidden;
        for v in [Color::White, Color::Black] {
            let a = &mut acc.v[v.index() * h..(v.index() + 1) * h];
            a.copy_from_slice(&self.l1_b);
        }
        let mut pieces = 0;
        for (sq, &c) in board.iter().enumerate().take(self.layout.size()) {
            if c != EMPTY {
                pieces += 1;
                self.update_piece::<false>(acc, c, Square::from_index(sq));
            }
        }
        acc.pieces = pieces;
    }

    /// Adds (`SUB` false) or subtracts piece `c` on `sq` to or from both viewers' units.
    #[inline]
    fn update_piece<const SUB: bool>(&self, acc: &mut Accumulator, c: Code, sq: Square) {
        let h = self.hidden;
        for v in [Color::White, Color::Black] {
            let row = self.row(self.layout.feature(v, c, sq));
            simd::add_or_sub::<SUB>(
                &mut acc.v[v.index() * h..(v.index() + 1) * h],
                row,
                self.simd,
            );
        }
    }

    /// Applies board changes to an accumulator.
    pub fn apply(&self, acc: &mut Accumulator, changes: &[Change]) {
        for ch in changes {
            if ch.before != EMPTY {
                self.update_piece::<true>(acc, ch.before, ch.square);
                acc.pieces -= 1;
            }
            if ch.after != EMPTY {
                self.update_piece::<false>(acc, ch.after, ch.square);
                acc.pieces += 1;
            }
        }
    }

    /// The evaluation in centipawns for `side` to move, from its accumulator.
    pub fn evaluate(&self, acc: &Accumulator, side: Color) -> i32 {
        let h = self.hidden;
        let (us, them) = (side.index(), side.flip().index());
        let b = self.bucket(acc.pieces);
        let w = &self.l2_w[b * 2 * h..(b + 1) * 2 * h];
        let sum = simd::screlu_dot(&acc.v[us * h..(us + 1) * h], &w[..h], self.simd)
            + simd::screlu_dot(&acc.v[them * h..(them + 1) * h], &w[h..], self.simd);
        let out = (sum / QA + self.l2_b[b]) as i64 * SCALE as i64 / (QA * QB) as i64;
        (out as i32).clamp(-EVAL_LIMIT, EVAL_LIMIT)
    }

    /// An accumulator of the right size for this network.
    pub fn new_accumulator(&self) -> Accumulator {
        Accumulator {
            v: vec![0; 2 * self.hidden],
            pieces: 0,
        }
    }

    /// A network of random weights for `variant` (tests of the incremental update; a random
    /// network plays badly but exercises every path).
    pub fn random(variant: &Variant, hidden: usize, buckets: usize, seed: u64) -> Network {
        let layout = Layout::of(variant);
        let mut s = seed ^ 0x9E37_79B9_7F4A_7C15;
        let mut next = move |m: i32| {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            ((s >> 11) % (2 * m as u64 + 1)) as i32 - m
        };
        let inputs = layout.inputs();
        let pieces = variant.placement.iter().filter(|p| p.is_some()).count() as u16;
        Network {
            variant: variant.id.clone(),
            fingerprint: fingerprint(variant),
            layout,
            hidden,
            buckets,
            max_pieces: pieces.max(1),
            l1_w: (0..inputs * hidden).map(|_| next(60) as i16).collect(),
            l1_b: (0..hidden).map(|_| next(100) as i16).collect(),
            l2_w: (0..buckets * 2 * hidden)
                .map(|_| next(format::max_output_weight(hidden).min(60)) as i16)
                .collect(),
            l2_b: (0..buckets).map(|_| next(5000)).collect(),
            simd: simd::available(),
        }
    }
}

/// One square whose contents a move changed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Change {
    /// The square.
    pub square: Square,
    /// Its piece code before the move (0: empty).
    pub before: Code,
    /// Its piece code after the move.
    pub after: Code,
}

/// The most squares one move changes (a capture, the mover, a relocated second piece).
pub const MAX_CHANGES: usize = 6;

/// The first layer's output for both viewers: White's units, then Black's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    pub(crate) v: Vec<i16>,
    /// Pieces on the board (chooses the output bucket).
    pub(crate) pieces: u32,
}

/// Accumulators for a line of play, one per position on it, each tagged with the hash of the
/// position it was computed for. An accumulator is brought up to date lazily, from the
/// nearest one on the line that is, when an evaluation asks for it. Allocated once.
#[derive(Clone, Debug)]
pub struct AccStack {
    accs: Vec<Accumulator>,
    /// The hash each accumulator was computed for (`None`: not computed).
    keys: Vec<Option<u64>>,
}

impl AccStack {
    /// A stack of `depth` accumulators for `net`.
    pub fn new(net: &Network, depth: usize) -> AccStack {
        AccStack {
            accs: (0..depth).map(|_| net.new_accumulator()).collect(),
            keys: vec![None; depth],
        }
    }

    /// How many positions the stack holds.
    pub fn depth(&self) -> usize {
        self.accs.len()
    }

    /// Forgets every accumulator.
    pub fn clear(&mut self) {
        self.keys.iter_mut().for_each(|k| *k = None);
    }

    /// The accumulator at `i`, when it was computed for `key`.
    #[inline]
    pub fn get(&self, i: usize, key: u64) -> Option<&Accumulator> {
        (self.keys.get(i).copied().flatten() == Some(key)).then(|| &self.accs[i])
    }

    /// Whether the accumulator at `i` was computed for `key`.
    #[inline]
    pub fn has(&self, i: usize, key: u64) -> bool {
        self.keys.get(i).copied().flatten() == Some(key)
    }

    /// Computes the accumulator at `i` from scratch for `board`.
    pub fn refresh(&mut self, net: &Network, i: usize, key: u64, board: &[Code]) {
        net.refresh(board, &mut self.accs[i]);
        self.keys[i] = Some(key);
    }

    /// Computes the accumulator at `i` from the one at `i - 1` and the changes between them.
    pub fn derive(&mut self, net: &Network, i: usize, key: u64, changes: &[Change]) {
        let (lo, hi) = self.accs.split_at_mut(i);
        let (prev, cur) = (&lo[i - 1], &mut hi[0]);
        cur.v.copy_from_slice(&prev.v);
        cur.pieces = prev.pieces;
        net.apply(cur, changes);
        self.keys[i] = Some(key);
    }

    /// The accumulator at `i` (whatever it was computed for).
    pub fn at(&self, i: usize) -> &Accumulator {
        &self.accs[i]
    }
}
