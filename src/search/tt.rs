//! The transposition table: search results keyed by the Zobrist hash.
//!
//! Buckets of two entries: one kept by depth, one always replaced. An entry records the best
//! move, the score (mate scores stored relative to the node), the depth and the bound.

use crate::moves::Move;

/// Hash table size, in megabytes, unless the command line or a GUI sets another.
pub const DEFAULT_HASH_MB: usize = 64;
/// The smallest hash table, in megabytes.
pub const MIN_HASH_MB: usize = 1;
/// The largest hash table, in megabytes: the command line and both protocols accept no more.
pub const MAX_HASH_MB: usize = 4096;

/// Reads a hash size in megabytes, [`MIN_HASH_MB`] to [`MAX_HASH_MB`] (the command line's
/// `--hash` and the protocols' `Hash` option share it).
pub fn parse_hash_mb(value: &str) -> Result<usize, String> {
    match value.trim().parse::<usize>() {
        Ok(mb) if (MIN_HASH_MB..=MAX_HASH_MB).contains(&mb) => Ok(mb),
        _ => Err(format!(
            "must be a number from {MIN_HASH_MB} to {MAX_HASH_MB} (megabytes), got `{value}`"
        )),
    }
}

/// What a stored score means.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
#[repr(u8)]
pub enum Bound {
    #[default]
    None = 0,
    /// The score is exact.
    Exact = 1,
    /// The true score is at least this (a beta cutoff).
    Lower = 2,
    /// The true score is at most this (no move raised alpha).
    Upper = 3,
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub struct TtEntry {
    pub key: u64,
    pub mv: Move,
    pub score: i16,
    pub eval: i16,
    pub depth: i8,
    pub bound: Bound,
    pub age: u8,
}

#[derive(Clone, Copy, Debug, Default)]
struct Bucket {
    deep: TtEntry,
    recent: TtEntry,
}

/// A fixed-size table; its size is set in megabytes.
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    mask: usize,
    age: u8,
}

impl TranspositionTable {
    /// A table of at most `mb` megabytes (at least one bucket; a power of two of buckets).
    pub fn new(mb: usize) -> TranspositionTable {
        let bytes = mb.max(1) * 1024 * 1024;
        let per = std::mem::size_of::<Bucket>();
        let mut n = 1usize;
        while n * 2 * per <= bytes {
            n *= 2;
        }
        TranspositionTable {
            buckets: vec![Bucket::default(); n],
            mask: n - 1,
            age: 0,
        }
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.buckets.iter_mut().for_each(|b| *b = Bucket::default());
        self.age = 0;
    }

    /// Marks the start of a new search (older entries become easier to replace).
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = &self.buckets[self.index(key)];
        if b.deep.bound != Bound::None && b.deep.key == key {
            Some(b.deep)
        } else if b.recent.bound != Bound::None && b.recent.key == key {
            Some(b.recent)
        } else {
            None
        }
    }

    /// Stores a result. A move-less store keeps the move already known for the position.
    #[inline]
    pub fn store(
        &mut self,
        key: u64,
        mut mv: Move,
        score: i32,
        eval: i32,
        depth: i32,
        bound: Bound,
    ) {
        let age = self.age;
        let i = self.index(key);
        let b = &mut self.buckets[i];
        let keep_move = |old: &TtEntry, mv: &mut Move| {
            if *mv == Move::default() && old.key == key {
                *mv = old.mv;
            }
        };
        let e = TtEntry {
            key,
            mv,
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(-1, 127) as i8,
            bound,
            age,
        };
        if b.deep.bound == Bound::None
            || b.deep.key == key
            || b.deep.age != age
            || depth >= b.deep.depth as i32
        {
            keep_move(&b.deep, &mut mv);
            b.deep = TtEntry { mv, ..e };
        } else {
            keep_move(&b.recent, &mut mv);
            b.recent = TtEntry { mv, ..e };
        }
    }

    /// Permille of the first 1000 buckets used in this search.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(1000);
        let used = self.buckets[..n]
            .iter()
            .filter(|b| b.deep.bound != Bound::None && b.deep.age == self.age)
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}
