//! Real XBoard (4.9, run headless under `xvfb-run`) plays short matches with Polymachy as
//! both engines, and the tests read XBoard's own PGN and debug output: no forfeit, no
//! illegal-move claim, no move altered between the engines, every game finished by the rules.
//!
//! The command line is the one `docs/protocols.md` gives. A depth limit (`-depth 3`) keeps the games
//! quick and independent of the machine's speed. XBoard's legality test is on where it can
//! express the rules: not in Metamachy (the king leap's conditions are beyond XBoard's
//! `piece` descriptions) nor in Shako (XBoard castles only on the back rank, Shako's king
//! castles on the second: XBoard refuses `f1h1`, its name for Polymachy's `f2h2`).
//!
//! Two tests put Fairy-Max 5.0b against Polymachy: Lions and Unicorns and
//! Metamachy, both with the legality test off (see `docs/protocols.md`).
//!
//! Without `xboard` or `xvfb-run` (or `fairymax` where needed) the tests fail under `CI` and
//! skip elsewhere.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

const BIN: &str = env!("CARGO_BIN_EXE_polymachy");

fn programs() -> Option<(PathBuf, PathBuf)> {
    match (
        common::find_program(&["xvfb-run"]),
        common::find_program(&["xboard"]),
    ) {
        (Some(x), Some(b)) => Some((x, b)),
        _ => {
            common::missing("xboard or xvfb-run");
            None
        }
    }
}

/// What one XBoard match left behind.
struct XbMatch {
    stdout: String,
    debug: String,
    pgn: String,
}

fn xboard_match(
    variant: &str,
    first: &str,
    second: &str,
    legality: bool,
    games: u32,
    extra: &[&str],
) -> Option<XbMatch> {
    let (xvfb, xboard) = programs()?;
    let dir = common::TempDir::new(&format!("xboard-{variant}-{}", first.len() + second.len()));
    let debug = dir.join("debug.txt");
    let pgn = dir.join("games.pgn");
    let games = games.to_string();
    let out = Command::new(xvfb)
        .arg("-a")
        .arg(xboard)
        .args(["-noGUI", "-fcp", first, "-scp", second, "-variant", variant])
        .args(["-mg", &games, "-tc", "5", "-depth", "3", "-xponder"])
        .arg(if legality { "-testLegality" } else { "-xlegal" })
        .args(if legality { &["true"][..] } else { &[][..] })
        .args(["-debug", "-nameOfDebugFile"])
        .arg(&debug)
        .arg("-saveGameFile")
        .arg(&pgn)
        .args(["-popupExitMessage", "false", "-soundProgram", "/bin/true"])
        .args(["-saveSettingsOnExit", "false", "-settingsFile", "/dev/null"])
        .args(extra)
        .current_dir(&dir.0)
        .output()
        .expect("xvfb-run runs");
    let read = |p: &Path| std::fs::read_to_string(p).unwrap_or_default();
    Some(XbMatch {
        stdout: String::from_utf8_lossy(&out.stdout).into_owned()
            + &String::from_utf8_lossy(&out.stderr),
        debug: read(&debug),
        pgn: read(&pgn),
    })
}

/// The checks every match must pass; returns the number of moves compared.
fn check(m: &XbMatch, variant: &str, games: usize) -> usize {
    let ctx = || format!("XBoard said:\n{}\nPGN:\n{}", tail(&m.stdout), m.pgn);
    assert!(m.stdout.contains("final score"), "{}", ctx());
    for bad in [
        "forfeit",
        "Forfeit",
        "False ",
        "Illegal move",
        "illegal-move",
    ] {
        let hits: Vec<&str> = m
            .debug
            .lines()
            .filter(|l| l.contains(bad))
            .take(3)
            .collect();
        assert!(
            hits.is_empty(),
            "`{bad}` in XBoard's debug output: {hits:?}"
        );
    }
    assert!(!m.debug.contains("tellusererror"), "{}", ctx());
    // Each game in the PGN, finished by the rules.
    let blocks: Vec<&str> = m.pgn.split("[Event ").skip(1).collect();
    assert_eq!(blocks.len(), games, "{}", ctx());
    for b in &blocks {
        assert!(
            b.contains(&format!("[Variant \"{variant}\"]")) || variant == "normal",
            "{b}"
        );
        let end = b.trim_end().lines().last().unwrap_or("");
        let by_rules = [
            "Checkmate",
            "Stalemate",
            "repetition",
            "move-count rule",
            "50-move",
            "Xboard adjudication: Checkmate",
            // Fairy-Max's claim of a mate, which XBoard passes on with its legality test off.
            "White mates}",
            "Black mates}",
        ];
        assert!(
            (end.ends_with("1-0") || end.ends_with("0-1") || end.ends_with("1/2-1/2"))
                && by_rules.iter().any(|r| b.contains(r)),
            "a game not finished by the rules: {end}\n{b}"
        );
    }
    let compared = compare_moves(m);
    assert!(
        compared >= 10,
        "only {compared} moves passed between engines\n{}",
        ctx()
    );
    compared
}

/// Every move an engine sent reached the other engine unchanged (XBoard alters nothing);
/// returns the number of moves compared.
fn compare_moves(m: &XbMatch) -> usize {
    let mut pending: [std::collections::VecDeque<String>; 2] = Default::default();
    let mut compared = 0;
    for l in m.debug.lines() {
        let l = l.split_once(' ').map_or(l, |x| x.1);
        let (who, rest) = if let Some(r) = l.strip_prefix("<first : ") {
            (0, ("<", r))
        } else if let Some(r) = l.strip_prefix("<second: ") {
            (1, ("<", r))
        } else if let Some(r) = l.strip_prefix(">first : ") {
            (0, (">", r))
        } else if let Some(r) = l.strip_prefix(">second: ") {
            (1, (">", r))
        } else {
            continue;
        };
        match rest {
            ("<", r) if r.starts_with("move ") => {
                pending[1 - who].push_back(r["move ".len()..].trim().to_string());
            }
            (">", r) if r.starts_with("usermove ") => {
                // XBoard logs `usermove ` and the move as two writes: the move is the last word.
                let got = r.split_whitespace().last().unwrap_or("").to_string();
                let sent = pending[who].pop_front();
                assert_eq!(
                    sent.as_deref(),
                    Some(got.as_str()),
                    "XBoard passed on a move altered"
                );
                compared += 1;
            }
            // An engine without `usermove=1` (Fairy-Max) gets the bare move.
            (">", r) if is_move(r) => {
                let sent = pending[who].pop_front();
                assert_eq!(
                    sent.as_deref(),
                    Some(r.trim()),
                    "XBoard passed on a move altered"
                );
                compared += 1;
            }
            (">", r) if r.starts_with("new") => pending[who].clear(),
            _ => {}
        }
    }
    compared
}

/// Whether `s` is a move in coordinate notation (`e2e4`, `a7a8q`), not an `edit`-mode line.
fn is_move(s: &str) -> bool {
    let b = s.trim().as_bytes();
    let mut i = 0;
    for _ in 0..2 {
        if i >= b.len() || !b[i].is_ascii_lowercase() {
            return false;
        }
        i += 1;
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        if i == start {
            return false;
        }
    }
    i == b.len() || (i + 1 == b.len() && b[i].is_ascii_lowercase())
}

fn tail(s: &str) -> String {
    let lines: Vec<&str> = s
        .lines()
        .filter(|l| !l.starts_with("ALSA") && !l.starts_with("aplay"))
        .collect();
    lines[lines.len().saturating_sub(20)..].join("\n")
}

fn polymachy_both_sides(variant: &str, legality: bool) {
    let me = format!("{BIN} xboard");
    let Some(m) = xboard_match(variant, &me, &me, legality, 2, &[]) else {
        return;
    };
    check(&m, variant, 2);
}

#[test]
fn xboard_metamachy_without_legality_test() {
    polymachy_both_sides("metamachy", false);
}

#[test]
fn xboard_perfect12_with_legality_test() {
    polymachy_both_sides("perfect12", true);
}

/// Without XBoard's legality test: with it, XBoard 4.9 refused a legal queenside castle of
/// Black's (f8d8 with the Rook from b8; its `O2` partner is the corner piece, here a Lion) and
/// forfeited the engine (`docs/protocols.md`, "Playing in XBoard").
#[test]
fn xboard_lions_and_unicorns_without_legality_test() {
    polymachy_both_sides("lions-and-unicorns", false);
}

#[test]
fn xboard_shako_without_legality_test() {
    polymachy_both_sides("shako", false);
}

/// Shogi: XBoard's own Shogi under the engine's `setup` and `piece` commands, drops and
/// optional promotions included, with XBoard testing every move.
#[test]
fn xboard_shogi_with_legality_test() {
    polymachy_both_sides("shogi", true);
}

/// The command that runs Fairy-Max 5.0b with `section` (a file in `tests/engines`) appended to
/// its own ini file, behind `tests/engines/fairymax-cecp.sh`, which drops the one command it
/// crashes on (`computer`, read as a move), with the folder that holds the ini file (keep it
/// while the engine runs). `None` (after failing under `CI` or saying so) without Fairy-Max.
fn fairy_max(section: &str) -> Option<(common::TempDir, String)> {
    let (Some(_fairymax), Ok(stock)) = (
        common::find_program(&["fairymax"]),
        std::fs::read_to_string("/usr/share/games/fairymax/fmax.ini"),
    ) else {
        common::missing("fairymax");
        return None;
    };
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines");
    let section = std::fs::read_to_string(dir.join(section)).unwrap();
    let tmp = common::TempDir::new(&format!("fairymax-{}", section.len()));
    let ini = tmp.join("fmax.ini");
    std::fs::write(&ini, stock + &section).unwrap();
    let wrapper = dir.join("fairymax-cecp.sh");
    Some((tmp, format!("{} 22 {}", wrapper.display(), ini.display())))
}

/// Polymachy against Fairy-Max 5.0b in Lions and Unicorns, legality test off (XBoard's `O2`
/// castling, see above). Fairy-Max gets
/// the variant from `tests/engines/fmax-lions-and-unicorns.ini` and the position (Knights in
/// front of the Lions) through XBoard's `edit` mode, as it has no `setboard`; its `random` is
/// left out of the start string so that the games repeat.
#[test]
fn xboard_lions_and_unicorns_against_fairy_max() {
    let Some((_ini, fm)) = fairy_max("fmax-lions-and-unicorns.ini") else {
        return;
    };
    let me = format!("{BIN} xboard");
    let Some(m) = xboard_match(
        "lions-and-unicorns",
        &me,
        &fm,
        false,
        2,
        &["-secondInitString", "new\n"],
    ) else {
        return;
    };
    assert!(m.stdout.contains("Fairy-Max"), "{}", tail(&m.stdout));
    check(&m, "lions-and-unicorns", 2);
}

/// Polymachy against Fairy-Max 5.0b in Metamachy under the settings of `docs/protocols.md`: legality test
/// off (`-xlegal`), so that XBoard does not pass an illegal king leap and then rule against
/// the engine that refuses it. Fairy-Max plays from `tests/engines/fmax-metamachy.ini`, whose
/// King leaps unconditionally on its first move. With the test off, XBoard 4.9 answers an
/// `Illegal move` from an engine by taking the move back and leaving the mover's clock
/// running; with `-autoCallFlag true` the game ends when that clock runs out, against the side
/// whose move was refused (without it the game stalls). Two games of at most 30 moves each
/// (`-adjudicateDrawMoves 30`: XBoard then calls a draw, "long game"), one minute for 40
/// moves, which leaves Fairy-Max time for its 3 plies, so the games repeat. Asserted: XBoard finished the match; no game
/// was lost by Polymachy except by checkmate; Fairy-Max never refused a move of Polymachy's;
/// a move Polymachy refused (a rule-breaking leap) cost Fairy-Max the game; every move
/// reached the other engine unchanged.
#[test]
fn xboard_metamachy_against_fairy_max() {
    let Some((_ini, fm)) = fairy_max("fmax-metamachy.ini") else {
        return;
    };
    let me = format!("{BIN} xboard");
    let extra = [
        "-secondInitString",
        "new\n",
        "-tc",
        "1",
        "-adjudicateDrawMoves",
        "30",
        "-autoCallFlag",
        "true",
    ];
    let Some(m) = xboard_match("metamachy", &me, &fm, false, 2, &extra) else {
        return;
    };
    let ctx = || format!("XBoard said:\n{}\nPGN:\n{}", tail(&m.stdout), m.pgn);
    assert!(m.stdout.contains("Fairy-Max"), "{}", ctx());
    assert!(m.stdout.contains("final score"), "{}", ctx());
    // Claims: Polymachy is the first engine, Fairy-Max the second.
    let refused_by = |who: &str| {
        m.debug
            .lines()
            .filter(|l| l.contains(&format!("<{who}: Illegal move")))
            .count()
    };
    assert_eq!(
        refused_by("second"),
        0,
        "Fairy-Max refused a move\n{}",
        ctx()
    );
    let polymachy_claims = refused_by("first ");
    let blocks: Vec<&str> = m.pgn.split("[Event ").skip(1).collect();
    assert_eq!(blocks.len(), 2, "{}", ctx());
    let mut fairy_max_forfeits = 0;
    for b in &blocks {
        assert!(b.contains("[Variant \"metamachy\"]"), "{b}");
        let white_is_me = b.contains("[White \"Polymachy");
        let end = b.trim_end().lines().last().unwrap_or("");
        let (my_loss, my_win) = match (end.ends_with("1-0"), end.ends_with("0-1")) {
            (true, _) => (!white_is_me, white_is_me),
            (_, true) => (white_is_me, !white_is_me),
            _ => (false, false),
        };
        assert!(
            end.ends_with("1-0") || end.ends_with("0-1") || end.ends_with("1/2-1/2"),
            "unfinished game: {end}\n{b}"
        );
        for bad in ["False", "forfeit", "Forfeit"] {
            assert!(!end.contains(bad) || my_win, "{end}\n{b}");
        }
        if my_loss {
            assert!(
                end.contains("Checkmate") || end.contains("mates"),
                "{end}\n{b}"
            );
        } else if !my_win || !(end.contains("Checkmate") || end.contains("mates")) {
            let by_rules = [
                "Stalemate",
                "repetition",
                "move-count",
                "50-move",
                "long game",
            ];
            let on_time = my_win && end.contains("time");
            fairy_max_forfeits += usize::from(on_time);
            assert!(
                on_time || by_rules.iter().any(|r| end.contains(r)),
                "a game not finished by the rules: {end}\n{b}"
            );
        }
    }
    // Each leap Polymachy refused ended its game, against Fairy-Max.
    assert_eq!(polymachy_claims, fairy_max_forfeits, "{}", ctx());
    let compared = compare_moves(&m);
    assert!(compared >= 20, "only {compared} moves compared\n{}", ctx());
}
