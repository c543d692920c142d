//! An engine process driven over pipes, in UCI or CECP (XBoard protocol v2).
//!
//! A reader thread turns the engine's standard output into lines on a channel, so every wait
//! has a deadline: an engine that stops answering is noticed, killed and waited for (no
//! zombie). Standard error goes to the null device so that a chatty engine cannot block.
//!
//! **Bounded.** A line longer than [`MAX_LINE`] bytes (or a stream without newlines past
//! that) is garbage: the engine loses, and the reader stops there. At most [`QUEUED_LINES`]
//! lines wait on the channel; past that the reader waits, and so does the engine's output.
//! The referee's memory stays bounded whatever an engine writes.
//!
//! **Interrupted.** Every wait also watches the match's interrupt flag (set on SIGINT or
//! SIGTERM), so that a stopped match does not wait out an engine's clock.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

use super::clean_text;
use crate::protocol::lineio::{Bounded, read_bounded_line};
use crate::protocol::xboard::xb_ranks;

/// The longest line an engine may write, in bytes.
pub const MAX_LINE: usize = 64 * 1024;
/// Lines read ahead of the referee, at most.
pub const QUEUED_LINES: usize = 256;
/// The longest engine name kept, in characters.
pub const MAX_NAME: usize = 200;
/// How much of an engine's line an error message quotes, in characters.
const QUOTED: usize = 200;
/// How often a wait looks at the interrupt flag.
const POLL: Duration = Duration::from_millis(50);

/// An interrupt flag that is never set (a match that cannot be interrupted).
pub static NEVER: AtomicBool = AtomicBool::new(false);

/// The protocol an engine speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    /// UCI.
    Uci,
    /// CECP (XBoard/WinBoard).
    Xboard,
}

impl std::str::FromStr for Protocol {
    type Err = String;
    fn from_str(s: &str) -> Result<Protocol, String> {
        match s {
            "uci" => Ok(Protocol::Uci),
            "xboard" | "cecp" => Ok(Protocol::Xboard),
            _ => Err(format!("unknown protocol `{s}` (uci, xboard or auto)")),
        }
    }
}

/// How to start an engine.
#[derive(Clone, Debug)]
pub struct EngineSpec {
    /// A shell command line, run as `sh -c COMMAND` in a process group of its own (so that
    /// `cd DIR && engine` works, and killing the engine kills whatever the line started).
    pub cmd: String,
    /// `None`: find out (UCI is tried first).
    pub protocol: Option<Protocol>,
    /// Options set after the handshake (`setoption` in UCI, `option NAME=VALUE` in CECP).
    pub options: Vec<(String, String)>,
    /// Set when the match is to stop: every wait on the engine ends with
    /// [`Failure::Interrupted`].
    pub interrupt: &'static AtomicBool,
    /// A search limit that replaces the clock (`--limit`), if any.
    pub limit: Option<SearchLimit>,
}

/// A limit on each search of an engine, in place of its clock: the engine is asked to search
/// so many nodes or to a depth, and no time is charged to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchLimit {
    /// `go nodes N` (UCI only: CECP has no node limit).
    Nodes(u64),
    /// `go depth D` in UCI, `sd D` in CECP.
    Depth(u32),
}

impl std::str::FromStr for SearchLimit {
    type Err = String;
    fn from_str(s: &str) -> Result<SearchLimit, String> {
        let bad = || format!("`{s}`: expected nodes=N or depth=D (whole numbers, at least 1)");
        let (k, v) = s.split_once('=').ok_or_else(bad)?;
        match (k.trim(), v.trim().parse::<u64>()) {
            (_, Ok(0)) | (_, Err(_)) => Err(bad()),
            ("nodes", Ok(n)) => Ok(SearchLimit::Nodes(n)),
            ("depth", Ok(d)) if d <= 200 => Ok(SearchLimit::Depth(d as u32)),
            ("depth", Ok(_)) => Err(format!("`{s}`: a depth of at most 200")),
            _ => Err(bad()),
        }
    }
}

impl std::fmt::Display for SearchLimit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SearchLimit::Nodes(n) => write!(f, "nodes={n}"),
            SearchLimit::Depth(d) => write!(f, "depth={d}"),
        }
    }
}

/// Why an engine failed; the game is lost by that engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The process ended or closed its output.
    Crash(String),
    /// No answer before the deadline.
    Hang(String),
    /// An answer that the protocol does not allow, or a refusal of a legal move.
    Garbage(String),
    /// The match was stopped while waiting: nobody's fault.
    Interrupted,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Crash(s) => write!(f, "crashed: {s}"),
            Failure::Hang(s) => write!(f, "stopped answering: {s}"),
            Failure::Garbage(s) => write!(f, "protocol error: {s}"),
            Failure::Interrupted => write!(f, "interrupted: the match was stopped"),
        }
    }
}

/// What the engine said when asked for a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// A move, as the engine wrote it.
    Move(String),
    /// The engine resigned.
    Resign,
}

/// How long the handshake and `isready`/`ping` may take.
const HANDSHAKE: Duration = Duration::from_secs(10);
/// How long a CECP engine that never sends `feature done=0` gets for its features.
const FEATURE_WAIT: Duration = Duration::from_secs(2);

/// A running engine.
pub struct EngineProc {
    child: Child,
    stdin: Option<ChildStdin>,
    rx: Receiver<Result<String, Failure>>,
    interrupt: &'static AtomicBool,
    /// The protocol it speaks.
    pub protocol: Protocol,
    /// The engine's name (`id name` / `myname`), or its command.
    pub name: String,
    /// UCI options the engine declared; CECP variants it declared.
    uci_options: Vec<String>,
    uci_variants: Vec<String>,
    xb_variants: Option<Vec<String>>,
    usermove: bool,
    setboard: bool,
    /// CECP: moves of the current game the engine knows, and whether it is in force mode.
    known: usize,
    forced: bool,
    ping: u32,
    /// The board's ranks (CECP numbers a ten-rank board's ranks from 0).
    ranks: u8,
    /// The search limit in place of the clock, if any.
    limit: Option<SearchLimit>,
}

impl EngineProc {
    /// Starts the engine and performs the handshake.
    pub fn start(spec: &EngineSpec) -> Result<EngineProc, String> {
        match spec.protocol {
            Some(p) => EngineProc::start_as(spec, p),
            None => match EngineProc::start_as(spec, Protocol::Uci) {
                Ok(e) => Ok(e),
                Err(uci_err) => EngineProc::start_as(spec, Protocol::Xboard)
                    .map_err(|e| format!("not UCI ({uci_err}), not CECP ({e})")),
            },
        }
    }

    fn start_as(spec: &EngineSpec, protocol: Protocol) -> Result<EngineProc, String> {
        let mut cmd = Command::new("sh");
        cmd.arg("-c")
            .arg(&spec.cmd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null());
        #[cfg(unix)]
        {
            use std::os::unix::process::CommandExt;
            // The shell and what it starts form a group whose id is the shell's pid.
            cmd.process_group(0);
        }
        let mut child = cmd
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", spec.cmd))?;
        let stdout = child.stdout.take().ok_or("no standard output")?;
        let stdin = child.stdin.take();
        let (tx, rx) = sync_channel(QUEUED_LINES);
        std::thread::spawn(move || {
            let mut reader = std::io::BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                let sent = match read_bounded_line(&mut reader, &mut buf, MAX_LINE) {
                    Bounded::Line(l) => tx.send(Ok(l)),
                    Bounded::TooLong => {
                        let _ = tx.send(Err(Failure::Garbage(format!(
                            "a line of more than {MAX_LINE} bytes"
                        ))));
                        break;
                    }
                    Bounded::End => break,
                };
                if sent.is_err() {
                    break;
                }
            }
        });
        let mut e = EngineProc {
            child,
            stdin,
            rx,
            interrupt: spec.interrupt,
            protocol,
            name: clean_text(&spec.cmd, MAX_NAME),
            uci_options: Vec::new(),
            uci_variants: Vec::new(),
            xb_variants: None,
            usermove: false,
            setboard: false,
            known: 0,
            forced: true,
            ping: 0,
            ranks: 8,
            limit: spec.limit,
        };
        if protocol == Protocol::Xboard && matches!(spec.limit, Some(SearchLimit::Nodes(_))) {
            e.kill();
            return Err(format!(
                "`{}`: a node limit needs UCI (CECP has no node limit; use depth=D)",
                spec.cmd
            ));
        }
        let r = match protocol {
            Protocol::Uci => e.uci_handshake(),
            Protocol::Xboard => e.xb_handshake(),
        };
        match r {
            Ok(()) => {
                for (n, v) in &spec.options {
                    match protocol {
                        Protocol::Uci => e.send(&format!("setoption name {n} value {v}")),
                        Protocol::Xboard => e.send(&format!("option {n}={v}")),
                    }
                    .map_err(|f| f.to_string())?;
                }
                Ok(e)
            }
            Err(msg) => {
                e.kill();
                Err(msg)
            }
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) -> Result<(), Failure> {
        let Some(w) = self.stdin.as_mut() else {
            return Err(Failure::Crash("its input is closed".into()));
        };
        writeln!(w, "{line}")
            .and_then(|_| w.flush())
            .map_err(|e| Failure::Crash(format!("writing `{line}`: {e}")))
    }

    /// The next line before `deadline`.
    fn recv(&mut self, deadline: Instant) -> Result<String, Failure> {
        let left = loop {
            if self.interrupt.load(Ordering::Relaxed) {
                return Err(Failure::Interrupted);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.rx.recv_timeout(left.min(POLL)) {
                Err(RecvTimeoutError::Timeout) if left > POLL => continue,
                r => break r,
            }
        };
        match left {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => Err(Failure::Hang("no answer in time".into())),
            Err(RecvTimeoutError::Disconnected) => {
                let status = self.child.try_wait().ok().flatten();
                Err(Failure::Crash(match status {
                    Some(s) => format!("exited ({s})"),
                    None => "closed its output".into(),
                }))
            }
        }
    }

    /// Reads lines until one satisfies `pred`.
    fn wait_for(
        &mut self,
        deadline: Instant,
        mut pred: impl FnMut(&mut Self, &str) -> bool,
    ) -> Result<String, Failure> {
        loop {
            let l = self.recv(deadline)?;
            if pred(self, l.trim()) {
                return Ok(l.trim().to_string());
            }
        }
    }

    fn uci_handshake(&mut self) -> Result<(), String> {
        self.send("uci").map_err(|e| e.to_string())?;
        let deadline = Instant::now() + HANDSHAKE;
        // A CECP engine answers `uci` with an error or its chatter: no need to wait.
        let mut cecp = None;
        let last = self
            .wait_for(deadline, |e, l| {
                if l.starts_with("Error") || l.starts_with("tellics") || l.starts_with("feature ") {
                    cecp = Some(clean_text(l, QUOTED));
                    return true;
                }
                if let Some(n) = l.strip_prefix("id name ") {
                    e.name = clean_text(n.trim(), MAX_NAME);
                } else if let Some(o) = l.strip_prefix("option name ") {
                    let name = o.split(" type ").next().unwrap_or("").trim().to_string();
                    if name == "UCI_Variant" {
                        let mut words = o.split_whitespace();
                        while let Some(w) = words.next() {
                            if w == "var"
                                && let Some(v) = words.next()
                            {
                                e.uci_variants.push(v.to_string());
                            }
                        }
                    }
                    e.uci_options.push(name);
                }
                l == "uciok"
            })
            .map_err(|e| format!("no `uciok` ({e})"))?;
        match cecp {
            Some(l) => Err(format!("answered `uci` with `{l}`")),
            None if last == "uciok" => Ok(()),
            None => Err("no `uciok`".into()),
        }
    }

    fn xb_handshake(&mut self) -> Result<(), String> {
        self.send("xboard").map_err(|e| e.to_string())?;
        self.send("protover 2").map_err(|e| e.to_string())?;
        let mut deadline = Instant::now() + FEATURE_WAIT;
        let mut any = false;
        loop {
            let l = match self.recv(deadline) {
                Ok(l) => l,
                // Without `done=0`, the features end when the engine falls silent.
                Err(Failure::Hang(_)) if any => break,
                Err(e) => return Err(format!("no `feature` lines ({e})")),
            };
            let Some(f) = l.trim().strip_prefix("feature ") else {
                continue;
            };
            any = true;
            let mut done = false;
            for (k, v) in features(f) {
                match k.as_str() {
                    "done" if v == "0" => deadline = Instant::now() + HANDSHAKE,
                    "done" => done = true,
                    "myname" => self.name = clean_text(&v, MAX_NAME),
                    "usermove" => self.usermove = v == "1",
                    "setboard" => self.setboard = v == "1",
                    "variants" => {
                        self.xb_variants =
                            Some(v.split(',').map(|s| s.trim().to_string()).collect())
                    }
                    _ => {}
                }
                if k != "done" {
                    self.send(&format!("accepted {k}"))
                        .map_err(|e| e.to_string())?;
                }
            }
            if done {
                break;
            }
        }
        Ok(())
    }

    /// Selects the variant (by its id; `chess` is CECP's `normal`) and waits until ready.
    pub fn select_variant(&mut self, id: &str, path: Option<&str>) -> Result<(), String> {
        match self.protocol {
            Protocol::Uci => {
                // A variant file goes by its path where the engine reads files: a built-in game
                // of the same name may differ from it (another network, other values, a
                // changed piece).
                if let Some(p) =
                    path.filter(|_| self.uci_options.iter().any(|o| o == "VariantPath"))
                {
                    self.send(&format!("setoption name VariantPath value {p}"))
                        .map_err(|e| e.to_string())?;
                } else if self.uci_variants.iter().any(|v| v == id) {
                    self.send(&format!("setoption name UCI_Variant value {id}"))
                        .map_err(|e| e.to_string())?;
                } else if id != "chess" {
                    return Err(format!("{} does not offer the variant `{id}`", self.name));
                }
                self.sync().map_err(|e| e.to_string())
            }
            Protocol::Xboard => {
                let xb = xb_variant(id);
                if xb != "normal"
                    && let Some(list) = &self.xb_variants
                    && !list.iter().any(|v| v == xb)
                {
                    return Err(format!(
                        "{} does not offer the variant `{xb}` (it offers {})",
                        self.name,
                        list.join(",")
                    ));
                }
                Ok(())
            }
        }
    }

    /// Whether the engine can start from a given position (UCI always can; CECP needs
    /// `setboard=1`, Fairy-Max for one has only the older `edit` mode, not supported here).
    pub fn can_set_position(&self) -> bool {
        self.protocol == Protocol::Uci || self.setboard
    }

    /// Sends `lines`, then reads the engine's lines until `done` accepts one, within `within`;
    /// the lines before it (a question the protocol leaves open, such as Fairy-Stockfish's
    /// `go perft 1`).
    pub fn exchange(
        &mut self,
        lines: &[&str],
        done: impl Fn(&str) -> bool,
        within: Duration,
    ) -> Result<Vec<String>, Failure> {
        for l in lines {
            self.send(l)?;
        }
        let deadline = Instant::now() + within;
        let mut said = Vec::new();
        loop {
            let l = self.recv(deadline)?;
            let l = l.trim();
            if done(l) {
                return Ok(said);
            }
            said.push(l.to_string());
        }
    }

    /// Waits until the engine has read everything sent (`isready` / `ping`).
    pub fn sync(&mut self) -> Result<(), Failure> {
        let deadline = Instant::now() + HANDSHAKE;
        match self.protocol {
            Protocol::Uci => {
                self.send("isready")?;
                self.wait_for(deadline, |_, l| l == "readyok")?;
            }
            Protocol::Xboard => {
                self.ping += 1;
                let want = format!("pong {}", self.ping);
                self.send(&format!("ping {}", self.ping))?;
                self.wait_for(deadline, |_, l| l == want)?;
            }
        }
        Ok(())
    }

    /// Starts a game: `variant` is the variant's id, `fen` the start position when it is not
    /// the variant's own, `tc` the base and increment in milliseconds.
    pub fn new_game(
        &mut self,
        variant: &str,
        fen: Option<&str>,
        tc: (u64, u64),
        ranks: u8,
    ) -> Result<(), Failure> {
        self.ranks = ranks;
        match self.protocol {
            Protocol::Uci => {
                self.send("ucinewgame")?;
            }
            Protocol::Xboard => {
                self.send("new")?;
                let xb = xb_variant(variant);
                if xb != "normal" {
                    self.send(&format!("variant {xb}"))?;
                }
                self.send("force")?;
                self.send("post")?;
                self.send("easy")?;
                self.send(&xb_level(tc))?;
                if let Some(SearchLimit::Depth(d)) = self.limit {
                    self.send(&format!("sd {d}"))?;
                }
                if let Some(f) = fen {
                    if !self.setboard {
                        return Err(Failure::Garbage(
                            "it cannot set up a position (no setboard=1)".into(),
                        ));
                    }
                    self.send(&format!("setboard {f}"))?;
                }
                self.known = 0;
                self.forced = true;
            }
        }
        self.sync()
    }

    /// Asks for a move: `moves` are the game's moves so far (coordinates), `fen` the start
    /// position (`None`: the variant's), `clocks` White's and Black's time left and `inc` the
    /// increment, in milliseconds; `mine` is the engine's clock. Waits until `deadline`.
    pub fn think(
        &mut self,
        fen: Option<&str>,
        moves: &[String],
        clocks: (i64, i64),
        incs: (u64, u64),
        white: bool,
        deadline: Instant,
    ) -> Result<(Reply, Instant), Failure> {
        let (w, b) = (clocks.0.max(1), clocks.1.max(1));
        match self.protocol {
            Protocol::Uci => {
                let mut cmd = match fen {
                    Some(f) => format!("position fen {f}"),
                    None => "position startpos".to_string(),
                };
                if !moves.is_empty() {
                    cmd.push_str(" moves ");
                    cmd.push_str(&moves.join(" "));
                }
                self.send(&cmd)?;
                self.send(&match self.limit {
                    Some(SearchLimit::Nodes(n)) => format!("go nodes {n}"),
                    Some(SearchLimit::Depth(d)) => format!("go depth {d}"),
                    None => format!("go wtime {w} btime {b} winc {} binc {}", incs.0, incs.1),
                })?;
                let sent = Instant::now();
                let l = self.wait_for(deadline, |_, l| l.starts_with("bestmove"))?;
                let at = Instant::now().max(sent);
                match l.split_whitespace().nth(1) {
                    Some(m) if m != "0000" && m != "(none)" => Ok((Reply::Move(m.to_string()), at)),
                    _ => Err(Failure::Garbage(format!(
                        "`{}` in a game that goes on",
                        clean_text(&l, QUOTED)
                    ))),
                }
            }
            Protocol::Xboard => {
                let (mine, theirs) = if white { (w, b) } else { (b, w) };
                self.send(&format!("time {}", mine / 10))?;
                self.send(&format!("otim {}", theirs / 10))?;
                let prefix = if self.usermove { "usermove " } else { "" };
                for m in &moves[self.known..] {
                    let m = xb_ranks(self.ranks, m, -1);
                    self.send(&format!("{prefix}{m}"))?;
                }
                if self.forced {
                    self.send("go")?;
                    self.forced = false;
                }
                self.known = moves.len();
                let sent = Instant::now();
                let l = self.wait_for(deadline, |_, l| {
                    l.starts_with("move ")
                        || l == "resign"
                        || l.starts_with("Illegal move")
                        || l.starts_with("tellusererror")
                })?;
                let at = Instant::now().max(sent);
                if let Some(m) = l.strip_prefix("move ") {
                    self.known += 1;
                    Ok((Reply::Move(xb_ranks(self.ranks, m.trim(), 1)), at))
                } else if l == "resign" {
                    Ok((Reply::Resign, at))
                } else {
                    Err(Failure::Garbage(format!(
                        "refused a legal move or position: `{}`",
                        clean_text(&l, QUOTED)
                    )))
                }
            }
        }
    }

    /// The search limit that replaces this engine's clock, if any.
    pub fn limit(&self) -> Option<SearchLimit> {
        self.limit
    }

    /// Tells a CECP engine the game is over (UCI has no such message).
    pub fn game_over(&mut self, result: &str, reason: &str) {
        if self.protocol == Protocol::Xboard {
            let _ = self.send(&format!("result {result} {{{reason}}}"));
            let _ = self.send("force");
            self.forced = true;
        }
    }

    /// Asks the engine to quit, then kills it if it has not gone after a moment, and waits for
    /// the process.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                // Whatever else the command line started (a background job) goes too.
                kill_group(&self.child);
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }

    /// Kills the process and everything its command line started, and reaps it.
    pub fn kill(&mut self) {
        // Before the input closes: an engine that ends at the end of its input could take
        // its shell with it, and the rest of the group would be left.
        kill_group(&self.child);
        self.stdin = None;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Sends SIGKILL to the process group of `child` (the engine's shell and what it started).
/// The group's id is the child's pid; where the child was reaped a moment ago, that id is
/// still nobody else's, as pids are handed out in sequence and not reused so soon.
#[cfg(unix)]
fn kill_group(child: &Child) {
    unsafe extern "C" {
        fn kill(pid: i32, sig: i32) -> i32;
    }
    const SIGKILL: i32 = 9;
    let Ok(pid) = i32::try_from(child.id()) else {
        return;
    };
    // SAFETY: kill(2) takes two integers and touches no memory of this process; a negative
    // pid names the process group that `process_group(0)` gave the child.
    unsafe {
        kill(-pid, SIGKILL);
    }
}

#[cfg(not(unix))]
fn kill_group(_: &Child) {}

impl Drop for EngineProc {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        }
    }
}

/// CECP's name for a variant id.
pub fn xb_variant(id: &str) -> &str {
    if id == "chess" { "normal" } else { id }
}

/// CECP's `level 0 BASE INC` for a base and increment in milliseconds. The base is written
/// `MIN:SEC` in whole seconds, rounded up to one second at least: a base of `0:00` reads as
/// no clock, and Fairy-Stockfish's current source then ignores the `time` commands that carry
/// the real clock (it keeps `time` only for a side that `level` gave a base; 11.1 does not
/// yet). The referee sends `time` before every move, so the rounding changes nothing else.
/// The increment is written in whole seconds when it is whole (Fairy-Stockfish reads an
/// integer there: `0.05` is 0 to it), else as a decimal.
pub fn xb_level(tc: (u64, u64)) -> String {
    let secs = tc.0.div_ceil(1000).max(1);
    let inc = if tc.1.is_multiple_of(1000) {
        (tc.1 / 1000).to_string()
    } else {
        format!("{}", tc.1 as f64 / 1000.0)
    };
    format!("level 0 {}:{:02} {inc}", secs / 60, secs % 60)
}

/// The `name=value` pairs of a `feature` line (values may be quoted).
pub fn features(s: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = s.trim();
    while !rest.is_empty() {
        let Some(eq) = rest.find('=') else { break };
        let name = rest[..eq].trim().to_string();
        rest = &rest[eq + 1..];
        let value;
        if let Some(r) = rest.strip_prefix('"') {
            let end = r.find('"').unwrap_or(r.len());
            value = r[..end].to_string();
            rest = r.get(end + 1..).unwrap_or("").trim_start();
        } else {
            let end = rest.find(' ').unwrap_or(rest.len());
            value = rest[..end].to_string();
            rest = rest[end..].trim_start();
        }
        out.push((name, value));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn level_never_says_a_zero_base_and_keeps_whole_increments_whole() {
        assert_eq!(xb_level((500, 10)), "level 0 0:01 0.01");
        assert_eq!(xb_level((5000, 50)), "level 0 0:05 0.05");
        assert_eq!(xb_level((1, 0)), "level 0 0:01 0");
        assert_eq!(xb_level((90_500, 2000)), "level 0 1:31 2");
        assert_eq!(xb_level((600_000, 0)), "level 0 10:00 0");
    }

    #[test]
    fn feature_lines_are_split_with_quotes() {
        let f = features(r#"myname="Fairy-Max 5.0b" variants="normal,shatranj" usermove=1 done=0"#);
        assert_eq!(
            f,
            vec![
                ("myname".into(), "Fairy-Max 5.0b".into()),
                ("variants".into(), "normal,shatranj".into()),
                ("usermove".into(), "1".into()),
                ("done".into(), "0".into()),
            ]
        );
    }
}
