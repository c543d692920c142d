//! Search limits and the time a search may take.

use std::time::Duration;

/// A chess clock: the time left for the side to move, its increment, and optionally how many
/// moves remain until the next time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control (`None`: the rest of the game).
    pub moves_to_go: Option<u32>,
}

/// When a search stops. Every limit set applies; with none the search runs until its stop
/// flag is raised (or the maximum depth is reached).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Nodes (positions visited, quiescence included).
    pub nodes: Option<u64>,
    /// Time for this move: the search ends by then, and starts no iteration after half of it.
    pub movetime: Option<Duration>,
    /// A clock with increment, from which the time for this move is taken.
    pub clock: Option<Clock>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            ..Limits::default()
        }
    }

    /// Search for at most `t`.
    pub fn movetime(t: Duration) -> Limits {
        Limits {
            movetime: Some(t),
            ..Limits::default()
        }
    }

    /// Search at most `n` nodes.
    pub fn nodes(n: u64) -> Limits {
        Limits {
            nodes: Some(n),
            ..Limits::default()
        }
    }

    /// Search from a clock.
    pub fn clock(remaining: Duration, increment: Duration) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining,
                increment,
                moves_to_go: None,
            }),
            ..Limits::default()
        }
    }

    /// Whether the search is bounded by time (and may end early when the choice is forced).
    pub fn timed(&self) -> bool {
        self.movetime.is_some() || self.clock.is_some()
    }

    /// (soft, hard) with the default move overhead ([`DEFAULT_MOVE_OVERHEAD_MS`]).
    pub fn budget(&self) -> (Option<Duration>, Option<Duration>) {
        self.budget_with(Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS))
    }

    /// (soft, hard): no new iteration starts after `soft` (the search may stretch it, up
    /// to `hard`, while its best move is unstable); the search stops at `hard`.
    ///
    /// `overhead` is the time lost per move outside the search (process scheduling, pipes,
    /// the interface): it is kept in reserve on the clock, and each of the moves planned for
    /// is charged with it, so that a low clock is rebuilt from the increment instead of
    /// spent. The time for a move is the clock left plus the increments to come, less the
    /// overheads, shared among the moves to go (30 without a number): it is the soft
    /// limit's base, and the hard limit is three times that, never more than two fifths
    /// of the clock left.
    pub fn budget_with(&self, overhead: Duration) -> (Option<Duration>, Option<Duration>) {
        let mut soft: Option<Duration> = None;
        let mut hard: Option<Duration> = None;
        let mut take = |s: Duration, h: Duration| {
            soft = Some(soft.map_or(s, |x| x.min(s)));
            hard = Some(hard.map_or(h, |x| x.min(h)));
        };
        if let Some(t) = self.movetime {
            take(t / 2, t);
        }
        if let Some(c) = self.clock {
            let left = c.remaining.saturating_sub(overhead);
            let mtg = c.moves_to_go.unwrap_or(30).clamp(1, 60);
            let pool = (left + c.increment * (mtg - 1)).saturating_sub(overhead * mtg);
            let base = (pool / mtg).min(left / 2).max(Duration::from_millis(1));
            let hard = (base * 3).min(left * 2 / 5).max(base.min(left));
            take((base * 6 / 10).min(hard), hard);
        }
        (soft, hard)
    }
}

/// Milliseconds kept per move for what happens outside the search, unless the interface
/// sets another (`Move Overhead` in UCI, `option Move Overhead=N` in CECP,
/// `--move-overhead` on the command line).
pub const DEFAULT_MOVE_OVERHEAD_MS: u64 = 50;
/// The largest move overhead accepted, in milliseconds.
pub const MAX_MOVE_OVERHEAD_MS: u64 = 5000;

/// Reads a move overhead in milliseconds, 0 to [`MAX_MOVE_OVERHEAD_MS`].
pub fn parse_move_overhead(value: &str) -> Result<u64, String> {
    match value.trim().parse::<u64>() {
        Ok(ms) if ms <= MAX_MOVE_OVERHEAD_MS => Ok(ms),
        _ => Err(format!(
            "must be a number from 0 to {MAX_MOVE_OVERHEAD_MS} (milliseconds), got `{value}`"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn movetime_budget() {
        let (s, h) = Limits::movetime(Duration::from_millis(1000)).budget();
        assert_eq!(s, Some(Duration::from_millis(500)));
        assert_eq!(h, Some(Duration::from_millis(1000)));
    }

    #[test]
    fn clock_budget_never_exceeds_the_clock() {
        for ms in [10u64, 100, 1000, 60_000] {
            let l = Limits::clock(Duration::from_millis(ms), Duration::from_millis(ms / 10));
            let (s, h) = l.budget();
            assert!(s.unwrap() <= h.unwrap());
            assert!(h.unwrap() <= Duration::from_millis(ms));
        }
    }

    #[test]
    fn overhead_is_kept_in_reserve() {
        let inc = Duration::from_millis(100);
        for ms in [0u64, 50, 200, 1000] {
            let o = Duration::from_millis(ms);
            for left in [150u64, 400, 2000, 10_000] {
                let l = Limits::clock(Duration::from_millis(left), inc);
                let (s, h) = l.budget_with(o);
                let (s, h) = (s.unwrap(), h.unwrap());
                assert!(s <= h);
                // The search never plans into the reserve...
                assert!(
                    h + o <= Duration::from_millis(left).max(o),
                    "{left} {ms}: {h:?}"
                );
            }
        }
        // ...and a larger overhead leaves less time for the move.
        let l = Limits::clock(Duration::from_millis(1000), inc);
        let a = l.budget_with(Duration::from_millis(10)).1.unwrap();
        let b = l.budget_with(Duration::from_millis(300)).1.unwrap();
        assert!(b < a, "{b:?} >= {a:?}");
    }

    #[test]
    fn move_overhead_values() {
        assert_eq!(parse_move_overhead("0"), Ok(0));
        assert_eq!(parse_move_overhead(" 120 "), Ok(120));
        assert!(parse_move_overhead("-1").is_err());
        assert!(parse_move_overhead("5001").is_err());
        assert!(parse_move_overhead("ms").is_err());
    }
}
