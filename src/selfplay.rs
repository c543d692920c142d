//! Engine matches: one search setting against another over many games, for measuring the
//! engine (not a test: results vary with the settings and the hardware).
//!
//! Games are played in pairs from the same opening with colours swapped. Each opening is a few
//! random legal moves drawn from a seeded generator, so a match is reproducible. A game that
//! reaches the ply limit is adjudicated a draw.

use std::sync::Arc;
use std::time::Duration;

use crate::geometry::Color;
use crate::position::Ruleset;
use crate::search::{Limits, Searcher};
use crate::session::{GameResult, Session, Verdict};

/// How a match is played.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Games in all (an odd last game is played with the first engine as White).
    pub games: u32,
    /// The limits of the first engine (the one the score is reported for).
    pub first: Limits,
    /// The limits of the second engine.
    pub second: Limits,
    /// Random moves at the start of each pair of games.
    pub opening_plies: u32,
    /// Seed of the random openings.
    pub seed: u64,
    /// Plies after which a game is adjudicated a draw.
    pub max_plies: u32,
    /// Hash table per engine, in megabytes.
    pub hash_mb: usize,
    /// Search threads per engine.
    pub threads: usize,
    /// Plies (counted from the start) whose searches are counted as middlegame for the speed
    /// figure.
    pub middlegame: std::ops::Range<u32>,
}

impl Default for MatchConfig {
    fn default() -> Self {
        MatchConfig {
            games: 20,
            first: Limits::depth(3),
            second: Limits::depth(2),
            opening_plies: 4,
            seed: 1,
            max_plies: 300,
            hash_mb: 16,
            threads: 1,
            middlegame: 12..60,
        }
    }
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct GameSummary {
    /// Game number from 1.
    pub number: u32,
    /// Whether the first engine had White.
    pub first_white: bool,
    /// How the game ended (a draw by [`crate::session::Reason::Adjudication`] at the ply
    /// limit).
    pub verdict: Verdict,
    /// Plies played.
    pub plies: u32,
    /// The first engine's points: 1, 0.5 or 0.
    pub first_points: f64,
    /// The opening moves played at random, in coordinate notation.
    pub opening: Vec<String>,
}

/// The outcome of a match, from the first engine's side.
#[derive(Clone, Debug, Default)]
pub struct MatchReport {
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
    /// Nodes and search time of the middlegame searches (both engines).
    pub middlegame_nodes: u64,
    /// See `middlegame_nodes`.
    pub middlegame_time: Duration,
    /// Nodes and search time of all searches.
    pub total_nodes: u64,
    /// See `total_nodes`.
    pub total_time: Duration,
    /// Every game, in order.
    pub games: Vec<GameSummary>,
}

impl MatchReport {
    /// The first engine's points.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// The first engine's score as a fraction of the games.
    pub fn score(&self) -> f64 {
        let n = self.wins + self.draws + self.losses;
        if n == 0 {
            0.5
        } else {
            self.points() / n as f64
        }
    }

    /// Nodes per second in the middlegame.
    pub fn middlegame_nps(&self) -> u64 {
        (self.middlegame_nodes as f64 / self.middlegame_time.as_secs_f64().max(1e-6)) as u64
    }

    /// Nodes per second over all searches.
    pub fn nps(&self) -> u64 {
        (self.total_nodes as f64 / self.total_time.as_secs_f64().max(1e-6)) as u64
    }
}

/// A small seeded generator (xorshift64*).
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed` (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// `plies` random legal moves from the start that do not end the game.
fn random_opening(rules: &Arc<Ruleset>, plies: u32, rng: &mut Rng) -> Vec<crate::moves::Move> {
    loop {
        let mut g = Session::new(rules);
        let mut ok = true;
        for _ in 0..plies {
            let legal = g.legal_moves();
            if legal.is_empty() {
                ok = false;
                break;
            }
            let m = legal[rng.below(legal.len())];
            g.play(m).expect("a legal move");
            if g.is_over() {
                ok = false;
                break;
            }
        }
        if ok {
            return g.moves().to_vec();
        }
    }
}

/// Plays a match between two search settings; `on_game` sees each game as it ends.
pub fn play_match(
    rules: &Arc<Ruleset>,
    cfg: &MatchConfig,
    mut on_game: impl FnMut(&GameSummary),
) -> MatchReport {
    let mut rng = Rng::new(cfg.seed);
    let mut first = Searcher::new(rules, cfg.hash_mb);
    let mut second = Searcher::new(rules, cfg.hash_mb);
    first.set_threads(cfg.threads);
    second.set_threads(cfg.threads);
    let mut report = MatchReport::default();
    let mut opening: Vec<crate::moves::Move> = Vec::new();
    for n in 0..cfg.games {
        let first_white = n % 2 == 0;
        if n % 2 == 0 {
            // A fresh opening for each pair.
            opening = random_opening(rules, cfg.opening_plies, &mut rng);
        }
        first.clear();
        second.clear();
        let mut game = Session::new(rules);
        for &m in &opening {
            game.play(m).expect("a legal opening move");
        }
        game.set_move_cap(Some(cfg.max_plies as usize));
        let mut plies = opening.len() as u32;
        let verdict = loop {
            if let Some(v) = game.verdict() {
                break v;
            }
            let white_to_move = game.position().side() == Color::White;
            let (engine, limits) = if white_to_move == first_white {
                (&mut first, &cfg.first)
            } else {
                (&mut second, &cfg.second)
            };
            let mut pos = game.position().clone();
            let r = engine.search(&mut pos, limits, |_| {});
            report.total_nodes += r.nodes;
            report.total_time += r.elapsed;
            if cfg.middlegame.contains(&plies) {
                report.middlegame_nodes += r.nodes;
                report.middlegame_time += r.elapsed;
            }
            let m = r.best.expect("a move exists while the game goes on");
            game.play(m).expect("the engine plays legal moves");
            plies += 1;
        };
        let first_color = if first_white {
            Color::White
        } else {
            Color::Black
        };
        let points = match verdict.result {
            GameResult::Draw => 0.5,
            r if r == GameResult::win_for(first_color) => 1.0,
            _ => 0.0,
        };
        if points == 1.0 {
            report.wins += 1;
        } else if points == 0.0 {
            report.losses += 1;
        } else {
            report.draws += 1;
        }
        let summary = GameSummary {
            number: n + 1,
            first_white,
            verdict,
            plies,
            first_points: points,
            opening: opening
                .iter()
                .map(|&m| crate::session::coord(rules, m))
                .collect(),
        };
        on_game(&summary);
        report.games.push(summary);
    }
    report
}
