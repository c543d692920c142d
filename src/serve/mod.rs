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
//! in play, a new game is refused (503) until one is not. One client (an address) keeps at
//! most [`PER_CLIENT`] games: its new game pushes out its own least recently used one, or is
//! refused (503) where all of its games are in play. A game unused for a while sleeps: its engine stops and frees its
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
//! **The code**, by concern: `store` keeps the games (new games, rematches, eviction, sleep);
//! `api` answers the requests; a game is a `table` whose engine searches in `engine`;
//! [`analysis`] runs and keeps the analysis lines; `state` writes the game's state as JSON,
//! and `variants` the variants and their pieces; [`clock`] keeps the clocks; [`culture`]
//! gives a game its own piece characters, notation and words; `http` serves.
//!
//! The API (every body and answer is JSON unless said otherwise):
//!
//! | request | does |
//! |---|---|
//! | `GET /` `/app.js` `/style.css` | the page |
//! | `GET /api/variants` | the built-in variants (id, name, size, setups) and the server's default |
//! | `POST /api/new` | `{variant?, toml?, setup?, fen?, white?, black?, movetime_ms?, depth?, nodes?, clock_ms?, increment_ms?}` → `{sid, state}` |
//! | `GET /api/state?sid=S&since=V` | the game's state: board, legal moves (with words for moves that share squares), history, clocks, analysis; with `since`, only what changed since the state of `version` V that this address was sent: `{delta: true, since, version, changed: {field: value}, appended: {history, moves}}` (the move list's new entries), or the whole state where V is not among the last 4 kept (none once the game sleeps) |
//! | `GET /api/wait?sid=S&v=V&since=V` | the game's state (with `since`, what changed) as soon as its `version` differs from `V` (a move, the engine's report, the analysis, the review…), or after [`WAIT`] as it is: the page waits so for every change, so every viewer sees a move the moment it is made |
//! | `POST /api/invite` | `{sid}`: shares the game between two people: both sides human, this address keeps its side (the one a person played, else White), and the state's `links` give two new addresses (session ids): `friend` plays the other side, `watch` is for spectators; the state's `you` says whom an address is for. A player's address moves only its own side on its turn, resigns only its side, and reviews or analyses only once the game is over; a spectator's asks nothing (403) |
//! | `GET /api/position?sid=S&ply=N` | the board after the first N moves (for viewing an earlier position) |
//! | `POST /api/analyse` | `{sid, ply?, lines?, depth?, off?}`: analysis lines of a position of the game, shown in the state (a whole set of lines of one depth: a deeper set replaces it when all its lines are in); searched by the game's one analysis worker, which takes each new position as the search before it stops |
//! | `POST /api/review` | `{sid, depth?, off?}`: reviews the game, every position searched to `depth` (default 6) by a worker of its own, one per game (a new review stops the one before and waits for it to end; a third asked meanwhile is refused with 409); the state's `review` gives White's evaluation after each move (`points`), how many are `done` of the `total`, and the moves marked inaccuracy, mistake or blunder by what they lost (see the `review` module); `off` stops it |
//! | `GET /api/variant?sid=S` | the variant: its setups, its rules as `{name, text}`, and its pieces, each with name, letter, XBetza, glyph, `image` (SVG), `words` (the movement in words), promotions and movement diagram |
//! | `POST /api/move` | `{sid, move, index?}`: a move in coordinates (`e1e3`, `e11e12q`) or SAN; with `index`, the move at that place of the state's `legal` list, whose `uci` must be `move` (409 otherwise) |
//! | `POST /api/undo` | `{sid}`: takes back one move (against the engine: back to the human's turn), clocks included; refused after a loss on time |
//! | `POST /api/rematch` | `{sid}` → `{sid, state}`: a new game with the same settings, the colours swapped |
//! | `POST /api/options` | `{sid, white?, black?, movetime_ms?, depth?, nodes?}` |
//! | `POST /api/go` | `{sid}`: the engine moves for the side to move |
//! | `POST /api/stop` | `{sid, play?}`: ends the engine's search |
//! | `POST /api/resign` | `{sid, side?}`: that side (default: the side to move) resigns |
//! | `POST /api/draw` | `{sid}`: claims a draw; granted by the variant's rules or, between humans, by agreement |
//! | `POST /api/fen` | `{sid, fen}`: a new game from a position of the same variant |
//! | `POST /api/pgn` | `{sid, pgn}`: loads a game (variant from its `Variant` tag, or the session's) |
//! | `GET /api/debug/generations` | in a debug build only: `{generations}`, the legal-move generations asked for by the front-ends since the server started (see [`crate::session::legal_generations`]) |
//! | `GET /api/pgn?sid=S` | the game as PGN (text) |

use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;

use crate::geometry::{Color, Geometry, Square};

pub mod analysis;
mod api;
pub mod clock;
pub mod culture;
mod engine;
pub mod glyph;
mod http;
pub mod pieces;
pub mod review;
mod state;
mod store;
mod table;
mod variants;
mod worker;

pub use http::{
    BODY_TIMEOUT, HEADER_TIMEOUT, MAX_CONNECTIONS, OPEN_WORKERS, PLAY_WORKERS, WAIT, WORKERS, serve,
};
pub use store::Server;
pub use variants::diagram;

/// The largest request body accepted (a variant file or a PGN), in bytes.
pub const MAX_BODY: usize = 256 * 1024;
/// The most games kept at once.
pub const MAX_SESSIONS: usize = 32;
/// The most games kept for one client (one address): a client at its cap makes room with its
/// own least recently used game (never one in play), so one client never holds every slot.
pub const PER_CLIENT: usize = 16;
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

fn forbidden(message: impl Into<String>) -> ApiError {
    ApiError {
        status: 403,
        message: message.into(),
    }
}

fn conflict(message: impl Into<String>) -> ApiError {
    ApiError {
        status: 409,
        message: message.into(),
    }
}

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
