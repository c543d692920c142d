//! Analysis lines for the page: the best few moves of a position, each with its score and
//! principal variation, found on a thread of their own.
//!
//! [`search_lines`] is the one place that asks the engine for several lines. The engine's own
//! MultiPV is not in the search yet, so each root move is searched on its own here (a child
//! search one ply shallower, its score turned round); only as deep as the depth asked for,
//! which is why the page asks for small depths.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::moves::{Move, MoveList};
use crate::position::Position;
use crate::search::{Info, Limits, Score, Searcher};

/// Lines shown by default.
pub const LINES: usize = 3;
/// The deepest analysis when no depth is asked for.
pub const MAX_DEPTH: u32 = 4;

/// A score seen from the parent of the position it was found for.
pub fn parent_score(child: Score) -> Score {
    match child {
        Score::Cp(c) => Score::Cp(-c),
        // The child is mated (now, or in m moves): the parent mates one move later.
        Score::Mate(m) if m <= 0 => Score::Mate(1 - m),
        Score::Mate(m) => Score::Mate(-m),
    }
}

/// A score's order, best first: mates sooner first, being mated last.
fn rank(s: Score) -> i64 {
    match s {
        Score::Cp(c) => c as i64,
        Score::Mate(m) if m > 0 => 1_000_000 - m as i64,
        Score::Mate(m) => -1_000_000 - m as i64,
    }
}

/// Searches `pos` for its best `n` lines, calling `on_line(line, info)` (line 1-based, best
/// first) for every line of every finished depth. Stops at `limits.depth` (else [`MAX_DEPTH`]),
/// at `limits.movetime`, or when `stop` is raised (the searcher's stop flag).
pub fn search_lines(
    searcher: &mut Searcher,
    pos: &mut Position,
    limits: &Limits,
    n: usize,
    stop: &AtomicBool,
    mut on_line: impl FnMut(usize, &Info),
) {
    let started = Instant::now();
    let mut roots = MoveList::new();
    pos.legal_moves(&mut roots);
    let max_depth = limits.depth.unwrap_or(MAX_DEPTH).max(1);
    let mut nodes = 0;
    for depth in 1..=max_depth {
        let mut found: Vec<(Score, Vec<Move>)> = Vec::with_capacity(roots.len());
        for &m in roots.as_slice() {
            let left = limits.movetime.map(|t| t.saturating_sub(started.elapsed()));
            if stop.load(Ordering::Relaxed) || left == Some(Duration::ZERO) {
                return;
            }
            pos.make(m);
            let child_limits = Limits {
                depth: Some((depth - 1).max(1)),
                movetime: left,
                ..Limits::default()
            };
            let r = searcher.search(pos, &child_limits, |_| {});
            pos.unmake();
            if stop.load(Ordering::Relaxed) {
                return;
            }
            nodes += r.nodes;
            let mut pv = vec![m];
            pv.extend(r.pv.iter().copied());
            found.push((parent_score(r.score), pv));
        }
        found.sort_by_key(|(s, _)| -rank(*s));
        for (i, (score, pv)) in found.into_iter().take(n).enumerate() {
            let info = Info {
                depth,
                seldepth: depth,
                score,
                nodes,
                elapsed: started.elapsed(),
                pv,
            };
            on_line(i + 1, &info);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_turn_round_for_the_parent() {
        assert_eq!(parent_score(Score::Cp(30)), Score::Cp(-30));
        assert_eq!(parent_score(Score::Mate(0)), Score::Mate(1));
        assert_eq!(parent_score(Score::Mate(-2)), Score::Mate(3));
        assert_eq!(parent_score(Score::Mate(2)), Score::Mate(-2));
        assert!(rank(Score::Mate(1)) > rank(Score::Mate(3)));
        assert!(rank(Score::Cp(-900)) > rank(Score::Mate(-5)));
    }
}
