//! The API's requests: what each POST does to a game, and the reading of request bodies.

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::geometry::Color;
use crate::moves::Move;
use crate::position::Ruleset;
use crate::session::{Session, TimeControl, parse_pgn};
use crate::variant::Variant;

use super::*;
use super::{analysis::*, engine::*, state::*, store::*, table::*, variants::*};

impl Server {
    /// Answers one API request: (status, JSON or text, content type).
    pub fn api(
        &self,
        method: &str,
        path: &str,
        query: &str,
        body: &[u8],
    ) -> Result<Value, ApiError> {
        self.api_from(None, method, path, query, body)
    }

    /// Answers one API request of `client` (the address it came from; a new game counts
    /// against its cap, [`PER_CLIENT`]).
    pub fn api_from(
        &self,
        client: Option<std::net::IpAddr>,
        method: &str,
        path: &str,
        query: &str,
        body: &[u8],
    ) -> Result<Value, ApiError> {
        match method {
            "GET" => return self.get(path, query),
            "POST" => {}
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
            return self.new_game(&body, client);
        }
        if path == "/api/rematch" {
            let (_, arc) = self.session_of(&body)?;
            return self.rematch(&arc, client);
        }
        let (sid, arc) = self.session_of(&body)?;
        if path == "/api/invite" {
            return self.invite(&sid, &arc);
        }
        let role = lock(&arc).role(&sid);
        let mut body = body;
        if let Some(role) = role {
            allowed(&mut lock(&arc), role, path, &body)?;
            if let (Role::Seat(mine), "/api/resign") = (role, path) {
                body["side"] = Value::from(side_name(mine));
            }
        }
        if path == "/api/review" {
            super::review::review(&arc, &body)?;
            let mut s = lock(&arc);
            return Ok(state_json(&sid, &mut s));
        }
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
        s.changes += 1;
        Ok(state_json(&sid, &mut s))
    }

    /// Answers a `GET` of the API.
    fn get(&self, path: &str, query: &str) -> Result<Value, ApiError> {
        let get_sid = || -> Result<String, ApiError> {
            query
                .split('&')
                .find_map(|kv| kv.strip_prefix("sid="))
                .map(str::to_string)
                .ok_or_else(|| bad("missing `sid` in the query (…?sid=S)"))
        };
        let since = query
            .split('&')
            .find_map(|kv| kv.strip_prefix("since="))
            .map(str::to_string);
        match path {
            "/api/variants" => Ok(self
                .variants
                .get_or_init(|| variants_json(&self.default_variant))
                .clone()),
            // With `since=V`, only what changed since the state of version V.
            "/api/state" => {
                let sid = get_sid()?;
                let s = self.session(&sid)?;
                let mut s = lock(&s);
                Ok(state_since(&sid, &mut s, since.as_deref()))
            }
            // The answer to a long poll (see the `http` module): no use of the game.
            "/api/wait" => {
                let sid = get_sid()?;
                let s = self.peek(&sid)?;
                let mut s = lock(&s);
                Ok(state_since(&sid, &mut s, since.as_deref()))
            }
            "/api/position" => {
                let sid = get_sid()?;
                let s = self.session(&sid)?;
                ply_json(&lock(&s), query)
            }
            "/api/variant" => {
                let sid = get_sid()?;
                let s = self.session(&sid)?;
                let rules = lock(&s).game.rules().clone();
                Ok(variant_json(&rules))
            }
            // Debug builds (and the tests') count the legal-move generations asked for.
            "/api/debug/generations" if cfg!(debug_assertions) => {
                Ok(serde_json::json!({"generations": crate::session::legal_generations()}))
            }
            _ => Err(ApiError {
                status: 404,
                message: format!("no such page: {path}"),
            }),
        }
    }

    /// Shares the game of `sid` (`/api/invite`): both sides are played by people, the tab
    /// that asks keeps its side (the one a person played, else White), and two new addresses
    /// are made, one for the friend who takes the other side and one for spectators. Asked
    /// again, it gives the same addresses.
    fn invite(&self, sid: &str, arc: &Arc<Mutex<Table>>) -> Result<Value, ApiError> {
        let made = {
            let mut s = lock(arc);
            if s.role(sid).is_some() && s.host.as_deref() != Some(sid) {
                return Err(forbidden("only the player who shared the game may invite"));
            }
            if s.host.is_none() {
                let mine = if s.players[0] == Player::Engine && s.players[1] == Player::Human {
                    Color::Black
                } else {
                    Color::White
                };
                s.cancel_search();
                s.players = [Player::Human, Player::Human];
                let (friend, watch) = (self.new_sid(), self.new_sid());
                s.roles = vec![
                    (sid.to_string(), Role::Seat(mine)),
                    (friend.clone(), Role::Seat(mine.flip())),
                    (watch.clone(), Role::Watch),
                ];
                s.host = Some(sid.to_string());
                s.changes += 1;
                vec![friend, watch]
            } else {
                Vec::new()
            }
        };
        self.alias(&made, arc);
        let mut s = lock(arc);
        Ok(state_json(sid, &mut s))
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

/// What a player's or a spectator's address may ask of a shared game: a player moves for
/// its side on its turn, resigns its side, offers or claims a draw, and once the game is over
/// reviews and analyses it; a spectator asks nothing (403).
fn allowed(s: &mut Table, role: Role, path: &str, body: &Value) -> Result<(), ApiError> {
    let Role::Seat(mine) = role else {
        return Err(forbidden(
            "you are watching this game: only its players move",
        ));
    };
    let over = s.over();
    match path {
        "/api/move" if s.game.side_to_move() != mine => Err(forbidden(format!(
            "it is not your turn: you play {}",
            side_name(mine)
        ))),
        "/api/move" | "/api/draw" => Ok(()),
        "/api/resign" => match body.get("side") {
            None | Some(Value::Null) => Ok(()),
            Some(Value::String(c)) if c == side_name(mine) => Ok(()),
            _ => Err(forbidden("you may resign only your own side")),
        },
        "/api/review" | "/api/analyse" if over => Ok(()),
        _ => Err(forbidden(
            "in a game between two players, that waits for the game's end",
        )),
    }
}

/// A string field, or `None` when absent or null.
pub(super) fn opt_str<'a>(body: &'a Value, key: &str) -> Result<Option<&'a str>, ApiError> {
    match body.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s)),
        Some(_) => Err(bad(format!("`{key}` must be a string"))),
    }
}

pub(super) fn req_str<'a>(body: &'a Value, key: &str) -> Result<&'a str, ApiError> {
    opt_str(body, key)?.ok_or_else(|| bad(format!("missing `{key}`")))
}

/// A setting a request may leave out (`None`), clear (`Some(None)`) or set.
pub(super) type Change<T> = Option<Option<T>>;

/// Engine settings from a request.
pub(super) struct EngineSettings {
    pub(super) movetime: Change<Duration>,
    pub(super) depth: Change<u32>,
    pub(super) nodes: Change<u64>,
}

impl EngineSettings {
    /// Applies the settings given to a session; refused when the engine would be left with
    /// no limit at all.
    pub(super) fn apply(self, s: &mut Table) -> Result<(), ApiError> {
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
pub(super) fn engine_settings(body: &Value) -> Result<EngineSettings, ApiError> {
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
pub(super) fn time_control(body: &Value) -> Result<Option<TimeControl>, ApiError> {
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
pub(super) fn load_variant(
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

/// A draw claim: granted when the variant's draw rules hold, or between two humans (agreement).
pub(super) fn draw_claim(s: &mut Table) -> Result<(), ApiError> {
    if s.players.iter().all(|&p| p == Player::Human) {
        s.game.agree_draw();
    } else {
        s.game.claim_draw().map_err(conflict)?;
    }
    Ok(())
}

/// The rules of a PGN game: its `Variant` tag names a built-in game or the session's own.
pub(super) fn rules_for_pgn(
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
pub(super) fn post_action(
    s: &mut Table,
    path: &str,
    body: &Value,
) -> Result<(bool, bool), ApiError> {
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
            let mv = match body.get("index") {
                // A move in coordinates is found in the position's list; SAN is read.
                None | Some(Value::Null) => {
                    match s.legal().into_iter().find(|&m| s.game.coord(m) == text) {
                        Some(m) => m,
                        None => s.game.read(text).map_err(|e| ApiError {
                            status: 422,
                            message: e.to_string(),
                        })?,
                    }
                }
                Some(v) => picked(s, v, text)?,
            };
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

/// The move the page picked from the state's legal moves: the one at `index`, which must be
/// `text` in coordinates (else the list the page picked from is out of date).
fn picked(s: &mut Table, index: &Value, text: &str) -> Result<Move, ApiError> {
    let i = index
        .as_u64()
        .ok_or_else(|| bad("`index` must be a whole number"))? as usize;
    let legal = s.legal();
    match legal.get(i) {
        Some(&m) if s.game.coord(m) == text => Ok(m),
        _ => Err(conflict(format!(
            "`{text}` is not legal move {i} here: the page's list of legal moves is out of date"
        ))),
    }
}

/// Takes back the last move, and the engine's reply before it when one person plays the engine.
pub(super) fn undo(s: &mut Table) -> Result<(), ApiError> {
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
pub(super) fn set_options(s: &mut Table, body: &Value) -> Result<(), ApiError> {
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
pub(super) fn resign(s: &mut Table, body: &Value) -> Result<(), ApiError> {
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
