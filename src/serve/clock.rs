//! The game clock of a page's game: base time plus increment per move, or, untimed, the time
//! each side has used. The server is the judge of time: a side whose time is up when it is
//! asked about (any request, or the engine's move) loses on time.

use std::time::{Duration, Instant};

use crate::geometry::Color;

/// A time control: each side starts with `base` and gains `increment` after each of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// The time each side starts with.
    pub base: Duration,
    /// The time added after each move.
    pub increment: Duration,
}

/// Both sides' clocks.
#[derive(Clone, Debug)]
pub struct Clocks {
    control: Option<TimeControl>,
    /// Time left (timed) or used (untimed), as of `since`, for each side.
    time: [Duration; 2],
    since: Instant,
}

impl Clocks {
    /// Fresh clocks: full time for both sides, the side to move's running from now.
    pub fn new(control: Option<TimeControl>) -> Clocks {
        let start = control.map_or(Duration::ZERO, |c| c.base);
        Clocks {
            control,
            time: [start; 2],
            since: Instant::now(),
        }
    }

    /// The time control, if the game is timed.
    pub fn control(&self) -> Option<TimeControl> {
        self.control
    }

    /// The time shown for `side` now, with `running` the side whose clock runs (if any):
    /// time left when timed (never below zero), time used when not.
    pub fn shown(&self, side: Color, running: Option<Color>) -> Duration {
        let t = self.time[side.index()];
        if running != Some(side) {
            return t;
        }
        let spent = self.since.elapsed();
        match self.control {
            Some(_) => t.saturating_sub(spent),
            None => t + spent,
        }
    }

    /// Whether `side`, whose clock runs, has no time left.
    pub fn flagged(&self, side: Color) -> bool {
        self.control.is_some() && self.shown(side, Some(side)).is_zero()
    }

    /// `mover` finished a move: its thinking time is charged and its increment added; the
    /// other side's clock starts.
    pub fn moved(&mut self, mover: Color) {
        let now = self.shown(mover, Some(mover));
        self.time[mover.index()] = match self.control {
            Some(c) => now + c.increment,
            None => now,
        };
        self.since = Instant::now();
    }

    /// The side to move's clock restarts from now, its time kept (after a take-back, say).
    pub fn restart_turn(&mut self) {
        self.since = Instant::now();
    }

    /// Stops `side`'s running clock for good at what it shows (at the end of the game).
    pub fn stop(&mut self, side: Color) {
        self.time[side.index()] = self.shown(side, Some(side));
        self.since = Instant::now();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_timed_clock_counts_down_and_adds_the_increment() {
        let tc = TimeControl {
            base: Duration::from_millis(40),
            increment: Duration::from_secs(5),
        };
        let mut c = Clocks::new(Some(tc));
        assert!(!c.flagged(Color::White));
        std::thread::sleep(Duration::from_millis(60));
        assert!(c.flagged(Color::White), "40 ms are gone");
        assert_eq!(
            c.shown(Color::Black, Some(Color::White)),
            Duration::from_millis(40),
            "Black's clock does not run"
        );
        c.moved(Color::White);
        assert_eq!(c.shown(Color::White, None), Duration::from_secs(5));
    }

    #[test]
    fn an_untimed_clock_counts_time_used() {
        let mut c = Clocks::new(None);
        std::thread::sleep(Duration::from_millis(20));
        assert!(!c.flagged(Color::White));
        c.moved(Color::White);
        assert!(c.shown(Color::White, None) >= Duration::from_millis(20));
        assert_eq!(c.shown(Color::Black, None), Duration::ZERO);
    }
}
