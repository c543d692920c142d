//! The page's clocks. The game's session keeps them ([`Session::set_clocks`]): a timed game
//! counts down from its base time and adds its increment per move, and the side whose time
//! is up loses on time when the server next asks ([`Session::charge_until`]). An untimed game
//! shows each side's time used: its clocks count down from [`STOPWATCH`], a time no game
//! reaches, and the page is sent what has gone.

use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::geometry::Color;
use crate::session::{Session, TimeControl};

/// Where an untimed game's clocks start: they show the time used since.
pub const STOPWATCH: Duration = Duration::from_secs(1 << 32);

/// Starts `game`'s clocks at `now`: `control` for both sides, or, untimed, the stopwatch.
pub fn start(game: &mut Session, control: Option<TimeControl>, now: Instant) {
    let tc = control.unwrap_or(TimeControl {
        base: STOPWATCH,
        increment: Duration::ZERO,
    });
    game.set_clocks(Some([tc, tc]));
    game.start_turn(now);
}

/// The time shown for `side` at `now`, with `running` the side whose clock runs (if any):
/// time left when timed (never below zero), time used when not.
pub fn shown(
    game: &Session,
    control: Option<TimeControl>,
    side: Color,
    running: Option<Color>,
    now: Instant,
) -> Duration {
    let left = if running == Some(side) {
        game.remaining_at(side, now)
    } else {
        game.remaining(side)
    }
    .unwrap_or_default();
    match control {
        Some(_) => left,
        None => STOPWATCH.saturating_sub(left),
    }
}

/// The clocks for the page: `{white_ms, black_ms, timed, base_ms, increment_ms, running}`.
pub fn json(
    game: &Session,
    control: Option<TimeControl>,
    running: Option<Color>,
    now: Instant,
) -> Value {
    let ms = |c: Color| shown(game, control, c, running, now).as_millis() as u64;
    json!({
        "white_ms": ms(Color::White),
        "black_ms": ms(Color::Black),
        "timed": control.is_some(),
        "base_ms": control.map(|c| c.base.as_millis() as u64),
        "increment_ms": control.map(|c| c.increment.as_millis() as u64),
        "running": running.map(super::side_name),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::position::Ruleset;
    use crate::variant::Variant;

    fn chess() -> Session {
        let v = Variant::load("chess").unwrap();
        Session::new(&Ruleset::new(&v, None).unwrap())
    }

    #[test]
    fn a_timed_clock_counts_down_and_adds_the_increment() {
        let tc = TimeControl {
            base: Duration::from_millis(40),
            increment: Duration::from_secs(5),
        };
        let mut g = chess();
        let t0 = Instant::now();
        start(&mut g, Some(tc), t0);
        let white = Some(Color::White);
        let later = t0 + Duration::from_millis(30);
        let v = json(&g, Some(tc), white, later);
        assert_eq!(v["white_ms"], 10);
        assert_eq!(v["black_ms"], 40, "Black's clock does not run");
        assert_eq!(v["timed"], true);
        assert_eq!(v["base_ms"], 40);
        assert_eq!(v["increment_ms"], 5000);
        assert_eq!(v["running"], "white");
        assert_eq!(g.charge_until(later), None);
        g.play_text("e4").unwrap();
        let v = json(&g, Some(tc), Some(Color::Black), later);
        assert_eq!(v["white_ms"], 5010);
        assert!(g.charge_until(later + Duration::from_millis(41)).is_some());
        let v = json(&g, Some(tc), None, later);
        assert_eq!(v["black_ms"], 0, "the flag fell");
        assert_eq!(v["running"], Value::Null);
    }

    #[test]
    fn an_untimed_clock_counts_time_used() {
        let mut g = chess();
        let t0 = Instant::now();
        start(&mut g, None, t0);
        let t1 = t0 + Duration::from_millis(20);
        let v = json(&g, None, Some(Color::White), t1);
        assert_eq!(v["white_ms"], 20);
        assert_eq!(v["black_ms"], 0);
        assert_eq!(v["timed"], false);
        assert_eq!(v["base_ms"], Value::Null);
        assert_eq!(g.charge_until(t1), None);
        g.play_text("e4").unwrap();
        let v = json(&g, None, Some(Color::Black), t1 + Duration::from_millis(7));
        assert_eq!(v["white_ms"], 20);
        assert_eq!(v["black_ms"], 7);
    }
}
