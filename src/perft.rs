//! Perft: counting the leaves of the legal move tree, the generator's first line of defence.

use crate::moves::MoveList;
use crate::position::Position;

/// Move lists reused across a perft run, one per ply.
pub struct Perft {
    lists: Vec<MoveList>,
}

impl Default for Perft {
    fn default() -> Self {
        Self::new()
    }
}

impl Perft {
    /// A counter with no move lists yet (they grow with the depth).
    pub fn new() -> Perft {
        Perft { lists: Vec::new() }
    }

    /// The number of legal move sequences of length `depth` from `pos`. A position that a
    /// rule ends at once ([`Position::final_ending`], a bare King) has no moves, as in
    /// Fairy-Stockfish's perft.
    pub fn count(&mut self, pos: &mut Position, depth: u32) -> u64 {
        self.run(pos, depth, 0)
    }

    fn run(&mut self, pos: &mut Position, depth: u32, ply: usize) -> u64 {
        if depth == 0 {
            return 1;
        }
        if pos.final_ending().is_some() {
            return 0;
        }
        while self.lists.len() <= ply {
            self.lists.push(MoveList::new());
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        pos.legal_moves(&mut list);
        let n = if depth == 1 {
            list.len() as u64
        } else {
            let mut n = 0;
            for &mv in list.iter() {
                pos.make(mv);
                n += self.run(pos, depth - 1, ply + 1);
                pos.unmake();
            }
            n
        };
        self.lists[ply] = list;
        n
    }
}

/// Perft of every legal move at the root: (move, count) pairs.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(crate::moves::Move, u64)> {
    let mut list = MoveList::new();
    if pos.final_ending().is_some() {
        return Vec::new();
    }
    pos.legal_moves(&mut list);
    let mut p = Perft::new();
    list.iter()
        .map(|&mv| {
            pos.make(mv);
            let n = if depth <= 1 {
                1
            } else {
                p.count(pos, depth - 1)
            };
            pos.unmake();
            (mv, n)
        })
        .collect()
}
