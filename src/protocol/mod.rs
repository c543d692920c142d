//! Engine protocols for graphical interfaces: UCI (with Fairy-Stockfish's `UCI_Variant`
//! conventions) and CECP v2 (XBoard/WinBoard, with engine-defined variants).
//!
//! Both run the search on a background thread so that `stop`, `isready`, `?` and `ping`
//! are answered while the engine thinks. Output goes through one shared writer, a line at a
//! time.

pub mod lineio;
pub mod uci;
pub mod xboard;

use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use crate::moves::Move;
use crate::position::Ruleset;
use crate::search::{Info, Limits, SearchResult, Searcher};
use crate::session::{MoveError, Session, coord};
use crate::variant::Variant;

/// Hash table size, in megabytes, until the GUI sets another.
pub use crate::search::tt::DEFAULT_HASH_MB;

/// A line-oriented output shared by the protocol loop and the search thread.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// An output writing to `w`.
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(w)))
    }

    /// Writes one line and flushes.
    pub fn line(&self, s: &str) {
        if let Ok(mut w) = self.0.lock() {
            let _ = writeln!(w, "{s}");
            let _ = w.flush();
        }
    }
}

/// The game state of a protocol session and its searcher (away on a thread while searching).
pub struct Engine {
    /// The current variant.
    pub variant: Variant,
    /// Its compiled rules.
    pub rules: Arc<Ruleset>,
    /// The game the GUI set up: its start and the moves played since.
    pub game: Session,
    /// Hash table size in megabytes.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP).
    pub threads: usize,
    /// Continuation histories in the search (`ContHistory`).
    pub cont_history: bool,
    /// Evaluate with the variant's network when it has one (`UseNetwork`).
    pub use_network: bool,
    /// Lines each iteration ranks and reports (`MultiPV`, at least 1).
    pub multipv: usize,
    /// Milliseconds kept per move for what happens outside the search (`Move Overhead`).
    pub move_overhead_ms: u64,
    searcher: Option<Searcher>,
    thread: Option<JoinHandle<Searcher>>,
    stop: Arc<AtomicBool>,
}

impl Engine {
    /// An engine for a built-in variant name or a `.toml` path, with a setup choice.
    pub fn new(variant: &str, setup: Option<&str>, hash_mb: usize) -> Result<Engine, String> {
        let v = Variant::load(variant).map_err(|e| e.to_string())?;
        Engine::with_variant(v, setup, hash_mb)
    }

    /// An engine for a loaded variant.
    pub fn with_variant(v: Variant, setup: Option<&str>, hash_mb: usize) -> Result<Engine, String> {
        let rules = Ruleset::new(&v, setup)?;
        let mut game = Session::new(&rules);
        game.follow_arbiter();
        let stop = Arc::new(AtomicBool::new(false));
        // The searcher (and its hash table) is made at the first search, so that selecting a
        // variant is answered at once.
        Ok(Engine {
            variant: v,
            rules,
            game,
            hash_mb,
            threads: 1,
            cont_history: false,
            use_network: true,
            multipv: 1,
            move_overhead_ms: crate::search::DEFAULT_MOVE_OVERHEAD_MS,
            searcher: None,
            thread: None,
            stop,
        })
    }

    /// Stops a running search (its result is still reported) and waits for it.
    pub fn stop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        self.wait();
    }

    /// Waits for a running search to finish.
    pub fn wait(&mut self) {
        if let Some(h) = self.thread.take() {
            match h.join() {
                Ok(s) => self.searcher = Some(s),
                Err(_) => {
                    let mut s = Searcher::new(&self.rules, self.hash_mb);
                    s.set_stop_flag(self.stop.clone());
                    self.searcher = Some(s);
                }
            }
        }
    }

    /// Whether a search is running.
    pub fn searching(&self) -> bool {
        self.thread.as_ref().is_some_and(|h| !h.is_finished())
    }

    /// The static evaluation of the current position from White's side, in centipawns (the
    /// network's when one is in use). No search may be running.
    pub fn static_eval_white(&mut self) -> i32 {
        let mut s = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(&self.rules, self.hash_mb));
        s.set_network(self.use_network);
        let pos = self.game.position();
        let v = s.evaluate(pos);
        let v = if pos.side() == crate::geometry::Color::White {
            v
        } else {
            -v
        };
        self.searcher = Some(s);
        v
    }

    /// Clears the hash table and history (a new game).
    pub fn new_game(&mut self) {
        self.stop();
        if let Some(s) = self.searcher.as_mut() {
            s.clear();
        }
    }

    /// Resizes the hash table now (the searcher is made if there is none yet), so that a size
    /// the machine cannot give is an error here, and the engine keeps its table.
    pub fn set_hash(&mut self, mb: usize) -> Result<(), String> {
        self.stop();
        match self.searcher.as_mut() {
            Some(s) => s.set_hash_size(mb)?,
            None => self.searcher = Some(Searcher::try_new(&self.rules, mb)?),
        }
        self.hash_mb = mb;
        Ok(())
    }

    /// Sets the number of search threads (1 to [`crate::search::MAX_THREADS`]).
    pub fn set_threads(&mut self, n: usize) {
        self.stop();
        self.threads = n.clamp(1, crate::search::MAX_THREADS);
    }

    /// Keeps the settings that outlive a change of variant or setup (threads, move
    /// overhead, continuation histories, the network switch, MultiPV) from `old`.
    pub fn keep_settings(&mut self, old: &Engine) {
        self.threads = old.threads;
        self.cont_history = old.cont_history;
        self.use_network = old.use_network;
        self.multipv = old.multipv;
        self.move_overhead_ms = old.move_overhead_ms;
    }

    /// Reads and plays a move of the GUI (see [`Session::read`]).
    pub fn play_text(&mut self, text: &str) -> Result<Move, MoveError> {
        self.game.play_text(text)
    }

    /// Sets up a new game (the GUI is its arbiter).
    pub fn set_game(&mut self, mut game: Session) {
        game.follow_arbiter();
        self.game = game;
    }

    /// Starts searching the current position on a thread. `on_info` sees each finished
    /// iteration, `on_done` the result.
    pub fn go(
        &mut self,
        limits: Limits,
        mut on_info: impl FnMut(&Arc<Ruleset>, &Info) + Send + 'static,
        on_done: impl FnOnce(&Arc<Ruleset>, &SearchResult) + Send + 'static,
    ) {
        self.stop();
        self.stop.store(false, Ordering::Relaxed);
        let mut searcher = self
            .searcher
            .take()
            .unwrap_or_else(|| Searcher::new(&self.rules, self.hash_mb));
        searcher.set_stop_flag(self.stop.clone());
        searcher.set_threads(self.threads);
        searcher.set_cont_history(self.cont_history);
        searcher.set_network(self.use_network);
        searcher.set_multipv(self.multipv);
        searcher.set_move_overhead(std::time::Duration::from_millis(self.move_overhead_ms));
        let mut pos = self.game.position().clone();
        let rules = self.rules.clone();
        self.thread = Some(std::thread::spawn(move || {
            let r = searcher.search(&mut pos, &limits, |info| on_info(&rules, info));
            on_done(&rules, &r);
            searcher
        }));
    }
}

/// A principal variation in coordinate notation, moves separated by spaces.
pub fn pv_text(rules: &Ruleset, pv: &[Move]) -> String {
    pv.iter()
        .map(|&m| coord(rules, m))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Waits for the first command and runs the protocol it names (`uci` or `xboard`).
/// Returns false when the input named neither.
pub fn autodetect(variant: &str, setup: Option<&str>) -> Result<bool, String> {
    let mut input = lineio::stdin_lines();
    let first = loop {
        match input.next() {
            None => return Ok(false),
            Some(l) if l.trim().is_empty() || lineio::is_too_long(&l) => continue,
            Some(l) => break l,
        }
    };
    let out = Out::new(Box::new(std::io::stdout()));
    let lines = std::iter::once(first.clone()).chain(input);
    match first.split_whitespace().next() {
        Some("uci") => uci::run(lines, out, variant, setup).map(|_| true),
        Some("xboard") => xboard::run(lines, out, variant, setup).map(|_| true),
        _ => Ok(false),
    }
}
