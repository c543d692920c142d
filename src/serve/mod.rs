//! `polymachy serve`: a local web page for playing every variant in a browser.
//!
//! The page (`web/index.html`, `web/app.js`, `web/style.css`) is embedded in the binary, so
//! nothing is downloaded and nothing is built on the user's side. The HTTP server is hyper on
//! a single-threaded tokio runtime, with a few worker threads for the API (see the `http`
//! module for its limits and for who may ask); JSON through `serde_json`.
//!
//! **Sessions.** Each browser tab starts its own game with `POST /api/new` and gets a session
//! id that it sends with every later request; games never mix between tabs. A tab's game is a
//! [`crate::session::Session`], as in every other front-end: it reads the moves sent, judges
//! and plays them, takes them back, keeps the clocks and decides how the game ends; the
//! server adds who plays each side, the engine and the analysis. At most
//! [`MAX_SESSIONS`] games are kept: the least recently used goes first (its engine stops and
//! its thread is waited for), but never one used in the last [`IN_PLAY`]; where every game is
//! in play, a new game is refused (503) until one is not. A game unused for a while sleeps: its engine stops and frees its
//! memory, and the next request for the game wakes it. An uploaded variant file may include
//! only the built-in evaluation tables and networks; the server's own files are never read
//! for a page.
//!
//! **The engine** searches on a thread of its own, never on the request thread. The session
//! keeps the live search report (depth, score, principal variation), which the page polls.
//! `POST /api/stop` ends a search: with `"play": true` the best move found so far is played,
//! otherwise the search is abandoned and the engine waits for `POST /api/go`.
//!
//! **Clocks.** A game started with `clock_ms` (and `increment_ms`) is timed: the server
//! keeps each side's time (the session's clocks) and is the judge of it; a side whose time is
//! up loses when the game is next asked about (the page asks every half second while a clock
//! runs). The clocks stand still until each side has made its first move, and a game lost on
//! time is not taken back. An untimed game shows each side's time used (see the `clock` module). Taking moves
//! back sets the clocks back to what they were before them.
//!
//! **Bad requests** (malformed JSON, missing fields, illegal moves, unknown variants, a body
//! over [`MAX_BODY`] bytes, an unknown session) get a 4xx status with `{"error": "..."}` and
//! change nothing.
//!
//! The API (every body and answer is JSON unless said otherwise):
//!
//! | request | does |
//! |---|---|
//! | `GET /` `/app.js` `/style.css` | the page |
//! | `GET /api/variants` | the built-in variants (id, name, size, setups) and the server's default |
//! | `POST /api/new` | `{variant?, toml?, setup?, fen?, white?, black?, movetime_ms?, depth?, nodes?, clock_ms?, increment_ms?}` → `{sid, state}` |
//! | `GET /api/state?sid=S` | the game's state: board, legal moves (with words for moves that share squares), history, clocks, analysis |
//! | `GET /api/position?sid=S&ply=N` | the board after the first N moves (for viewing an earlier position) |
//! | `POST /api/analyse` | `{sid, ply?, lines?, depth?, off?}`: analysis lines of a position of the game, shown in the state (a whole set of lines of one depth: a deeper set replaces it when all its lines are in) |
//! | `GET /api/variant?sid=S` | the variant: its setups, its rules as `{name, text}`, and its pieces, each with name, letter, XBetza, glyph, `image` (SVG), `words` (the movement in words), promotions and movement diagram |
//! | `POST /api/move` | `{sid, move}`: a move in coordinates (`e1e3`, `e11e12q`) or SAN |
//! | `POST /api/undo` | `{sid}`: takes back one move (against the engine: back to the human's turn), clocks included; refused after a loss on time |
//! | `POST /api/rematch` | `{sid}` → `{sid, state}`: a new game with the same settings, the colours swapped |
//! | `POST /api/options` | `{sid, white?, black?, movetime_ms?, depth?, nodes?}` |
//! | `POST /api/go` | `{sid}`: the engine moves for the side to move |
//! | `POST /api/stop` | `{sid, play?}`: ends the engine's search |
//! | `POST /api/resign` | `{sid, side?}`: that side (default: the side to move) resigns |
//! | `POST /api/draw` | `{sid}`: claims a draw; granted by the variant's rules or, between humans, by agreement |
//! | `POST /api/fen` | `{sid, fen}`: a new game from a position of the same variant |
//! | `POST /api/pgn` | `{sid, pgn}`: loads a game (variant from its `Variant` tag, or the session's) |
//! | `GET /api/pgn?sid=S` | the game as PGN (text) |

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::geometry::{Color, Geometry, Square};
use crate::moves::{EMPTY, Move, MoveKind};
use crate::position::Position;
use crate::position::Ruleset;
use crate::search::{Limits, Score, Searcher};
use crate::session::{Reason, Session, TimeControl, parse_pgn};
use crate::tables::Shape;
use crate::variant::Variant;

pub mod analysis;
pub mod clock;
pub mod glyph;
mod http;
pub mod pieces;

pub use http::{BODY_TIMEOUT, HEADER_TIMEOUT, MAX_CONNECTIONS, WORKERS, serve};

/// The largest request body accepted (a variant file or a PGN), in bytes.
pub const MAX_BODY: usize = 256 * 1024;
/// The most games kept at once.
pub const MAX_SESSIONS: usize = 32;
/// A game used this recently is in play: a new game never pushes it out.
pub const IN_PLAY: Duration = Duration::from_secs(10);
/// How long a game may go unused before it sleeps (see [`Server::sweep`]).
pub const DEFAULT_SLEEP_AFTER: Duration = Duration::from_secs(60);
/// How long an analysis without a depth runs.
pub const ANALYSIS_TIME: Duration = Duration::from_secs(30);
/// Hash table of each session's engine, in megabytes.
const HASH_MB: usize = 16;

pub(crate) const INDEX_HTML: &str = include_str!("../../web/index.html");
pub(crate) const APP_JS: &str = include_str!("../../web/app.js");
pub(crate) const STYLE_CSS: &str = include_str!("../../web/style.css");

/// Who moves for a side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at the page makes the side's moves.
    Human,
    /// The engine makes them.
    Engine,
}

impl Player {
    fn name(self) -> &'static str {
        match self {
            Player::Human => "human",
            Player::Engine => "engine",
        }
    }

    fn parse(v: &Value, what: &str) -> Result<Option<Player>, ApiError> {
        match v {
            Value::Null => Ok(None),
            Value::String(s) if s == "human" => Ok(Some(Player::Human)),
            Value::String(s) if s == "engine" => Ok(Some(Player::Engine)),
            _ => Err(bad(format!("{what} must be \"human\" or \"engine\""))),
        }
    }
}

/// A request that cannot be served: status and message.
#[derive(Debug)]
pub struct ApiError {
    /// The HTTP status answered (400, 404, 413, 503…).
    pub status: u16,
    /// What went wrong, for the page to show.
    pub message: String,
}

fn bad(message: impl Into<String>) -> ApiError {
    ApiError {
        status: 400,
        message: message.into(),
    }
}

fn conflict(message: impl Into<String>) -> ApiError {
    ApiError {
        status: 409,
        message: message.into(),
    }
}

/// The live report of a search.
#[derive(Clone, Debug, Default)]
struct EngineReport {
    depth: u32,
    /// From the side that searched.
    score: Option<Score>,
    searched_for: Option<Color>,
    nodes: u64,
    pv: Vec<String>,
}

/// One analysis line, from the analysed position's side to move.
#[derive(Clone, Debug)]
struct LineReport {
    depth: u32,
    score: Score,
    pv: Vec<Move>,
}

/// The analysis of one position of the game.
#[derive(Default)]
struct AnalysisState {
    /// The ply analysed (0: the start position).
    ply: Option<usize>,
    /// The lines shown: a whole set, all of one depth.
    lines: Vec<LineReport>,
    /// The lines of the depth being searched, shown once all [`AnalysisState::want`] are in.
    pending: Vec<LineReport>,
    /// How many lines make a whole set: those asked for, or fewer when the position has
    /// fewer legal moves.
    want: usize,
    /// Set while the analysis runs.
    stop: Option<Arc<AtomicBool>>,
    /// Bumped by every new analysis or cancel; a thread of another value reports nothing.
    generation: u64,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl AnalysisState {
    /// Stops the analysis and forgets it.
    fn cancel(&mut self) {
        if let Some(s) = self.stop.take() {
            s.store(true, Ordering::Relaxed);
        }
        self.generation += 1;
        self.ply = None;
        self.lines.clear();
        self.pending.clear();
    }
}

/// One browser tab's game: the game's session and what the page adds to it (who plays each
/// side, the engine, the analysis).
struct Table {
    /// The game: its moves, clocks and ending.
    game: Session,
    players: [Player; 2],
    movetime: Option<Duration>,
    depth: Option<u32>,
    /// The engine, made when it first searches; `None` while a search thread has it, and
    /// dropped (with its hash table) when the game sleeps or goes.
    searcher: Option<Searcher>,
    /// Set from the start of a search thread until it hands the searcher back.
    searching: bool,
    /// The latest search thread.
    thread: Option<std::thread::JoinHandle<()>>,
    /// Evicted: no engine starts again.
    closed: bool,
    /// Unused for a while: the engine stopped and its memory went; the next request wakes it.
    asleep: bool,
    /// Set while the engine searches.
    stop: Option<Arc<AtomicBool>>,
    /// Whether a stopped search's move should be played.
    play_when_stopped: bool,
    /// Bumped by every change of the game; a search started under another value is discarded.
    generation: u64,
    /// The engine waits for `go` (after a `stop` without play).
    paused: bool,
    report: EngineReport,
    /// The time control, when the game is timed (see [`clock`] for the untimed clocks).
    control: Option<TimeControl>,
    /// A node limit for the engine's search (a named level).
    nodes: Option<u64>,
    /// The analysis of a position of the game, while asked for.
    analysis: AnalysisState,
    /// The move list last sent ([`history_json`]), with the start and moves it was made for:
    /// the page asks for the state several times a second, and SAN needs the legal moves.
    history_cache: Option<(String, Vec<Move>, Vec<Value>)>,
    last_use: Instant,
    /// The variant file uploaded for this game, to reload PGN games of it.
    variant: Arc<Variant>,
}

/// All games.
pub struct Server {
    sessions: Mutex<HashMap<String, Arc<Mutex<Table>>>>,
    counter: AtomicU64,
    seed: u64,
    /// The variant and setup `serve` was started with.
    default_variant: String,
    default_setup: Option<String>,
    /// A game unused this long sleeps: its engine stops and frees its memory.
    sleep_after: Duration,
    /// Set when memory was freed (a game evicted or asleep, a connection closed).
    freed: AtomicBool,
    /// The compiled rules of named variants, by name and setup.
    compiled: Mutex<HashMap<(String, Option<String>), Compiled>>,
}

/// A variant and its compiled rules.
type Compiled = (Arc<Variant>, Arc<Ruleset>);
/// The most compiled variants kept.
const MAX_COMPILED: usize = 32;

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn side_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn sq_name(g: Geometry, sq: Square) -> String {
    g.name(sq).to_string()
}

impl Table {
    fn new(mut game: Session, variant: Arc<Variant>, control: Option<TimeControl>) -> Table {
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
            history_cache: None,
            last_use: Instant::now(),
            variant,
        }
    }

    fn thinking(&self) -> bool {
        self.stop.is_some()
    }

    /// Stops the engine and the analysis for good and frees the engine; their threads, if any,
    /// are given back to be joined (each ends at its next look at its stop flag).
    fn retire(&mut self) -> Vec<std::thread::JoinHandle<()>> {
        self.closed = true;
        self.cancel_search();
        self.analysis.cancel();
        self.searcher = None;
        self.thread
            .take()
            .into_iter()
            .chain(self.analysis.thread.take())
            .collect()
    }

    /// Abandons a running search (its move will not be played).
    fn cancel_search(&mut self) {
        if let Some(s) = self.stop.take() {
            s.store(true, Ordering::Relaxed);
        }
        self.play_when_stopped = false;
        self.generation += 1;
    }

    fn over(&mut self) -> bool {
        self.game.is_over()
    }

    /// Whether the clocks run: once each side has made its first move.
    fn clocks_run(&self) -> bool {
        self.game.moves().len() >= 2
    }

    /// Whether the game was lost on time (then no move is taken back).
    fn lost_on_time(&mut self) -> bool {
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
    fn check_flag(&mut self) {
        let now = Instant::now();
        if !self.clocks_run() {
            self.game.start_turn(now);
            return;
        }
        if self.game.charge_until(now).is_some() {
            self.cancel_search();
        }
    }

    /// The move list for the page, made anew only when the game changed.
    fn history(&mut self) -> Vec<Value> {
        let start = self.game.start_position().fen();
        if let Some((f, m, h)) = &self.history_cache
            && *f == start
            && m.as_slice() == self.game.moves()
        {
            return h.clone();
        }
        let h = history_json(&self.game);
        self.history_cache = Some((start, self.game.moves().to_vec(), h.clone()));
        h
    }

    fn limits(&self) -> Limits {
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
    fn reset_with(&mut self, mut game: Session) {
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
    }
}

/// Lowers the calling thread's scheduling priority, so that searches never slow the answers
/// to requests.
fn lower_priority() {
    #[cfg(target_os = "linux")]
    // SAFETY: setpriority only reads its arguments; on Linux, `who = 0` is the calling thread.
    unsafe {
        libc::setpriority(libc::PRIO_PROCESS, 0, 19);
    }
}

/// Starts the engine when it is to move and idle.
fn maybe_start_engine(sess_arc: &Arc<Mutex<Table>>, force: bool) {
    let mut s = lock(sess_arc);
    if s.closed || s.asleep || s.thinking() || s.over() || s.searching {
        return;
    }
    let side = s.game.side_to_move();
    if !force && (s.paused || s.players[side.index()] != Player::Engine) {
        return;
    }
    let mut searcher = match s.searcher.take() {
        Some(x) => x,
        None => Searcher::new(s.game.rules(), HASH_MB),
    };
    s.paused = false;
    let stop = Arc::new(AtomicBool::new(false));
    searcher.set_stop_flag(stop.clone());
    s.play_when_stopped = false;
    s.report = EngineReport {
        searched_for: Some(side),
        ..EngineReport::default()
    };
    let generation = s.generation;
    let rules_at_start = s.game.rules().clone();
    let limits = s.limits();
    let mut pos = s.game.position().clone();
    let arc = sess_arc.clone();
    let thread_stop = stop.clone();
    // Spawned under the session's lock, so that whoever retires the game finds this thread.
    let spawned = std::thread::Builder::new()
        .name("engine".into())
        .spawn(move || {
            lower_priority();
            let stop = thread_stop;
            // While the generation holds, the game's position is the one searched.
            let r = searcher.search(&mut pos, &limits, |info| {
                let mut s = lock(&arc);
                if s.generation != generation {
                    return;
                }
                s.report.depth = info.depth;
                s.report.score = Some(info.score);
                s.report.nodes = info.nodes;
                s.report.pv = pv_san(&s.game, &info.pv);
            });
            let mut s = lock(&arc);
            s.searching = false;
            // The searcher goes back unless the game changed to another variant meanwhile (then
            // the new game makes its own), or went to sleep or away (then it is freed).
            let keep = s.searcher.is_none()
                && !s.closed
                && !s.asleep
                && Arc::ptr_eq(&rules_at_start, s.game.rules());
            let spare = if keep {
                s.searcher = Some(searcher);
                None
            } else {
                Some(searcher)
            };
            if s.generation != generation {
                // The game changed meanwhile; perhaps the engine is to move in the new one.
                drop(s);
                drop(spare);
                maybe_start_engine(&arc, false);
                return;
            }
            let stopped = stop.load(Ordering::Relaxed);
            s.stop = None;
            if stopped && !s.play_when_stopped {
                s.paused = true;
                return;
            }
            s.report.nodes = r.nodes;
            if r.depth > 0 {
                s.report.depth = r.depth;
                s.report.score = Some(r.score);
                s.report.pv = pv_san(&s.game, &r.pv);
            }
            // The time is charged, and the move refused when the engine's flag fell.
            s.check_flag();
            if let Some(mv) = r.best
                && s.game.play(mv).is_ok()
            {
                s.generation += 1;
            }
            drop(s);
            drop(spare);
            maybe_start_engine(&arc, false);
        });
    match spawned {
        Ok(handle) => {
            s.stop = Some(stop);
            s.searching = true;
            // The previous thread, if any, has handed its searcher back and is ending.
            s.thread = Some(handle);
        }
        // No thread to be had: the engine waits for `go` (the searcher was moved into the
        // closure that failed to start, so a new one is made next time).
        Err(_) => s.paused = true,
    }
}

/// The most moves of a principal variation shown.
const PV_SHOWN: usize = 12;

/// A principal variation from the current position of `game` in the SAN-like form, cut where a
/// move is not legal.
fn pv_san(game: &Session, pv: &[Move]) -> Vec<String> {
    game.san_line(&pv[..pv.len().min(PV_SHOWN)])
}

/// A score as text: `+0.35`, `#3`.
fn score_text(s: Score) -> String {
    s.to_string()
}

fn negate(s: Score) -> Score {
    match s {
        Score::Cp(c) => Score::Cp(-c),
        Score::Mate(m) => Score::Mate(-m),
    }
}

/// Every square's piece letter, a1 first, rank by rank (`files × ranks` entries): `""` for an
/// empty square and for a hole.
fn board_json(pos: &Position) -> Vec<String> {
    let rules = pos.rules();
    let g = rules.geometry;
    (0..g.size())
        .map(|i| {
            let sq = Square::from_index(i);
            let c = if g.is_hole(sq) {
                EMPTY
            } else {
                pos.piece_at(sq)
            };
            if c == EMPTY {
                String::new()
            } else {
                rules.letter(c).to_string()
            }
        })
        .collect()
}

/// The moves of the game for the move list: SAN, squares, and whether each captured or checked.
fn history_json(game: &Session) -> Vec<Value> {
    let g = game.rules().geometry;
    game.played()
        .into_iter()
        .map(|p| {
            json!({"san": p.san, "from": sq_name(g, p.mv.from), "to": sq_name(g, p.mv.to),
                   "capture": p.capture, "check": p.check})
        })
        .collect()
}

/// What the page draws besides squares and pieces (the variant's `[display]` table): whether
/// pieces stand on points, the corner squares of each rectangle crossed by diagonals, and the
/// rank (from 1) below the river.
fn display_json(d: &crate::variant::Display, g: &Geometry) -> Value {
    let diagonals: Vec<Value> = d
        .diagonals
        .iter()
        .map(|&[f0, r0, f1, r1]| {
            json!({"from": g.name(g.square(f0, r0)).to_string(),
                   "to": g.name(g.square(f1, r1)).to_string()})
        })
        .collect();
    json!({"points": d.points, "diagonals": diagonals, "river": d.river})
}

/// One position for the page: board, FEN, side to move, the move that led there, check.
fn position_json(pos: &Position, last: Option<Move>) -> Value {
    let g = pos.rules().geometry;
    let side = pos.side();
    let check = if pos.in_check() {
        pos.royal_square(side).map(|sq| sq_name(g, sq))
    } else {
        None
    };
    // Pieces in hand, per side: [letter, count] for each kind held (games with drops).
    let rules = pos.rules();
    let hand = |c: Color| -> Vec<Value> {
        (0..rules.variant.pieces.len())
            .filter(|&k| pos.hand(c, k) > 0)
            .map(|k| json!([rules.variant.pieces[k].letter.to_string(), pos.hand(c, k)]))
            .collect()
    };
    json!({
        "board": board_json(pos),
        "fen": pos.fen(),
        "side": side_name(side),
        "last": last.map(|m| json!({"from": drop_or_square(pos.rules(), m), "to": sq_name(g, m.to)})),
        "check": check,
        "hands": rules.hands.then(|| json!({"white": hand(Color::White), "black": hand(Color::Black)})),
    })
}

/// Where a move comes from for the page: its square, or `@L` for a drop of the piece `L`.
fn drop_or_square(rules: &Ruleset, m: Move) -> String {
    match m.dropped() {
        Some(k) => format!("@{}", rules.variant.pieces[k].letter),
        None => sq_name(rules.geometry, m.from),
    }
}

/// What a legal move is, in words, where several moves share a from and a to square.
fn move_words(rules: &Ruleset, m: Move) -> String {
    if let Some(k) = m.promotion() {
        return rules.variant.pieces[k].name.clone();
    }
    if rules.special_for(m).is_some() {
        return "castle".into();
    }
    match m.kind {
        MoveKind::EnPassant => "take en passant".into(),
        MoveKind::Drop => "drop".into(),
        MoveKind::Rule => rules
            .hooks
            .get(m.aux as usize)
            .map_or("step", |h| h.move_word())
            .into(),
        _ => "step".into(),
    }
}

/// A score from White's side, for the evaluation bar: centipawns (mates as ±100000).
fn white_cp(score: Score, side: Color) -> i64 {
    let cp = match score {
        Score::Cp(c) => c as i64,
        Score::Mate(m) if m > 0 => 100_000 - m as i64,
        Score::Mate(m) => -100_000 - m as i64,
    };
    if side == Color::White { cp } else { -cp }
}

/// The analysis for the page: the ply analysed and its lines, scores from White's side.
fn analysis_json(s: &Table) -> Value {
    let Some((ply, pos)) = s
        .analysis
        .ply
        .and_then(|ply| Some((ply, s.game.position_at(ply)?)))
    else {
        return Value::Null;
    };
    let g = pos.rules().geometry;
    let side = pos.side();
    let at = Session::from_position(pos);
    let lines: Vec<Value> = s
        .analysis
        .lines
        .iter()
        .map(|l| {
            let white = if side == Color::White {
                l.score
            } else {
                negate(l.score)
            };
            json!({
                "depth": l.depth,
                "score": score_text(white),
                "cp": white_cp(l.score, side),
                "pv": pv_san(&at, &l.pv),
                "from": l.pv.first().map(|m| sq_name(g, m.from)),
                "to": l.pv.first().map(|m| sq_name(g, m.to)),
            })
        })
        .collect();
    json!({"ply": ply, "running": s.analysis.stop.is_some(), "lines": lines})
}

/// The game's state for the page.
fn state_json(sid: &str, s: &mut Table) -> Value {
    s.check_flag();
    let rules = s.game.rules().clone();
    let g = rules.geometry;
    let pos = s.game.position().clone();
    let verdict = s.game.verdict();
    let over = verdict.is_some();
    let legal: Vec<Value> = if over {
        Vec::new()
    } else {
        s.game
            .legal_moves()
            .iter()
            .map(|&m| {
                json!({
                    "from": drop_or_square(&rules, m),
                    "to": sq_name(g, m.to),
                    "promo": m.promotion().map(|k| rules.variant.pieces[k].letter.to_string()),
                    "uci": s.game.coord(m),
                    "words": move_words(&rules, m),
                })
            })
            .collect()
    };
    let side = pos.side();
    let result = verdict.map(|v| json!({"result": v.result.pgn(), "reason": v.to_string()}));
    // Every score on the page is from one side, White's, as the evaluation bar is.
    let view = Color::White;
    let score = match (s.report.score, s.report.searched_for) {
        (Some(sc), Some(by)) => {
            let sc = if by == view { sc } else { negate(sc) };
            Some(score_text(sc))
        }
        _ => None,
    };
    let history = s.history();
    let running = (!over && s.clocks_run()).then_some(side);
    let can_undo = !s.game.moves().is_empty() && !s.lost_on_time();
    let start = s.game.start_position();
    let mut out = position_json(&pos, s.game.last_move());
    let fields = json!({
        "sid": sid,
        "variant": {"id": rules.variant.id, "name": rules.variant.title,
                    "files": g.files, "ranks": g.ranks,
                    "holes": rules.variant.holes.iter().map(|&h| g.name(h).to_string()).collect::<Vec<_>>(),
                    "display": display_json(&rules.variant.display, &g)},
        "setup": rules.setup,
        "legal": legal,
        "start": {"number": start.fullmove_number(), "side": side_name(start.side()), "fen": start.fen()},
        "moves": history.iter().map(|h| h["san"].clone()).collect::<Vec<_>>(),
        "history": history,
        "result": result,
        "can_undo": can_undo,
        "players": {"white": s.players[0].name(), "black": s.players[1].name()},
        "movetime_ms": s.movetime.map(|d| d.as_millis() as u64),
        "depth": s.depth,
        "nodes": s.nodes,
        "engine": {
            "thinking": s.thinking(),
            "paused": s.paused,
            "depth": s.report.depth,
            "nodes": s.report.nodes,
            "score": score,
            "score_view": side_name(view),
            "pv": s.report.pv,
        },
        "clocks": clock::json(&s.game, s.control, running, Instant::now()),
        "analysis": analysis_json(s),
    });
    if let (Some(o), Value::Object(f)) = (out.as_object_mut(), fields) {
        o.extend(f);
    }
    out
}

/// Starts (or, with `"off": true`, stops) the analysis of a position of the game
/// (`/api/analyse`: `{sid, ply?, lines?, depth?, off?}`; the ply defaults to the current one).
fn analyse(arc: &Arc<Mutex<Table>>, body: &Value) -> Result<(), ApiError> {
    let mut s = lock(arc);
    s.analysis.cancel();
    if body.get("off") == Some(&Value::Bool(true)) {
        return Ok(());
    }
    let plies = s.game.moves().len();
    let number = |key: &str, max: u64, default: u64| -> Result<u64, ApiError> {
        match body.get(key) {
            None | Some(Value::Null) => Ok(default),
            Some(v) => v
                .as_u64()
                .filter(|n| (1..=max).contains(n))
                .ok_or_else(|| bad(format!("`{key}` must be a whole number from 1 to {max}"))),
        }
    };
    let ply = match body.get("ply") {
        None | Some(Value::Null) => plies,
        Some(v) => v
            .as_u64()
            .filter(|&p| p as usize <= plies)
            .ok_or_else(|| bad(format!("`ply` must be a whole number from 0 to {plies}")))?
            as usize,
    };
    let lines = number("lines", 5, analysis::LINES as u64)? as usize;
    // Without a depth, an analysis runs for [`ANALYSIS_TIME`] (or until stopped).
    let depth = match body.get("depth") {
        None | Some(Value::Null) => None,
        Some(_) => Some(number("depth", analysis::MAX_DEPTH as u64, 1)? as u32),
    };
    let mut pos = s
        .game
        .position_at(ply)
        .ok_or_else(|| bad(format!("`ply` must be a whole number from 0 to {plies}")))?;
    let legal = Session::from_position(pos.clone()).legal_moves().len();
    s.analysis.want = lines.min(legal).max(1);
    let stop = Arc::new(AtomicBool::new(false));
    s.analysis.ply = Some(ply);
    s.analysis.stop = Some(stop.clone());
    let generation = s.analysis.generation;
    let rules = s.game.rules().clone();
    let old = s.analysis.thread.take();
    let arc2 = arc.clone();
    let spawned = std::thread::Builder::new()
        .name("analysis".into())
        .spawn(move || {
            if let Some(t) = old {
                let _ = t.join();
            }
            lower_priority();
            let mut searcher = Searcher::new(&rules, HASH_MB / 2);
            searcher.set_stop_flag(stop.clone());
            let limits = Limits {
                depth,
                movetime: depth.is_none().then_some(ANALYSIS_TIME),
                ..Limits::default()
            };
            analysis::search_lines(&mut searcher, &mut pos, &limits, lines, &stop, |k, info| {
                let mut s = lock(&arc2);
                if s.analysis.generation != generation {
                    return;
                }
                let line = LineReport {
                    depth: info.depth,
                    score: info.score,
                    pv: info.pv.clone(),
                };
                // A deeper iteration's lines replace the shallower ones when all are in, so
                // that the page always shows the same number of lines, all of one depth.
                let a = &mut s.analysis;
                if k == 1 {
                    a.pending.clear();
                }
                if k == a.pending.len() + 1 {
                    a.pending.push(line);
                }
                if a.pending.len() >= a.want {
                    a.lines = std::mem::take(&mut a.pending);
                }
            });
            let mut s = lock(&arc2);
            if s.analysis.generation == generation {
                s.analysis.stop = None;
            }
        });
    match spawned {
        Ok(h) => s.analysis.thread = Some(h),
        Err(_) => s.analysis.cancel(),
    }
    Ok(())
}

/// One earlier position of the game (`GET /api/position?sid=S&ply=N`).
fn ply_json(s: &Table, query: &str) -> Result<Value, ApiError> {
    let plies = s.game.moves().len();
    let (ply, pos) = query
        .split('&')
        .find_map(|kv| kv.strip_prefix("ply="))
        .and_then(|p| p.parse::<usize>().ok())
        .and_then(|p| Some((p, s.game.position_at(p)?)))
        .ok_or_else(|| bad(format!("`ply` must be a whole number from 0 to {plies}")))?;
    let last = ply.checked_sub(1).map(|i| s.game.moves()[i]);
    let mut v = position_json(&pos, last);
    v["ply"] = json!(ply);
    Ok(v)
}

/// Where a piece of `kind` may go from the square nearest the centre of an empty board: `m`
/// it moves there (without capturing), `c` it captures there, `h` it gets there by hopping over
/// another piece (a screen, absent from the empty board, so drawn as a possibility); the
/// letters combine (`mc`: moves or captures, `mh`: moves there, or hops there to capture). Computed from the
/// compiled move tables, so it shows exactly what the generator does. Moves added by rule
/// hooks (castling, the king's leap) are not part of the piece's own movement.
pub fn diagram(rules: &Ruleset, kind: usize) -> (Square, Vec<(Square, &'static str)>) {
    let g = rules.geometry;
    let from = g.square((g.files - 1) / 2, (g.ranks - 1) / 2);
    let mut marks: HashMap<Square, u8> = HashMap::new();
    const M: u8 = 1;
    const C: u8 = 2;
    const H: u8 = 4;
    for e in rules.tables.entries_at(kind, Color::White, from) {
        let squares = rules.tables.squares_of(e);
        let needs_screen = rules.tables.conds_of(e).iter().any(|c| c.occupied);
        let mut bits = 0;
        let modes = e.modes();
        if modes.quiet {
            bits |= M;
        }
        if modes.capture {
            bits |= C;
        }
        if bits == 0 {
            continue;
        }
        let shape = e.shape();
        if shape == Shape::Leap {
            if let Some(&sq) = squares.first() {
                let b = if needs_screen { H } else { bits };
                *marks.entry(sq).or_default() |= b;
            }
        } else if matches!(shape, Shape::Hop | Shape::Grass) {
            // Destinations beyond a screen: every square but the first could be one.
            let reach = if shape == Shape::Grass {
                2
            } else {
                squares.len()
            };
            for &sq in squares.iter().take(reach).skip(1) {
                *marks.entry(sq).or_default() |= H;
            }
        } else {
            for &sq in squares {
                let b = if needs_screen { H } else { bits };
                *marks.entry(sq).or_default() |= b;
            }
        }
    }
    let mut out: Vec<(Square, &'static str)> = marks
        .into_iter()
        .map(|(sq, b)| {
            let label = match (b & M != 0, b & C != 0, b & H != 0) {
                (true, true, false) => "mc",
                (true, true, true) => "mch",
                (true, false, false) => "m",
                (true, false, true) => "mh",
                (false, true, false) => "c",
                (false, true, true) => "ch",
                _ => "h",
            };
            (sq, label)
        })
        .collect();
    out.sort();
    (from, out)
}

/// The variant's pieces for the page.
fn variant_json(rules: &Ruleset) -> Value {
    let g = rules.geometry;
    let named: Vec<(char, &str)> = rules
        .variant
        .pieces
        .iter()
        .map(|p| (p.letter, p.name.as_str()))
        .collect();
    let glyphs = glyph::glyphs(&named);
    let images = pieces::images(&named);
    let pieces: Vec<Value> = rules
        .variant
        .pieces
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let (from, marks) = diagram(rules, k);
            json!({
                "name": p.name,
                "letter": p.letter.to_string(),
                "betza": p.betza_text,
                "canonical": p.betza.to_string(),
                "royal": p.royal,
                "glyph": glyphs[k],
                "image": images[k],
                "words": rules.variant.piece_words(k),
                "promotes_to": p.promotes_to.iter().map(|&q| rules.variant.pieces[q].letter.to_string()).collect::<Vec<_>>(),
                "diagram": {
                    "from": sq_name(g, from),
                    "squares": marks.iter().map(|(sq, l)| json!([sq_name(g, *sq), l])).collect::<Vec<_>>(),
                },
            })
        })
        .collect();
    let setups = setups_json(&rules.variant);
    json!({
        "id": rules.variant.id,
        "name": rules.variant.title,
        "description": rules.variant.description,
        "files": g.files,
        "ranks": g.ranks,
        "setup": rules.setup,
        "setups": setups,
        "rules": rules.hooks.iter().map(|h| json!({"name": h.name(), "text": h.explain(rules)})).collect::<Vec<_>>(),
        "pieces": pieces,
    })
}

/// The setup choices of a variant: every arrangement of the default's pieces on the setup
/// squares (24 in Metamachy), each named by its letters and, where the variant file numbers
/// it, by its number too. Over six squares only the variant's own list is given.
fn setups_json(v: &Variant) -> Vec<Value> {
    let named: Vec<(String, String)> = v.rules.iter().flat_map(|r| r.setups()).collect();
    let Some((_, default)) = named.iter().find(|(n, _)| n == "default") else {
        return Vec::new();
    };
    let number_of = |letters: &str| {
        named
            .iter()
            .find(|(n, t)| n != "default" && t == letters)
            .map(|(n, _)| n.clone())
    };
    let mut all: Vec<String> = Vec::new();
    if default.chars().count() <= 6 {
        fn permute(rest: &mut Vec<char>, cur: &mut String, out: &mut Vec<String>) {
            if rest.is_empty() {
                if !out.contains(cur) {
                    out.push(cur.clone());
                }
                return;
            }
            for i in 0..rest.len() {
                let c = rest.remove(i);
                cur.push(c);
                permute(rest, cur, out);
                cur.pop();
                rest.insert(i, c);
            }
        }
        permute(&mut default.chars().collect(), &mut String::new(), &mut all);
    } else {
        all = named.iter().map(|(_, t)| t.clone()).collect();
        all.dedup();
    }
    all.iter()
        .map(|t| json!({"letters": t, "number": number_of(t), "default": t == default}))
        .collect()
}

/// The built-in variants, and the one `serve` was started with (`default`; `builtin` false
/// when it is a file of the operator's, which a page starts by sending no variant name).
fn variants_json(default: &str) -> Value {
    let entry = |v: &Variant| {
        json!({"id": v.id, "name": v.title, "files": v.files, "ranks": v.ranks,
               "description": v.description, "setups": setups_json(v)})
    };
    let list: Vec<Value> = crate::variant::BUILTIN
        .iter()
        .filter_map(|(n, _)| Variant::load(n).ok())
        .map(|v| entry(&v))
        .collect();
    let builtin = crate::variant::BUILTIN.iter().any(|(b, _)| *b == default);
    let mut d = Variant::load(default).map_or(Value::Null, |v| entry(&v));
    if let Some(o) = d.as_object_mut() {
        o.insert("builtin".into(), json!(builtin));
    }
    json!({ "variants": list, "default": d })
}

/// A string field, or `None` when absent or null.
fn opt_str<'a>(body: &'a Value, key: &str) -> Result<Option<&'a str>, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(format!("`{key}` must be a string"))),
    }
}

fn req_str<'a>(body: &'a Value, key: &str) -> Result<&'a str, ApiError> {
    opt_str(body, key)?.ok_or_else(|| bad(format!("missing `{key}`")))
}

/// A setting a request may leave out (`None`), clear (`Some(None)`) or set.
type Change<T> = Option<Option<T>>;

/// Engine settings from a request.
struct EngineSettings {
    movetime: Change<Duration>,
    depth: Change<u32>,
    nodes: Change<u64>,
}

impl EngineSettings {
    /// Applies the settings given to a session; refused when the engine would be left with
    /// no limit at all.
    fn apply(self, s: &mut Table) -> Result<(), ApiError> {
        let mt = self.movetime.unwrap_or(s.movetime);
        let depth = self.depth.unwrap_or(s.depth);
        let nodes = self.nodes.unwrap_or(s.nodes);
        if mt.is_none() && depth.is_none() && nodes.is_none() {
            return Err(bad(
                "give the engine a time per move, a depth or a node count",
            ));
        }
        (s.movetime, s.depth, s.nodes) = (mt, depth, nodes);
        Ok(())
    }
}

/// Engine settings from a request: `movetime_ms` (1..=600000), `depth` (1..=64) and `nodes`
/// (1..=10^9).
fn engine_settings(body: &Value) -> Result<EngineSettings, ApiError> {
    let num = |key: &str, max: u64| -> Result<Option<Option<u64>>, ApiError> {
        match body.get(key) {
            None => Ok(None),
            Some(Value::Null) => Ok(Some(None)),
            Some(v) => match v.as_u64() {
                Some(n) if (1..=max).contains(&n) => Ok(Some(Some(n))),
                _ => Err(bad(format!(
                    "`{key}` must be a whole number from 1 to {max}"
                ))),
            },
        }
    };
    Ok(EngineSettings {
        movetime: num("movetime_ms", 600_000)?.map(|o| o.map(Duration::from_millis)),
        depth: num("depth", 64)?.map(|o| o.map(|n| n as u32)),
        nodes: num("nodes", 1_000_000_000)?,
    })
}

/// The time control of a new game: `clock_ms` (base, 1 s to 3 h) and `increment_ms` (0 to
/// 10 min); none when `clock_ms` is absent or null.
fn time_control(body: &Value) -> Result<Option<TimeControl>, ApiError> {
    let base = match body.get("clock_ms") {
        None | Some(Value::Null) => return Ok(None),
        Some(v) => v
            .as_u64()
            .filter(|n| (1_000..=10_800_000).contains(n))
            .ok_or_else(|| bad("`clock_ms` must be a whole number from 1000 to 10800000"))?,
    };
    let inc = match body.get("increment_ms") {
        None | Some(Value::Null) => 0,
        Some(v) => v
            .as_u64()
            .filter(|&n| n <= 600_000)
            .ok_or_else(|| bad("`increment_ms` must be a whole number from 0 to 600000"))?,
    };
    Ok(Some(TimeControl {
        base: Duration::from_millis(base),
        increment: Duration::from_millis(inc),
    }))
}

/// Loads a variant by name or from TOML text.
fn load_variant(
    name: Option<&str>,
    toml: Option<&str>,
    fallback: &str,
) -> Result<Variant, ApiError> {
    match (name, toml) {
        (_, Some(text)) => {
            Variant::from_untrusted_toml(text, "uploaded file").map_err(|e| ApiError {
                status: 422,
                message: e.to_string(),
            })
        }
        // Only built-in names: a page must not make the server read files.
        (Some(n), None) => Variant::builtin_named(n).ok_or_else(|| ApiError {
            status: 404,
            message: format!(
                "unknown variant `{n}` (known: {})",
                crate::variant::BUILTIN
                    .iter()
                    .map(|(b, _)| *b)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
        (None, None) => Variant::load(fallback).map_err(|e| bad(e.to_string())),
    }
}

impl Server {
    /// A server whose new games default to `variant` (a built-in name or a file path given on
    /// the command line, checked here) and `setup`.
    pub fn new(variant: &str, setup: Option<&str>) -> Result<Server, String> {
        let v = Variant::load(variant).map_err(|e| e.to_string())?;
        Ruleset::new(&v, setup)?;
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos() as u64)
            .unwrap_or(0)
            ^ (std::process::id() as u64) << 32;
        Ok(Server {
            sessions: Mutex::new(HashMap::new()),
            counter: AtomicU64::new(1),
            seed,
            default_variant: variant.to_string(),
            default_setup: setup.map(str::to_string),
            sleep_after: DEFAULT_SLEEP_AFTER,
            freed: AtomicBool::new(false),
            compiled: Mutex::new(HashMap::new()),
        })
    }

    /// Games unused for `d` sleep (see [`Server::sweep`]).
    pub fn with_sleep_after(mut self, d: Duration) -> Server {
        self.sleep_after = d;
        self
    }

    /// Puts the games unused for the sleep time to sleep: a search stops (its thread ends at
    /// its next look at the stop flag) and the engine's memory goes. The next request for the
    /// game wakes it, and the engine resumes if it is to move.
    pub fn sweep(&self) {
        let mut slept = false;
        let sessions: Vec<Arc<Mutex<Table>>> = lock(&self.sessions).values().cloned().collect();
        for arc in sessions {
            let mut s = lock(&arc);
            if s.asleep || s.last_use.elapsed() < self.sleep_after {
                continue;
            }
            s.analysis.cancel();
            if s.thinking() || s.searcher.is_some() || s.searching {
                s.asleep = true;
                s.cancel_search();
                let freed = s.searcher.take();
                drop(s);
                drop(freed);
                slept = true;
            }
        }
        if slept {
            self.note_freed();
        }
    }

    /// Notes that memory was freed (see [`Server::take_freed`]).
    pub fn note_freed(&self) {
        self.freed.store(true, Ordering::Relaxed);
    }

    /// Whether memory was freed since the last call.
    pub fn take_freed(&self) -> bool {
        self.freed.swap(false, Ordering::Relaxed)
    }

    /// The number of games kept.
    pub fn games(&self) -> usize {
        lock(&self.sessions).len()
    }

    fn new_sid(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let mut x = self.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        format!("{:016x}{n:x}", x ^ (x >> 29))
    }

    fn session(&self, sid: &str) -> Result<Arc<Mutex<Table>>, ApiError> {
        let map = lock(&self.sessions);
        let s = map.get(sid).cloned().ok_or(ApiError {
            status: 404,
            message: format!("no game `{sid}` (start one with /api/new)"),
        })?;
        drop(map);
        let wake = {
            let mut g = lock(&s);
            g.last_use = Instant::now();
            std::mem::take(&mut g.asleep)
        };
        if wake {
            maybe_start_engine(&s, false);
        }
        Ok(s)
    }

    fn session_of(&self, body: &Value) -> Result<(String, Arc<Mutex<Table>>), ApiError> {
        let sid = req_str(body, "sid")?.to_string();
        let s = self.session(&sid)?;
        Ok((sid, s))
    }

    /// Keeps a new game `sid`: games unused for a while make room for it when the most are
    /// kept (their engines stopped and waited for); with every kept game in play, it is
    /// refused (503).
    fn admit(&self, sid: &str, arc: &Arc<Mutex<Table>>) -> Result<(), ApiError> {
        let mut evicted = Vec::new();
        let full;
        {
            let mut map = lock(&self.sessions);
            while map.len() >= MAX_SESSIONS {
                // A game in play is never pushed out by new ones: only those unused a while.
                let oldest = map
                    .iter()
                    .map(|(k, s)| (lock(s).last_use, k))
                    .filter(|(used, _)| used.elapsed() >= IN_PLAY)
                    .min()
                    .map(|(_, k)| k.clone());
                match oldest.and_then(|k| map.remove(&k)) {
                    Some(s) => evicted.push(s),
                    None => break,
                }
            }
            full = map.len() >= MAX_SESSIONS;
            if !full {
                map.insert(sid.to_string(), arc.clone());
            }
        }
        // An evicted game's engine stops, and its thread is waited for: the engines never
        // outnumber the games kept.
        for s in evicted {
            let threads = lock(&s).retire();
            for t in threads {
                let _ = t.join();
            }
            self.note_freed();
        }
        if full {
            return Err(ApiError {
                status: 503,
                message: format!(
                    "{MAX_SESSIONS} games are in play, the most kept at once; try again in a few seconds"
                ),
            });
        }
        Ok(())
    }

    fn new_game(&self, body: &Value) -> Result<Value, ApiError> {
        let name = opt_str(body, "variant")?;
        let toml = opt_str(body, "toml")?;
        let setup = match opt_str(body, "setup")? {
            Some(s) if !s.is_empty() => Some(s.to_string()),
            Some(_) => None,
            None if name.is_none() && toml.is_none() => self.default_setup.clone(),
            None => None,
        };
        // Games of a named variant share its compiled rules; an uploaded file is compiled anew.
        let key = (toml.is_none()).then(|| {
            (
                name.unwrap_or(&self.default_variant).to_string(),
                setup.clone(),
            )
        });
        let cached = key
            .as_ref()
            .and_then(|k| lock(&self.compiled).get(k).cloned());
        let (variant, rules) = match cached {
            Some(c) => c,
            None => {
                let variant = load_variant(name, toml, &self.default_variant)?;
                let rules = Ruleset::new(&variant, setup.as_deref()).map_err(bad)?;
                let made = (Arc::new(variant), rules);
                if let Some(k) = key {
                    let mut cache = lock(&self.compiled);
                    if cache.len() >= MAX_COMPILED {
                        cache.clear();
                    }
                    cache.insert(k, made.clone());
                }
                made
            }
        };
        let game = match opt_str(body, "fen")? {
            Some(f) if !f.trim().is_empty() => Session::from_fen(&rules, f).map_err(bad)?,
            _ => Session::new(&rules),
        };
        let white = Player::parse(body.get("white").unwrap_or(&Value::Null), "white")?;
        let black = Player::parse(body.get("black").unwrap_or(&Value::Null), "black")?;
        let settings = engine_settings(body)?;
        let control = time_control(body)?;
        let mut sess = Table::new(game, variant, control);
        if let Some(p) = white {
            sess.players[0] = p;
        }
        if let Some(p) = black {
            sess.players[1] = p;
        }
        settings.apply(&mut sess)?;
        let sid = self.new_sid();
        let arc = Arc::new(Mutex::new(sess));
        self.admit(&sid, &arc)?;
        maybe_start_engine(&arc, false);
        let mut s = lock(&arc);
        Ok(json!({"sid": sid, "state": state_json(&sid, &mut s)}))
    }

    /// A new game with the settings of the game `old` (variant, setup, start position, time
    /// control and engine level), the players' colours swapped.
    fn rematch(&self, old: &Arc<Mutex<Table>>) -> Result<Value, ApiError> {
        let sess = {
            let o = lock(old);
            let rules = o.game.rules();
            let start = o.game.start_position().fen();
            let fresh = Session::new(rules);
            let game = if fresh.start_position().fen() == start {
                fresh
            } else {
                Session::from_fen(rules, &start).map_err(bad)?
            };
            let mut t = Table::new(game, o.variant.clone(), o.control);
            t.players = [o.players[1], o.players[0]];
            (t.movetime, t.depth, t.nodes) = (o.movetime, o.depth, o.nodes);
            t
        };
        let sid = self.new_sid();
        let arc = Arc::new(Mutex::new(sess));
        self.admit(&sid, &arc)?;
        maybe_start_engine(&arc, false);
        let mut s = lock(&arc);
        Ok(json!({"sid": sid, "state": state_json(&sid, &mut s)}))
    }

    /// Answers one API request: (status, JSON or text, content type).
    pub fn api(
        &self,
        method: &str,
        path: &str,
        query: &str,
        body: &[u8],
    ) -> Result<Value, ApiError> {
        let get_sid = || -> Result<String, ApiError> {
            query
                .split('&')
                .find_map(|kv| kv.strip_prefix("sid="))
                .map(str::to_string)
                .ok_or_else(|| bad("missing `sid` in the query (…?sid=S)"))
        };
        match (method, path) {
            ("GET", "/api/variants") => return Ok(variants_json(&self.default_variant)),
            ("GET", "/api/state") => {
                let sid = get_sid()?;
                let s = self.session(&sid)?;
                let mut s = lock(&s);
                return Ok(state_json(&sid, &mut s));
            }
            ("GET", "/api/position") => {
                let sid = get_sid()?;
                let s = self.session(&sid)?;
                return ply_json(&lock(&s), query);
            }
            ("GET", "/api/variant") => {
                let sid = get_sid()?;
                let s = self.session(&sid)?;
                let rules = lock(&s).game.rules().clone();
                return Ok(variant_json(&rules));
            }
            ("GET", _) => {
                return Err(ApiError {
                    status: 404,
                    message: format!("no such page: {path}"),
                });
            }
            ("POST", _) => {}
            _ => {
                return Err(ApiError {
                    status: 405,
                    message: format!("{method} is not served"),
                });
            }
        }
        let text = std::str::from_utf8(body).map_err(|_| bad("the body is not UTF-8 text"))?;
        let body: Value =
            serde_json::from_str(text).map_err(|e| bad(format!("malformed JSON: {e}")))?;
        if !body.is_object() {
            return Err(bad("the body must be a JSON object"));
        }
        if path == "/api/new" {
            return self.new_game(&body);
        }
        if path == "/api/rematch" {
            let (_, arc) = self.session_of(&body)?;
            return self.rematch(&arc);
        }
        let (sid, arc) = self.session_of(&body)?;
        if path == "/api/analyse" {
            analyse(&arc, &body)?;
            let mut s = lock(&arc);
            return Ok(state_json(&sid, &mut s));
        }
        let (restart, force) = {
            let mut s = lock(&arc);
            s.check_flag();
            post_action(&mut s, path, &body)?
        };
        if restart {
            maybe_start_engine(&arc, force);
        }
        let mut s = lock(&arc);
        Ok(state_json(&sid, &mut s))
    }

    /// The game of `sid` as PGN.
    pub fn pgn(&self, query: &str) -> Result<String, ApiError> {
        let sid = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("sid="))
            .ok_or_else(|| bad("missing `sid` in the query (…?sid=S)"))?;
        let s = self.session(sid)?;
        let mut s = lock(&s);
        let mut g = s.game.clone();
        let tags = g.tags_mut();
        tags.retain(|t| t.0 != "White" && t.0 != "Black");
        for (c, tag) in [(0, "White"), (1, "Black")] {
            let who = if s.players[c] == Player::Human {
                "Human"
            } else {
                "Polymachy"
            };
            tags.push((tag.into(), who.into()));
        }
        let text = g.to_pgn();
        s.last_use = Instant::now();
        Ok(text)
    }
}

/// A draw claim: granted when the variant's draw rules hold, or between two humans (agreement).
fn draw_claim(s: &mut Table) -> Result<(), ApiError> {
    if s.players.iter().all(|&p| p == Player::Human) {
        s.game.agree_draw();
    } else {
        s.game.claim_draw().map_err(conflict)?;
    }
    Ok(())
}

/// The rules of a PGN game: its `Variant` tag names a built-in game or the session's own.
fn rules_for_pgn(
    rec: &crate::session::PgnRecord,
    s: &Table,
) -> Result<(Variant, Arc<Ruleset>), ApiError> {
    let setup = rec.tag("SetupChoice").map(|(x, _)| x.to_string());
    let variant = match rec.tag("Variant") {
        Some((name, _))
            if name.eq_ignore_ascii_case(&s.variant.id)
                || name.eq_ignore_ascii_case(&s.variant.title) =>
        {
            (*s.variant).clone()
        }
        Some((name, _)) => Variant::builtin_named(name).ok_or(ApiError {
            status: 404,
            message: format!("unknown variant `{name}` in the PGN"),
        })?,
        None => (*s.variant).clone(),
    };
    let rules = Ruleset::new(&variant, setup.as_deref()).map_err(bad)?;
    Ok((variant, rules))
}

/// Applies a POST request other than a new game to the session `s`: (whether the engine may
/// have to start, whether it starts even on a human's turn).
fn post_action(s: &mut Table, path: &str, body: &Value) -> Result<(bool, bool), ApiError> {
    let mut restart = false;
    let mut force = false;
    match path {
        "/api/move" => {
            let text = req_str(body, "move")?;
            if s.over() {
                return Err(conflict("the game is over"));
            }
            let side = s.game.side_to_move();
            if s.thinking() || s.players[side.index()] == Player::Engine {
                return Err(conflict("it is the engine's turn"));
            }
            let mv = s.game.read(text).map_err(|e| ApiError {
                status: 422,
                message: e.to_string(),
            })?;
            // The mover's time is charged; the move stands unless its flag fell meanwhile.
            s.check_flag();
            s.game.play(mv).map_err(|e| conflict(e.to_string()))?;
            s.generation += 1;
            restart = true;
        }
        "/api/undo" => undo(s)?,
        "/api/options" => {
            set_options(s, body)?;
            restart = true;
        }
        "/api/go" => {
            if s.over() {
                return Err(conflict("the game is over"));
            }
            if s.thinking() {
                return Err(conflict("the engine is already thinking"));
            }
            restart = true;
            force = true;
        }
        "/api/stop" => {
            let play = match body.get("play") {
                None | Some(Value::Null) => false,
                Some(Value::Bool(b)) => *b,
                Some(_) => return Err(bad("`play` must be true or false")),
            };
            let Some(flag) = s.stop.clone() else {
                return Err(conflict("the engine is not thinking"));
            };
            s.play_when_stopped = play;
            flag.store(true, Ordering::Relaxed);
        }
        "/api/resign" => resign(s, body)?,
        "/api/draw" => {
            if s.over() {
                return Err(conflict("the game is over"));
            }
            draw_claim(s)?;
            s.cancel_search();
        }
        "/api/fen" => {
            let fen = req_str(body, "fen")?;
            let game = Session::from_fen(s.game.rules(), fen).map_err(bad)?;
            s.reset_with(game);
            restart = true;
        }
        "/api/pgn" => {
            let text = req_str(body, "pgn")?;
            let rec =
                parse_pgn(text).map_err(|e| bad(format!("PGN line {}: {}", e.line, e.message)))?;
            let (variant, rules) = rules_for_pgn(&rec, s)?;
            let g = Session::from_record(&rules, &rec)
                .map_err(|e| bad(format!("PGN line {}: {}", e.line, e.message)))?;
            s.reset_with(g);
            s.variant = Arc::new(variant);
            restart = true;
        }
        _ => {
            return Err(ApiError {
                status: 404,
                message: format!("no such request: POST {path}"),
            });
        }
    }
    Ok((restart, force))
}

/// Takes back the last move, and the engine's reply before it when one person plays the engine.
fn undo(s: &mut Table) -> Result<(), ApiError> {
    if s.game.moves().is_empty() {
        return Err(conflict("no move to take back"));
    }
    if s.lost_on_time() {
        return Err(conflict("the game was lost on time: no move is taken back"));
    }
    s.cancel_search();
    let humans = s.players.iter().filter(|&&p| p == Player::Human).count();
    match [Color::White, Color::Black]
        .into_iter()
        .find(|c| s.players[c.index()] == Player::Human)
    {
        Some(human) if humans == 1 => {
            s.game.undo_to(human);
        }
        _ => {
            s.game.undo();
        }
    }
    // The clocks are back as they were before the moves taken back; the turn starts now.
    s.game.start_turn(Instant::now());
    s.report = EngineReport::default();
    s.analysis.cancel();
    s.paused = humans == 0;
    Ok(())
}

/// Sets who plays each side and the engine's time or depth (`/api/options`).
fn set_options(s: &mut Table, body: &Value) -> Result<(), ApiError> {
    let white = Player::parse(body.get("white").unwrap_or(&Value::Null), "white")?;
    let black = Player::parse(body.get("black").unwrap_or(&Value::Null), "black")?;
    engine_settings(body)?.apply(s)?;
    if let Some(p) = white {
        s.players[0] = p;
    }
    if let Some(p) = black {
        s.players[1] = p;
    }
    let side = s.game.side_to_move();
    if s.thinking() && s.players[side.index()] == Player::Human {
        s.cancel_search();
    }
    s.paused = false;
    Ok(())
}

/// Ends the game by the resignation of `side` (default: the side to move).
fn resign(s: &mut Table, body: &Value) -> Result<(), ApiError> {
    if s.over() {
        return Err(conflict("the game is over"));
    }
    let side = match opt_str(body, "side")? {
        None => s.game.side_to_move(),
        Some("white") => Color::White,
        Some("black") => Color::Black,
        Some(o) => {
            return Err(bad(format!("`side` must be white or black, not `{o}`")));
        }
    };
    s.cancel_search();
    s.game.resign(side);
    Ok(())
}
