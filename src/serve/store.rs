//! The games kept ([`Server`]): new games, rematches, eviction and sleep.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::position::Ruleset;
use crate::session::Session;
use crate::variant::Variant;

use super::*;
use super::{api::*, engine::*, state::*, table::*};

/// All games.
pub struct Server {
    /// The games by address (a shared game has several). The map's lock is taken by every
    /// request: nobody waits for a game's lock while holding it, since a game's lock may be
    /// held by its engine's thread, which runs at a low priority.
    pub(super) sessions: Mutex<HashMap<String, Kept>>,
    pub(super) counter: AtomicU64,
    pub(super) seed: u64,
    /// The variant and setup `serve` was started with.
    pub(super) default_variant: String,
    pub(super) default_setup: Option<String>,
    /// A game unused this long sleeps: its engine stops and frees its memory.
    pub(super) sleep_after: Duration,
    /// Set when memory was freed (a game evicted or asleep, a connection closed, a game's
    /// analysis or review thread ended); each game holds it too.
    pub(super) freed: Arc<AtomicBool>,
    /// The compiled rules of named variants, by name and setup.
    pub(super) compiled: Mutex<HashMap<(String, Option<String>), Compiled>>,
    /// The answer to `GET /api/variants`, built at its first request (every built-in file
    /// read, and the default's) and kept: the built-in games are part of the program, and a
    /// default given as a file is described as it was then.
    pub(super) variants: std::sync::OnceLock<serde_json::Value>,
}

/// A kept game: its table, and the client (address) that opened it, counted against its cap.
#[derive(Clone)]
pub(super) struct Kept {
    pub(super) table: Arc<Mutex<Table>>,
    pub(super) owner: Option<std::net::IpAddr>,
}

/// A variant and its compiled rules.
pub(super) type Compiled = (Arc<Variant>, Arc<Ruleset>);

/// The most compiled variants kept.
pub(super) const MAX_COMPILED: usize = 32;

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
            freed: Arc::new(AtomicBool::new(false)),
            compiled: Mutex::new(HashMap::new()),
            variants: std::sync::OnceLock::new(),
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
        let sessions: Vec<Arc<Mutex<Table>>> = lock(&self.sessions)
            .values()
            .map(|k| k.table.clone())
            .collect();
        for arc in sessions {
            let mut s = lock(&arc);
            if s.asleep || s.last_use.elapsed() < self.sleep_after {
                continue;
            }
            s.analysis.cancel();
            s.review.cancel(false);
            // The states kept for answers of what changed go too (the whole state is sent).
            s.sent.clear();
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

    pub(super) fn new_sid(&self) -> String {
        let n = self.counter.fetch_add(1, Ordering::Relaxed);
        let mut x = self.seed ^ n.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x = (x ^ (x >> 31)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        format!("{:016x}{n:x}", x ^ (x >> 29))
    }

    pub(super) fn session(&self, sid: &str) -> Result<Arc<Mutex<Table>>, ApiError> {
        let map = lock(&self.sessions);
        let s = map.get(sid).map(|k| k.table.clone()).ok_or(ApiError {
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

    /// Other addresses of a game (a shared game's player and spectators): kept with it, and
    /// pushed out with it.
    pub(super) fn alias(&self, sids: &[String], arc: &Arc<Mutex<Table>>) {
        let mut map = lock(&self.sessions);
        let owner = map
            .values()
            .find(|k| Arc::ptr_eq(&k.table, arc))
            .and_then(|k| k.owner);
        for sid in sids {
            let kept = Kept {
                table: arc.clone(),
                owner,
            };
            map.insert(sid.clone(), kept);
        }
    }

    /// The version of the game `sid` (a number that changes whenever its state does), without
    /// counting as a use of it.
    pub fn version(&self, sid: &str) -> Result<u64, ApiError> {
        let s = self.peek(sid)?;
        let v = lock(&s).version();
        Ok(v)
    }

    /// The game `sid`, without counting as a use of it (a page waiting for a change does
    /// not keep its game awake).
    pub(super) fn peek(&self, sid: &str) -> Result<Arc<Mutex<Table>>, ApiError> {
        lock(&self.sessions)
            .get(sid)
            .map(|k| k.table.clone())
            .ok_or(ApiError {
                status: 404,
                message: format!("no game `{sid}` (start one with /api/new)"),
            })
    }

    pub(super) fn session_of(&self, body: &Value) -> Result<(String, Arc<Mutex<Table>>), ApiError> {
        let sid = req_str(body, "sid")?.to_string();
        let s = self.session(&sid)?;
        Ok((sid, s))
    }

    /// Keeps a new game `sid` of `owner`: games unused for a while make room for it when the
    /// most are kept (their engines stopped and waited for); with every kept game in play, it
    /// is refused (503).
    pub(super) fn admit(
        &self,
        sid: &str,
        arc: &Arc<Mutex<Table>>,
        owner: Option<std::net::IpAddr>,
    ) -> Result<(), ApiError> {
        let mut evicted = Vec::new();
        let full;
        let mut client_full = false;
        {
            let mut map = lock(&self.sessions);
            // A client at its cap makes room with its own games first.
            if let Some(client) = owner {
                loop {
                    let mut mine: Vec<Arc<Mutex<Table>>> = Vec::new();
                    for k in map.values() {
                        if k.owner == Some(client) && !mine.iter().any(|m| Arc::ptr_eq(m, &k.table))
                        {
                            mine.push(k.table.clone());
                        }
                    }
                    if mine.len() < PER_CLIENT {
                        break;
                    }
                    match unused_longest(mine.iter()) {
                        Some(s) => {
                            map.retain(|_, o| !Arc::ptr_eq(&o.table, &s));
                            evicted.push(s);
                        }
                        None => {
                            client_full = true;
                            break;
                        }
                    }
                }
            }
            while !client_full && map.len() >= MAX_SESSIONS {
                // A game in play is never pushed out by new ones: only those unused a while.
                match unused_longest(map.values().map(|k| &k.table)) {
                    Some(s) => {
                        // A shared game's other addresses go with it.
                        map.retain(|_, o| !Arc::ptr_eq(&o.table, &s));
                        evicted.push(s)
                    }
                    None => break,
                }
            }
            full = map.len() >= MAX_SESSIONS;
            if !full && !client_full {
                let kept = Kept {
                    table: arc.clone(),
                    owner,
                };
                map.insert(sid.to_string(), kept);
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
        if client_full {
            return Err(ApiError {
                status: 503,
                message: format!(
                    "this address keeps {PER_CLIENT} games in play, the most for one client; try again in a few seconds"
                ),
            });
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

    pub(super) fn new_game(
        &self,
        body: &Value,
        client: Option<std::net::IpAddr>,
    ) -> Result<Value, ApiError> {
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
        self.open(sess, client)
    }

    /// A new game with the settings of the game `old` (variant, setup, start position, time
    /// control and engine level), the players' colours swapped.
    pub(super) fn rematch(
        &self,
        old: &Arc<Mutex<Table>>,
        client: Option<std::net::IpAddr>,
    ) -> Result<Value, ApiError> {
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
        self.open(sess, client)
    }

    /// Keeps the new game `sess` under a fresh id, starts its engine if it is to move, and
    /// answers with the id and the game's state.
    fn open(&self, mut sess: Table, owner: Option<std::net::IpAddr>) -> Result<Value, ApiError> {
        sess.freed = self.freed.clone();
        let sid = self.new_sid();
        let arc = Arc::new(Mutex::new(sess));
        self.admit(&sid, &arc, owner)?;
        maybe_start_engine(&arc, false);
        let mut s = lock(&arc);
        Ok(json!({"sid": sid, "state": state_json(&sid, &mut s)}))
    }
}

/// Of `games`, the one unused longest, if it has been unused for [`IN_PLAY`] at least. A game
/// whose lock is held now is in use: it is passed over, never waited for.
fn unused_longest<'a>(
    games: impl Iterator<Item = &'a Arc<Mutex<Table>>>,
) -> Option<Arc<Mutex<Table>>> {
    games
        .filter_map(|g| {
            let used = match g.try_lock() {
                Ok(t) => t.last_use,
                Err(std::sync::TryLockError::Poisoned(p)) => p.into_inner().last_use,
                Err(std::sync::TryLockError::WouldBlock) => return None,
            };
            (used.elapsed() >= IN_PLAY).then_some((used, g))
        })
        .min_by_key(|(used, _)| *used)
        .map(|(_, g)| g.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A new game on a full server is admitted, pushing out a game unused a while, even while
    /// another kept game's lock is held (as its engine's thread, at a low priority, may hold
    /// it for long): every request waits for the map's lock, so admitting never waits for a
    /// game's lock while holding it.
    #[test]
    fn admitting_never_waits_for_a_busy_game() {
        let server = Arc::new(Server::new("chess", None).unwrap());
        let hot_seat = br#"{"white": "human", "black": "human"}"#;
        let new = |server: &Server| -> String {
            let v = server.api("POST", "/api/new", "", hot_seat).unwrap();
            v["sid"].as_str().unwrap().to_string()
        };
        let sids: Vec<String> = (0..MAX_SESSIONS).map(|_| new(&server)).collect();
        // Every game unused long enough to be pushed out.
        for sid in &sids {
            lock(&server.session(sid).unwrap()).last_use -= IN_PLAY * 2;
        }
        let busy = server.peek(&sids[0]).unwrap();
        let held = lock(&busy);
        let (tx, rx) = std::sync::mpsc::channel();
        let s2 = server.clone();
        std::thread::spawn(move || tx.send(new(&s2)).unwrap());
        let admitted = rx.recv_timeout(Duration::from_secs(20));
        drop(held);
        let sid = admitted.expect("a new game waited for a busy game's lock");
        assert!(server.peek(&sid).is_ok());
        assert!(server.peek(&sids[0]).is_ok(), "the busy game is kept");
        assert_eq!(server.games(), MAX_SESSIONS);
    }
}
