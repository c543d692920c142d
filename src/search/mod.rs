//! The engine: iterative deepening principal variation search over any variant.
//!
//! - alpha-beta with a principal variation (null-window) search, aspiration windows and a
//!   transposition table on the position's Zobrist hash;
//! - quiescence search on captures and promotions (and on check evasions near the horizon);
//! - move ordering: hash move, captures by victim then attacker value (MVV-LVA) with the
//!   captures that lose the exchange on their square ([`see`]) last, killers, counter moves,
//!   history;
//! - check and singular extensions, late move reductions (less for moves with a good
//!   history, more where the static evaluation is not improving), futility, SEE and late
//!   move pruning;
//! - a correction history: the static evaluation corrected by what searches found below
//!   positions with the same pawn-like pieces ([`Position::structure_hash`]);
//! - time management on a clock that spends more while the best move is unstable;
//! - the game's endings as the position's one verdict decides them (`position::verdict`):
//!   repetition, the move-count rule, rules' endings such as Makruk's count, checkmate and
//!   stalemate (which may also win or lose).
//!
//! The evaluation ([`eval::Evaluator`]) is built from the variant's data alone. A search can be
//! stopped at any moment through its stop flag and then returns the best move found so far,
//! always a legal one when one exists. The searcher keeps one move list and one score buffer
//! per ply, so the search itself allocates nothing once warmed up.

pub mod eval;
pub mod see;
pub mod time;
pub mod tt;

use std::fmt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::geometry::{Color, Square};
use crate::moves::{Code, EMPTY, Move, MoveKind, MoveList, kind_of};
use crate::position::Outcome;
use crate::position::Position;
use crate::position::Ruleset;

pub use eval::Evaluator;

use crate::nnue::{AccStack, Change, MAX_CHANGES, Network};
pub use time::{Clock, DEFAULT_MOVE_OVERHEAD_MS, Limits};
pub use tt::{Bound, TranspositionTable};

/// The deepest ply the search reaches (extensions and quiescence included).
pub const MAX_PLY: usize = 96;
/// The score of a mate on the board (mate in `n` plies scores `MATE - n`).
pub const MATE: i32 = 30_000;
/// Scores beyond this are mates.
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32 - 1;
/// Larger than any score.
pub const INF: i32 = 31_000;
/// Quiescence plies after which only recaptures are searched.
pub const QS_RECAPTURES: u32 = 6;
/// Quiescence plies after which the static evaluation stands.
pub const QS_MAX: u32 = 16;
/// Quiescence nodes below one leaf of the main search, after which every further quiescence
/// node takes its static evaluation: the bound on the breadth of capture trees (a crowded
/// board of multi-capture pieces has dozens of captures on every ply).
pub const QS_BUDGET: u32 = 400;
/// SEE pruning in the main search: up to this depth, captures losing more than
/// `SEE_CAPTURE_MARGIN * depth` in the exchange on their square are skipped.
const SEE_PRUNE_DEPTH: i32 = 5;
const SEE_CAPTURE_MARGIN: i32 = 100;
/// Singular extensions: from this depth on, a hash move whose stored lower bound no other
/// move comes within `SINGULAR_MARGIN * depth` of (searched at half the depth) is searched a
/// ply deeper.
const SINGULAR_DEPTH: i32 = 7;
const SINGULAR_MARGIN: i32 = 2;
/// A singular hash move that every other move misses by this much more is searched two plies
/// deeper (outside PV nodes).
const SINGULAR_DOUBLE_MARGIN: i32 = 30;
/// Razoring: at depth 1 and 2, a static evaluation this far (per ply) below alpha sends the
/// node to the quiescence search.
const RAZOR_MARGIN: i32 = 250;
/// Late move pruning reaches this depth: past `(3 + depth²) / (2 − improving)` quiet moves the
/// rest are not searched.
const LMP_DEPTH: i32 = 5;
/// History pruning: near the horizon a quiet move whose history is below this many points per
/// ply of depth is searched only when it gives check.
const HISTORY_PRUNE: i32 = 4_000;
/// The late-move reduction table's divisor: `ln(depth) · ln(move number) / LMR_DIVISOR`.
const LMR_DIVISOR: f64 = 1.9;
/// The most search threads.
pub const MAX_THREADS: usize = 256;

const SCORE_HASH: i32 = 2_000_000_000;
const SCORE_CAPTURE: i32 = 1_000_000;
const SCORE_KILLER: i32 = 900_000;
const SCORE_BAD_CAPTURE: i32 = -1_000_000;
const HISTORY_MAX: i32 = 400_000;
/// History (the sum of the move's history and its two continuation histories) worth one ply
/// of late-move reduction. Each of the three converges to at most ±16,384.
const LMR_HISTORY: i32 = 12_000;
/// Without continuation histories: the move's history worth one ply of late-move reduction
/// (it converges to at most ±16,384).
const LMR_HISTORY_PLAIN: i32 = 8_000;
/// Entries of a continuation history table (a power of two): the pair (previous move, this
/// move), each as `piece * 256 + to`, hashed into it.
const CONT_SIZE: usize = 1 << 21;
/// Entries of the correction history per side (a power of two), indexed by the position's
/// structure key ([`Position::structure_hash`]).
const CORR_SIZE: usize = 1 << 14;
/// The correction history's fixed point: an entry of `CORR_GRAIN` is one centipawn.
const CORR_GRAIN: i32 = 256;
/// The largest correction, in centipawns.
const CORR_MAX: i32 = 100;
/// Entries of the evaluation cache (a power of two).
const EVAL_CACHE: usize = 1 << 16;
/// Stored instead of a static evaluation for positions in check.
const NO_EVAL: i16 = i16::MIN;

/// A score as reported: centipawns, or a mate in some moves (negative: being mated).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawns for the side to move.
    Cp(i32),
    /// Mate in this many moves (of the side to move); negative when it is mated.
    Mate(i32),
}

impl Score {
    /// Converts an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= MATE_BOUND {
            Score::Mate((MATE - s + 1) / 2)
        } else if s <= -MATE_BOUND {
            Score::Mate(-((MATE + s + 1) / 2))
        } else {
            Score::Cp(s)
        }
    }

    /// In UCI style: `cp 35` or `mate -2`.
    pub fn uci(&self) -> String {
        match self {
            Score::Cp(c) => format!("cp {c}"),
            Score::Mate(m) => format!("mate {m}"),
        }
    }
}

impl fmt::Display for Score {
    /// `+0.35`, `-1.20`, `#3` (mates in 3), `#-2` (is mated in 2).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Cp(c) => {
                let sign = if c < 0 { '-' } else { '+' };
                write!(f, "{sign}{}.{:02}", c.abs() / 100, c.abs() % 100)
            }
            Score::Mate(m) => write!(f, "#{m}"),
        }
    }
}

/// What a finished iteration found.
#[derive(Clone, Debug)]
pub struct Info {
    /// The iteration's depth, in plies.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// The score for the side to move.
    pub score: Score,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
    /// Which line this is, from 1 (the best) to the searcher's MultiPV count
    /// ([`Searcher::set_multipv`]); always 1 when one line is searched.
    pub multipv: usize,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.elapsed)
    }
}

fn nps(nodes: u64, t: Duration) -> u64 {
    (nodes as f64 / t.as_secs_f64().max(1e-6)) as u64
}

/// The outcome of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The move to play; `None` only when the position has no legal move.
    pub best: Option<Move>,
    /// The score for the side to move.
    pub score: Score,
    /// The last finished iteration (0 when none finished).
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time the search took.
    pub elapsed: Duration,
    /// The principal variation, best move first.
    pub pv: Vec<Move>,
}

impl SearchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nps(self.nodes, self.elapsed)
    }
}

/// Per-ply state, reused from one node to the next.
#[derive(Clone, Debug, Default)]
struct Ply {
    moves: MoveList,
    scores: Vec<i32>,
    killers: [Move; 2],
    /// The static evaluation at this ply (`-INF` in check).
    eval: i32,
    /// The move made from this ply, as `piece * 256 + to` ([`NO_MOVE`] for none or a null
    /// move): the key of the counter-move table for the reply.
    cur: usize,
    /// Whether the side to move was in check here (false where quiescence did not look), for
    /// judging a perpetual check.
    in_check: bool,
    /// The move left out of this node's search (a singular-extension test), or the default
    /// move.
    excluded: Move,
    /// Whether the side to move is in check here, where the move that led here already
    /// found out (set by the node before while that move is made; `None` otherwise).
    check_known: Option<bool>,
}

/// No move in [`Ply::cur`].
const NO_MOVE: usize = usize::MAX;

/// The search engine of one ruleset. Keep one per game: its hash table and history carry
/// over from move to move.
pub struct Searcher {
    rules: Arc<Ruleset>,
    eval: Evaluator,
    /// Piece values for static exchange evaluation.
    see: see::SeeValues,
    tt: Arc<TranspositionTable>,
    stop: Arc<AtomicBool>,
    /// Threads of a Lazy SMP search: this one and `helpers.len()` more.
    threads: usize,
    /// The searchers of the other threads (they share the hash table and stop when this one
    /// ends).
    helpers: Vec<Searcher>,
    /// Added to the iteration depth (helpers search odd and even depths out of step).
    depth_offset: i32,
    /// During a search with helpers: raised by a helper that finished the search's depth
    /// limit, so that this thread stops too (the helper's result is then taken).
    helper_done: Option<Arc<AtomicBool>>,
    plies: Vec<Ply>,
    pv: Vec<[Move; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// Quiet move history by `code * 256 + to`.
    history: Vec<i32>,
    /// The quiet move that last refuted a move, by that move's `code * 256 + to`.
    counter: Vec<Move>,
    /// Continuation histories: how quiet moves fared after the opponent's last move
    /// (`cont[0]`) and after the side's own move before it (`cont[1]`), by the hashed pair
    /// of moves ([`cont_index`]).
    cont: [Vec<i16>; 2],
    /// Whether continuation histories order quiet moves and steer late-move reductions
    /// (`ContHistory`, off by default: see [`Searcher::set_cont_history`]).
    cont_history: bool,
    /// Correction history: by side to move and structure key, how far (in 1/[`CORR_GRAIN`]
    /// centipawns) searches found positions with these pawn-like pieces from their static
    /// evaluation; added to it wherever the search uses a static evaluation.
    correction: Vec<i32>,
    /// Recent static evaluations: (hash, score).
    eval_cache: Vec<(u64, i32)>,
    lmr: [[u8; 64]; 64],
    root_moves: Vec<Move>,
    root_scores: Vec<i32>,
    /// Whether the side to move was in check in each position of the game before the root,
    /// `k` plies back at `k - 1`; filled only where perpetual check loses.
    past_checks: Vec<bool>,
    nodes: u64,
    seldepth: usize,
    aborted: bool,
    /// Quiescence nodes left below the current main-search leaf.
    qs_left: u32,
    start: Instant,
    hard: Option<Instant>,
    node_limit: u64,
    root_depth: i32,
    /// Best root move of the current iteration, once one is proved better than alpha.
    iter_best: Option<Move>,
    /// Time kept per move for what happens outside the search (see [`Limits::budget_with`]).
    move_overhead: Duration,
    /// The variant's network, when it has one and it is in use ([`Searcher::set_network`]).
    net: Option<Arc<Network>>,
    /// Accumulators for the line being searched, by plies from the root.
    accs: Option<AccStack>,
    /// The position's move count at the root (accumulator `i` is for `acc_base + i`).
    acc_base: usize,
    /// How many best root moves each iteration ranks with exact scores (`MultiPV`).
    multipv: usize,
    /// The network the variant names, read once for this searcher and its helpers (in use
    /// only while [`Searcher::set_network`] says so).
    network: Option<Arc<Network>>,
}

/// The network the variant names, read from its bytes (checked when the rules were compiled,
/// so that a network that does not fit the variant never gets here).
fn variant_network(rules: &Ruleset) -> Option<Arc<Network>> {
    let (_, bytes) = rules.variant.network.as_ref()?;
    Network::for_variant(bytes, &rules.variant)
        .ok()
        .map(Arc::new)
}

/// The value of what a capture takes (by the piece on its destination; a locust move's on
/// the square it takes on the way too).
#[inline]
fn taken_value(eval: &Evaluator, pos: &Position, mv: Move) -> i32 {
    let at_to = if mv.to == mv.from {
        0
    } else {
        eval.value_of(pos.piece_at(mv.to))
    };
    match mv.locust_square() {
        Some(mid) => eval.value_of(pos.piece_at(mid)) + at_to,
        None => at_to,
    }
}

/// Moves that take something or promote.
#[inline]
fn is_tactical(pos: &Position, mv: Move) -> bool {
    mv.promo != 0 || mv.kind == MoveKind::EnPassant || is_capture(pos, mv)
}

use crate::text::is_capture;

fn to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Searcher {
    /// A searcher for `rules` with a hash table of `hash_mb` megabytes (smaller where that
    /// memory cannot be had: see [`TranspositionTable::new`]).
    pub fn new(rules: &Arc<Ruleset>, hash_mb: usize) -> Searcher {
        Searcher::with_table(
            rules,
            TranspositionTable::new(hash_mb),
            variant_network(rules),
        )
    }

    /// A searcher for `rules` with a hash table of `hash_mb` megabytes, or an error where that
    /// memory cannot be had.
    pub fn try_new(rules: &Arc<Ruleset>, hash_mb: usize) -> Result<Searcher, String> {
        Ok(Searcher::with_table(
            rules,
            TranspositionTable::try_new(hash_mb)?,
            variant_network(rules),
        ))
    }

    /// A searcher sharing `tt`, with the variant's network read already (`network`).
    fn with_table(
        rules: &Arc<Ruleset>,
        tt: TranspositionTable,
        network: Option<Arc<Network>>,
    ) -> Searcher {
        let mut lmr = [[0u8; 64]; 64];
        for (d, row) in lmr.iter_mut().enumerate().skip(1) {
            for (i, r) in row.iter_mut().enumerate().skip(1) {
                *r = (0.5 + (d as f64).ln() * (i as f64).ln() / LMR_DIVISOR) as u8;
            }
        }
        let eval = Evaluator::new(rules);
        let see = see::SeeValues::new(rules, &eval);
        Searcher {
            rules: rules.clone(),
            eval,
            see,
            tt: Arc::new(tt),
            stop: Arc::new(AtomicBool::new(false)),
            threads: 1,
            helpers: Vec::new(),
            depth_offset: 0,
            helper_done: None,
            plies: (0..=MAX_PLY + 1)
                .map(|_| Ply {
                    moves: MoveList::new(),
                    scores: Vec::with_capacity(512),
                    killers: [Move::default(); 2],
                    eval: -INF,
                    cur: NO_MOVE,
                    in_check: false,
                    excluded: Move::default(),
                    check_known: None,
                })
                .collect(),
            pv: vec![[Move::default(); MAX_PLY + 1]; MAX_PLY + 1],
            pv_len: [0; MAX_PLY + 1],
            history: vec![0; 256 * 256],
            counter: vec![Move::default(); 256 * 256],
            cont: [Vec::new(), Vec::new()],
            cont_history: false,
            correction: vec![0; 2 * CORR_SIZE],
            eval_cache: vec![(0, 0); EVAL_CACHE],
            lmr,
            root_moves: Vec::with_capacity(512),
            root_scores: Vec::with_capacity(512),
            past_checks: Vec::new(),
            nodes: 0,
            seldepth: 0,
            aborted: false,
            qs_left: QS_BUDGET,
            start: Instant::now(),
            hard: None,
            node_limit: u64::MAX,
            root_depth: 0,
            iter_best: None,
            move_overhead: Duration::from_millis(DEFAULT_MOVE_OVERHEAD_MS),
            net: None,
            accs: None,
            acc_base: 0,
            multipv: 1,
            network: network.clone(),
        }
        .with_network(network)
    }

    fn with_network(mut self, net: Option<Arc<Network>>) -> Searcher {
        self.accs = net.as_ref().map(|n| AccStack::new(n, MAX_PLY + 4));
        self.net = net;
        self
    }

    /// Evaluates with the variant's network (`true`, the default when the variant names one)
    /// or with the evaluation built from the pieces' data (`false`).
    pub fn set_network(&mut self, on: bool) {
        let net = if on { self.network.clone() } else { None };
        if self.net.is_some() != net.is_some() {
            self.accs = net.as_ref().map(|n| AccStack::new(n, MAX_PLY + 4));
            self.net = net;
            self.helpers.clear();
            self.eval_cache.iter_mut().for_each(|e| *e = (0, 0));
            self.tt.clear();
        }
    }

    /// Whether the search evaluates with a network.
    pub fn uses_network(&self) -> bool {
        self.net.is_some()
    }

    /// The flag that stops a running search: raise it from another thread, and lower it
    /// before the next search (a search started with it raised returns at once, with a legal
    /// move).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Uses `flag` as the stop flag from now on.
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// The evaluator.
    pub fn evaluator(&self) -> &Evaluator {
        &self.eval
    }

    /// The piece values used for static exchange evaluation.
    pub fn see_values(&self) -> &see::SeeValues {
        &self.see
    }

    /// The static evaluation of `pos` (side to move's view): the network's when one is in
    /// use, computed from scratch.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        match &self.net {
            Some(net) => {
                let mut acc = net.new_accumulator();
                net.refresh(pos.board(), &mut acc);
                net.evaluate(&acc, pos.side())
            }
            None => self.eval.evaluate(pos),
        }
    }

    /// The static evaluation inside the search: the network's, its accumulator brought up to
    /// date from the nearest one on the line, or the data-built evaluation.
    #[inline]
    fn static_eval(&mut self, pos: &Position) -> i32 {
        let (Some(net), Some(accs)) = (&self.net, &mut self.accs) else {
            return self.eval.evaluate(pos);
        };
        let d = pos.ply_count().saturating_sub(self.acc_base);
        if d >= accs.depth() {
            let mut acc = net.new_accumulator();
            net.refresh(pos.board(), &mut acc);
            return net.evaluate(&acc, pos.side());
        }
        let key = |j: usize| pos.hash_at(self.acc_base + j);
        let mut j = d;
        while !accs.has(j, key(j)) {
            if j == 0 {
                break;
            }
            j -= 1;
        }
        if !accs.has(j, key(j)) {
            // Nothing on the line is known (the root itself was not set up): from scratch.
            accs.refresh(net, d, key(d), pos.board());
        } else {
            let mut ch = [Change::default(); MAX_CHANGES];
            for k in j + 1..=d {
                let n = pos.move_changes(self.acc_base + k - 1, &mut ch);
                accs.derive(net, k, key(k), &ch[..n]);
            }
        }
        net.evaluate(accs.at(d), pos.side())
    }

    /// Forgets the hash table and history (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.helpers.clear();
        self.history.iter_mut().for_each(|h| *h = 0);
        self.counter.iter_mut().for_each(|m| *m = Move::default());
        self.correction.iter_mut().for_each(|c| *c = 0);
        for t in &mut self.cont {
            t.iter_mut().for_each(|h| *h = 0);
        }
        for p in &mut self.plies {
            p.killers = [Move::default(); 2];
        }
    }

    /// Resizes the hash table (its content is lost); where the memory cannot be had, an error,
    /// and the table keeps its size.
    pub fn set_hash_size(&mut self, mb: usize) -> Result<(), String> {
        let old_mb = (self.tt.bytes() >> 20).max(1);
        // The old table goes first (the helpers share it), so that old and new are never
        // held together.
        self.helpers.clear();
        self.tt = Arc::new(TranspositionTable::new(1));
        match TranspositionTable::try_new(mb) {
            Ok(t) => {
                self.tt = Arc::new(t);
                Ok(())
            }
            Err(e) => {
                self.tt = Arc::new(TranspositionTable::new(old_mb));
                Err(e)
            }
        }
    }

    /// Searches with `n` threads (at least 1, at most [`MAX_THREADS`]): Lazy SMP, all
    /// threads searching the same root and sharing the hash table. A search with a node
    /// limit uses one thread, so that it stays reproducible.
    pub fn set_threads(&mut self, n: usize) {
        self.threads = n.clamp(1, MAX_THREADS);
        self.helpers.truncate(self.threads - 1);
    }

    /// Sets the time kept per move for what happens outside the search (the interface's
    /// `Move Overhead`).
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.move_overhead = overhead;
    }

    /// Turns continuation histories on or off. Off by default: measured in Metamachy
    /// (100 games at 2 s + 0.05 s) they scored 47 % against the search without them, so
    /// the default search keeps plain history and no history term in its reductions.
    pub fn set_cont_history(&mut self, on: bool) {
        self.cont_history = on;
        if on && self.cont[0].is_empty() {
            self.cont = [vec![0; CONT_SIZE], vec![0; CONT_SIZE]];
        }
        for h in &mut self.helpers {
            h.set_cont_history(on);
        }
    }

    /// Sets how many lines each iteration ranks with exact scores (UCI's `MultiPV`; at least
    /// 1). Line `k` is the best move among those not already shown by lines `1..k`, each
    /// reported through `on_iter` with [`Info::multipv`] set to `k`, best first. One line is
    /// the fastest: the others are searched with full windows.
    pub fn set_multipv(&mut self, lines: usize) {
        self.multipv = lines.max(1);
    }

    /// How many lines each iteration ranks ([`Searcher::set_multipv`]).
    pub fn multipv(&self) -> usize {
        self.multipv
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Searches `pos` within `limits`, calling `on_iter` after each finished iteration.
    /// The position is restored before returning. With more than one thread, the other
    /// threads search the same position until this one ends; the result is this thread's.
    pub fn search(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        mut on_iter: impl FnMut(&Info),
    ) -> SearchResult {
        if self.threads <= 1 || limits.nodes.is_some() {
            return self.search_one(pos, limits, on_iter);
        }
        while self.helpers.len() < self.threads - 1 {
            let mut h = Searcher::with_table(
                &self.rules,
                TranspositionTable::new(1),
                self.network.clone(),
            );
            h.tt = self.tt.clone();
            h.depth_offset = self.helpers.len().is_multiple_of(2) as i32;
            h.set_cont_history(self.cont_history);
            h.set_network(self.net.is_some());
            self.helpers.push(h);
        }
        let helper_stop = Arc::new(AtomicBool::new(false));
        let target = limits.depth.unwrap_or(MAX_PLY as u32 - 8);
        let helper_limits = Limits::depth(target);
        let done = Arc::new(AtomicBool::new(false));
        self.helper_done = Some(done.clone());
        // The helpers' new searches must not age the table a second time.
        self.tt.new_search();
        let mut helpers = std::mem::take(&mut self.helpers);
        let (main, others) = std::thread::scope(|sc| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .map(|h| {
                    h.stop = helper_stop.clone();
                    let mut p = pos.clone();
                    let (hl, done) = (&helper_limits, &done);
                    sc.spawn(move || {
                        let r = h.search_inner(&mut p, hl, |_| {}, false);
                        // A helper one depth ahead that finished the depth limit ends the
                        // search: the main thread would only reach what it has.
                        if !h.aborted && r.depth >= target {
                            done.store(true, Ordering::Relaxed);
                        }
                        r
                    })
                })
                .collect();
            let r = self.search_inner(pos, limits, &mut on_iter, false);
            helper_stop.store(true, Ordering::Relaxed);
            let others: Vec<SearchResult> =
                handles.into_iter().filter_map(|h| h.join().ok()).collect();
            (r, others)
        });
        self.helpers = helpers;
        self.helper_done = None;
        // The deepest finished iteration of any thread gives the move (the main thread's on a
        // tie); the nodes are every thread's.
        let nodes: u64 = main.nodes + others.iter().map(|r| r.nodes).sum::<u64>();
        let mut result = main;
        let mut from_helper = false;
        for r in others {
            if r.depth > result.depth && r.best.is_some() {
                result = r;
                from_helper = true;
            }
        }
        result.nodes = nodes;
        result.elapsed = self.start.elapsed();
        if from_helper {
            on_iter(&Info {
                depth: result.depth,
                seldepth: result.seldepth,
                score: result.score,
                nodes,
                elapsed: result.elapsed,
                pv: result.pv.clone(),
                multipv: 1,
            });
        }
        result
    }

    fn search_one(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        on_iter: impl FnMut(&Info),
    ) -> SearchResult {
        self.search_inner(pos, limits, on_iter, true)
    }

    #[expect(
        clippy::too_many_lines,
        reason = "iterative deepening, aspiration windows and time checks sharing one state"
    )]
    fn search_inner(
        &mut self,
        pos: &mut Position,
        limits: &Limits,
        mut on_iter: impl FnMut(&Info),
        age_table: bool,
    ) -> SearchResult {
        self.start = Instant::now();
        let (soft, hard) = limits.budget_with(self.move_overhead);
        self.hard = hard.map(|h| self.start + h);
        self.node_limit = limits.nodes.unwrap_or(u64::MAX);
        self.nodes = 0;
        self.seldepth = 0;
        self.aborted = false;
        if age_table {
            self.tt.new_search();
        }
        for h in &mut self.history {
            *h /= 4;
        }
        for p in &mut self.plies {
            p.killers = [Move::default(); 2];
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32 - 8)
            .clamp(1, MAX_PLY as u32 - 8) as i32;

        // Root moves, legal, ordered: hash move, then as inner nodes order them.
        let mut list = std::mem::take(&mut self.plies[0].moves);
        pos.legal_moves(&mut list);
        let tt_move = self.tt.probe(pos.hash()).map(|e| e.mv).unwrap_or_default();
        let mut scores = std::mem::take(&mut self.plies[0].scores);
        self.score_moves(pos, &list, &mut scores, tt_move, 0, true);
        let mut order: Vec<(i32, Move)> =
            scores.iter().copied().zip(list.iter().copied()).collect();
        order.sort_by_key(|x| std::cmp::Reverse(x.0));
        self.plies[0].moves = list;
        self.plies[0].scores = scores;
        self.acc_base = pos.ply_count();
        self.past_checks.clear();
        if self.rules.draws.perpetual_check_loses {
            pos.past_checks(&mut self.past_checks);
        }
        self.plies[0].in_check = pos.in_check();
        if let (Some(net), Some(accs)) = (&self.net, &mut self.accs) {
            accs.clear();
            accs.refresh(net, 0, pos.hash(), pos.board());
        }
        self.plies[0].eval = if self.plies[0].in_check {
            -INF
        } else {
            self.static_eval(pos)
        };
        self.root_moves.clear();
        self.root_moves.extend(order.iter().map(|x| x.1));
        self.root_scores.clear();
        self.root_scores.resize(self.root_moves.len(), -INF);

        let mut result = SearchResult {
            best: self.root_moves.first().copied(),
            score: Score::Cp(0),
            depth: 0,
            seldepth: 0,
            nodes: 0,
            elapsed: Duration::ZERO,
            pv: self.root_moves.first().copied().into_iter().collect(),
        };
        if self.root_moves.is_empty() {
            let s = self.no_move_score(pos, pos.in_check(), 0);
            result.score = Score::from_internal(s);
            result.pv.clear();
            return result;
        }

        let mut prev: i32 = 0;
        // Time management on a clock: the soft limit stretches while the best move keeps
        // changing from one iteration to the next (and when the score falls), and shrinks
        // while it stays (see `soft_scale`).
        let mut instability = 0.0f64;
        let mut last_best: Option<Move> = None;
        for depth in 1..=max_depth {
            let depth = (depth + self.depth_offset).min(max_depth);
            self.root_depth = depth;
            self.iter_best = None;
            let score = self.aspire(pos, depth, 0, prev);
            if self.aborted {
                // A move proved better in the unfinished iteration is still the better choice.
                if let Some(m) = self.iter_best {
                    result.best = Some(m);
                    if self.pv_len[0] > 0 && self.pv[0][0] == m {
                        result.pv = self.pv[0][..self.pv_len[0]].to_vec();
                    } else {
                        result.pv = vec![m];
                    }
                }
                break;
            }
            let fell = depth > 1 && score < prev - 30;
            prev = score;
            let best_mv = self.pv[0][0];
            self.reorder_root(0, best_mv);
            let pv: Vec<Move> = self.pv[0][..self.pv_len[0].max(1)].to_vec();
            result.best = Some(pv[0]);
            result.pv = pv.clone();
            result.score = Score::from_internal(score);
            result.depth = depth as u32;
            result.seldepth = self.seldepth as u32;
            let info = Info {
                depth: depth as u32,
                seldepth: self.seldepth as u32,
                score: result.score,
                nodes: self.nodes,
                elapsed: self.start.elapsed(),
                pv,
                multipv: 1,
            };
            on_iter(&info);
            // Lines 2.. of a MultiPV search: each the best of the moves not yet shown.
            for line in 1..self.multipv.min(self.root_moves.len()) {
                let s = self.aspire(pos, depth, line, -INF);
                if self.aborted {
                    break;
                }
                let m = self.pv[0][0];
                self.reorder_root(line, m);
                on_iter(&Info {
                    depth: depth as u32,
                    seldepth: self.seldepth as u32,
                    score: Score::from_internal(s),
                    nodes: self.nodes,
                    elapsed: self.start.elapsed(),
                    pv: self.pv[0][..self.pv_len[0].max(1)].to_vec(),
                    multipv: line + 1,
                });
            }
            if self.aborted {
                break;
            }
            if self.root_moves.len() == 1 && limits.timed() {
                break;
            }
            // A helper out of step reaches the depth limit an iteration early.
            if depth >= max_depth {
                break;
            }
            if score.abs() >= MATE_BOUND && depth > 2 * (MATE - score.abs()) + 2 {
                break;
            }
            instability *= 0.5;
            if last_best.is_some_and(|m| m != best_mv) {
                instability += 1.0;
            }
            last_best = Some(best_mv);
            let scale = if limits.clock.is_some() {
                soft_scale(instability, fell)
            } else {
                1.0
            };
            if soft.is_some_and(|s| self.start.elapsed().as_secs_f64() >= s.as_secs_f64() * scale)
                || self.nodes >= self.node_limit
            {
                break;
            }
            if self.stop.load(Ordering::Relaxed) {
                break;
            }
        }
        result.nodes = self.nodes;
        result.elapsed = self.start.elapsed();
        result.seldepth = result.seldepth.max(self.seldepth as u32);
        result
    }

    /// One iteration's search of the root moves from `first` on, in an aspiration window
    /// around `prev` (a full window when `prev` is `-INF`, at low depths or near mates).
    fn aspire(&mut self, pos: &mut Position, depth: i32, first: usize, prev: i32) -> i32 {
        let mut delta = 30;
        let (mut alpha, mut beta) = if depth >= 4 && prev.abs() < MATE_BOUND {
            (prev - delta, prev + delta)
        } else {
            (-INF, INF)
        };
        loop {
            let s = self.root(pos, depth, first, alpha, beta);
            if self.aborted {
                return s;
            }
            if s <= alpha {
                beta = (alpha + beta) / 2;
                alpha = (s - delta).max(-INF);
            } else if s >= beta {
                beta = (s + delta).min(INF);
            } else {
                return s;
            }
            delta += delta;
            if delta > 1000 {
                alpha = -INF;
                beta = INF;
            }
        }
    }

    /// Stable reordering of the root moves from `first` on: `best` first, then by score.
    fn reorder_root(&mut self, first: usize, best: Move) {
        let mut order: Vec<(i32, Move)> = self.root_scores[first..]
            .iter()
            .copied()
            .zip(self.root_moves[first..].iter().copied())
            .collect();
        order.sort_by_key(|x| std::cmp::Reverse((x.1 == best, x.0)));
        for (i, (s, m)) in order.into_iter().enumerate() {
            self.root_moves[first + i] = m;
            self.root_scores[first + i] = s;
        }
    }

    /// The score of a game's ending `ply` plies below the root, for the side to move.
    #[inline]
    fn outcome_score(o: Outcome, side: Color, ply: usize) -> i32 {
        match o.result.for_side(side) {
            0 => 0,
            1 => MATE - ply as i32,
            _ => -MATE + ply as i32,
        }
    }

    /// The score of the side to move when it has no legal move `ply` plies below the root:
    /// checkmate, or stalemate as the variant scores it (the verdict's own rule).
    #[inline]
    fn no_move_score(&self, pos: &Position, in_check: bool, ply: usize) -> i32 {
        let side = pos.side();
        Self::outcome_score(pos.no_move_outcome(in_check), side, ply)
    }

    /// The score of the ending by rule that stands `ply` plies below the root (repetition,
    /// the move-count rule, a rule's ending such as Makruk's count), if one does: the
    /// position's own verdict ([`Position::rule_ending`], confirmed against the moves only
    /// when an ending stands). A repetition inside the search tree counts at once (the side
    /// that repeated could repeat again); positions from before the root count toward the
    /// variant's number.
    #[inline]
    fn ending_score(&mut self, pos: &mut Position, ply: usize) -> Option<i32> {
        let o = pos.rule_ending(ply)?;
        let mut scratch = std::mem::take(&mut self.plies[ply].moves);
        let o = pos.confirm_ending(o, &mut scratch);
        self.plies[ply].moves = scratch;
        // A perpetual check, judged as the game judges it: the stack's plies, then the game's.
        let (plies, past) = (&self.plies, &self.past_checks);
        let o = pos.judge_repetition(o, ply, |k| {
            if k <= ply {
                plies[ply - k].in_check
            } else {
                past.get(k - ply - 1).copied().unwrap_or(false)
            }
        });
        Some(Self::outcome_score(o, pos.side(), ply))
    }

    /// Whether the side to move has a piece that is neither royal nor promotes.
    fn has_officers(&self, pos: &Position) -> bool {
        let rs = &*self.rules;
        let side = pos.side();
        rs.geometry.squares().any(|s| {
            let c = pos.piece_at(s);
            c != EMPTY
                && crate::moves::color_of(c) == side
                && !rs.is_royal(c)
                && rs.variant.pieces[crate::moves::kind_of(c)]
                    .promotes_to
                    .is_empty()
        })
    }

    /// Checks the stop flag, the node limit and the clock.
    #[inline]
    fn should_stop(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        // The clock and a helper's finish are looked at every 1024 nodes.
        if self.stop.load(Ordering::Relaxed)
            || self.nodes >= self.node_limit
            || (self.nodes & 1023 == 0
                && (self.hard.is_some_and(|h| Instant::now() >= h)
                    || self
                        .helper_done
                        .as_ref()
                        .is_some_and(|d| d.load(Ordering::Relaxed))))
        {
            self.aborted = true;
        }
        self.aborted
    }

    /// Gives each move an ordering score. A capture whose mover is worth more than what it
    /// takes may lose the exchange on its square; `exact` runs the exchange for each such
    /// capture now (the root's one sort), else it keeps the capture's MVV-LVA score and
    /// [`Searcher::pick`] runs it only when the capture comes up, so that a node cut off
    /// early pays for none of the exchanges behind the cut (the order is the same).
    fn score_moves(
        &self,
        pos: &Position,
        list: &MoveList,
        scores: &mut Vec<i32>,
        tt_move: Move,
        ply: usize,
        exact: bool,
    ) {
        scores.clear();
        let killers = self.plies[ply].killers;
        let counter = self.counter_move(ply);
        for &mv in list.iter() {
            let s = if mv == tt_move {
                SCORE_HASH
            } else if is_tactical(pos, mv) {
                let s = self.capture_score(pos, mv);
                if exact {
                    self.exchange_checked(pos, mv, s)
                } else {
                    s
                }
            } else if mv == killers[0] {
                SCORE_KILLER
            } else if mv == killers[1] {
                SCORE_KILLER - 1
            } else if mv == counter {
                SCORE_KILLER - 2
            } else {
                self.quiet_score(ply, history_key(pos.mover(mv), mv.to))
            };
            scores.push(s);
        }
    }

    /// The value a tactical move takes (a pawn's for en passant: the least valuable piece).
    #[inline]
    fn victim_value(&self, pos: &Position, mv: Move) -> i32 {
        if mv.kind == MoveKind::EnPassant {
            self.eval
                .values
                .iter()
                .copied()
                .filter(|&v| v > 0)
                .min()
                .unwrap_or(100)
        } else {
            taken_value(&self.eval, pos, mv)
        }
    }

    /// A tactical move's MVV-LVA score: most valuable victim (and promotion) first, then the
    /// least valuable attacker.
    #[inline]
    fn capture_score(&self, pos: &Position, mv: Move) -> i32 {
        let attacker = self.eval.order_values[kind_of(pos.piece_at(mv.from))];
        let victim = self.victim_value(pos, mv);
        let promo = mv.promotion().map(|k| self.eval.values[k]).unwrap_or(0);
        SCORE_CAPTURE + (victim + promo) * 8 - attacker / 8
    }

    /// `score` (the capture's MVV-LVA score), or the score of a capture that loses the
    /// exchange on its square (it goes last) where it does.
    #[inline]
    fn exchange_checked(&self, pos: &Position, mv: Move, score: i32) -> i32 {
        if mv.promo != 0 {
            return score;
        }
        let victim = self.victim_value(pos, mv);
        let mover = self.see.by_code[pos.piece_at(mv.from).index()];
        if mover > victim && !see::see_ge(pos, mv, 0, &self.see) {
            let attacker = self.eval.order_values[kind_of(pos.piece_at(mv.from))];
            SCORE_BAD_CAPTURE + victim * 8 - attacker / 8
        } else {
            score
        }
    }

    /// The history of a quiet move (`piece * 256 + to`) at `ply`: its own history plus its
    /// continuation histories after the moves one and two plies before.
    #[inline]
    fn quiet_score(&self, ply: usize, key: usize) -> i32 {
        let mut s = self.history[key];
        if !self.cont_history {
            return s;
        }
        for (i, t) in self.cont.iter().enumerate() {
            if let Some(p) = ply.checked_sub(i + 1)
                && self.plies[p].cur != NO_MOVE
            {
                s += t[cont_index(self.plies[p].cur, key)] as i32;
            }
        }
        s
    }

    /// Adds `bonus` to the history and continuation histories of a quiet move at `ply`.
    #[inline]
    fn bump_quiet(&mut self, ply: usize, piece: Code, mv: Move, bonus: i32) {
        let key = history_key(piece, mv.to);
        let h = &mut self.history[key];
        *h += 32 * bonus - *h * bonus.abs() / 512;
        *h = (*h).clamp(-HISTORY_MAX, HISTORY_MAX);
        if !self.cont_history {
            return;
        }
        for i in 0..2 {
            if let Some(p) = ply.checked_sub(i + 1)
                && self.plies[p].cur != NO_MOVE
            {
                let c = &mut self.cont[i][cont_index(self.plies[p].cur, key)];
                let v = *c as i32 + 32 * bonus - *c as i32 * bonus.abs() / 512;
                *c = v.clamp(-16_384, 16_384) as i16;
            }
        }
    }

    /// The counter move stored for the move that led to `ply` (none at the root).
    #[inline]
    fn counter_move(&self, ply: usize) -> Move {
        match ply.checked_sub(1).map(|p| self.plies[p].cur) {
            Some(c) if c != NO_MOVE => self.counter[c],
            _ => Move::default(),
        }
    }

    /// Moves the best-scored move from `i..` to `i` and returns it. A capture scored by
    /// MVV-LVA alone ([`Searcher::score_moves`]) has its exchange run when it comes up
    /// first: where it loses, it takes its final score and the pick looks again.
    #[inline]
    fn pick(&self, pos: &Position, moves: &mut MoveList, scores: &mut [i32], i: usize) -> Move {
        let ms = moves.as_mut_slice();
        loop {
            let mut best = i;
            for j in i + 1..ms.len() {
                if scores[j] > scores[best] {
                    best = j;
                }
            }
            let s = scores[best];
            if s > SCORE_KILLER && s < SCORE_HASH {
                let checked = self.exchange_checked(pos, ms[best], s);
                if checked != s {
                    scores[best] = checked;
                    continue;
                }
            }
            ms.swap(i, best);
            scores.swap(i, best);
            return ms[i];
        }
    }

    /// Makes `mv` if it is legal; returns whether it was made.
    #[inline]
    fn make_legal(pos: &mut Position, mv: Move) -> bool {
        pos.make_if_legal(mv)
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let n = self.pv_len[ply + 1].min(MAX_PLY);
        head[ply][0] = mv;
        head[ply][1..=n].copy_from_slice(&tail[0][..n]);
        self.pv_len[ply] = n + 1;
    }

    /// The root: legal moves only, in the order kept between iterations, from `first` on
    /// (the moves before it are earlier MultiPV lines).
    fn root(
        &mut self,
        pos: &mut Position,
        depth: i32,
        first: usize,
        mut alpha: i32,
        beta: i32,
    ) -> i32 {
        let mut best = -INF;
        self.pv_len[0] = 0;
        for i in first..self.root_moves.len() {
            let mv = self.root_moves[i];
            self.plies[0].cur = history_key(pos.mover(mv), mv.to);
            pos.make(mv);
            self.nodes += 1;
            let check = pos.in_check();
            self.plies[1].check_known = Some(check);
            let nd = depth - 1 + check as i32;
            let score = if i == first {
                -self.negamax(pos, nd, -beta, -alpha, 1)
            } else {
                let mut s = -self.negamax(pos, nd, -alpha - 1, -alpha, 1);
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(pos, nd, -beta, -alpha, 1);
                }
                s
            };
            pos.unmake();
            self.plies[1].check_known = None;
            if self.aborted {
                return best;
            }
            self.root_scores[i] = score;
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.iter_best = Some(mv);
                    self.update_pv(0, mv);
                    if score >= beta {
                        return score;
                    }
                }
            }
        }
        best
    }

    #[expect(
        clippy::too_many_lines,
        reason = "the search's hot path; its pruning steps share the node's locals, in order"
    )]
    fn negamax(
        &mut self,
        pos: &mut Position,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.should_stop() {
            return 0;
        }
        if let Some(s) = self.ending_score(pos, ply) {
            return s;
        }
        if ply >= MAX_PLY - 2 {
            return self.static_eval(pos);
        }
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }
        let in_check = self.plies[ply]
            .check_known
            .unwrap_or_else(|| pos.in_check());
        self.plies[ply].in_check = in_check;
        if depth <= 0 && !in_check {
            return self.qsearch(pos, alpha, beta, ply, 0, None);
        }
        depth = depth.max(1);
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        let pv_node = beta - alpha > 1;
        let key = pos.hash();

        let excluded = self.plies[ply].excluded;
        let excluding = excluded != Move::default();
        let mut tt_move = Move::default();
        let mut static_eval = None;
        let mut tt_hit = None;
        if let Some(e) = self.tt.probe(key) {
            tt_move = e.mv;
            static_eval = (e.eval != NO_EVAL).then_some(e.eval as i32);
            let s = from_tt(e.score as i32, ply);
            tt_hit = Some((s, e.depth as i32, e.bound));
            if !pv_node && !excluding && e.depth as i32 >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => s >= beta,
                    Bound::Upper => s <= alpha,
                    Bound::None => false,
                };
                if cut {
                    return s;
                }
            }
        }
        // The static evaluation as computed (what the table keeps), and as corrected by what
        // searches found below positions with the same structure (what the search uses).
        let (raw_eval, eval) = if in_check {
            (-INF, -INF)
        } else {
            let raw = static_eval.unwrap_or_else(|| self.cached_eval(pos));
            (raw, self.corrected(pos, raw))
        };
        self.plies[ply].eval = eval;
        // The hash's score, where its bound says it is nearer the truth than the static
        // evaluation, stands in for it in the pruning decisions below (the static evaluation
        // itself is what the improving flag compares and what the table keeps).
        let prune_eval = match tt_hit {
            Some((s, _, bound)) if !in_check && s.abs() < MATE_BOUND => match bound {
                Bound::Exact => s,
                Bound::Lower if s > eval => s,
                Bound::Upper if s < eval => s,
                _ => eval,
            },
            _ => eval,
        };
        // Improving: the static evaluation is better than two plies ago (or four, when the
        // side was in check then). Pruning is bolder where it is not.
        let improving = !in_check && {
            let back = |n: usize| ply.checked_sub(n).map(|p| self.plies[p].eval);
            match back(2) {
                Some(e) if e != -INF => eval > e,
                _ => back(4).is_none_or(|e| e == -INF || eval > e),
            }
        };

        // Reverse futility: far above beta near the horizon.
        if !pv_node
            && !excluding
            && !in_check
            && depth <= 4
            && beta.abs() < MATE_BOUND
            && prune_eval - 110 * (depth - improving as i32) >= beta
        {
            return prune_eval;
        }
        // Razoring: far below alpha at the horizon's edge, the quiescence search decides
        // whether any capture brings the score back.
        if !pv_node
            && !excluding
            && !in_check
            && depth <= 2
            && alpha.abs() < MATE_BOUND
            && prune_eval + RAZOR_MARGIN * depth <= alpha
        {
            let s = self.qsearch(pos, alpha, alpha + 1, ply, 0, None);
            if self.aborted {
                return 0;
            }
            if s <= alpha {
                return s;
            }
        }
        // Null move: let the opponent move twice; if a reduced search still fails high, this
        // node is good enough. Not in check, not twice in a row, and only with pieces beyond
        // royal and pawn-like ones (zugzwang is common without them).
        if !pv_node
            && !excluding
            && !in_check
            && depth >= 3
            && prune_eval >= beta
            && beta.abs() < MATE_BOUND
            && !pos.last_was_null()
            && self.has_officers(pos)
        {
            // Deeper searches and larger leads over beta reduce more.
            let r = 3 + depth / 4 + ((prune_eval - beta) / 200).min(3);
            self.plies[ply].cur = NO_MOVE;
            pos.make_null();
            let s = -self.negamax(pos, depth - 1 - r, -beta, -beta + 1, ply + 1);
            pos.unmake();
            if self.aborted {
                return 0;
            }
            if s >= beta {
                return if s >= MATE_BOUND { beta } else { s };
            }
        }
        // Without a hash move, deep nodes are searched a ply shallower.
        if depth >= 6 && tt_move == Move::default() {
            depth -= 1;
        }
        // Singular extension: when the hash move's stored lower bound is far above what every
        // other move reaches in a search of half the depth, the hash move is extended (two
        // plies outside PV nodes when far enough); when even the others reach beta, the node
        // fails high at once (multi-cut); when they do not but the hash move's bound is at or
        // above beta, the hash move is searched a ply shallower. `tt_ext` is that extension.
        let mut tt_ext = 0;
        if let Some((tt_score, tt_depth, bound)) = tt_hit
            && ply > 0
            && !excluding
            && depth >= SINGULAR_DEPTH
            && tt_move != Move::default()
            && matches!(bound, Bound::Lower | Bound::Exact)
            && tt_depth >= depth - 3
            && tt_score.abs() < MATE_BOUND
        {
            let s_beta = tt_score - SINGULAR_MARGIN * depth;
            self.plies[ply].excluded = tt_move;
            let s = self.negamax(pos, (depth - 1) / 2, s_beta - 1, s_beta, ply);
            self.plies[ply].excluded = Move::default();
            if self.aborted {
                return 0;
            }
            if s < s_beta {
                tt_ext = if !pv_node && s < s_beta - SINGULAR_DOUBLE_MARGIN {
                    2
                } else {
                    1
                };
            } else if s_beta >= beta {
                return s_beta;
            } else if tt_score >= beta {
                tt_ext = -1;
            }
            self.plies[ply].eval = eval;
            self.plies[ply].in_check = in_check;
        }

        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        let mut scores = std::mem::take(&mut self.plies[ply].scores);
        pos.pseudo_legal_moves(&mut moves);
        self.score_moves(pos, &moves, &mut scores, tt_move, ply, false);
        // A capture as the hash move: the quiet moves after it are reduced a ply more.
        let tt_capture = tt_move != Move::default() && is_tactical(pos, tt_move);

        let orig_alpha = alpha;
        let mut best = -INF;
        let mut best_move = Move::default();
        let mut legal = 0;
        let mut quiets_seen = 0;
        let extend_ok = (ply as i32) < 2 * self.root_depth;
        let may_prune = !pv_node && !in_check && depth <= 3;
        let lmp_limit = (!pv_node && !in_check && depth <= LMP_DEPTH)
            .then(|| (3 + depth * depth) / (2 - improving as i32));
        let killers = self.plies[ply].killers;
        let counter = self.counter_move(ply);
        let mut i = 0;
        while i < moves.len() {
            let mv = self.pick(pos, &mut moves, &mut scores, i);
            i += 1;
            if excluding && mv == excluded {
                continue;
            }
            let tactical = is_tactical(pos, mv);
            let piece = pos.mover(mv);
            if !tactical {
                quiets_seen += 1;
                // Late move pruning: near the horizon, past a number of quiet moves, the
                // remaining quiet moves are not searched.
                if lmp_limit.is_some_and(|n| quiets_seen > n) && legal > 0 && best > -MATE_BOUND {
                    let mut k = i;
                    for j in i..moves.len() {
                        let m = moves.as_slice()[j];
                        if is_tactical(pos, m) {
                            moves.as_mut_slice()[k] = m;
                            scores[k] = scores[j];
                            k += 1;
                        }
                    }
                    moves.truncate(k);
                    scores.truncate(k);
                    continue;
                }
            }
            // SEE pruning: near the horizon, captures that lose material in the exchange on
            // their square (beyond a margin growing with depth) are not searched. (Quiet
            // moves are not tested: running the probes for each cost more than it saved.)
            if !pv_node
                && !in_check
                && depth <= SEE_PRUNE_DEPTH
                && legal > 0
                && best > -MATE_BOUND
                && mv.promo == 0
                && tactical
                && !see::see_ge(pos, mv, -SEE_CAPTURE_MARGIN * depth, &self.see)
            {
                continue;
            }
            // Futility and history: near the horizon, quiet moves far below alpha, and quiet
            // moves (not killers or the counter move) whose history says they keep failing,
            // are searched only when they give check.
            let prunable = may_prune
                && !tactical
                && legal > 0
                && best > -MATE_BOUND
                && (prune_eval + 100 + 120 * depth <= alpha
                    || (mv != killers[0]
                        && mv != killers[1]
                        && mv != counter
                        && self.quiet_score(ply, history_key(piece, mv.to))
                            < -HISTORY_PRUNE * depth));
            if prunable {
                if mv.is_rule_made() || !pos.make_if_legal(mv) {
                    continue;
                }
                if !pos.in_check() {
                    pos.unmake();
                    continue;
                }
            } else if !Self::make_legal(pos, mv) {
                continue;
            }
            legal += 1;
            self.plies[ply].cur = history_key(piece, mv.to);
            let gives_check = prunable || pos.in_check();
            self.plies[ply + 1].check_known = Some(gives_check);
            let quiet = !tactical && !gives_check;
            // A capture that loses material in the exchange on its square (ordered last).
            let bad_capture = tactical && !gives_check && scores[i - 1] < 0;
            let ext = if mv == tt_move && tt_ext < 0 && !gives_check {
                -1
            } else if !extend_ok {
                0
            } else if mv == tt_move && tt_ext > 0 {
                tt_ext
            } else {
                gives_check as i32
            };
            let nd = depth - 1 + ext;
            let score = if legal == 1 {
                -self.negamax(pos, nd, -beta, -alpha, ply + 1)
            } else {
                let mut r = 0;
                // Reduced from the second move on, in PV nodes from the third: quiet moves,
                // and captures that lose material (by the table alone).
                if depth >= 3 && (quiet || bad_capture) && !in_check && legal > 1 + pv_node as i32 {
                    r = self.lmr[(depth as usize).min(63)][(legal as usize).min(63)] as i32;
                    if pv_node {
                        r -= 1;
                    }
                    if quiet {
                        if mv == self.plies[ply].killers[0] || mv == self.plies[ply].killers[1] {
                            r -= 1;
                        }
                        if !improving {
                            r += 1;
                        }
                        if tt_capture {
                            r += 1;
                        }
                        // Quiet moves with a good history are reduced less, bad ones more
                        // (with continuation histories, their sum).
                        let per_ply = if self.cont_history {
                            LMR_HISTORY
                        } else {
                            LMR_HISTORY_PLAIN
                        };
                        r -= self.quiet_score(ply, history_key(piece, mv.to)) / per_ply;
                    }
                    r = r.clamp(0, nd - 1);
                }
                let mut s = -self.negamax(pos, nd - r, -alpha - 1, -alpha, ply + 1);
                if s > alpha && r > 0 && !self.aborted {
                    s = -self.negamax(pos, nd, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta && !self.aborted {
                    s = -self.negamax(pos, nd, -beta, -alpha, ply + 1);
                }
                s
            };
            pos.unmake();
            self.plies[ply + 1].check_known = None;
            if self.aborted {
                self.plies[ply].moves = moves;
                self.plies[ply].scores = scores;
                return 0;
            }
            if score > best {
                best = score;
                best_move = mv;
                if score > alpha {
                    alpha = score;
                    if pv_node {
                        self.update_pv(ply, mv);
                    }
                    if score >= beta {
                        if !tactical {
                            let k = &mut self.plies[ply].killers;
                            if k[0] != mv {
                                k[1] = k[0];
                                k[0] = mv;
                            }
                            if let Some(c) = ply.checked_sub(1).map(|p| self.plies[p].cur)
                                && c != NO_MOVE
                            {
                                self.counter[c] = mv;
                            }
                            let bonus = (depth * depth).min(400);
                            self.bump_quiet(ply, piece, mv, bonus);
                            // Quiet moves tried before it were worse.
                            for j in 0..i - 1 {
                                let m = moves.as_slice()[j];
                                if m != excluded && !is_tactical(pos, m) {
                                    self.bump_quiet(ply, pos.mover(m), m, -bonus);
                                }
                            }
                        }
                        break;
                    }
                }
            }
        }
        self.plies[ply].moves = moves;
        self.plies[ply].scores = scores;

        if legal == 0 {
            // With the one move left out, alpha stands: the left-out move is there.
            if excluding {
                return alpha;
            }
            return self.no_move_score(pos, in_check, ply);
        }
        if excluding {
            return best;
        }
        let bound = Bound::of(best, orig_alpha, beta);
        // The correction learns from a quiet result that says more than the static
        // evaluation: not in check, no capture as the best move, and a bound on the right side.
        if !in_check
            && (best_move == Move::default() || !is_tactical(pos, best_move))
            && best.abs() < MATE_BOUND
            && !(bound == Bound::Lower && best <= eval)
            && !(bound == Bound::Upper && best >= eval)
        {
            self.learn_correction(pos, best - raw_eval, depth);
        }
        let ev = if in_check { NO_EVAL as i32 } else { raw_eval };
        self.tt
            .store(key, best_move, to_tt(best, ply), ev, depth, bound);
        best
    }

    /// The slot of `pos` in the correction history.
    #[inline]
    fn correction_slot(pos: &Position) -> usize {
        pos.side().index() * CORR_SIZE + (pos.structure_hash() as usize & (CORR_SIZE - 1))
    }

    /// `raw`, the static evaluation of `pos`, corrected by the correction history.
    #[inline]
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        let c = self.correction[Self::correction_slot(pos)] / CORR_GRAIN;
        (raw + c).clamp(-eval::EVAL_LIMIT, eval::EVAL_LIMIT)
    }

    /// Moves the correction of `pos` toward `error` (a search's score less the raw static
    /// evaluation), the more the deeper the search was.
    #[inline]
    fn learn_correction(&mut self, pos: &Position, error: i32, depth: i32) {
        let w = (depth + 1).min(16);
        let target = error.clamp(-CORR_MAX, CORR_MAX) * CORR_GRAIN;
        let e = &mut self.correction[Self::correction_slot(pos)];
        *e = (*e * (256 - w) + target * w) / 256;
    }

    /// The static evaluation through a small cache keyed by the hash.
    #[inline]
    fn cached_eval(&mut self, pos: &Position) -> i32 {
        let key = pos.hash();
        let slot = key as usize & (EVAL_CACHE - 1);
        let e = self.eval_cache[slot];
        if e.0 == key {
            return e.1;
        }
        let v = self.static_eval(pos);
        self.eval_cache[slot] = (key, v);
        v
    }

    /// Quiescence: captures and promotions until the position is quiet; check evasions in
    /// the first plies. Its tree is bounded whatever the pieces: from [`QS_RECAPTURES`]
    /// plies on only captures on the square of the last move are tried, at [`QS_MAX`]
    /// plies the static evaluation is the answer, and so it is once [`QS_BUDGET`] nodes
    /// have been spent below the main-search leaf. (Boards crowded with multi-capture pieces
    /// otherwise make capture trees of unbounded breadth and length.)
    #[expect(
        clippy::too_many_lines,
        reason = "the quiescence search's hot path; its cut-offs share the node's locals"
    )]
    fn qsearch(
        &mut self,
        pos: &mut Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: u32,
        last_to: Option<Square>,
    ) -> i32 {
        self.pv_len[ply] = 0;
        if self.should_stop() {
            return 0;
        }
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        if qdepth == 0 {
            self.qs_left = QS_BUDGET;
        }
        self.qs_left = self.qs_left.saturating_sub(1);
        if ply >= MAX_PLY - 2 {
            return self.static_eval(pos);
        }
        if qdepth > 0
            && let Some(s) = self.ending_score(pos, ply)
        {
            return s;
        }
        let key = pos.hash();
        let mut static_eval = None;
        if let Some(e) = self.tt.probe(key) {
            let s = from_tt(e.score as i32, ply);
            static_eval = (e.eval != NO_EVAL).then_some(e.eval as i32);
            let cut = match e.bound {
                Bound::Exact => true,
                Bound::Lower => s >= beta,
                Bound::Upper => s <= alpha,
                Bound::None => false,
            };
            if cut {
                return s;
            }
        }
        // The first quiescence ply is entered only out of check; look for evasions in the
        // next one.
        let in_check = qdepth == 1 && pos.in_check();
        self.plies[ply].in_check = in_check;
        let raw_stand = if in_check {
            -INF
        } else if let Some(e) = static_eval {
            e
        } else {
            // Lazy evaluation: far above beta, the cheap terms decide.
            let slot = pos.hash() as usize & (EVAL_CACHE - 1);
            if self.eval_cache[slot].0 == pos.hash() {
                self.eval_cache[slot].1
            } else if self.net.is_some() {
                self.cached_eval(pos)
            } else {
                let fast = self.eval.evaluate_fast(pos);
                if fast - eval::LAZY_MARGIN >= beta {
                    return fast - eval::LAZY_MARGIN;
                }
                self.cached_eval(pos)
            }
        };
        let stand = if in_check {
            raw_stand
        } else {
            self.corrected(pos, raw_stand)
        };
        if stand >= beta || ((qdepth >= QS_MAX || self.qs_left == 0) && !in_check) {
            return stand;
        }
        let orig_alpha = alpha;
        let mut best_move = Move::default();
        let mut best = stand;
        if stand > alpha {
            alpha = stand;
        }

        let mut moves = std::mem::take(&mut self.plies[ply].moves);
        let mut scores = std::mem::take(&mut self.plies[ply].scores);
        if in_check {
            pos.pseudo_legal_moves(&mut moves);
        } else {
            pos.tactical_moves(&mut moves);
        }
        if !in_check {
            match last_to {
                Some(sq) if qdepth >= QS_RECAPTURES => {
                    moves.retain(|&m| m.to == sq && is_capture(pos, m))
                }
                _ => moves.retain(|&m| is_tactical(pos, m)),
            }
        }
        self.score_moves(pos, &moves, &mut scores, Move::default(), ply, false);
        let mut legal = 0;
        let n = moves.len();
        for i in 0..n {
            let mv = self.pick(pos, &mut moves, &mut scores, i);
            if !in_check {
                // Captures that lose material to a defended square, and captures that cannot
                // bring the score near alpha, are not searched.
                if scores[i] < 0 {
                    break;
                }
                if mv.promo == 0 {
                    let victim = if mv.kind == MoveKind::EnPassant {
                        100
                    } else {
                        taken_value(&self.eval, pos, mv)
                    };
                    if stand + victim + 200 < alpha {
                        continue;
                    }
                }
            }
            if !Self::make_legal(pos, mv) {
                continue;
            }
            legal += 1;
            let score = -self.qsearch(pos, -beta, -alpha, ply + 1, qdepth + 1, Some(mv.to));
            pos.unmake();
            if self.aborted {
                self.plies[ply].moves = moves;
                self.plies[ply].scores = scores;
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    best_move = mv;
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        self.plies[ply].moves = moves;
        self.plies[ply].scores = scores;
        if in_check && legal == 0 {
            return self.no_move_score(pos, true, ply);
        }
        // Kept in the table at depth 0, below every main-search entry: the bound and the
        // static evaluation spare the next visit its work.
        let bound = Bound::of(best, orig_alpha, beta);
        // A tree cut short by the budget is not kept.
        if self.qs_left > 0 {
            let ev = if in_check { NO_EVAL as i32 } else { raw_stand };
            self.tt
                .store(key, best_move, to_tt(best, ply), ev, 0, bound);
        }
        best
    }
}

/// The key of a move in the history tables: `piece * 256 + to`.
#[inline]
fn history_key(piece: Code, to: Square) -> usize {
    piece.index() * 256 + to.index()
}

/// The slot of the move pair (`prev`, `cur`), each `piece * 256 + to`, in a continuation
/// history table (a multiplicative hash of the 32-bit pair).
#[inline]
fn cont_index(prev: usize, cur: usize) -> usize {
    let k = ((prev as u64) << 16 | cur as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (k >> (64 - CONT_SIZE.trailing_zeros())) as usize
}

/// The factor on the soft time limit of a clock search: from 0.8 when the best move has
/// stayed the same for several iterations up to 2 when it changed in the last ones
/// (`instability`: each change counts 1, halved at every iteration), a third more when the
/// last iteration's score fell by more than 30 centipawns. The hard limit still applies.
fn soft_scale(instability: f64, fell: bool) -> f64 {
    let s = 0.8 + 0.8 * instability;
    (if fell { s * 1.3 } else { s }).clamp(0.8, 2.0)
}

/// Searches `pos` with a fresh searcher (a 16 MB hash table) and returns the best move.
pub fn best_move(pos: &mut Position, limits: &Limits) -> Option<Move> {
    let mut s = Searcher::new(pos.rules(), 16);
    s.search(pos, limits, |_| {}).best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_correction_follows_the_search_per_structure_and_side() {
        let v = crate::variant::Variant::load("chess").unwrap();
        let rules = Arc::new(Ruleset::new(&v, None).unwrap());
        let mut s = Searcher::new(&rules, 1);
        let start = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        let pos = Position::from_fen(&rules, start).unwrap();
        // The same pawns, other pieces elsewhere: the same slot.
        let moved = Position::from_fen(
            &rules,
            "r1bqkbnr/pppppppp/2n5/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 3",
        )
        .unwrap();
        let pawn = Position::from_fen(
            &rules,
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 1",
        )
        .unwrap();
        let black = Position::from_fen(&rules, &start.replace(" w ", " b ")).unwrap();
        assert_eq!(s.corrected(&pos, 10), 10);
        // Deep searches that keep finding 40 centipawns more: the correction nears +40.
        for _ in 0..200 {
            s.learn_correction(&pos, 40, 12);
        }
        let c = s.corrected(&pos, 10) - 10;
        assert!((38..=40).contains(&c), "{c}");
        assert_eq!(s.corrected(&moved, 10) - 10, c);
        assert_eq!(s.corrected(&pawn, 10), 10);
        assert_eq!(s.corrected(&black, 10), 10);
        // An error past the cap moves it no further than the cap.
        for _ in 0..200 {
            s.learn_correction(&pos, -5_000, 12);
        }
        let c = s.corrected(&pos, 0);
        assert!((-CORR_MAX..=-CORR_MAX + 2).contains(&c), "{c}");
        // A shallow search moves it less than a deep one.
        let mut shallow = Searcher::new(&rules, 1);
        let mut deep = Searcher::new(&rules, 1);
        shallow.learn_correction(&pos, 100, 1);
        deep.learn_correction(&pos, 100, 12);
        assert!(
            shallow.correction[Searcher::correction_slot(&pos)]
                < deep.correction[Searcher::correction_slot(&pos)]
        );
        // A new game forgets it.
        s.clear();
        assert_eq!(s.corrected(&pos, 0), 0);
    }

    #[test]
    fn unstable_best_moves_stretch_the_soft_limit() {
        // Stable: the least; one change in the last iteration: more; a falling score: more
        // again; never beyond twice.
        assert_eq!(soft_scale(0.0, false), 0.8);
        assert!(soft_scale(1.0, false) > soft_scale(0.25, false));
        assert!(soft_scale(0.5, true) > soft_scale(0.5, false));
        assert_eq!(soft_scale(5.0, true), 2.0);
    }
}
