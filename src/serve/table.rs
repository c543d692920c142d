//! One browser tab's game ([`Table`]): the game's session and what the page adds to it.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::geometry::Color;
use crate::moves::Move;
use crate::search::{Limits, Score, Searcher};
use crate::session::{Reason, Session, TimeControl};
use crate::variant::Variant;

use super::*;
use super::{analysis::*, review::ReviewState, state::*};

/// The live report of a search.
#[derive(Clone, Debug, Default)]
pub(super) struct EngineReport {
    pub(super) depth: u32,
    /// From the side that searched.
    pub(super) score: Option<Score>,
    pub(super) searched_for: Option<Color>,
    pub(super) nodes: u64,
    pub(super) pv: Vec<String>,
}

/// A position of a game: its rules (by address), its start and the moves played from it.
pub(super) type PositionKey = (usize, String, Vec<Move>);

/// The legal moves listed for the position `key`, if any.
fn listed<'a>(
    lists: &'a [(PositionKey, Vec<Move>)],
    key: (usize, &str, &[Move]),
) -> Option<&'a [Move]> {
    lists
        .iter()
        .find(|((r, f, m), _)| *r == key.0 && f == key.1 && m.as_slice() == key.2)
        .map(|(_, l)| l.as_slice())
}

/// Whom an address of a shared game (`/api/invite`) is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Role {
    /// A player: moves for that side only.
    Seat(Color),
    /// A spectator: sees every move, makes none.
    Watch,
}

/// One browser tab's game: the game's session and what the page adds to it (who plays each
/// side, the engine, the analysis).
pub(super) struct Table {
    /// The game: its moves, clocks and ending.
    pub(super) game: Session,
    pub(super) players: [Player; 2],
    pub(super) movetime: Option<Duration>,
    pub(super) depth: Option<u32>,
    /// The engine, made when it first searches; `None` while a search thread has it, and
    /// dropped (with its hash table) when the game sleeps or goes.
    pub(super) searcher: Option<Searcher>,
    /// Set from the start of a search thread until it hands the searcher back.
    pub(super) searching: bool,
    /// The latest search thread.
    pub(super) thread: Option<std::thread::JoinHandle<()>>,
    /// Evicted: no engine starts again.
    pub(super) closed: bool,
    /// Unused for a while: the engine stopped and its memory went; the next request wakes it.
    pub(super) asleep: bool,
    /// Set while the engine searches.
    pub(super) stop: Option<Arc<AtomicBool>>,
    /// Whether a stopped search's move should be played.
    pub(super) play_when_stopped: bool,
    /// Bumped by every change of the game; a search started under another value is discarded.
    pub(super) generation: u64,
    /// The engine waits for `go` (after a `stop` without play).
    pub(super) paused: bool,
    pub(super) report: EngineReport,
    /// The time control, when the game is timed (see [`clock`] for the untimed clocks).
    pub(super) control: Option<TimeControl>,
    /// A node limit for the engine's search (a named level).
    pub(super) nodes: Option<u64>,
    /// The analysis of a position of the game, while asked for.
    pub(super) analysis: AnalysisState,
    /// The review of the game, while asked for.
    pub(super) review: ReviewState,
    /// Once the game is shared: each of its addresses (session ids) and whom it is for.
    pub(super) roles: Vec<(String, Role)>,
    /// The address that shared the game: only its page is given the others.
    pub(super) host: Option<String>,
    /// Counts the requests that changed the game (see [`Table::version`]).
    pub(super) changes: u64,
    /// The move list last sent ([`history_json`]), with the start and moves it was made for:
    /// the page asks for the state several times a second, and SAN needs the legal moves.
    pub(super) history_cache: Option<(String, Vec<Move>, Vec<Value>)>,
    /// The legal moves of the last two positions listed (the one before the last move and
    /// the current one), each with its key: every layer (the state's list, the move the page
    /// picks from it, the move list's SAN) reads them, so a position's moves are generated
    /// once.
    pub(super) legal_lists: Vec<(PositionKey, Vec<Move>)>,
    pub(super) last_use: Instant,
    /// The variant file uploaded for this game, to reload PGN games of it.
    pub(super) variant: Arc<Variant>,
    /// The last states sent, by address and version (see [`state_since`]).
    pub(super) sent: std::collections::VecDeque<(String, String, Value)>,
    /// The server's mark that memory was freed, set when this game's analysis or review
    /// thread ends (its engine's tables go with it), so that the allocator gives them back.
    pub(super) freed: Arc<AtomicBool>,
}

impl Table {
    pub(super) fn new(
        mut game: Session,
        variant: Arc<Variant>,
        control: Option<TimeControl>,
    ) -> Table {
        clock::start(&mut game, control, Instant::now());
        Table {
            game,
            players: [Player::Human, Player::Engine],
            movetime: Some(Duration::from_secs(2)),
            depth: None,
            searcher: None,
            searching: false,
            thread: None,
            closed: false,
            asleep: false,
            stop: None,
            play_when_stopped: false,
            generation: 0,
            paused: false,
            report: EngineReport::default(),
            control,
            nodes: None,
            analysis: AnalysisState::default(),
            review: ReviewState::default(),
            roles: Vec::new(),
            host: None,
            changes: 0,
            history_cache: None,
            legal_lists: Vec::new(),
            last_use: Instant::now(),
            variant,
            freed: Arc::new(AtomicBool::new(false)),
            sent: std::collections::VecDeque::new(),
        }
    }

    /// Whom the address `sid` is for; none: the game's own tab, which may do anything.
    pub(super) fn role(&self, sid: &str) -> Option<Role> {
        self.roles.iter().find(|(s, _)| s == sid).map(|r| r.1)
    }

    /// A number that changes whenever what the page shows of the game does: its moves and
    /// result, the requests that changed it, the engine's report, the analysis and the
    /// review (`/api/wait` answers when it changes). A side whose time is up loses first.
    pub(super) fn version(&mut self) -> u64 {
        use std::hash::{Hash, Hasher};
        self.check_flag();
        let mut h = std::collections::hash_map::DefaultHasher::new();
        (self.changes, self.generation, self.game.moves().len()).hash(&mut h);
        (self.stop.is_some(), self.paused, self.report.depth).hash(&mut h);
        self.report.pv.first().hash(&mut h);
        let a = &self.analysis;
        (a.ply, a.lines.len(), a.lines.first().map(|l| l.depth)).hash(&mut h);
        a.worker.stop.is_some().hash(&mut h);
        (self.review.evals.len(), self.review.worker.stop.is_some()).hash(&mut h);
        h.finish() >> 12
    }

    pub(super) fn thinking(&self) -> bool {
        self.stop.is_some()
    }

    /// Stops the engine and the analysis for good and frees the engine; their threads, if any,
    /// are given back to be joined (each ends at its next look at its stop flag).
    pub(super) fn retire(&mut self) -> Vec<std::thread::JoinHandle<()>> {
        self.closed = true;
        self.cancel_search();
        self.analysis.cancel();
        // The analysis worker, waiting for work, ends now.
        self.analysis.wake.notify_all();
        self.review.cancel(true);
        self.searcher = None;
        self.thread
            .take()
            .into_iter()
            .chain(self.analysis.worker.thread.take())
            .chain(self.review.worker.thread.take())
            .collect()
    }

    /// Abandons a running search (its move will not be played).
    pub(super) fn cancel_search(&mut self) {
        if let Some(s) = self.stop.take() {
            s.store(true, Ordering::Relaxed);
        }
        self.play_when_stopped = false;
        self.generation += 1;
    }

    pub(super) fn over(&mut self) -> bool {
        self.game.is_over()
    }

    /// Whether the clocks run: once each side has made its first move.
    pub(super) fn clocks_run(&self) -> bool {
        self.game.moves().len() >= 2
    }

    /// Whether the game was lost on time (then no move is taken back).
    pub(super) fn lost_on_time(&mut self) -> bool {
        self.control.is_some()
            && self
                .game
                .verdict()
                .is_some_and(|v| v.reason == Reason::TimeForfeit)
    }

    /// Charges the time since the turn started to the side to move, and ends the game when
    /// that side has run out of time; the server is the judge of time, so this is asked on
    /// every request and before every engine move. Before each side's first move the clocks
    /// stand still: the turn starts again now.
    pub(super) fn check_flag(&mut self) {
        let now = Instant::now();
        if !self.clocks_run() {
            self.game.start_turn(now);
            return;
        }
        if self.game.charge_until(now).is_some() {
            self.cancel_search();
        }
    }

    /// The rules of the game, by address (a key of its positions).
    fn rules_key(&self) -> usize {
        Arc::as_ptr(self.game.rules()) as usize
    }

    /// The legal moves of the current position, generated once per position (the state's
    /// list, the move the page picks from it, the game's check of the move played and the
    /// move list's SAN share them).
    pub(super) fn legal(&mut self) -> Vec<Move> {
        let start = self.game.start_position().fen();
        let rules = self.rules_key();
        if let Some(l) = listed(&self.legal_lists, (rules, &start, self.game.moves())) {
            return l.to_vec();
        }
        let l = self.game.legal_moves();
        if self.legal_lists.len() >= 2 {
            self.legal_lists.remove(0);
        }
        self.legal_lists
            .push(((rules, start, self.game.moves().to_vec()), l.clone()));
        l
    }

    /// The move list for the page: a move played adds its entry, a move taken back takes
    /// its entry away; made anew only for another game.
    pub(super) fn history(&mut self) -> Vec<Value> {
        let start = self.game.start_position().fen();
        if let Some((f, m, h)) = &mut self.history_cache
            && *f == start
        {
            let now = self.game.moves();
            if now.starts_with(m) {
                if now.len() > m.len() {
                    let mut pos = self.game.position_at(m.len()).expect("an earlier position");
                    let rules = Arc::as_ptr(self.game.rules()) as usize;
                    for at in m.len()..now.len() {
                        // The SAN reads the moves listed before and after the move, if any.
                        let legal = listed(&self.legal_lists, (rules, f, &now[..at]));
                        let replies = listed(&self.legal_lists, (rules, f, &now[..=at]));
                        h.push(move_json_listed(&mut pos, now[at], legal, replies));
                    }
                    *m = now.to_vec();
                }
                return h.clone();
            }
            if m.starts_with(now) {
                h.truncate(now.len());
                *m = now.to_vec();
                return h.clone();
            }
        }
        let h = history_json(&self.game);
        self.history_cache = Some((start, self.game.moves().to_vec(), h.clone()));
        h
    }

    pub(super) fn limits(&self) -> Limits {
        let side = self.game.side_to_move();
        let clock = self.control.map(|c| crate::search::Clock {
            remaining: self
                .game
                .remaining_at(side, Instant::now())
                .unwrap_or_default(),
            increment: c.increment,
            moves_to_go: None,
        });
        Limits {
            depth: self.depth,
            nodes: self.nodes,
            movetime: self.movetime,
            clock,
        }
    }

    /// A new position or game: everything about the old one goes; the clocks start again
    /// with the same time control.
    pub(super) fn reset_with(&mut self, mut game: Session) {
        self.cancel_search();
        if !Arc::ptr_eq(game.rules(), self.game.rules()) {
            // Made anew for the new rules when the engine next searches.
            self.searcher = None;
        }
        clock::start(&mut game, self.control, Instant::now());
        self.game = game;
        self.report = EngineReport::default();
        self.paused = false;
        self.analysis.cancel();
        self.review.cancel(true);
    }
}
