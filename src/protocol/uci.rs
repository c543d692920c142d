//! UCI, with Fairy-Stockfish's conventions for variants: the `UCI_Variant` option selects the
//! game, `VariantPath` loads a variant file (here a Polymachy `.toml` file, which becomes the
//! current variant), and moves are in coordinate notation (`a10a12`, promotions `e11e12q`).
//! Polymachy adds a `Setup` option (a setup choice, as `--setup`).

use std::time::Duration;

/// The most lines `MultiPV` may ask for.
const MAX_MULTIPV: usize = 64;

use super::{DEFAULT_HASH_MB, Engine, Out};
use crate::search::{Clock, Limits};
use crate::session::Session;
use crate::variant::{BUILTIN, Variant};

/// Runs a UCI session over `lines` until `quit` or the end of input.
pub fn run(
    lines: impl Iterator<Item = String>,
    out: Out,
    variant: &str,
    setup: Option<&str>,
) -> Result<(), String> {
    let mut eng = Engine::new(variant, setup, DEFAULT_HASH_MB)?;
    let mut variant_name = eng.variant.id.clone();
    let mut setup_choice = setup.map(|s| s.to_string());
    // Whether the running search has no limit (it must be stopped at the end of input).
    let mut unbounded = false;
    for line in lines {
        if super::lineio::is_too_long(&line) {
            out.line(&format!(
                "info string error: the line `{}` is longer than {} bytes (ignored)",
                super::lineio::shown(&line),
                super::lineio::MAX_LINE_BYTES
            ));
            continue;
        }
        if super::lineio::is_garbled(&line) {
            out.line(&format!(
                "info string error: the line `{}` is not valid UTF-8 (ignored)",
                super::lineio::shown(line.trim())
            ));
            continue;
        }
        let line = line.trim();
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { continue };
        let rest: Vec<&str> = words.collect();
        match cmd {
            "uci" => identify(&out, &variant_name),
            "isready" => out.line("readyok"),
            "debug" | "register" | "ponderhit" => {}
            "ucinewgame" => eng.new_game(),
            "setoption" => {
                eng.stop();
                let result = set_option(&mut eng, &rest, &mut variant_name, &mut setup_choice);
                if let Err(e) = result {
                    out.line(&format!("info string error: {}", e.replace('\n', " | ")));
                }
            }
            "position" => {
                eng.stop();
                match position(&mut eng, &rest) {
                    Err(e) => out.line(&format!("info string error: {e}")),
                    Ok(()) if rest.first() == Some(&"fen") => {
                        for w in eng.game.position().oddities() {
                            out.line(&format!("info string warning: {w}"));
                        }
                    }
                    Ok(()) => {}
                }
            }
            "go" => {
                if let Some(u) = go(&mut eng, &rest, &out) {
                    unbounded = u;
                }
            }
            "stop" => eng.stop(),
            "quit" => {
                eng.stop();
                return Ok(());
            }
            // As Stockfish: the static evaluation of the position, for comparing evaluations.
            "eval" => {
                eng.stop();
                let cp = eng.static_eval_white();
                out.line(&format!(
                    "Total evaluation: {:.2} (white side) [{cp} cp]",
                    cp as f64 / 100.0
                ));
            }
            // Polymachy extension for people at the console.
            "d" => out.line(&format!(
                "{}\nFen: {}",
                crate::text::board::draw(eng.game.position(), eng.game.last_move(), true),
                eng.game.fen()
            )),
            _ => out.line(&format!("info string unknown command: {line}")),
        }
    }
    // End of input: a bounded search may finish and report its move.
    if unbounded {
        eng.stop();
    } else {
        eng.wait();
    }
    Ok(())
}

/// The answer to `uci`: the engine's name and options, then `uciok`.
fn identify(out: &Out, variant_name: &str) {
    out.line(&format!("id name Polymachy {}", env!("CARGO_PKG_VERSION")));
    out.line("id author the Polymachy developers");
    let vars: Vec<String> = BUILTIN.iter().map(|(n, _)| format!("var {n}")).collect();
    out.line(&format!(
        "option name UCI_Variant type combo default {variant_name} {}",
        vars.join(" ")
    ));
    out.line("option name VariantPath type string default <empty>");
    out.line("option name Setup type string default <empty>");
    out.line(&format!(
        "option name Hash type spin default {DEFAULT_HASH_MB} min {} max {}",
        crate::search::tt::MIN_HASH_MB,
        crate::search::tt::MAX_HASH_MB
    ));
    out.line(&format!(
        "option name Threads type spin default 1 min 1 max {}",
        crate::search::MAX_THREADS
    ));
    out.line("option name ContHistory type check default false");
    out.line("option name UseNetwork type check default true");
    out.line(&format!(
        "option name MultiPV type spin default 1 min 1 max {MAX_MULTIPV}"
    ));
    out.line(&format!(
        "option name Move Overhead type spin default {} min 0 max {}",
        crate::search::DEFAULT_MOVE_OVERHEAD_MS,
        crate::search::time::MAX_MOVE_OVERHEAD_MS
    ));
    out.line("uciok");
}

/// `setoption name NAME [value VALUE]` (the words after `setoption`).
fn set_option(
    eng: &mut Engine,
    rest: &[&str],
    variant_name: &mut String,
    setup_choice: &mut Option<String>,
) -> Result<(), String> {
    let (name, value) = parse_setoption(rest);
    if rest.first() != Some(&"name") || name.is_empty() {
        return Err("expected `setoption name NAME [value VALUE]`".to_string());
    }
    match name.to_ascii_lowercase().as_str() {
        "uci_variant" => {
            *variant_name = value.clone();
            switch(
                eng,
                Variant::load(&value).map_err(|e| e.to_string()),
                setup_choice.as_deref(),
            )
        }
        "variantpath" => {
            if value.is_empty() || value == "<empty>" {
                Ok(())
            } else {
                let r = switch(
                    eng,
                    Variant::load(&value).map_err(|e| e.to_string()),
                    setup_choice.as_deref(),
                );
                if r.is_ok() {
                    *variant_name = eng.variant.id.clone();
                }
                r
            }
        }
        "setup" => {
            *setup_choice = if value.is_empty() || value == "<empty>" {
                None
            } else {
                Some(value.clone())
            };
            let v = eng.variant.clone();
            switch(eng, Ok(v), setup_choice.as_deref())
        }
        "hash" => match crate::search::tt::parse_hash_mb(&value) {
            Ok(mb) => eng.set_hash(mb).map_err(|e| format!("Hash: {e}")),
            Err(e) => Err(format!("Hash {e}")),
        },
        "threads" => match value.parse::<usize>() {
            Ok(n) if (1..=crate::search::MAX_THREADS).contains(&n) => {
                eng.set_threads(n);
                Ok(())
            }
            _ => Err(format!(
                "Threads must be a number from 1 to {}, got `{value}`",
                crate::search::MAX_THREADS
            )),
        },
        "conthistory" => match value.to_ascii_lowercase().as_str() {
            "true" | "false" => {
                eng.cont_history = value.eq_ignore_ascii_case("true");
                Ok(())
            }
            _ => Err(format!("ContHistory must be true or false, got `{value}`")),
        },
        "usenetwork" => match value.to_ascii_lowercase().as_str() {
            "true" | "false" => {
                eng.stop();
                eng.use_network = value.eq_ignore_ascii_case("true");
                Ok(())
            }
            _ => Err(format!("UseNetwork must be true or false, got `{value}`")),
        },
        "multipv" => match value.parse::<usize>() {
            Ok(n) if (1..=MAX_MULTIPV).contains(&n) => {
                eng.stop();
                eng.multipv = n;
                Ok(())
            }
            _ => Err(format!(
                "MultiPV must be a number from 1 to {MAX_MULTIPV}, got `{value}`"
            )),
        },
        "move overhead" => match crate::search::time::parse_move_overhead(&value) {
            Ok(ms) => {
                eng.move_overhead_ms = ms;
                Ok(())
            }
            Err(e) => Err(format!("Move Overhead {e}")),
        },
        _ => Err(format!("unknown option `{name}`")),
    }
}

/// `go ...`: starts a search that reports each iteration and its best move. Returns whether
/// the search has no limit, or `None` when the command was refused.
fn go(eng: &mut Engine, rest: &[&str], out: &Out) -> Option<bool> {
    let limits = match parse_go(
        rest,
        eng.game.side_to_move() == crate::geometry::Color::White,
    ) {
        Ok(l) => l,
        Err(e) => {
            out.line(&format!("info string error: {e} (go ignored)"));
            return None;
        }
    };
    let unbounded = limits == Limits::default();
    let several = eng.multipv > 1;
    let o1 = out.clone();
    let o2 = out.clone();
    eng.go(
        limits,
        move |rules, info| {
            let pv = super::pv_text(rules, &info.pv);
            let line = if several {
                format!(" multipv {}", info.multipv)
            } else {
                String::new()
            };
            o1.line(&format!(
                "info depth {} seldepth {}{line} score {} nodes {} nps {} time {} pv {}",
                info.depth,
                info.seldepth,
                info.score.uci(),
                info.nodes,
                info.nps(),
                info.elapsed.as_millis(),
                pv
            ));
        },
        move |rules, r| match r.best {
            Some(m) => o2.line(&format!("bestmove {}", crate::session::coord(rules, m))),
            None => o2.line("bestmove 0000"),
        },
    );
    Some(unbounded)
}

fn switch(eng: &mut Engine, v: Result<Variant, String>, setup: Option<&str>) -> Result<(), String> {
    let v = v?;
    let hash = eng.hash_mb;
    let new = Engine::with_variant(v, setup, hash)?;
    let old = std::mem::replace(eng, new);
    eng.keep_settings(&old);
    Ok(())
}

/// `name X Y value Z W` → ("X Y", "Z W").
fn parse_setoption(words: &[&str]) -> (String, String) {
    let mut name = Vec::new();
    let mut value = Vec::new();
    let mut in_value = false;
    for &w in words.iter().skip_while(|w| **w == "name") {
        if w == "value" && !in_value {
            in_value = true;
            continue;
        }
        if in_value {
            value.push(w);
        } else if w != "name" {
            name.push(w);
        }
    }
    (name.join(" "), value.join(" "))
}

/// `position startpos|fen FEN [moves ...]`.
fn position(eng: &mut Engine, words: &[&str]) -> Result<(), String> {
    let moves_at = words
        .iter()
        .position(|w| *w == "moves")
        .unwrap_or(words.len());
    let mut game = match words.first() {
        Some(&"startpos") => Session::new(&eng.rules),
        Some(&"fen") => Session::from_fen(&eng.rules, &words[1..moves_at].join(" "))?,
        _ => return Err("expected `position startpos` or `position fen FEN`".into()),
    };
    if moves_at < words.len() && words[0] == "startpos" && moves_at != 1 {
        return Err(format!("unexpected `{}` after `startpos`", words[1]));
    }
    game.follow_arbiter();
    // The position changes only when the whole command is good.
    for m in words.iter().skip(moves_at + 1) {
        if game.play_text(m).is_err() {
            return Err(format!("illegal move `{m}` in position {}", game.fen()));
        }
    }
    eng.set_game(game);
    Ok(())
}

/// A number of a `go` command: up to `u64::MAX` (`go nodes 18446744073709551615`), a
/// negative one counting as 0.
fn go_number(s: &str) -> Option<u64> {
    s.parse::<u64>()
        .ok()
        .or_else(|| s.parse::<i64>().ok().map(|n| n.max(0) as u64))
}

/// The limits of a `go` command, or what is wrong with it (then no search starts).
fn parse_go(words: &[&str], white: bool) -> Result<Limits, String> {
    let mut l = Limits::default();
    let (mut wtime, mut btime, mut winc, mut binc, mut mtg) = (None, None, 0, 0, None);
    let mut infinite = false;
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        i += 1;
        match w {
            "infinite" => {
                infinite = true;
                continue;
            }
            "ponder" => continue,
            // Restricting the root moves is not supported: the rest of the line is ignored.
            "searchmoves" => break,
            "depth" | "nodes" | "movetime" | "wtime" | "btime" | "winc" | "binc" | "movestogo"
            | "mate" => {}
            _ => return Err(format!("unknown `go` parameter `{w}`")),
        }
        let n = match words.get(i).map(|s| go_number(s)) {
            Some(Some(n)) => n,
            Some(None) => return Err(format!("`go {w}` needs a number, found `{}`", words[i])),
            None => return Err(format!("`go {w}` needs a number")),
        };
        i += 1;
        match w {
            "depth" => l.depth = Some(n.clamp(1, 90) as u32),
            "mate" => l.depth = Some((2 * n).clamp(1, 90) as u32),
            "nodes" => l.nodes = Some(n),
            "movetime" => l.movetime = Some(Duration::from_millis(n)),
            "wtime" => wtime = Some(n),
            "btime" => btime = Some(n),
            "winc" => winc = n,
            "binc" => binc = n,
            _ => mtg = Some(n.min(u32::MAX as u64) as u32),
        }
    }
    let (time, inc) = if white { (wtime, winc) } else { (btime, binc) };
    if let Some(t) = time {
        l.clock = Some(Clock {
            remaining: Duration::from_millis(t),
            increment: Duration::from_millis(inc),
            moves_to_go: mtg,
        });
    }
    if infinite {
        l = Limits::default();
    }
    Ok(l)
}
