//! Match statistics: the Elo difference with a 95% error bar, and a sequential probability
//! ratio test (SPRT).
//!
//! The Elo difference is the logistic one, `-400 log10(1/s - 1)` for the score fraction `s`.
//! Its error bar comes from the games' own spread (wins, draws and losses as a trinomial):
//! the score's standard error is `sqrt(var / n)` with `var` the per-game variance, the 95%
//! interval `s ± 1.96 se` is mapped to Elo, and half its width is the "±" figure.
//!
//! The SPRT is the normal approximation used by engine testing frameworks: with `s0` and `s1`
//! the expected scores under the hypotheses `elo0` and `elo1`, the log-likelihood ratio is
//! `n (s1 - s0) (2 s - s0 - s1) / (2 var)`; the test accepts H1 at `ln((1-β)/α)` and H0 at
//! `ln(β/(1-α))`, here with α = β = 0.05. (While every game has had the same result, the
//! variance comes from the tally with one more win and one more loss.)

/// Wins, draws and losses of the first engine.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
}

impl Tally {
    /// Games in all.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points scored (a draw is half a point).
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The score fraction, `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The per-game variance of the score.
    fn variance(&self, s: f64) -> f64 {
        let n = self.games() as f64;
        (self.wins as f64 * (1.0 - s).powi(2)
            + self.draws as f64 * (0.5 - s).powi(2)
            + self.losses as f64 * s.powi(2))
            / n
    }

    /// The Elo difference and the half-width of its 95% interval; `None` before the first
    /// game. A score of 0 or 1 has an infinite difference, given as ±infinity.
    pub fn elo(&self) -> Option<(f64, f64)> {
        let s = self.score()?;
        let n = self.games() as f64;
        let se = (self.variance(s) / n).sqrt();
        let lo = elo_of(s - 1.96 * se);
        let hi = elo_of(s + 1.96 * se);
        Some((elo_of(s), (hi - lo) / 2.0))
    }

    /// The SPRT's log-likelihood ratio for `elo0` against `elo1`; `None` before the first
    /// game. While every game has had the same result the spread is zero and the ratio
    /// undefined: the variance is then taken from the tally with one more win and one more
    /// loss, so that a one-sided run (an opponent that always crashes) can still decide.
    pub fn llr(&self, elo0: f64, elo1: f64) -> Option<f64> {
        let s = self.score()?;
        let mut var = self.variance(s);
        if var <= 0.0 {
            let wider = Tally {
                wins: self.wins + 1,
                draws: self.draws,
                losses: self.losses + 1,
            };
            var = wider.variance(wider.score()?);
        }
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        Some(self.games() as f64 * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var))
    }
}

/// The SPRT's bounds for α = β = 0.05: (accept H0 below, accept H1 above).
pub fn sprt_bounds() -> (f64, f64) {
    let (a, b) = (0.05f64, 0.05f64);
    ((b / (1.0 - a)).ln(), ((1.0 - b) / a).ln())
}

/// The Elo difference of a score fraction.
pub fn elo_of(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of an Elo difference.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn even_score_is_zero_elo() {
        let t = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        let (e, err) = t.elo().unwrap();
        assert!(e.abs() < 1e-9);
        // s = 0.5, var = 0.25, se = 0.5/sqrt(20) = 0.1118; interval 0.2809..0.7191,
        // elo(0.7191) = 163.0 by hand (400 log10(0.7191/0.2809)).
        assert!((err - 163.0).abs() < 1.0, "{err}");
    }

    #[test]
    fn three_quarters_is_191_elo() {
        let t = Tally {
            wins: 3,
            draws: 0,
            losses: 1,
        };
        // 400 log10(3) = 190.85.
        assert!((t.elo().unwrap().0 - 190.85).abs() < 0.01);
        assert!((score_of(190.85) - 0.75).abs() < 1e-4);
    }

    #[test]
    fn sprt_moves_toward_the_true_hypothesis() {
        let (lo, hi) = sprt_bounds();
        assert!((hi - 2.944).abs() < 1e-3 && (lo + 2.944).abs() < 1e-3);
        let strong = Tally {
            wins: 300,
            draws: 100,
            losses: 100,
        };
        assert!(strong.llr(0.0, 10.0).unwrap() > hi);
        let even = Tally {
            wins: 200,
            draws: 100,
            losses: 200,
        };
        assert!(even.llr(0.0, 10.0).unwrap() < 0.0);
        assert_eq!(Tally::default().llr(0.0, 5.0), None);
        // All wins: 10 games are not enough for (0, 20), 20 are (by hand: s' = 21/22,
        // var = 462 / (484 * 22), LLR = 20 * 0.0288 * 0.9712 / (2 var) = 6.4).
        let wins = |n| Tally {
            wins: n,
            draws: 0,
            losses: 0,
        };
        assert!(wins(10).llr(0.0, 20.0).unwrap() < hi);
        let l20 = wins(20).llr(0.0, 20.0).unwrap();
        assert!((l20 - 6.44).abs() < 0.05, "{l20}");
    }
}
