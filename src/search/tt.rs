//! The transposition table: search results keyed by the Zobrist hash.
//!
//! Buckets of two entries: one kept by depth, one always replaced. An entry records the best
//! move, the score (mate scores stored relative to the node), the depth and the bound. The
//! table is shared by the threads of a Lazy SMP search.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::geometry::Square;
use crate::moves::{Move, MoveKind};

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
    /// An empty slot.
    #[default]
    None = 0,
    /// The score is exact.
    Exact = 1,
    /// The true score is at least this (a beta cutoff).
    Lower = 2,
    /// The true score is at most this (no move raised alpha).
    Upper = 3,
}

impl Bound {
    /// The bound of a search result `best` from the window (`alpha`, `beta`) it was searched
    /// with.
    #[inline]
    pub fn of(best: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if best > alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

/// One stored search result.
#[derive(Clone, Copy, Debug, Default)]
pub struct TtEntry {
    /// The position's hash.
    pub key: u64,
    /// The best move found (the default move: none).
    pub mv: Move,
    /// The score, clamped to 16 bits.
    pub score: i16,
    /// The static evaluation.
    pub eval: i16,
    /// The depth searched.
    pub depth: i8,
    /// What the score is: exact, or a bound.
    pub bound: Bound,
    /// The search generation that stored it (older entries are replaced first).
    pub age: u8,
}

/// One slot, shared between search threads without locks: `check` holds the key XORed
/// with both data words, so a slot read while another thread writes it (a torn read) fails
/// the key test and reads as empty. Only atomics are used, so there is no data race; a torn
/// read that happens to pass the test can only hand over a wrong move (which the search
/// matches against the moves it generated, so it is never played unless legal) or a wrong
/// score (the usual, negligible, hash-collision risk).
#[derive(Debug, Default)]
struct Slot {
    check: AtomicU64,
    /// Move (40 bits), depth (8), bound (8), age (8).
    a: AtomicU64,
    /// Score (16 bits), static evaluation (16).
    b: AtomicU64,
}

impl Slot {
    #[inline]
    fn load(&self) -> TtEntry {
        let a = self.a.load(Ordering::Relaxed);
        let b = self.b.load(Ordering::Relaxed);
        let key = self.check.load(Ordering::Relaxed) ^ a ^ b;
        let bound = match (a >> 48) as u8 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => Bound::None,
        };
        let kind = match (a >> 24) as u8 {
            1 => MoveKind::Double,
            2 => MoveKind::EnPassant,
            3 => MoveKind::Rule,
            4 => MoveKind::Drop,
            5 => MoveKind::Locust,
            _ => MoveKind::Normal,
        };
        TtEntry {
            key,
            mv: Move {
                from: Square::new(a as u8),
                to: Square::new((a >> 8) as u8),
                promo: (a >> 16) as u8,
                kind,
                aux: (a >> 32) as u8,
            },
            score: b as u16 as i16,
            eval: (b >> 16) as u16 as i16,
            depth: (a >> 40) as u8 as i8,
            bound,
            age: (a >> 56) as u8,
        }
    }

    #[inline]
    fn save(&self, e: &TtEntry) {
        let m = e.mv;
        let a = m.from.index() as u64
            | (m.to.index() as u64) << 8
            | (m.promo as u64) << 16
            | (m.kind as u8 as u64) << 24
            | (m.aux as u64) << 32
            | (e.depth as u8 as u64) << 40
            | (e.bound as u8 as u64) << 48
            | (e.age as u64) << 56;
        let b = e.score as u16 as u64 | (e.eval as u16 as u64) << 16;
        self.a.store(a, Ordering::Relaxed);
        self.b.store(b, Ordering::Relaxed);
        self.check.store(e.key ^ a ^ b, Ordering::Relaxed);
    }

    fn reset(&self) {
        self.a.store(0, Ordering::Relaxed);
        self.b.store(0, Ordering::Relaxed);
        self.check.store(0, Ordering::Relaxed);
    }
}

#[derive(Debug, Default)]
struct Bucket {
    deep: Slot,
    recent: Slot,
}

/// A fixed-size table; its size is set in megabytes. It is shared between the threads of a
/// search (`&self` everywhere).
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Vec<Bucket>,
    mask: usize,
    age: AtomicU8,
}

impl TranspositionTable {
    /// A table of at most `mb` megabytes (at least one bucket; a power of two of buckets), or
    /// an error where that memory cannot be had (nothing is aborted).
    pub fn try_new(mb: usize) -> Result<TranspositionTable, String> {
        let no_memory = || format!("cannot allocate a hash table of {mb} MB (not enough memory)");
        let bytes = mb.max(1).checked_mul(1024 * 1024).ok_or_else(no_memory)?;
        let per = std::mem::size_of::<Bucket>();
        let mut n = 1usize;
        while n.checked_mul(2 * per).is_some_and(|b| b <= bytes) {
            n *= 2;
        }
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(n).map_err(|_| no_memory())?;
        buckets.resize_with(n, Bucket::default);
        Ok(TranspositionTable {
            buckets,
            mask: n - 1,
            age: AtomicU8::new(0),
        })
    }

    /// A table of at most `mb` megabytes; where that memory cannot be had, the largest of half,
    /// a quarter... that can (for callers with nobody to tell: [`Self::try_new`] reports it).
    pub fn new(mb: usize) -> TranspositionTable {
        let mut mb = mb.max(1);
        loop {
            match TranspositionTable::try_new(mb) {
                Ok(t) => return t,
                Err(_) if mb > 1 => mb /= 2,
                // Not even a megabyte: one bucket.
                Err(_) => {
                    return TranspositionTable {
                        buckets: vec![Bucket::default()],
                        mask: 0,
                        age: AtomicU8::new(0),
                    };
                }
            }
        }
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.buckets.len() * std::mem::size_of::<Bucket>()
    }

    /// Forgets everything.
    pub fn clear(&self) {
        for b in &self.buckets {
            b.deep.reset();
            b.recent.reset();
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Marks the start of a new search (older entries become easier to replace).
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    #[inline]
    fn index(&self, key: u64) -> usize {
        (key as usize) & self.mask
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<TtEntry> {
        let b = &self.buckets[self.index(key)];
        let d = b.deep.load();
        if d.bound != Bound::None && d.key == key {
            return Some(d);
        }
        let r = b.recent.load();
        if r.bound != Bound::None && r.key == key {
            Some(r)
        } else {
            None
        }
    }

    /// Stores a result. A move-less store keeps the move already known for the position.
    /// The deep slot is replaced by a result of this search at least as deep, by a new result
    /// for its own position unless that is over two plies shallower (a quiescence result
    /// does not push out a deep one), or when it holds one of an older search (aging);
    /// otherwise the recent slot is.
    #[inline]
    pub fn store(&self, key: u64, mut mv: Move, score: i32, eval: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed);
        let b = &self.buckets[self.index(key)];
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
        let deep = b.deep.load();
        if deep.bound == Bound::None
            || (deep.key == key && depth + 2 >= deep.depth as i32)
            || deep.age != age
            || depth >= deep.depth as i32
        {
            keep_move(&deep, &mut mv);
            b.deep.save(&TtEntry { mv, ..e });
        } else {
            let recent = b.recent.load();
            keep_move(&recent, &mut mv);
            b.recent.save(&TtEntry { mv, ..e });
        }
    }

    /// Permille of the first 1000 buckets used in this search.
    pub fn hashfull(&self) -> u32 {
        let n = self.buckets.len().min(1000);
        let age = self.age.load(Ordering::Relaxed);
        let used = self.buckets[..n]
            .iter()
            .filter(|b| {
                let d = b.deep.load();
                d.bound != Bound::None && d.age == age
            })
            .count();
        (used * 1000 / n.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_through_the_packed_slots() {
        let tt = TranspositionTable::new(1);
        let mv = Move {
            from: Square::new(200),
            to: Square::new(255),
            promo: 7,
            kind: MoveKind::Rule,
            aux: 9,
        };
        tt.store(0xDEAD_BEEF_1234_5678, mv, -29_950, -123, 17, Bound::Lower);
        let e = tt.probe(0xDEAD_BEEF_1234_5678).expect("stored");
        assert_eq!(e.mv, mv);
        assert_eq!((e.score, e.eval, e.depth), (-29_950, -123, 17));
        assert_eq!(e.bound, Bound::Lower);
        assert!(tt.probe(0xDEAD_BEEF_1234_5679).is_none());
        // A move-less store keeps the known move.
        tt.store(
            0xDEAD_BEEF_1234_5678,
            Move::default(),
            5,
            6,
            18,
            Bound::Upper,
        );
        assert_eq!(tt.probe(0xDEAD_BEEF_1234_5678).unwrap().mv, mv);
        tt.clear();
        assert!(tt.probe(0xDEAD_BEEF_1234_5678).is_none());
    }

    #[test]
    fn a_table_that_cannot_be_had_is_an_error_not_an_abort() {
        for mb in [usize::MAX, 1 << 40] {
            let e = TranspositionTable::try_new(mb).unwrap_err();
            assert_eq!(
                e,
                format!("cannot allocate a hash table of {mb} MB (not enough memory)")
            );
        }
        let t = TranspositionTable::try_new(2).unwrap();
        assert!(t.bytes() > 1 << 20 && t.bytes() <= 2 << 20, "{}", t.bytes());
    }
}
