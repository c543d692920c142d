//! Evaluation learned from play: a Texel-style fit of the material values and the weights of
//! the positional terms ([`Term`]).
//!
//! Games come from self-play at a fixed number of nodes per move (random opening plies make
//! them differ; several played at once on threads of their own, each from a cleared search, so
//! that a game does not depend on how many run beside it; adjudicated won once the searches
//! agree for [`ADJUDICATE_PLIES`] plies that one side leads by the configured margin) or from
//! a PGN file. Every position of a finished game that is not in check
//! and from which a quiet move was played (neither a capture nor a promotion) becomes a sample
//! labelled with the game's result. The model is the engine's own evaluation with the piece
//! values and the terms' weights as unknowns: for a position, `e(θ) = e₀ + Σ (θ − θ₀)·f`,
//! where `e₀` is the static evaluation with the current weights `θ₀` and `f` is what each
//! weight multiplies (a kind's pieces, a term's feature as the evaluation traces it; White
//! minus Black) weighted by the game phase (middlegame weight `phase`, endgame weight
//! `1 − phase`).
//! The fit minimises the mean squared difference between the result and `σ(K·e)`, first
//! choosing `K` for the current values, then moving the values by gradient descent (Adam),
//! with a prior that holds them near the current ones. The result is an `[eval]` table
//! ([`crate::variant::EvalTable`]).
//!
//! Whether the games teach anything is measured, not assumed: [`held_out`] fits the values
//! to four fifths of the games and measures how well they predict the other fifth, against
//! the current values; [`choose_lambda`] picks the prior weight whose fits predict held-out
//! games best, so that games that say nothing new leave the values where they are. Handicap
//! self-play ([`PlayConfig::handicap`]) starts each game less one piece a side, for games
//! that turn on material.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex, mpsc};

use crate::game::{Game, GameResult};
use crate::geometry::Color;
use crate::moves::{EMPTY, MoveKind, color_of, kind_of};
use crate::position::Position;
use crate::position::Ruleset;
use crate::search::{Evaluator, Limits, Score, Searcher};
use crate::selfplay::Rng;
use crate::variant::{EvalTable, Term};

/// One position to fit.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The static evaluation with the current values, White's view.
    pub base: f64,
    /// Per weight (kinds first, then the [`Term`]s, see [`current_values`]): what its
    /// middlegame and its endgame half multiply, White minus Black (a kind: its pieces).
    pub diff: Vec<(usize, f64, f64)>,
    /// Middlegame share, 0 to 1.
    pub phase: f64,
    /// The game's result for White: 1, 0.5 or 0.
    pub result: f64,
    /// The number of the game it comes from (held-out checks split by game, since the
    /// positions of one game are alike).
    pub game: u32,
}

/// Self-play settings.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// Games to play.
    pub games: u32,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random plies that open each game.
    pub opening_plies: u32,
    /// Plies after which a game is stopped and counted a draw.
    pub max_plies: u32,
    /// Seed of the openings.
    pub seed: u64,
    /// Games played at once, one search thread each (the games do not depend on it).
    pub jobs: usize,
    /// Adjudicate a game won once every search of [`ADJUDICATE_PLIES`] plies in a row gives
    /// the same side at least this many centipawns (or a mate); 0: never.
    pub adjudicate: i32,
    /// After the opening, take one piece whose value is fitted off each side (a kind drawn at
    /// random for each, so sometimes the same): games that start from such imbalances say
    /// far more about the values than games that stay level, as on large boards they mostly
    /// do.
    pub handicap: bool,
}

/// How one weight of the fit moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fit {
    /// It keeps its current value.
    Fixed,
    /// A piece's value: within half and twice its current value.
    Value,
    /// A term's weight: within its current value ± the larger of that value's size and
    /// [`TERM_SPAN`] centipawns (a positive weight stays at 0 or more).
    Weight,
}

/// How far a term's weight near 0 may move in a fit.
pub const TERM_SPAN: f64 = 30.0;

/// How each weight of [`current_values`] is fitted: the values of [`fitted_kinds`], and the
/// terms' weights where `terms` says so.
pub fn fit_spec(rules: &Ruleset, terms: bool) -> Vec<Fit> {
    let mut spec: Vec<Fit> = fitted_kinds(rules)
        .into_iter()
        .map(|f| if f { Fit::Value } else { Fit::Fixed })
        .collect();
    spec.extend(
        Term::ALL
            .iter()
            .map(|_| if terms { Fit::Weight } else { Fit::Fixed }),
    );
    spec
}

/// The kinds whose values are fitted: not royal (no material value) and not promoting (the
/// pawn-like pieces are the unit the others are measured in, as the scale K is fitted too).
pub fn fitted_kinds(rules: &Ruleset) -> Vec<bool> {
    rules
        .variant
        .pieces
        .iter()
        .map(|p| !p.royal && p.promotes_to.is_empty())
        .collect()
}

/// Plies in a row whose searches must agree before a game is adjudicated won.
pub const ADJUDICATE_PLIES: u32 = 8;

/// The current (middlegame, endgame) value of every kind (royal kinds: 0), then the weight of
/// every [`Term`] (the variant's `[eval.terms]`, else the default).
pub fn current_values(rules: &Ruleset) -> Vec<(f64, f64)> {
    let ev = Evaluator::new(rules);
    let table = rules.variant.eval.as_ref();
    let mut out: Vec<(f64, f64)> = (0..ev.kinds())
        .map(
            |k| match table.and_then(|t| t.values.get(k).copied().flatten()) {
                Some((mg, eg)) if ev.values[k] > 0 || mg > 0 => (mg as f64, eg as f64),
                _ => (ev.values[k] as f64, ev.values[k] as f64),
            },
        )
        .collect();
    for t in Term::ALL {
        let (mg, eg) = ev.weight(t);
        out.push((mg as f64, eg as f64));
    }
    out
}

/// The random openings of `cfg.games` games, drawn in order from one generator (so that a
/// game's opening does not depend on how many games are played at once); `None` for a game
/// whose opening ended the game.
///
/// With `cfg.handicap`, each opening then loses one fitted piece a side, drawn from a
/// generator of its own (the openings stay those of the same seed without it); the game
/// starts from that position.
fn openings(rules: &Arc<Ruleset>, cfg: &PlayConfig) -> Vec<Option<Game>> {
    let mut rng = Rng::new(cfg.seed);
    let mut hrng = Rng::new(cfg.seed ^ 0x4841_4E44_4943_4150);
    let fitted = fitted_kinds(rules);
    (0..cfg.games)
        .map(|_| {
            let mut g = Game::new(rules);
            for _ in 0..cfg.opening_plies {
                let legal = g.legal_moves();
                if legal.is_empty() || g.outcome().is_some() {
                    return None;
                }
                let m = legal[rng.below(legal.len())];
                g.play(m).ok()?;
            }
            if cfg.handicap {
                g = handicapped(&g, &fitted, &mut hrng)?;
            }
            Some(g)
        })
        .collect()
}

/// A game from the position of `g` less one piece of a fitted kind a side (the kind drawn
/// first, then the piece); a few draws are tried where a removal leaves a position that is
/// not legal (the side not to move in check) or one that is already over.
fn handicapped(g: &Game, fitted: &[bool], rng: &mut Rng) -> Option<Game> {
    let base = g.position().setup();
    let size = g.rules().geometry.size();
    for _ in 0..20 {
        let mut setup = base.clone();
        for color in [Color::White, Color::Black] {
            // The side's squares of each fitted kind, kinds and squares in ascending order.
            let mut by_kind: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
            for (sq, &c) in base.board.iter().enumerate().take(size) {
                if c != EMPTY && color_of(c) == color && fitted[kind_of(c)] {
                    by_kind.entry(kind_of(c)).or_default().push(sq);
                }
            }
            if by_kind.is_empty() {
                continue;
            }
            let squares = by_kind.values().nth(rng.below(by_kind.len()));
            if let Some(squares) = squares {
                setup.board[squares[rng.below(squares.len())]] = EMPTY;
            }
        }
        if let Ok(pos) = Position::from_setup(g.rules(), &setup) {
            let mut h = Game::from_position(pos);
            if h.outcome().is_none() && !h.legal_moves().is_empty() {
                return Some(h);
            }
        }
    }
    None
}

/// Plays one self-play game on from its opening.
fn play_out(engine: &mut Searcher, mut g: Game, cfg: &PlayConfig) -> Game {
    let limits = Limits::nodes(cfg.nodes.max(1));
    engine.clear();
    let mut plies = cfg.opening_plies;
    // Plies in a row whose search gave White (index 0) or Black (1) the adjudication margin.
    let mut ahead = [0u32; 2];
    let mut winner = None;
    while g.outcome().is_none() && plies < cfg.max_plies {
        let mut pos = g.position().clone();
        let side = pos.side();
        let r = engine.search(&mut pos, &limits, |_| {});
        let Some(m) = r.best else {
            break;
        };
        if cfg.adjudicate > 0 {
            let lead = match r.score {
                Score::Mate(n) if n > 0 => Some(side),
                Score::Cp(c) if c >= cfg.adjudicate => Some(side),
                Score::Mate(n) if n < 0 => Some(side.flip()),
                Score::Cp(c) if c <= -cfg.adjudicate => Some(side.flip()),
                _ => None,
            };
            for c in [Color::White, Color::Black] {
                let a = &mut ahead[c as usize];
                *a = if lead == Some(c) { *a + 1 } else { 0 };
                if *a >= ADJUDICATE_PLIES {
                    winner = Some(c);
                }
            }
        }
        if g.play(m).is_err() {
            break;
        }
        plies += 1;
        if winner.is_some() {
            break;
        }
    }
    if g.outcome().is_none() {
        // Adjudicated: won where the searches agreed, else cut at the ply limit (a draw).
        let result = match winner {
            Some(c) => GameResult::win_for(c).pgn(),
            None => "1/2-1/2",
        };
        g.tags.push(("Result".into(), result.into()));
        g.tags.push(("Termination".into(), "adjudication".into()));
    }
    g
}

/// Plays `cfg.games` games against itself, `cfg.jobs` at a time; `on_game` sees each
/// finished one, in the order of the games.
pub fn play_games(rules: &Arc<Ruleset>, cfg: &PlayConfig, mut on_game: impl FnMut(&mut Game)) {
    let starts: Vec<(usize, Game)> = openings(rules, cfg)
        .into_iter()
        .flatten()
        .enumerate()
        .collect();
    let queue = Mutex::new(starts.into_iter());
    let (tx, rx) = mpsc::channel::<(usize, Game)>();
    std::thread::scope(|s| {
        for _ in 0..cfg.jobs.max(1) {
            let tx = tx.clone();
            let queue = &queue;
            s.spawn(move || {
                let mut engine = Searcher::new(rules, 16);
                loop {
                    let next = queue.lock().map(|mut q| q.next());
                    let Ok(Some((i, g))) = next else {
                        break;
                    };
                    if tx.send((i, play_out(&mut engine, g, cfg))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Hand the games on in order: a finished game waits for the ones before it.
        let mut done: BTreeMap<usize, Game> = BTreeMap::new();
        let mut next = 0;
        for (i, g) in rx {
            done.insert(i, g);
            while let Some(mut g) = done.remove(&next) {
                on_game(&mut g);
                next += 1;
            }
        }
    });
}

/// White's points for a finished game's PGN result (`1-0`, `0-1`, `1/2-1/2`); `None` for `*`
/// or anything else.
pub fn points(result: &str) -> Option<f64> {
    match result {
        "1-0" => Some(1.0),
        "0-1" => Some(0.0),
        "1/2-1/2" => Some(0.5),
        _ => None,
    }
}

/// The result of a game for White: its outcome on the board, else the result it was
/// adjudicated (a game cut at the ply limit counts as a draw).
pub fn result_of(g: &mut Game) -> f64 {
    match g.outcome() {
        Some(o) => points(o.result.pgn()),
        None => g
            .tags
            .iter()
            .find(|t| t.0 == "Result")
            .and_then(|t| points(&t.1)),
    }
    .unwrap_or(0.5)
}

/// The samples of game number `game`: positions after `skip` plies, not in check, from which
/// a quiet move was played.
pub fn samples(
    rules: &Arc<Ruleset>,
    g: &Game,
    result: f64,
    skip: usize,
    game: u32,
    out: &mut Vec<Sample>,
) {
    let ev = Evaluator::new(rules);
    let mut pos: Position = g.start_position().clone();
    for (i, &m) in g.moves().iter().enumerate() {
        let quiet =
            m.promo == 0 && m.kind != MoveKind::EnPassant && pos.capture_square(m).is_none();
        if i >= skip && quiet && !pos.in_check() {
            let mut count = vec![0i32; ev.kinds()];
            for &c in pos.board().iter().take(rules.geometry.size()) {
                if c != EMPTY {
                    count[kind_of(c)] += if color_of(c) == Color::White { 1 } else { -1 };
                }
            }
            let (e, trace) = ev.trace(&pos);
            let e = e as f64;
            let mut diff: Vec<(usize, f64, f64)> = count
                .iter()
                .enumerate()
                .filter(|x| *x.1 != 0)
                .map(|(k, &n)| (k, n as f64, n as f64))
                .collect();
            for t in Term::ALL {
                let (w, b) = (trace.features[0][t as usize], trace.features[1][t as usize]);
                let d = (w.0 - b.0, w.1 - b.1);
                if d != (0.0, 0.0) {
                    diff.push((ev.kinds() + t as usize, d.0, d.1));
                }
            }
            out.push(Sample {
                base: if pos.side() == Color::White { e } else { -e },
                diff,
                phase: ev.phase(&pos) as f64 / 256.0,
                result,
                game,
            });
        }
        pos.make(m);
    }
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// The model's evaluation of a sample with values `theta` (current values `theta0`).
fn predict(s: &Sample, theta: &[(f64, f64)], theta0: &[(f64, f64)]) -> f64 {
    let mut e = s.base;
    for &(k, fm, fe) in &s.diff {
        e += fm * (theta[k].0 - theta0[k].0) * s.phase
            + fe * (theta[k].1 - theta0[k].1) * (1.0 - s.phase);
    }
    e
}

/// Mean squared error of the samples with values `theta` and scale `k`.
pub fn loss(samples: &[Sample], theta: &[(f64, f64)], theta0: &[(f64, f64)], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    samples
        .iter()
        .map(|s| (s.result - sigmoid(k * predict(s, theta, theta0))).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

/// The scale `K` (per centipawn) that best fits the current values: the best of the steps of
/// 0.0005 from 0.0005 to 0.02, or, where the smallest of them is best (games that the
/// evaluation barely predicts, as in long games on large boards), of smaller scales down to
/// a hundredth of it.
pub fn fit_scale(samples: &[Sample], theta0: &[(f64, f64)]) -> f64 {
    let mut best = (f64::INFINITY, 0.004);
    let mut k = 0.0005;
    while k <= 0.02 {
        let l = loss(samples, theta0, theta0, k);
        if l < best.0 {
            best = (l, k);
        }
        k += 0.0005;
    }
    let mut k = 0.0005;
    while best.1 == k && k > 0.000_005 {
        k *= 0.8;
        let l = loss(samples, theta0, theta0, k);
        if l < best.0 {
            best = (l, k);
        }
    }
    best.1
}

/// The fitted values: Adam on the mean squared error plus `lambda` times the sum of the
/// squared changes in pawns (a prior toward the current values, which keeps values that the
/// games barely inform from drifting), `iters` passes over the samples. Each weight moves as
/// `spec` says ([`Fit`]).
pub fn fit(
    samples: &[Sample],
    theta0: &[(f64, f64)],
    spec: &[Fit],
    k: f64,
    lambda: f64,
    iters: u32,
) -> Vec<(f64, f64)> {
    let n = theta0.len();
    let mut theta = theta0.to_vec();
    let (mut m, mut v) = (vec![0.0; 2 * n], vec![0.0; 2 * n]);
    let (b1, b2, lr, eps): (f64, f64, f64, f64) = (0.9, 0.999, 2.0, 1e-8);
    for t in 1..=iters {
        let mut grad = vec![0.0; 2 * n];
        for s in samples {
            let p = sigmoid(k * predict(s, &theta, theta0));
            // d/de (r - p)^2 = -2 (r - p) p (1 - p) k
            let g = -2.0 * (s.result - p) * p * (1.0 - p) * k;
            for &(kind, fm, fe) in &s.diff {
                grad[2 * kind] += g * fm * s.phase;
                grad[2 * kind + 1] += g * fe * (1.0 - s.phase);
            }
        }
        let inv = 1.0 / samples.len().max(1) as f64;
        for j in 0..2 * n {
            if spec[j / 2] == Fit::Fixed {
                continue;
            }
            let (x, x0) = if j % 2 == 0 {
                (theta[j / 2].0, theta0[j / 2].0)
            } else {
                (theta[j / 2].1, theta0[j / 2].1)
            };
            let g = grad[j] * inv + 2.0 * lambda * (x - x0) / 10_000.0;
            m[j] = b1 * m[j] + (1.0 - b1) * g;
            v[j] = b2 * v[j] + (1.0 - b2) * g * g;
            let mh = m[j] / (1.0 - b1.powi(t as i32));
            let vh = v[j] / (1.0 - b2.powi(t as i32));
            let step = lr * mh / (vh.sqrt() + eps);
            let x = if j % 2 == 0 {
                &mut theta[j / 2].0
            } else {
                &mut theta[j / 2].1
            };
            let x0 = if j % 2 == 0 {
                theta0[j / 2].0
            } else {
                theta0[j / 2].1
            };
            let (lo, hi) = if spec[j / 2] == Fit::Value {
                // A value stays within half and twice its current value.
                (x0 / 2.0, (x0 * 2.0).max(1.0))
            } else {
                let span = x0.abs().max(TERM_SPAN);
                (x0 - span, x0 + span)
            };
            *x = (*x - step).clamp(lo, hi);
        }
    }
    theta
}

/// Folds of the held-out check.
pub const FOLDS: u32 = 5;

/// The held-out check of a fit with prior weight `lambda`: the games are split into
/// [`FOLDS`] folds by their number; the positions of each fold are predicted with the values
/// fitted (scale included) to the other folds. Returns the mean squared error over all folds
/// with the current values and with the fitted ones; a fit that learns from the games lowers
/// it, one that follows their noise raises it.
pub fn held_out(
    samples: &[Sample],
    theta0: &[(f64, f64)],
    spec: &[Fit],
    lambda: f64,
    iters: u32,
) -> (f64, f64) {
    let (mut before, mut after, mut n) = (0.0, 0.0, 0usize);
    for fold in 0..FOLDS {
        let (test, train): (Vec<Sample>, Vec<Sample>) = samples
            .iter()
            .cloned()
            .partition(|s| s.game % FOLDS == fold);
        if test.is_empty() || train.is_empty() {
            continue;
        }
        let k = fit_scale(&train, theta0);
        let theta = fit(&train, theta0, spec, k, lambda, iters);
        before += loss(&test, theta0, theta0, k) * test.len() as f64;
        after += loss(&test, &theta, theta0, k) * test.len() as f64;
        n += test.len();
    }
    let n = n.max(1) as f64;
    (before / n, after / n)
}

/// The prior weights that `--lambda auto` tries, from a loose prior to a tight one.
pub const LAMBDAS: [f64; 7] = [0.0001, 0.0003, 0.001, 0.003, 0.01, 0.03, 0.1];

/// The held-out error of every weight in [`LAMBDAS`] (computed on threads of their own), and
/// the weight with the lowest.
pub fn choose_lambda(
    samples: &[Sample],
    theta0: &[(f64, f64)],
    spec: &[Fit],
    iters: u32,
) -> (f64, Vec<(f64, f64, f64)>) {
    let rows: Vec<(f64, f64, f64)> = std::thread::scope(|s| {
        let handles: Vec<_> = LAMBDAS
            .iter()
            .map(|&l| {
                s.spawn(move || {
                    let (b, a) = held_out(samples, theta0, spec, l, iters);
                    (l, b, a)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("held-out fit thread"))
            .collect()
    });
    let best = rows
        .iter()
        .min_by(|x, y| x.2.total_cmp(&y.2))
        .map_or(LAMBDAS[0], |r| r.0);
    (best, rows)
}

/// The `[eval]` table of the weights `theta` of `kinds` kinds and the terms: the fitted
/// ones, and those that `kept` (the variant's own table) sets, so that the table replaces it.
pub fn table(
    theta: &[(f64, f64)],
    spec: &[Fit],
    kinds: usize,
    kept: Option<&EvalTable>,
) -> EvalTable {
    let round = |(mg, eg): (f64, f64)| (mg.round() as i32, eg.round() as i32);
    let mut t = EvalTable {
        values: (0..kinds)
            .map(|k| {
                if spec[k] != Fit::Fixed {
                    Some(round(theta[k]))
                } else {
                    kept.and_then(|x| x.values.get(k).copied().flatten())
                }
            })
            .collect(),
        ..EvalTable::default()
    };
    for term in Term::ALL {
        let i = kinds + term as usize;
        t.terms[term as usize] = if spec[i] != Fit::Fixed {
            Some(round(theta[i]))
        } else {
            kept.and_then(|x| x.term(term))
        };
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::Code;

    /// Samples made up so that White wins exactly when it has an extra knight: the fit must
    /// raise a knight valued at 150, up to its bound (twice its value).
    #[test]
    fn the_fit_raises_a_value_that_decides_games() {
        let theta0 = vec![(150.0, 150.0), (100.0, 100.0)];
        let mut samples = Vec::new();
        for i in 0..200 {
            let extra = if i % 2 == 0 { 1.0 } else { -1.0 };
            samples.push(Sample {
                base: 0.0,
                diff: vec![(0, extra, extra)],
                phase: 0.5,
                result: if extra > 0.0 { 1.0 } else { 0.0 },
                game: i,
            });
        }
        let k = 0.005;
        let before = loss(&samples, &theta0, &theta0, k);
        let theta = fit(&samples, &theta0, &[Fit::Value, Fit::Fixed], k, 0.0, 200);
        let after = loss(&samples, &theta, &theta0, k);
        assert!(after < before / 2.0, "{before} -> {after}");
        assert!(theta[0].0 > 250.0 && theta[0].1 > 250.0, "{theta:?}");
        assert!(theta[0].0 <= 300.0 && theta[0].1 <= 300.0, "{theta:?}");
        assert_eq!(theta[1], (100.0, 100.0));
    }

    /// A small deterministic generator for made-up samples.
    fn lcg(x: &mut u64) -> f64 {
        *x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
        (*x >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Made-up games whose results follow the current values, so that a fit can only follow
    /// their noise, or values each 150 centipawns off, so that a fit can learn: the held-out
    /// check must find that a loose fit of the first predicts worse, and choose a tight prior
    /// for it; for the second a loose prior whose fit predicts better (six draws of each).
    #[test]
    fn the_held_out_check_tells_learning_from_noise() {
        const KINDS: usize = 24;
        const K_TRUE: f64 = 0.002;
        const GOOD_GAMES: u32 = 300;
        const NOISE_GAMES: u32 = 100;
        let theta0: Vec<(f64, f64)> = (0..=KINDS)
            .map(|k| (200.0 + 10.0 * k as f64, 200.0 + 10.0 * k as f64))
            .collect();
        // The last kind is the fixed unit.
        let mut fixed = [Fit::Value; KINDS + 1];
        fixed[KINDS] = Fit::Fixed;
        let make = |informative: bool, seed: u64, games: u32| {
            let mut x = seed;
            let mut out = Vec::new();
            for game in 0..games {
                let counts: Vec<f64> = (0..KINDS)
                    .map(|_| (lcg(&mut x) * 3.0).floor() - 1.0)
                    .collect();
                let value = |k: usize| {
                    // Informative: every kind is off by 150 centipawns, up or down.
                    let off = if k.is_multiple_of(2) { 150.0 } else { -150.0 };
                    theta0[k].0 + if informative { off } else { 0.0 }
                };
                // A positional part that the values do not explain pins the scale down.
                let positional = (lcg(&mut x) - 0.5) * 3000.0;
                let truth: f64 = positional + (0..KINDS).map(|k| value(k) * counts[k]).sum::<f64>();
                let result = if lcg(&mut x) < sigmoid(K_TRUE * truth) {
                    1.0
                } else {
                    0.0
                };
                let base: f64 =
                    positional + (0..KINDS).map(|k| theta0[k].0 * counts[k]).sum::<f64>();
                for _ in 0..5 {
                    out.push(Sample {
                        base,
                        diff: (0..KINDS).map(|k| (k, counts[k], counts[k])).collect(),
                        phase: 0.5,
                        result,
                        game,
                    });
                }
            }
            out
        };
        let row = |rows: &[(f64, f64, f64)], l: f64| {
            *rows.iter().find(|r| r.0 == l).expect("a tried weight")
        };
        for seed in 1..=6 {
            let (l, rows) = choose_lambda(&make(true, seed, GOOD_GAMES), &theta0, &fixed, 200);
            assert_eq!(rows.len(), LAMBDAS.len());
            let (_, b, a) = row(&rows, l);
            assert!(
                l <= 0.001 && a < b,
                "seed {seed}, learnable: prior {l}: {rows:?}"
            );
            let (l, rows) = choose_lambda(&make(false, seed, NOISE_GAMES), &theta0, &fixed, 200);
            let (_, b, a) = row(&rows, LAMBDAS[0]);
            assert!(a > b, "seed {seed}, noise: the loose fit {b} -> {a}");
            assert!(l >= 0.001, "seed {seed}, noise: prior {l}: {rows:?}");
        }
    }

    /// Results that the evaluation barely predicts need a scale below the grid's 0.0005.
    #[test]
    fn the_scale_goes_below_the_grid_when_the_games_need_it() {
        let theta0 = vec![(100.0, 100.0)];
        let mut samples = Vec::new();
        for i in 0..1000u32 {
            let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
            // 2000 cp ahead wins 55% of the games: σ(K·2000) = 0.55 at K = 0.0001.
            let win = (i / 2) % 20 < 11;
            samples.push(Sample {
                base: 2000.0 * sign,
                diff: vec![],
                phase: 0.5,
                result: if win == (sign > 0.0) { 1.0 } else { 0.0 },
                game: i,
            });
        }
        let k = fit_scale(&samples, &theta0);
        assert!(k < 0.0002 && k > 0.00005, "K = {k}");
    }

    /// A handicap opening is the plain opening of the same seed less one fitted piece a side.
    #[test]
    fn handicap_openings_take_one_fitted_piece_off_each_side() {
        let v = crate::variant::Variant::load("chess").unwrap();
        let rules = Ruleset::new(&v, None).unwrap();
        let mut cfg = PlayConfig {
            games: 12,
            nodes: 100,
            opening_plies: 6,
            max_plies: 100,
            seed: 3,
            jobs: 1,
            adjudicate: 0,
            handicap: false,
        };
        let plain = openings(&rules, &cfg);
        cfg.handicap = true;
        let hand = openings(&rules, &cfg);
        let fitted = fitted_kinds(&rules);
        let size = rules.geometry.size();
        let mut kinds_taken = std::collections::BTreeSet::new();
        for (p, h) in plain.iter().zip(&hand) {
            let (Some(p), Some(h)) = (p, h) else {
                panic!("an opening ended the game");
            };
            assert!(h.moves().is_empty());
            let (pb, hb) = (p.position().board(), h.start_position().board());
            let gone: Vec<Code> = (0..size)
                .filter(|&sq| pb[sq] != hb[sq])
                .map(|sq| {
                    assert_eq!(hb[sq], EMPTY, "only removals");
                    pb[sq]
                })
                .collect();
            assert_eq!(gone.len(), 2, "{}", h.start_position().fen());
            assert_ne!(color_of(gone[0]), color_of(gone[1]));
            for c in gone {
                assert!(fitted[kind_of(c)]);
                kinds_taken.insert(kind_of(c));
            }
            assert_eq!(p.position().side(), h.start_position().side());
        }
        // Kinds are drawn at random: twelve games take more than one.
        assert!(kinds_taken.len() > 1, "{kinds_taken:?}");
    }
}
