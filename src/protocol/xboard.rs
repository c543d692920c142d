//! CECP v2 (XBoard/WinBoard), with engine-defined variants: when the GUI selects a variant the
//! engine describes it with `setup` (piece letters, board size, start FEN) and one `piece`
//! command per piece giving its XBetza, as XBoard 4.9 understands. Variants with more piece
//! types than XBoard's 22 slots (the Terachess games) are not offered in CECP.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::{Engine, Out};
use crate::game::outcome;
use crate::geometry::Color;
use crate::moves::Move;
use crate::search::{Clock, Limits, Score};
use crate::variant::{BUILTIN, Variant};

/// XBoard's piece slots, in the order of its piece-to-char table (the King last).
const SLOTS: &[u8] = b"PNBRQFEACWMOHIJGDVLSUK";

/// The built-in variant that is XBoard's "normal" game (FIDE chess): `new` starts it, and a
/// `variant` command that follows selects another.
const NORMAL: &str = "chess";

/// The variant name XBoard uses for a built-in one.
fn xb_name(id: &str) -> &str {
    if id == NORMAL { "normal" } else { id }
}

/// Whether XBoard can show a variant: at most 21 non-royal piece types and one royal type.
fn fits(v: &Variant) -> bool {
    let royal = v.pieces.iter().filter(|p| p.royal).count();
    royal == 1 && v.pieces.len() <= SLOTS.len()
}

/// The piece-to-char table of a variant: each piece in the slot of its own letter when free,
/// else in the first free slot.
pub fn piece_to_char(v: &Variant) -> String {
    let mut table = vec![b'.'; SLOTS.len()];
    let king = SLOTS.len() - 1;
    let mut rest = Vec::new();
    for p in &v.pieces {
        let l = p.letter as u8;
        if p.royal {
            table[king] = l;
        } else if let Some(i) = SLOTS[..king].iter().position(|&s| s == l) {
            table[i] = l;
        } else {
            rest.push(l);
        }
    }
    for l in rest {
        if let Some(i) = table[..king].iter().position(|&s| s == b'.') {
            table[i] = l;
        }
    }
    let white: String = table.iter().map(|&b| b as char).collect();
    let black: String = white.chars().map(|c| c.to_ascii_lowercase()).collect();
    format!("{white}{black}")
}

struct Session {
    eng: Engine,
    out: Out,
    engine_side: Option<Color>,
    analyzing: bool,
    post: bool,
    limits: Limits,
    moves_per_session: Option<u32>,
    increment: Duration,
    remaining: Option<Duration>,
    /// The move a finished search played, to be made on the engine's board.
    pending: Arc<Mutex<Option<Move>>>,
}

/// Runs a CECP session over `lines` until `quit` or the end of input.
pub fn run(
    lines: impl Iterator<Item = String>,
    out: Out,
    variant: &str,
    setup: Option<&str>,
) -> Result<(), String> {
    let eng = Engine::new(variant, setup, super::DEFAULT_HASH_MB)?;
    let mut s = Session {
        eng,
        out,
        engine_side: Some(Color::Black),
        analyzing: false,
        post: true,
        limits: Limits::movetime(Duration::from_secs(5)),
        moves_per_session: None,
        increment: Duration::ZERO,
        remaining: None,
        pending: Arc::new(Mutex::new(None)),
    };
    for line in lines {
        let line = line.trim().to_string();
        if line.is_empty() {
            continue;
        }
        if !s.eng.searching() {
            s.sync();
        }
        let (cmd, arg) = line
            .split_once(' ')
            .map(|(a, b)| (a, b.trim()))
            .unwrap_or((line.as_str(), ""));
        match cmd {
            "xboard" | "accepted" | "rejected" | "random" | "hard" | "easy" | "computer"
            | "name" | "rating" | "ics" | "otim" | "draw" | "bk" | "hint" => {}
            "protover" => s.features(),
            "ping" => s.out.line(&format!("pong {arg}")),
            "new" => {
                s.halt();
                // CECP: `new` is the standard game; XBoard sends `variant` after it otherwise.
                match Variant::load(NORMAL) {
                    Ok(v) => s.switch(v),
                    Err(e) => s.out.line(&format!("Error (new): {e}")),
                }
                s.engine_side = Some(Color::Black);
                s.analyzing = false;
                s.limits.depth = None;
            }
            "variant" => {
                s.halt();
                let id = if arg == "normal" { NORMAL } else { arg };
                match Variant::load(id) {
                    Ok(v) => {
                        s.switch(v);
                        s.describe();
                    }
                    Err(e) => s.out.line(&format!(
                        "Error (unknown variant): {arg} {}",
                        e.lines.first().cloned().unwrap_or_default()
                    )),
                }
            }
            "force" => {
                s.halt();
                s.engine_side = None;
            }
            "go" => {
                s.halt();
                s.engine_side = Some(s.eng.pos.side());
                s.think();
            }
            "playother" => {
                s.halt();
                s.engine_side = Some(s.eng.pos.side().flip());
            }
            "usermove" => s.user_move(arg),
            "setboard" => {
                s.halt();
                match crate::position::Position::from_fen(&s.eng.rules, arg) {
                    Ok(p) => {
                        s.eng.pos = p;
                        s.restart_analysis();
                    }
                    Err(e) => s.out.line(&format!("tellusererror Illegal position: {e}")),
                }
            }
            "undo" | "remove" => {
                s.halt();
                let n = if cmd == "undo" { 1 } else { 2 };
                for _ in 0..n {
                    s.eng.pos.unmake();
                }
                s.restart_analysis();
            }
            "level" => s.level(arg),
            "st" => match arg.parse::<f64>() {
                Ok(t) if t > 0.0 => {
                    s.limits = Limits::movetime(Duration::from_secs_f64(t));
                    s.moves_per_session = None;
                    s.remaining = None;
                }
                _ => s.out.line(&format!("Error (bad argument): st {arg}")),
            },
            "sd" => match arg.parse::<u32>() {
                Ok(d) if d > 0 => s.limits.depth = Some(d),
                _ => s.out.line(&format!("Error (bad argument): sd {arg}")),
            },
            "time" => match arg.parse::<u64>() {
                Ok(cs) => s.remaining = Some(Duration::from_millis(cs * 10)),
                _ => s.out.line(&format!("Error (bad argument): time {arg}")),
            },
            "?" => s.eng.stop(),
            "post" => s.post = true,
            "nopost" => s.post = false,
            "analyze" => {
                s.halt();
                s.analyzing = true;
                s.engine_side = None;
                s.think();
            }
            "exit" => {
                s.halt();
                s.analyzing = false;
            }
            "." => {}
            "result" => {
                s.halt();
                s.engine_side = None;
            }
            "option" => s.option(arg),
            "quit" => {
                s.halt();
                return Ok(());
            }
            _ => {
                // A bare move (when usermove=1 was not accepted).
                if s.eng.find_move(&line).is_some() {
                    s.user_move(&line);
                } else {
                    s.out.line(&format!("Error (unknown command): {line}"));
                }
            }
        }
    }
    // End of input: a move search (bounded) may finish and play; analysis stops.
    if s.analyzing {
        s.halt();
    } else {
        s.sync();
    }
    Ok(())
}

impl Session {
    fn features(&self) {
        let names: Vec<String> = BUILTIN
            .iter()
            .filter_map(|(n, _)| Variant::load(n).ok())
            .filter(fits)
            .map(|v| xb_name(&v.id).to_string())
            .collect();
        self.out.line(&format!(
            "feature myname=\"Polymachy {}\" variants=\"{}\" setboard=1 usermove=1 ping=1 sigint=0 sigterm=0 colors=0 analyze=1 reuse=1 time=1 debug=1",
            env!("CARGO_PKG_VERSION"),
            names.join(",")
        ));
        self.out.line("feature option=\"Setup -string \"");
        self.out.line("feature done=1");
    }

    /// Stops a search and plays or drops its move.
    fn halt(&mut self) {
        self.eng.stop();
        self.sync();
    }

    /// Makes the move of a finished search on the engine's board, and reports a game end.
    fn sync(&mut self) {
        self.eng.wait();
        let mv = self.pending.lock().ok().and_then(|mut p| p.take());
        if let Some(mv) = mv {
            self.eng.pos.make(mv);
            self.report_end();
        }
    }

    fn switch(&mut self, v: Variant) {
        let hash = self.eng.hash_mb;
        match Engine::with_variant(v, None, hash) {
            Ok(e) => self.eng = e,
            Err(e) => self.out.line(&format!("Error (variant): {e}")),
        }
    }

    /// Describes the current variant to the GUI.
    fn describe(&self) {
        let v = &self.eng.variant;
        if v.id == NORMAL {
            return;
        }
        self.out.line(&format!(
            "setup ({}) {}x{}+0_fairy {}",
            piece_to_char(v),
            v.files,
            v.ranks,
            crate::position::Position::start(&self.eng.rules).fen()
        ));
        let rs = &self.eng.rules;
        for (k, p) in v.pieces.iter().enumerate() {
            let extra: String = rs
                .hooks
                .iter()
                .filter_map(|h| h.notation_hint(rs, k))
                .collect();
            self.out
                .line(&format!("piece {} {}{extra}", p.letter, p.betza));
        }
    }

    fn user_move(&mut self, text: &str) {
        self.halt();
        let Some(mv) = self.eng.find_move(text) else {
            self.out.line(&format!("Illegal move: {text}"));
            return;
        };
        self.eng.pos.make(mv);
        if self.report_end() {
            return;
        }
        if self.analyzing {
            self.restart_analysis();
        } else if self.engine_side == Some(self.eng.pos.side()) {
            self.think();
        }
    }

    fn restart_analysis(&mut self) {
        if self.analyzing {
            self.think();
        }
    }

    /// Prints the result when the game is over; returns whether it is.
    fn report_end(&mut self) -> bool {
        match outcome(&mut self.eng.pos) {
            Some(o) => {
                self.out.line(&format!("{} {{{o}}}", o.result.pgn()));
                self.engine_side = None;
                true
            }
            None => false,
        }
    }

    fn think(&mut self) {
        let mut limits = if self.analyzing {
            Limits::default()
        } else {
            self.limits
        };
        if let Some(rem) = self.remaining.filter(|_| !self.analyzing) {
            limits.movetime = None;
            limits.clock = Some(Clock {
                remaining: rem,
                increment: self.increment,
                moves_to_go: self.moves_per_session.map(|m| self.to_go(m)),
            });
        }
        let post = self.post;
        let o1 = self.out.clone();
        let o2 = self.out.clone();
        let analyzing = self.analyzing;
        let pending = self.pending.clone();
        self.eng.go(
            limits,
            move |rules, info| {
                if post {
                    let score = match info.score {
                        Score::Cp(c) => c,
                        Score::Mate(m) if m > 0 => 100_000 + m,
                        Score::Mate(m) => -100_000 + m,
                    };
                    let pv = super::pv_text(rules, &info.pv);
                    o1.line(&format!(
                        "{} {} {} {} {}",
                        info.depth,
                        score,
                        info.elapsed.as_millis() / 10,
                        info.nodes,
                        pv
                    ));
                }
            },
            move |rules, r| {
                if analyzing {
                    return;
                }
                if let Some(m) = r.best {
                    if let Ok(mut p) = pending.lock() {
                        *p = Some(m);
                    }
                    o2.line(&format!("move {}", crate::text::coord(rules, m)));
                }
            },
        );
    }

    fn to_go(&self, mps: u32) -> u32 {
        let played = (self.eng.pos.fullmove_number().saturating_sub(1)) % mps.max(1);
        mps - played
    }

    /// `level MPS BASE INC`, BASE in minutes or minutes:seconds.
    fn level(&mut self, arg: &str) {
        let parts: Vec<&str> = arg.split_whitespace().collect();
        if parts.len() != 3 {
            self.out.line(&format!("Error (bad argument): level {arg}"));
            return;
        }
        let mps = parts[0].parse::<u32>().ok();
        let base = parts[1].split_once(':').map_or_else(
            || parts[1].parse::<f64>().ok().map(|m| m * 60.0),
            |(m, s)| Some(m.parse::<f64>().ok()? * 60.0 + s.parse::<f64>().ok()?),
        );
        let inc = parts[2].parse::<f64>().ok();
        match (mps, base, inc) {
            (Some(mps), Some(base), Some(inc)) => {
                self.moves_per_session = if mps == 0 { None } else { Some(mps) };
                self.increment = Duration::from_secs_f64(inc.max(0.0));
                self.remaining = Some(Duration::from_secs_f64(base.max(0.0)));
                self.limits = Limits::default();
            }
            _ => self.out.line(&format!("Error (bad argument): level {arg}")),
        }
    }

    fn option(&mut self, arg: &str) {
        match arg.split_once('=') {
            Some(("Setup", value)) => {
                self.halt();
                let v = self.eng.variant.clone();
                let hash = self.eng.hash_mb;
                let setup = if value.trim().is_empty() {
                    None
                } else {
                    Some(value.trim())
                };
                match Engine::with_variant(v, setup, hash) {
                    Ok(e) => {
                        self.eng = e;
                        self.describe();
                    }
                    Err(e) => self.out.line(&format!("tellusererror {e}")),
                }
            }
            _ => self.out.line(&format!("Error (unknown option): {arg}")),
        }
    }
}
