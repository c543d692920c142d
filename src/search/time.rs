//! Search limits and the time a search may take.

use std::time::Duration;

/// A chess clock: the time left for the side to move, its increment, and optionally how many
/// moves remain until the next time control.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    pub remaining: Duration,
    pub increment: Duration,
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

    /// (soft, hard): no new iteration starts after `soft`; the search stops at `hard`.
    pub fn budget(&self) -> (Option<Duration>, Option<Duration>) {
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
            let overhead = Duration::from_millis(30);
            let left = c.remaining.saturating_sub(overhead);
            let mtg = c.moves_to_go.unwrap_or(30).clamp(1, 60);
            let base = left / mtg + c.increment * 3 / 4;
            let base = base.min(left / 2);
            let hard = (base * 3).min(left * 2 / 5).max(base);
            take(base * 6 / 10, hard);
        }
        (soft, hard)
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
}
