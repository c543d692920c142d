//! Analysis lines for the page: the best few moves of a position, each with its score and
//! principal variation, found by the engine's MultiPV search on a thread of their own.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::position::Position;
use crate::search::{Info, Limits, Searcher};

/// Lines shown by default.
pub const LINES: usize = 3;
/// The deepest analysis when no depth is asked for.
pub const MAX_DEPTH: u32 = 64;

/// Searches `pos` for its best `n` lines, calling `on_line(line, info)` (line 1-based, best
/// first) for every line of every finished iteration. Stops at `limits.depth` (else
/// [`MAX_DEPTH`]), at the other limits, or when `stop` (the searcher's stop flag) is raised.
pub fn search_lines(
    searcher: &mut Searcher,
    pos: &mut Position,
    limits: &Limits,
    n: usize,
    stop: &AtomicBool,
    mut on_line: impl FnMut(usize, &Info),
) {
    let limits = Limits {
        depth: Some(limits.depth.unwrap_or(MAX_DEPTH)),
        ..*limits
    };
    searcher.set_multipv(n);
    searcher.search(pos, &limits, |info| {
        if !stop.load(Ordering::Relaxed) {
            on_line(info.multipv, info);
        }
    });
    searcher.set_multipv(1);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Ruleset;
    use crate::variant::Variant;

    #[test]
    fn three_lines_best_first_with_different_first_moves() {
        let v = Variant::load("chess").unwrap();
        let rules = Ruleset::new(&v, None).unwrap();
        // White to move wins the Queen with Rxd8 (or Qxd8): those lead.
        let mut pos =
            Position::from_fen(&rules, "3q2k1/5ppp/8/8/8/8/5PPP/3RQ1K1 w - - 0 1").unwrap();
        let mut searcher = Searcher::new(&rules, 1);
        let stop = AtomicBool::new(false);
        let mut last: Vec<(usize, u32, Info)> = Vec::new();
        search_lines(
            &mut searcher,
            &mut pos,
            &Limits::depth(3),
            3,
            &stop,
            |k, info| {
                last.push((k, info.depth, info.clone()));
            },
        );
        let deepest = last.iter().map(|l| l.1).max().unwrap();
        let lines: Vec<&Info> = last
            .iter()
            .filter(|l| l.1 == deepest)
            .map(|l| &l.2)
            .collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(
            lines.iter().map(|l| l.multipv).collect::<Vec<_>>(),
            [1, 2, 3]
        );
        let firsts: std::collections::HashSet<_> = lines.iter().map(|l| l.pv[0]).collect();
        assert_eq!(firsts.len(), 3, "three different first moves");
        assert_eq!(searcher.multipv(), 1, "one line again afterwards");
    }
}
