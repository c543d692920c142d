//! `polymachy match`: a referee for two engines in any variant Polymachy knows.
//!
//! Each game is played under the variant's rules as Polymachy reads them: every move an
//! engine sends is looked up among the legal moves (an illegal or unreadable move loses, and
//! the move and position are logged), and the game ends on checkmate, stalemate, repetition
//! or the move-count rule as the variant's `draws` table says. A game that reaches the move
//! cap (`--max-moves`) is adjudicated a draw.
//!
//! **Clocks.** Each side has `base + increment` in milliseconds; the time from sending the
//! request (`go` / `usermove`) to reading the move is charged. A move that comes after the
//! clock ran out by more than `--time-margin` loses on time. An engine that has said nothing
//! by its clock plus `--hang-margin` is killed (hang) and loses.
//!
//! **Failures.** A crash, a hang, an illegal move or output the protocol does not allow loses
//! the game for that engine; the engine is killed, waited for and started again for the next
//! game, and the match goes on. No process outlives the match.
//!
//! **Schedule.** Games are played in pairs over the same opening with colours reversed: game
//! `2i` has the first engine White, game `2i+1` the second. The openings are the lines of an
//! EPD file (`--openings`), taken in turn, or `--random-plies K` random legal moves from the
//! start position, reproducible with `--seed`. `--concurrency C` plays C games at once, each
//! with its own pair of engine processes.
//!
//! **Records.** Each game is handed to the PGN writer as it ends, so an interrupted match
//! keeps every finished game. Engine text (names, moves, messages) is cleaned before it goes
//! into the PGN or on the console: control characters become spaces and lengths are bounded.
//!
//! **Interrupts.** When the interrupt flag is set (the command line sets it on SIGINT and
//! SIGTERM), every wait on an engine ends at once, the games in progress are dropped, every
//! engine is ended and the summary covers the finished games.

pub mod engine;
pub mod stats;

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use engine::{EngineProc, EngineSpec, Failure, Protocol, Reply};
use stats::Tally;

use crate::geometry::Color;
use crate::moves::Move;
use crate::position::Position;
use crate::position::Ruleset;
use crate::session::{
    GameResult, Reason, Session, TimeControl, Verdict, pgn_movetext, san, variant_men,
};

/// How long an engine searching to a node or depth limit (`--limit`) may take for one move
/// before it is judged hung.
pub const LIMITED_THINK: Duration = Duration::from_secs(600);

/// The longest PGN comment (and console reason) written, in characters.
pub const MAX_COMMENT: usize = 4000;

/// Engine text made safe for a PGN and a terminal: control characters (CR, LF, escape...)
/// become spaces, and at most `max` characters are kept (`...` marks a cut).
pub fn clean_text(s: &str, max: usize) -> String {
    let mut out = String::with_capacity(s.len().min(max.saturating_mul(4)));
    for (i, c) in s.chars().enumerate() {
        if i == max {
            out.push_str("...");
            break;
        }
        out.push(if c.is_control() { ' ' } else { c });
    }
    out
}

/// A value of a PGN tag: cleaned, quotes and backslashes escaped.
fn tag_value(s: &str, max: usize) -> String {
    clean_text(s, max)
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The variant as given (a built-in name or a `.toml` path).
    pub variant: String,
    /// The setup choice, if any.
    pub setup: Option<String>,
    /// The two engines; the first is the one the score is reported for.
    pub engines: [EngineSpec; 2],
    /// Games in all.
    pub games: u32,
    /// Base time and increment, in milliseconds.
    pub tc: (u64, u64),
    /// The second engine's time control when it differs (time odds).
    pub tc2: Option<(u64, u64)>,
    /// Start positions (FEN); empty: the variant's own, or random plies.
    pub openings: Vec<String>,
    /// Random plies that open each pair of games when there are no openings.
    pub random_plies: u32,
    /// Seed of the random openings.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: u32,
    /// Full moves after which a game is adjudicated a draw.
    pub max_moves: u32,
    /// Milliseconds an engine may overstep its clock before it loses on time.
    pub time_margin_ms: u64,
    /// Milliseconds past its deadline before a silent engine is judged hung.
    pub hang_margin_ms: u64,
    /// SPRT bounds (elo0, elo1): the match stops once a hypothesis is accepted.
    pub sprt: Option<(f64, f64)>,
    /// Set to stop the match (see the module's documentation); [`engine::NEVER`]: never.
    pub interrupt: &'static AtomicBool,
}

/// How a game ended, for the PGN's `Termination` tag and the log.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The game's number, from 1.
    pub number: u32,
    /// Index (0 or 1) of the engine that had White.
    pub white: usize,
    /// The start position when it is not the variant's own.
    pub start_fen: Option<String>,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The result.
    pub result: GameResult,
    /// `normal`, `time forfeit`, `rules infraction`, `adjudication`, ...
    pub termination: &'static str,
    /// A sentence: why the game ended.
    pub reason: String,
}

impl GameRecord {
    /// The first engine's points in this game.
    pub fn first_points(&self) -> f64 {
        match (self.result, self.white) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::WhiteWins, 0) | (GameResult::BlackWins, 1) => 1.0,
            _ => 0.0,
        }
    }
}

/// The start position of each opening.
fn opening(rules: &Arc<Ruleset>, cfg: &MatchConfig, i: u32) -> Result<Position, String> {
    if !cfg.openings.is_empty() {
        let fen = &cfg.openings[i as usize % cfg.openings.len()];
        return Position::from_fen(rules, fen).map_err(|e| format!("opening `{fen}`: {e}"));
    }
    if cfg.random_plies == 0 {
        return Ok(Position::start(rules));
    }
    let mut game = Session::new(rules);
    // A small generator (SplitMix64) keyed on the seed and the opening's number.
    let mut state = cfg
        .seed
        .wrapping_add((i as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let mut next = || {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    for _ in 0..cfg.random_plies {
        let list = game.legal_moves();
        if list.is_empty() || game.is_over() {
            break;
        }
        let m = list[(next() % list.len() as u64) as usize];
        game.play(m).map_err(|e| e.to_string())?;
    }
    // The opening's moves become its start position.
    Position::from_fen(rules, &game.fen()).map_err(|e| e.to_string())
}

/// The largest opening file read, in bytes.
pub const MAX_OPENINGS_BYTES: u64 = 64 << 20;

/// The openings of an EPD file: each line's first four fields (FEN without the move
/// counters), or the whole FEN when it has counters; `#` comments and blank lines skipped.
pub fn read_openings(text: &str) -> Vec<String> {
    text.lines()
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let counters =
                f.len() >= 6 && f[4].parse::<u32>().is_ok() && f[5].parse::<u32>().is_ok();
            if counters {
                f[..6].join(" ")
            } else {
                f[..f.len().min(4)].join(" ")
            }
        })
        .collect()
}

/// A worker's engines, started on demand.
struct Seats {
    specs: [EngineSpec; 2],
    procs: [Option<EngineProc>; 2],
}

impl Seats {
    fn new(cfg: &MatchConfig) -> Seats {
        let mut specs = cfg.engines.clone();
        for s in specs.iter_mut() {
            s.interrupt = cfg.interrupt;
        }
        Seats {
            specs,
            procs: [None, None],
        }
    }

    fn get(
        &mut self,
        i: usize,
        cfg: &MatchConfig,
        id: &str,
        log: &dyn Fn(String),
    ) -> Result<&mut EngineProc, String> {
        if self.procs[i].is_none() {
            let mut e = EngineProc::start(&self.specs[i])?;
            let path = cfg
                .variant
                .ends_with(".toml")
                .then_some(cfg.variant.as_str());
            if let Err(m) = e.select_variant(id, path) {
                e.kill();
                return Err(m);
            }
            // Later starts keep the protocol found the first time.
            self.specs[i].protocol = Some(e.protocol);
            log(format!(
                "engine {} `{}` ready ({})",
                i + 1,
                e.name,
                match e.protocol {
                    Protocol::Uci => "UCI",
                    Protocol::Xboard => "CECP",
                }
            ));
            self.procs[i] = Some(e);
        }
        self.procs[i]
            .as_mut()
            .ok_or_else(|| "engine lost".to_string())
    }

    fn drop_engine(&mut self, i: usize) {
        if let Some(mut e) = self.procs[i].take() {
            e.kill();
        }
    }

    fn quit(&mut self) {
        for p in self.procs.iter_mut() {
            if let Some(e) = p.take() {
                e.quit();
            }
        }
    }
}

/// Plays one game. An engine that fails is dropped from `seats` (started again next game).
/// `None`: the match was interrupted before the game ended.
#[expect(
    clippy::too_many_lines,
    reason = "one game, start to result; each way it ends is a `break` beside the check that finds it"
)]
fn play_game(
    seats: &mut Seats,
    cfg: &MatchConfig,
    rules: &Arc<Ruleset>,
    number: u32,
    log: &dyn Fn(String),
) -> Result<Option<GameRecord>, String> {
    let interrupted = || cfg.interrupt.load(Ordering::Relaxed);
    let white = (number % 2) as usize;
    let start = opening(rules, cfg, number / 2)?;
    let default_start = start.fen() == Position::start(rules).fen();
    let start_fen = (!default_start).then(|| start.fen());
    let id = rules.variant.id.clone();
    let mut rec = GameRecord {
        number,
        white,
        start_fen: start_fen.clone(),
        moves: Vec::new(),
        result: GameResult::Draw,
        termination: "normal",
        reason: String::new(),
    };
    let lose = |rec: &mut GameRecord, side: Color, reason: Reason, why: String| {
        rec.result = GameResult::win_for(side.flip());
        rec.termination = reason.termination();
        rec.reason = why;
    };
    // Each seat's time control; per colour for the clocks.
    let seat_tc = |s: usize| {
        if s == 1 {
            cfg.tc2.unwrap_or(cfg.tc)
        } else {
            cfg.tc
        }
    };
    let tcs = [seat_tc(white), seat_tc(1 - white)];
    // Both engines get the new game; one that fails here loses the game.
    for (seat, color) in [(white, Color::White), (1 - white, Color::Black)] {
        let r = seats
            .get(seat, cfg, &id, log)
            .map_err(Failure::Crash)
            .and_then(|e| {
                e.new_game(
                    &id,
                    start_fen.as_deref(),
                    seat_tc(seat),
                    rules.geometry.ranks,
                )
            });
        if let Err(f) = r {
            seats.drop_engine(seat);
            if interrupted() {
                return Ok(None);
            }
            let name = seats.specs[seat].cmd.clone();
            lose(
                &mut rec,
                color,
                Reason::Crash,
                format!("{name} {f} (at the start)"),
            );
            return Ok(Some(rec));
        }
    }
    let opening_plies = start.ply_count();
    let mut game = Session::from_position(start);
    // The cap counts the opening's moves too.
    game.set_move_cap(Some(
        (2 * cfg.max_moves as usize).saturating_sub(opening_plies),
    ));
    let ms = Duration::from_millis;
    let tc = |(base, inc): (u64, u64)| TimeControl {
        base: ms(base),
        increment: ms(inc),
    };
    game.set_clocks(Some([tc(tcs[0]), tc(tcs[1])]));
    game.set_flag_margin(ms(cfg.time_margin_ms));
    let mut texts: Vec<String> = Vec::new();
    let left = |g: &Session, c: Color| g.remaining(c).unwrap_or_default().as_millis() as i64;
    loop {
        if let Some(v) = game.verdict() {
            rec.result = v.result;
            rec.termination = v.reason.termination();
            rec.reason = if v.reason == Reason::Adjudication {
                format!("Draw: the move cap of {} moves was reached.", cfg.max_moves)
            } else {
                v.to_string()
            };
            break;
        }
        let side = game.side_to_move();
        let seat = if side == Color::White {
            white
        } else {
            1 - white
        };
        let e = seats.procs[seat]
            .as_mut()
            .ok_or_else(|| "engine lost".to_string())?;
        let name = e.name.clone();
        let limited = e.limit().is_some();
        let mine = left(&game, side);
        // A limited engine has no clock: it may think up to LIMITED_THINK per move.
        let allowed = if limited {
            LIMITED_THINK
        } else {
            ms(mine as u64)
        };
        let deadline = Instant::now() + allowed + ms(cfg.hang_margin_ms);
        let asked = Instant::now();
        let reply = e.think(
            start_fen.as_deref(),
            &texts,
            (left(&game, Color::White), left(&game, Color::Black)),
            (tcs[0].1, tcs[1].1),
            side == Color::White,
            deadline,
        );
        let (reply, at) = match reply {
            Ok(r) => r,
            Err(Failure::Interrupted) => return Ok(None),
            Err(f) => {
                let reason = match f {
                    Failure::Hang(_) => Reason::TimeForfeit,
                    _ => Reason::Crash,
                };
                seats.drop_engine(seat);
                log(format!("game {}: {name} {f}; it is restarted", number + 1));
                game.end(Verdict::win(side.flip(), reason));
                lose(&mut rec, side, reason, format!("{name} {f}."));
                break;
            }
        };
        let used = at.duration_since(asked);
        // A limited engine is charged nothing: its clock stands where it started.
        if game
            .charge(if limited { Duration::ZERO } else { used })
            .is_some()
        {
            let over = used.as_millis() as i64 - mine;
            lose(
                &mut rec,
                side,
                Reason::TimeForfeit,
                format!(
                    "{name} lost on time ({} ms used, {over} ms over).",
                    used.as_millis()
                ),
            );
            break;
        }
        let text = match reply {
            Reply::Resign => {
                game.resign(side);
                lose(
                    &mut rec,
                    side,
                    Reason::Resignation,
                    format!("{name} resigned."),
                );
                break;
            }
            Reply::Move(t) => t,
        };
        let mv = match game.play_text(&text) {
            Ok(mv) => mv,
            Err(e) => {
                let why = format!(
                    "{name} played the illegal move `{}` in {} ({}).",
                    clean_text(&text, 200),
                    game.fen(),
                    clean_text(&e.to_string(), 200)
                );
                log(format!("game {}: {why}", number + 1));
                // The engine's idea of the game differs from the rules: start it afresh.
                seats.drop_engine(seat);
                game.end(Verdict::win(side.flip(), Reason::IllegalMove));
                lose(&mut rec, side, Reason::IllegalMove, why);
                break;
            }
        };
        texts.push(game.coord(mv));
        rec.moves.push(mv);
    }
    for seat in 0..2 {
        if let Some(e) = seats.procs[seat].as_mut() {
            e.game_over(rec.result.pgn(), &rec.reason);
        }
    }
    Ok(Some(rec))
}

/// The game in PGN.
pub fn pgn(
    cfg: &MatchConfig,
    rules: &Arc<Ruleset>,
    names: &[String; 2],
    rec: &GameRecord,
) -> String {
    let mut tags = vec![
        ("Event".to_string(), "Polymachy match".to_string()),
        ("Site".into(), "?".into()),
        ("Date".into(), "????.??.??".into()),
        ("Round".into(), (rec.number + 1).to_string()),
        ("White".into(), names[rec.white].clone()),
        ("Black".into(), names[1 - rec.white].clone()),
        ("Result".into(), rec.result.pgn().into()),
        ("Variant".into(), rules.variant.id.clone()),
        ("VariantMen".into(), variant_men(rules)),
    ];
    if let Some(s) = &rules.setup {
        tags.push(("SetupChoice".into(), s.clone()));
    }
    let start = match &rec.start_fen {
        Some(f) => {
            tags.push(("SetUp".into(), "1".into()));
            tags.push(("FEN".into(), f.clone()));
            Position::from_fen(rules, f).unwrap_or_else(|_| Position::start(rules))
        }
        None => Position::start(rules),
    };
    tags.push((
        "TimeControl".into(),
        format!("{}+{}", secs(cfg.tc.0), secs(cfg.tc.1)),
    ));
    tags.push(("Termination".into(), rec.termination.into()));
    let mut out = String::new();
    for (k, v) in &tags {
        let max = if matches!(k.as_str(), "White" | "Black") {
            engine::MAX_NAME
        } else {
            MAX_COMMENT
        };
        out.push_str(&format!("[{k} \"{}\"]\n", tag_value(v, max)));
    }
    out.push('\n');
    let mut words = Vec::new();
    let mut p = start;
    for (i, &m) in rec.moves.iter().enumerate() {
        if p.side() == Color::White {
            words.push(format!("{}.", p.fullmove_number()));
        } else if i == 0 {
            words.push(format!("{}...", p.fullmove_number()));
        }
        words.push(san(&mut p, m));
        p.make(m);
    }
    words.push(format!(
        "{{{}}}",
        clean_text(&rec.reason, MAX_COMMENT).replace('}', ")")
    ));
    words.push(rec.result.pgn().to_string());
    out.push_str(&pgn_movetext(&words));
    out.push_str("\n\n");
    out
}

/// Seconds as PGN writes them: `10`, `0.1`.
fn secs(ms: u64) -> String {
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        format!("{}", ms as f64 / 1000.0)
    }
}

/// What a finished match gives back.
pub struct MatchSummary {
    /// The first engine's wins, draws and losses.
    pub tally: Tally,
    /// Every game, in the order they finished.
    pub games: Vec<GameRecord>,
    /// The games as PGN.
    pub pgn: String,
    /// `Some(true)`: H1 accepted, `Some(false)`: H0 accepted.
    pub sprt: Option<bool>,
    /// The match was interrupted: `games` are the games that had ended.
    pub interrupted: bool,
}

/// Runs the match. `out` receives the progress lines and the summary; `pgn_out`, when given,
/// each game's PGN as the game ends (flushed at once).
pub fn run_match(
    cfg: &MatchConfig,
    out: &(dyn Fn(&str) + Sync),
    mut pgn_out: Option<&mut dyn std::io::Write>,
) -> Result<MatchSummary, String> {
    let variant = crate::variant::Variant::load(&cfg.variant).map_err(|e| e.to_string())?;
    let rules = Ruleset::new(&variant, cfg.setup.as_deref())?;
    for f in &cfg.openings {
        Position::from_fen(&rules, f).map_err(|e| format!("opening `{f}`: {e}"))?;
    }
    let names = engine_names(cfg, &rules)?;
    let next = AtomicU32::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = channel::<Result<Option<GameRecord>, String>>();
    let logs = Mutex::new(());
    let log = |s: String| {
        let _g = logs.lock();
        out(&format!("# {s}"));
    };
    let mut records = Vec::new();
    let mut tally = Tally::default();
    let mut verdict = None;
    let mut first_error = None;
    std::thread::scope(|scope| {
        for _ in 0..cfg.concurrency.clamp(1, cfg.games.max(1)) {
            let tx = tx.clone();
            let (next, stop, rules, log) = (&next, &stop, &rules, &log);
            scope.spawn(move || play_games(cfg, rules, next, stop, &tx, log));
        }
        drop(tx);
        for r in rx {
            let rec = match r {
                Ok(Some(rec)) => rec,
                Ok(None) => continue,
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    first_error.get_or_insert(e);
                    continue;
                }
            };
            match rec.first_points() {
                1.0 => tally.wins += 1,
                0.0 => tally.losses += 1,
                _ => tally.draws += 1,
            }
            if let Some(w) = pgn_out.as_mut() {
                let text = pgn(cfg, &rules, &names, &rec);
                if let Err(e) = w.write_all(text.as_bytes()).and_then(|_| w.flush()) {
                    stop.store(true, Ordering::Relaxed);
                    first_error.get_or_insert(format!("writing the PGN: {e}"));
                }
            }
            out(&game_line(cfg, &names, &rec, &tally));
            if verdict.is_none() {
                verdict = sprt_verdict(cfg, &tally, out);
                if verdict.is_some() {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            records.push(rec);
        }
    });
    if let Some(e) = first_error {
        return Err(e);
    }
    records.sort_by_key(|r| r.number);
    let interrupted = cfg.interrupt.load(Ordering::Relaxed);
    if interrupted {
        out(&format!(
            "match interrupted: {} of {} games finished (every engine ended)",
            records.len(),
            cfg.games
        ));
    }
    let pgn_text: String = records
        .iter()
        .map(|r| pgn(cfg, &rules, &names, r))
        .collect();
    print_summary(cfg, &names, &tally, verdict, out);
    Ok(MatchSummary {
        tally,
        games: records,
        pgn: pgn_text,
        sprt: verdict,
        interrupted,
    })
}

/// One of the match's threads: plays the next game not yet taken, each with this thread's
/// own engine processes, and sends its record, until the games run out, the match stops or
/// a game fails.
fn play_games(
    cfg: &MatchConfig,
    rules: &Arc<Ruleset>,
    next: &AtomicU32,
    stop: &AtomicBool,
    tx: &std::sync::mpsc::Sender<Result<Option<GameRecord>, String>>,
    log: &dyn Fn(String),
) {
    let mut seats = Seats::new(cfg);
    while !stop.load(Ordering::Relaxed) && !cfg.interrupt.load(Ordering::Relaxed) {
        let n = next.fetch_add(1, Ordering::Relaxed);
        if n >= cfg.games {
            break;
        }
        let r = play_game(&mut seats, cfg, rules, n, log);
        let failed = r.is_err();
        if tx.send(r).is_err() || failed {
            break;
        }
    }
    seats.quit();
}

/// The engines' names (numbered when they are the same), once each engine has started and
/// said it knows the variant, before any game is played.
fn engine_names(cfg: &MatchConfig, rules: &Ruleset) -> Result<[String; 2], String> {
    let mut names = [String::new(), String::new()];
    for (i, name) in names.iter_mut().enumerate() {
        let mut seats = Seats::new(cfg);
        let e = seats.get(i, cfg, &rules.variant.id, &|_| {}).map_err(|e| {
            match cfg.interrupt.load(Ordering::Relaxed) {
                true => "interrupted before the first game".to_string(),
                false => format!("engine {} (`{}`): {e}", i + 1, cfg.engines[i].cmd),
            }
        })?;
        *name = e.name.clone();
        let openings = !cfg.openings.is_empty() || cfg.random_plies > 0;
        if openings && !e.can_set_position() {
            let msg = format!(
                "engine {} (`{}`) cannot start from a given position (no `setboard`): play it from the start position (no --openings, --random-plies)",
                i + 1,
                e.name
            );
            seats.quit();
            return Err(msg);
        }
        seats.quit();
    }
    if names[0] == names[1] {
        names[0].push_str(" (1)");
        names[1].push_str(" (2)");
    }
    Ok(names)
}

/// The line that reports a finished game and the score so far.
fn game_line(cfg: &MatchConfig, names: &[String; 2], rec: &GameRecord, tally: &Tally) -> String {
    format!(
        "game {:>3}/{}: {} - {} {} {{{}}}  score {}-{}-{} ({:.1}/{})",
        rec.number + 1,
        cfg.games,
        names[rec.white],
        names[1 - rec.white],
        rec.result.pgn(),
        clean_text(&rec.reason, MAX_COMMENT),
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points(),
        tally.games()
    )
}

/// With `--sprt`, whether the tally so far accepts H1 (`Some(true)`) or H0 (`Some(false)`),
/// said on `out`; `None` while neither is.
fn sprt_verdict(cfg: &MatchConfig, tally: &Tally, out: &(dyn Fn(&str) + Sync)) -> Option<bool> {
    let (e0, e1) = cfg.sprt?;
    let (lo, hi) = stats::sprt_bounds();
    let llr = tally.llr(e0, e1)?;
    if llr < hi && llr > lo {
        return None;
    }
    out(&format!(
        "SPRT: LLR {llr:.2} crosses {:.2}: {} accepted, the match stops",
        if llr >= hi { hi } else { lo },
        if llr >= hi { "H1" } else { "H0" }
    ));
    Some(llr >= hi)
}

/// The match's last lines: the score, the Elo difference and the SPRT's state.
fn print_summary(
    cfg: &MatchConfig,
    names: &[String; 2],
    tally: &Tally,
    verdict: Option<bool>,
    out: &(dyn Fn(&str) + Sync),
) {
    out(&format!(
        "{} vs {}: {} games, +{} ={} -{}, score {:.1}/{} ({:.1}%)",
        names[0],
        names[1],
        tally.games(),
        tally.wins,
        tally.draws,
        tally.losses,
        tally.points(),
        tally.games(),
        100.0 * tally.score().unwrap_or(0.0)
    ));
    match tally.elo() {
        Some((e, err)) if e.is_finite() && err.is_finite() => {
            out(&format!("Elo difference: {e:.1} +/- {err:.1} (95%)"))
        }
        // The interval reaches a score of 0 or 1: unbounded in Elo.
        Some((e, _)) if e.is_finite() => out(&format!(
            "Elo difference: {e:.1} +/- inf (95%; too few games for a bound)"
        )),
        Some((e, _)) => out(&format!(
            "Elo difference: {e} (every game {}: no error bar)",
            if e > 0.0 { "won" } else { "lost" }
        )),
        None => {}
    }
    if let Some((e0, e1)) = cfg.sprt {
        let llr = tally.llr(e0, e1);
        let (lo, hi) = stats::sprt_bounds();
        out(&format!(
            "SPRT ({e0}, {e1}): LLR {} [{lo:.2}, {hi:.2}]{}",
            llr.map_or("n/a".to_string(), |l| format!("{l:.2}")),
            match verdict {
                Some(true) => ", H1 accepted",
                Some(false) => ", H0 accepted",
                None => ", no decision",
            }
        ));
    }
}

/// Parses `--tc BASE+INC` (seconds, decimals allowed; `+INC` optional) into milliseconds.
pub fn parse_tc(s: &str) -> Result<(u64, u64), String> {
    let (b, i) = s.split_once('+').unwrap_or((s, "0"));
    let ms = |t: &str| -> Result<u64, String> {
        let v: f64 = t
            .trim()
            .parse()
            .map_err(|_| format!("time control `{s}`: `{t}` is not a number of seconds"))?;
        if !(0.0..=1e7).contains(&v) {
            return Err(format!("time control `{s}`: `{t}` is out of range"));
        }
        Ok((v * 1000.0).round() as u64)
    };
    let (b, i) = (ms(b)?, ms(i)?);
    if b == 0 && i == 0 {
        return Err(format!("time control `{s}` gives no time"));
    }
    Ok((b, i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_in_milliseconds() {
        assert_eq!(parse_tc("10+0.1"), Ok((10_000, 100)));
        assert_eq!(parse_tc("0.5"), Ok((500, 0)));
        assert!(parse_tc("x+1").is_err());
        assert!(parse_tc("0+0").is_err());
        assert!(parse_tc("-1+0").is_err());
    }

    #[test]
    fn epd_lines_become_fens() {
        let o = read_openings(
            "# comment\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 id \"e4\";\n\n8/8/8/8/8/8/8/K6k w - - 3 40\n",
        );
        assert_eq!(
            o,
            vec![
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3".to_string(),
                "8/8/8/8/8/8/8/K6k w - - 3 40".to_string()
            ]
        );
    }
}
