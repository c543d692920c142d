//! Training data from self-play (`polymachy datagen`): games from random openings, each move a
//! short search by nodes; the quiet positions kept with the search's score, and every position
//! of a game labelled with its result.
//!
//! A game depends only on the run's settings and its number: its opening comes from a
//! generator seeded by both, and its searches are by nodes, one thread, from a cleared table.
//! So a shard (`--shard I/N`: the games whose number is I modulo N) holds the same games
//! whichever machine runs it, the games of a shard can be played several at a time, and a run
//! cut off resumes where its file ends.
//!
//! Kept ([`Label::Search`], the default): positions after the opening that are not in check,
//! whose best move takes nothing and promotes nothing, with the search's score, short of
//! [`KEEP_SCORE`]. With [`Label::Eval`] (distillation: a network taught to give what the
//! static evaluation gives, many positions a second) every position after the opening that is
//! not in check is kept with its static evaluation, and so is the position after one random
//! legal move from it (the kind of position a search evaluates on its way to a refutation),
//! neither where its evaluation is [`KEEP_SCORE`] or more from 0. A game ends by the rules, by
//! adjudication (one side ahead by `adjudicate` centipawns or a mate in every search of
//! [`ADJUDICATE_PLIES`] plies in a row; a draw when every search of [`DRAW_PLIES`] plies in a
//! row is within [`DRAW_SCORE`] of 0 after ply [`DRAW_FROM`]), or as a draw at the ply limit.

use std::collections::BTreeMap;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, mpsc};

use crate::game::{GameResult, outcome};
use crate::geometry::{Color, Square};
use crate::moves::{EMPTY, MoveList};
use crate::nnue::data::{GameBlock, Header, Label, Record};
use crate::position::{Position, Ruleset};
use crate::search::{Limits, Score, Searcher};
use crate::selfplay::Rng;

/// Adjudicated won after this many plies in a row of one side's lead.
pub const ADJUDICATE_PLIES: u32 = 6;
/// Adjudicated drawn after this many plies in a row of scores within [`DRAW_SCORE`]…
pub const DRAW_PLIES: u32 = 24;
/// …of 0…
pub const DRAW_SCORE: i32 = 15;
/// …from this ply on.
pub const DRAW_FROM: u32 = 100;
/// Positions scored this far from 0 (or mates) are not kept.
pub const KEEP_SCORE: i32 = 3_000;

/// The settings of a run.
#[derive(Clone, Debug)]
pub struct Config {
    /// Games in the whole run (all shards together).
    pub games: u32,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random legal plies that open each game (not kept as data).
    pub opening_plies: u16,
    /// Plies after which a game is stopped and counted a draw.
    pub max_plies: u32,
    /// A game is won once 6 searches in a row give one side this many centipawns (0: never).
    pub adjudicate: i32,
    /// Seed of the openings.
    pub seed: u64,
    /// This run's shard: the games whose number is `shard_index` modulo `shard_count`.
    pub shard_index: u32,
    /// Shards in the whole run (1: one file holds every game).
    pub shard_count: u32,
    /// Games played at once (the data does not depend on it).
    pub jobs: usize,
    /// What the kept positions' scores are.
    pub label: Label,
}

impl Config {
    /// The header of this run's file.
    pub fn header(&self, rules: &Ruleset) -> Header {
        Header {
            variant: rules.variant.id.clone(),
            fingerprint: crate::nnue::fingerprint(&rules.variant),
            seed: self.seed,
            games: self.games,
            nodes: self.nodes,
            opening_plies: self.opening_plies,
            shard_index: self.shard_index,
            shard_count: self.shard_count,
            label: self.label,
        }
    }

    /// The numbers of this shard's games, in order.
    pub fn shard_games(&self) -> impl Iterator<Item = u32> + use<> {
        let (i, n) = (self.shard_index, self.shard_count.max(1));
        (0..self.games).filter(move |g| g % n == i)
    }
}

/// The generator of game `game` in a run seeded `seed`.
fn game_rng(seed: u64, game: u32) -> Rng {
    let mut z = seed ^ (game as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    Rng::new(z ^ (z >> 31))
}

/// Whether `mv` takes something or promotes.
fn tactical(pos: &Position, mv: crate::moves::Move) -> bool {
    mv.promo != 0 || crate::text::is_capture(pos, mv)
}

/// The record of `pos` scored `score` for the side to move; `None` when it has too many
/// pieces (a record counts its pieces in a byte).
fn record(rules: &Ruleset, pos: &Position, score: i32) -> Option<Record> {
    let pieces: Vec<(Square, crate::moves::Code)> = pos
        .board()
        .iter()
        .enumerate()
        .take(rules.geometry.size())
        .filter(|(_, c)| **c != EMPTY)
        .map(|(sq, &c)| (Square::from_index(sq), c))
        .collect();
    (pieces.len() <= u8::MAX as usize).then(|| Record {
        side: pos.side().index() as u8,
        pieces,
        score: score as i16,
    })
}

/// Keeps `pos` and the position after one random legal move from it, each with its static
/// evaluation, where it is not in check and its evaluation is short of [`KEEP_SCORE`].
fn keep_evaluated(
    rules: &Ruleset,
    engine: &Searcher,
    pos: &mut Position,
    list: &mut MoveList,
    rng: &mut Rng,
    block: &mut GameBlock,
) {
    let keep = |pos: &Position, block: &mut GameBlock| {
        if !pos.in_check() {
            let e = engine.evaluate(pos);
            if e.abs() < KEEP_SCORE {
                block.records.extend(record(rules, pos, e));
            }
        }
    };
    keep(pos, block);
    pos.legal_moves(list);
    if list.is_empty() {
        return;
    }
    pos.make(list.as_slice()[rng.below(list.len())]);
    keep(pos, block);
    pos.unmake();
}

/// Plays game `game` of the run and returns its block.
pub fn play_game(
    rules: &Arc<Ruleset>,
    engine: &mut Searcher,
    cfg: &Config,
    game: u32,
) -> GameBlock {
    let mut rng = game_rng(cfg.seed, game);
    let mut pos = Position::start(rules);
    let mut list = MoveList::new();
    let mut block = GameBlock {
        game,
        result: 1,
        records: Vec::new(),
    };
    for _ in 0..cfg.opening_plies {
        pos.legal_moves(&mut list);
        if list.is_empty() || outcome(&mut pos).is_some() {
            return block;
        }
        pos.make(list.as_slice()[rng.below(list.len())]);
    }
    engine.clear();
    let limits = Limits::nodes(cfg.nodes.max(1));
    let mut ahead = [0u32; 2];
    let mut level = 0u32;
    let mut plies = cfg.opening_plies as u32;
    let result = loop {
        if let Some(o) = outcome(&mut pos) {
            break o.result;
        }
        if plies >= cfg.max_plies {
            break GameResult::Draw;
        }
        let side = pos.side();
        let mut p = pos.snapshot();
        let r = engine.search(&mut p, &limits, |_| {});
        let Some(best) = r.best else {
            break GameResult::Draw;
        };
        let cp = match r.score {
            Score::Cp(c) => Some(c),
            Score::Mate(_) => None,
        };
        match cfg.label {
            Label::Search => {
                if let Some(c) = cp
                    && c.abs() < KEEP_SCORE
                    && !pos.in_check()
                    && !tactical(&pos, best)
                {
                    block.records.extend(record(rules, &pos, c));
                }
            }
            Label::Eval => keep_evaluated(rules, engine, &mut pos, &mut list, &mut rng, &mut block),
        }
        // Adjudication.
        let lead = match r.score {
            Score::Mate(n) if n > 0 => Some(side),
            Score::Mate(_) => Some(side.flip()),
            Score::Cp(c) if cfg.adjudicate > 0 && c >= cfg.adjudicate => Some(side),
            Score::Cp(c) if cfg.adjudicate > 0 && c <= -cfg.adjudicate => Some(side.flip()),
            _ => None,
        };
        let mut won = None;
        for c in [Color::White, Color::Black] {
            let a = &mut ahead[c.index()];
            *a = if lead == Some(c) { *a + 1 } else { 0 };
            if *a >= ADJUDICATE_PLIES {
                won = Some(c);
            }
        }
        level = match cp {
            Some(c) if c.abs() <= DRAW_SCORE && plies >= DRAW_FROM => level + 1,
            _ => 0,
        };
        pos.make(best);
        plies += 1;
        if let Some(c) = won {
            break GameResult::win_for(c);
        }
        if level >= DRAW_PLIES {
            break GameResult::Draw;
        }
    };
    block.result = match result {
        GameResult::WhiteWins => 2,
        GameResult::Draw => 1,
        GameResult::BlackWins => 0,
    };
    block
}

/// Progress of a run, for the caller's display.
#[derive(Clone, Copy, Debug, Default)]
pub struct Progress {
    /// Games finished.
    pub games: u32,
    /// Positions kept.
    pub positions: u64,
}

/// Plays `games` (numbers, in order), `cfg.jobs` at a time, and writes each finished block to
/// `out` in the order of the numbers, flushing after each; `on_game` sees the totals after
/// each. Stops early (after the games under way) when `stop` is raised.
pub fn run(
    rules: &Arc<Ruleset>,
    cfg: &Config,
    games: Vec<u32>,
    out: &mut impl Write,
    stop: &AtomicBool,
    mut on_game: impl FnMut(Progress),
) -> std::io::Result<Progress> {
    let queue = Mutex::new(games.into_iter().enumerate());
    let (tx, rx) = mpsc::channel::<(usize, GameBlock)>();
    let mut progress = Progress::default();
    let mut failure = None;
    std::thread::scope(|s| {
        for _ in 0..cfg.jobs.max(1) {
            let tx = tx.clone();
            let queue = &queue;
            s.spawn(move || {
                let mut engine = Searcher::new(rules, 16);
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let next = queue.lock().map(|mut q| q.next());
                    let Ok(Some((i, g))) = next else { break };
                    if tx.send((i, play_game(rules, &mut engine, cfg, g))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut done: BTreeMap<usize, GameBlock> = BTreeMap::new();
        let mut next = 0;
        let mut buf = Vec::new();
        for (i, g) in rx {
            done.insert(i, g);
            while let Some(g) = done.remove(&next) {
                next += 1;
                if failure.is_some() {
                    continue;
                }
                buf.clear();
                g.write_to(&mut buf);
                if let Err(e) = out.write_all(&buf).and_then(|_| out.flush()) {
                    failure = Some(e);
                    stop.store(true, Ordering::Relaxed);
                    continue;
                }
                progress.games += 1;
                progress.positions += g.records.len() as u64;
                on_game(progress);
            }
        }
    });
    match failure {
        Some(e) => Err(e),
        None => Ok(progress),
    }
}
