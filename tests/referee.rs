//! `polymachy match`: real engines (Fairy-Stockfish over UCI) and deliberately broken ones.
//!
//! Tests that need an outside program fail when `CI` is set and it is missing (`.ci/run`
//! installs them through `scripts/install-deps.sh`); elsewhere they say so and skip.

mod common;

use common::{need, pyffish_ok};

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_polymachy");

fn engines_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/engines")
}

fn run_match(args: &[&str]) -> common::Run {
    let mut all = vec!["match"];
    all.extend_from_slice(args);
    common::run_binary(&all, "")
}

/// Processes whose command line contains `needle` (a broken engine still alive).
fn processes_with(needle: &str) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        if let Ok(c) = std::fs::read(e.path().join("cmdline")) {
            let c = String::from_utf8_lossy(&c).replace('\0', " ");
            if c.contains(needle) && !c.contains("cargo") {
                // A zombie's status says Z.
                let st = std::fs::read_to_string(e.path().join("stat")).unwrap_or_default();
                found.push(format!("{c} [{st}]"));
            }
        }
    }
    found
}

/// The protocol both engines speak to the referee.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Proto {
    Uci,
    /// CECP (XBoard protocol v2): Fairy-Stockfish in its `xboard` mode, Polymachy as
    /// `polymachy xboard`.
    Cecp,
}

fn vs_fairy_stockfish(variant: &str, extra: &[&str]) -> String {
    vs_fairy_stockfish_over(variant, Proto::Uci, extra)
}

/// Four games of `variant`, Polymachy against Fairy-Stockfish over `proto`, at 0.5+0.01; every
/// move re-validated by pyffish. The PGN's text (empty when a program is missing).
fn vs_fairy_stockfish_over(variant: &str, proto: Proto, extra: &[&str]) -> String {
    let Some(fsf) = common::find_program(&["fairy-stockfish"]) else {
        need("fairy-stockfish", false);
        return String::new();
    };
    if !need("python3 with pyffish (pip install pyffish)", pyffish_ok()) {
        return String::new();
    }
    // One folder per match: the tests run side by side.
    static MATCHES: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = MATCHES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = common::TempDir::new(&format!("referee-{variant}-{n}"));
    let pgn = dir.join(format!("{variant}.pgn"));
    let me = match proto {
        Proto::Uci => format!("{BIN} uci"),
        Proto::Cecp => format!("{BIN} xboard"),
    };
    let mut args = vec![
        "-v",
        variant,
        "--engine",
        &me,
        "--engine",
        fsf.to_str().unwrap(),
        "--games",
        "4",
        "--tc",
        "0.5+0.01",
        "--engine-option",
        "2:Hash=8",
        "--pgn",
        pgn.to_str().unwrap(),
    ];
    if proto == Proto::Cecp {
        args.extend_from_slice(&["--protocol", "xboard", "--protocol", "xboard"]);
    }
    args.extend_from_slice(extra);
    let r = run_match(&args);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let spoken = match proto {
        Proto::Uci => "ready (UCI)",
        Proto::Cecp => "ready (CECP)",
    };
    assert_eq!(r.stdout.matches(spoken).count(), 2, "{}", r.stdout);
    // No engine failed: no move was refused or misread (a square named in the other
    // protocol's numbering would be an illegal move).
    for failure in [
        "illegal move",
        "protocol error",
        "stopped answering",
        "crashed",
    ] {
        assert!(!r.stdout.contains(failure), "{failure}: {}", r.stdout);
    }
    assert_eq!(
        r.stdout.lines().filter(|l| l.starts_with("game ")).count(),
        4,
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(": 4 games, +"), "{}", r.stdout);
    assert!(r.stdout.contains("Elo difference: "), "{}", r.stdout);
    // No engine failed: every game ended on the board or by adjudication.
    assert!(!r.stdout.contains("restarted"), "{}", r.stdout);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"").count(), 4, "{text}");
    assert_eq!(
        text.matches(&format!("[Variant \"{variant}\"]")).count(),
        4,
        "{text}"
    );
    for tag in [
        "[VariantMen ",
        "[TimeControl \"0.5+0.01\"]",
        "[Termination ",
        "[Result ",
    ] {
        assert_eq!(text.matches(tag).count(), 4, "{tag} in {text}");
    }
    // Fairy-Stockfish's own rules (through pyffish) accept every move of every game.
    let v = Command::new("python3")
        .arg(engines_dir().join("validate_pgn.py"))
        .arg(&pgn)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&v.stdout);
    assert!(v.status.success(), "{said}\n{text}");
    assert_eq!(said.matches("every move legal").count(), 4, "{said}");
    text
}

#[test]
fn four_games_of_shako_against_fairy_stockfish_revalidated_by_pyffish() {
    vs_fairy_stockfish("shako", &[]);
}

#[test]
fn four_games_of_xiangqi_against_fairy_stockfish_revalidated_by_pyffish() {
    vs_fairy_stockfish("xiangqi", &[]);
}

#[test]
fn four_games_of_makruk_against_fairy_stockfish_revalidated_by_pyffish() {
    vs_fairy_stockfish("makruk", &[]);
}

#[test]
fn four_games_of_crazyhouse_against_fairy_stockfish_revalidated_by_pyffish() {
    vs_fairy_stockfish("crazyhouse", &[]);
}

/// Four games of each variant named here against Fairy-Stockfish, both engines speaking CECP
/// (XBoard protocol v2), each game re-validated by pyffish: one line per variant,
/// `TEST_NAME => "variant";`.
macro_rules! over_cecp_against_fairy_stockfish {
    ($($test:ident => $variant:literal;)*) => {$(
        #[test]
        fn $test() {
            vs_fairy_stockfish_over($variant, Proto::Cecp, &[]);
        }
    )*};
}

over_cecp_against_fairy_stockfish! {
    four_games_of_xiangqi_over_cecp_against_fairy_stockfish => "xiangqi";
    four_games_of_makruk_over_cecp_against_fairy_stockfish => "makruk";
    four_games_of_crazyhouse_over_cecp_against_fairy_stockfish => "crazyhouse";
    four_games_of_shogi_over_cecp_against_fairy_stockfish => "shogi";
}

/// Crazyhouse over CECP from a position with Knights in both hands: the `setboard` FEN carries
/// the hands in brackets, as Fairy-Stockfish reads them, and the PGN's FEN keeps them.
#[test]
fn crazyhouse_over_cecp_from_a_position_with_pieces_in_hand() {
    let dir = common::TempDir::new("referee-zh-hands");
    let epd = dir.join("hands.epd");
    std::fs::write(
        &epd,
        "r1bqkb1r/pppppppp/8/8/8/8/PPPPPPPP/R1BQKB1R[NNnn] w KQkq - 0 1\n",
    )
    .unwrap();
    let text = vs_fairy_stockfish_over(
        "crazyhouse",
        Proto::Cecp,
        &["--openings", epd.to_str().unwrap()],
    );
    if !text.is_empty() {
        let fens: Vec<&str> = text.lines().filter(|l| l.starts_with("[FEN ")).collect();
        assert_eq!(fens.len(), 4, "{text}");
        for f in fens {
            assert!(f.contains("/R1BQKB1R[NNnn] w "), "{f}");
        }
    }
}

#[test]
fn four_games_of_shogi_against_fairy_stockfish_revalidated_by_pyffish() {
    vs_fairy_stockfish("shogi", &[]);
}

#[test]
fn four_games_of_chess_from_random_openings_against_fairy_stockfish() {
    let text = vs_fairy_stockfish("chess", &["--random-plies", "4", "--seed", "7"]);
    // The random openings are written as FEN/SetUp (checked when the test ran).
    if !text.is_empty() {
        assert_eq!(text.matches("[SetUp \"1\"]").count(), 4, "{text}");
        assert_eq!(text.matches("[FEN \"").count(), 4, "{text}");
    }
}

/// Two games of chess at 0.3 s a side, Polymachy (engine 1) against the engine line `other`.
fn two_games_against(other: &str, hang_margin: &str) -> common::Run {
    let me = format!("{BIN} uci");
    run_match(&[
        "-v",
        "chess",
        "--engine",
        &me,
        "--engine",
        other,
        "--games",
        "2",
        "--tc",
        "0.3+0",
        "--hang-margin",
        hang_margin,
    ])
}

/// Polymachy against a broken engine: both games go to Polymachy, each failure is named,
/// the match finishes and no engine process is left behind.
fn against_broken(how: &str, expect: &str) {
    let script = engines_dir().join("broken-uci.sh");
    let broken = format!("{} {how}", script.display());
    // The slow engine must be heard from before it counts as hung.
    let r = two_games_against(&broken, if how == "slow" { "3000" } else { "300" });
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let games: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .collect();
    assert_eq!(games.len(), 2, "{}", r.stdout);
    for g in &games {
        assert!(g.contains(expect), "{g}");
        assert!(g.contains(&format!("broken-{how}")), "{g}");
    }
    // Game 1: Polymachy White wins; game 2: Polymachy Black wins.
    assert!(games[0].contains(" 1-0 "), "{}", games[0]);
    assert!(games[1].contains(" 0-1 "), "{}", games[1]);
    assert!(r.stdout.contains(": 2 games, +2 =0 -0"), "{}", r.stdout);
    let left = processes_with(&format!("broken-uci.sh {how}"));
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// An engine command is a shell line: `cd DIR && ./engine` works, and when the referee kills
/// a hung engine it kills everything the line started (here a background `sleep`).
#[test]
fn an_engine_line_with_shell_syntax_runs_and_is_killed_whole() {
    let marker = format!("sleep 73{}", std::process::id() % 100 + 100);
    let line = format!(
        "{marker} & cd '{}' && ./broken-uci.sh silent",
        engines_dir().display()
    );
    let r = two_games_against(&line, "300");
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("broken-silent"), "{}", r.stdout);
    assert!(r.stdout.contains(": 2 games, +2 =0 -0"), "{}", r.stdout);
    let left = processes_with(&marker);
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn an_illegal_move_loses_and_is_logged_with_the_position() {
    against_broken("illegal", "played the illegal move `a1a1` in ");
}

#[test]
fn an_engine_that_never_answers_loses_and_is_restarted() {
    against_broken("silent", "stopped answering");
}

#[test]
fn an_engine_that_crashes_loses_and_is_restarted() {
    against_broken("crash", "crashed");
}

#[test]
fn a_move_after_the_flag_falls_loses_on_time() {
    // The clock is checked before the move: the slow engine's `a1a1` is never looked at.
    against_broken("slow", "lost on time");
}

#[test]
fn an_answer_without_a_move_loses() {
    against_broken("garbage", "protocol error");
}

#[test]
fn bad_match_arguments_are_reported() {
    let me = format!("{BIN} uci");
    for (args, msg) in [
        (vec!["--engine", &me], "needs two --engine"),
        (
            vec!["--engine", &me, "--engine", &me, "--tc", "x"],
            "is not a number of seconds",
        ),
        (
            vec!["--engine", &me, "--engine", &me, "--sprt", "5,0"],
            "ELO0 < ELO1",
        ),
        (
            vec!["--engine", &me, "--engine", "/nonexistent/engine"],
            "engine 2",
        ),
        (
            vec!["--engine", &me, "--engine", &me, "-v", "nosuchgame"],
            "nosuchgame",
        ),
    ] {
        let r = run_match(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains(msg), "{args:?}: {}", r.stderr);
    }
}

#[test]
fn polymachy_against_itself_over_cecp_with_an_opening_file() {
    let dir = common::TempDir::new("referee-cecp");
    let epd = dir.join("openings.epd");
    std::fs::write(
        &epd,
        "# two openings, each played twice\nrnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - ;\nrnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq -\n",
    )
    .unwrap();
    let pgn = dir.join("cecp.pgn");
    let me = format!("{BIN} xboard");
    let r = run_match(&[
        "-v",
        "chess",
        "--engine",
        &me,
        "--engine",
        &me,
        "--protocol",
        "xboard",
        "--protocol",
        "auto",
        "--games",
        "4",
        "--tc",
        "0.5+0.01",
        "--max-moves",
        "20",
        "--openings",
        epd.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(r.stdout.contains("(CECP)"), "{}", r.stdout);
    assert!(!r.stdout.contains("restarted"), "{}", r.stdout);
    let text = std::fs::read_to_string(&pgn).unwrap();
    // Each opening twice, colours reversed: games 1-2 start after 1. e4, games 3-4 after 1. d4.
    let fens: Vec<&str> = text.lines().filter(|l| l.starts_with("[FEN ")).collect();
    assert_eq!(fens.len(), 4, "{text}");
    assert!(
        fens[0].contains("4P3") && fens[1].contains("4P3"),
        "{fens:?}"
    );
    assert!(
        fens[2].contains("3P4") && fens[3].contains("3P4"),
        "{fens:?}"
    );
    let whites: Vec<&str> = text.lines().filter(|l| l.starts_with("[White ")).collect();
    assert!(
        whites[0].contains("(1)") && whites[1].contains("(2)"),
        "{whites:?}"
    );
    // Black moves first from these openings: the move text starts `1...`.
    assert_eq!(text.matches("\n1... ").count(), 4, "{text}");
    // 20 moves at most: a game that got there is a draw by adjudication.
    for block in text.split("[Event ").skip(1) {
        if block.contains("move cap") {
            assert!(block.contains("[Termination \"adjudication\"]"), "{block}");
            assert!(block.contains("[Result \"1/2-1/2\"]"), "{block}");
        }
    }
}

#[test]
fn sprt_stops_the_match_once_it_decides() {
    let script = engines_dir().join("broken-uci.sh");
    let broken = format!("{} illegal", script.display());
    let me = format!("{BIN} uci");
    let r = run_match(&[
        "-v", "chess", "--engine", &me, "--engine", &broken, "--games", "200", "--tc", "0.2+0",
        "--sprt", "0,20",
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("H1 accepted, the match stops"),
        "{}",
        r.stdout
    );
    let played = r.stdout.lines().filter(|l| l.starts_with("game ")).count();
    // Every game is a win for Polymachy: with (0, 20) the test cannot decide after 10 wins and
    // has decided after 20 (see the unit test in src/referee/stats.rs).
    assert!((11..=20).contains(&played), "{played} games\n{}", r.stdout);
    assert!(
        r.stdout
            .contains(&format!(": {played} games, +{played} =0 -0")),
        "{}",
        r.stdout
    );
}

#[test]
fn fairy_max_is_found_to_speak_cecp_and_plays_chess() {
    let Some(fmax) = common::find_program(&["fairymax"]) else {
        need("fairymax", false);
        return;
    };
    let me = format!("{BIN} uci");
    let dir = common::TempDir::new("referee-fairymax");
    let pgn = dir.join("fairymax.pgn");
    let r = run_match(&[
        "-v",
        "chess",
        "--engine",
        &me,
        "--engine",
        fmax.to_str().unwrap(),
        "--games",
        "2",
        "--tc",
        "0.5+0.01",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("`Fairy-Max 5.0b` ready (CECP)"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains(": 2 games, +"), "{}", r.stdout);
    assert!(!r.stdout.contains("restarted"), "{}", r.stdout);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Variant \"chess\"]").count(), 2, "{text}");
}

/// A fake UCI engine written into `dir` as `file`: it says `id name NAME` (a `printf` format:
/// `\r` is a carriage return) and runs the shell line `on_go` for each `go`. Its command line.
fn fake_engine(dir: &common::TempDir, file: &str, name: &str, on_go: &str) -> String {
    let p = dir.join(file);
    std::fs::write(
        &p,
        format!(
            "#!/bin/sh\nwhile read -r line; do\n  case \"$line\" in\n    uci) printf 'id name {name}\\nuciok\\n' ;;\n    isready) echo readyok ;;\n    go*) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
        ),
    )
    .unwrap();
    format!("sh {}", p.display())
}

/// The referee's peak resident memory (VmHWM) in kB, read from `/proc` until it ends; its
/// exit status, standard output and standard error. Fails after `limit`.
fn run_measured(args: &[&str], dir: &common::TempDir, limit: Duration) -> (i32, u64, String) {
    let out = dir.join("referee.out");
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak = 0u64;
    let status = common::wait_polling(
        &mut child,
        limit,
        Duration::from_millis(5),
        "the match",
        || {
            if let Ok(s) = std::fs::read_to_string(&status_file)
                && let Some(l) = s.lines().find(|l| l.starts_with("VmHWM:"))
            {
                let kb: u64 = l
                    .split_whitespace()
                    .nth(1)
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(0);
                peak = peak.max(kb);
            }
        },
    );
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    (status.code().unwrap_or(-1), peak, text)
}

/// An engine that writes without end and never a newline loses the game on a protocol error,
/// and the referee's memory stays small (it reads at most 64 KiB of a line).
#[test]
fn an_engine_that_floods_without_newlines_loses_and_the_referee_stays_small() {
    let dir = common::TempDir::new("referee-flood");
    let flood = fake_engine(&dir, "flood.sh", "flooder", "yes flood | tr -d '\\n'");
    let pgn = dir.join("flood.pgn");
    let me = format!("{BIN} uci");
    let (code, peak_kb, out) = run_measured(
        &[
            "match",
            "-v",
            "chess",
            "--engine",
            &me,
            "--engine",
            &flood,
            "--games",
            "2",
            "--tc",
            "2+0",
            "--hang-margin",
            "2000",
            "--pgn",
            pgn.to_str().unwrap(),
        ],
        &dir,
        Duration::from_secs(60),
    );
    eprintln!("referee peak memory under the flood: {peak_kb} kB");
    assert_eq!(code, 0, "{out}");
    let games: Vec<&str> = out.lines().filter(|l| l.starts_with("game ")).collect();
    assert_eq!(games.len(), 2, "{out}");
    for g in &games {
        assert!(
            g.contains("flooder protocol error: a line of more than 65536 bytes"),
            "{g}"
        );
    }
    assert!(out.contains(": 2 games, +2 =0 -0"), "{out}");
    assert!(peak_kb > 0, "no VmHWM read");
    assert!(peak_kb < 100 * 1024, "the referee used {peak_kb} kB");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(
        text.matches("[Termination \"abandoned\"]").count(),
        2,
        "{text}"
    );
    assert_eq!(
        text.matches("{flooder protocol error: a line of more than 65536 bytes.}")
            .count(),
        2,
        "{text}"
    );
    let left = processes_with(&format!("{}", dir.join("flood.sh").display()));
    assert!(left.is_empty(), "left behind: {left:?}");
}

/// Engine text is cleaned before it reaches the PGN and the console: a carriage return in a
/// name becomes a space, quotes and backslashes are escaped in tags, a name keeps at most 200
/// characters and a huge move is quoted in part.
#[test]
fn engine_text_is_cleaned_and_bounded_in_the_pgn_and_on_the_console() {
    let dir = common::TempDir::new("referee-clean");
    let long = "x".repeat(300);
    let name = format!("cr\\rname \"q\" \\\\b{long}");
    let huge = "printf 'bestmove %s\\n' \"$(head -c 50000 /dev/zero | tr '\\0' a)\"";
    let odd = fake_engine(&dir, "odd.sh", &name, huge);
    let pgn = dir.join("odd.pgn");
    let me = format!("{BIN} uci");
    let r = run_match(&[
        "-v",
        "chess",
        "--engine",
        &me,
        "--engine",
        &odd,
        "--games",
        "1",
        "--tc",
        "1+0",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(!text.contains('\r'), "{text:?}");
    assert!(!r.stdout.contains('\r'), "{:?}", r.stdout);
    let black = text
        .lines()
        .find(|l| l.starts_with("[Black "))
        .unwrap_or_else(|| panic!("{text}"));
    let kept = 200 - "cr name \"q\" \\b".len();
    assert_eq!(
        black,
        format!("[Black \"cr name \\\"q\\\" \\\\b{}...\"]", "x".repeat(kept)),
    );
    // The illegal move is quoted in part: 200 characters of it.
    let quoted = format!("played the illegal move `{}...` in ", "a".repeat(200));
    assert!(text.contains(&quoted), "{text}");
    assert!(text.len() < 4000, "{} bytes:\n{text}", text.len());
    assert!(r.stdout.contains(&quoted), "{}", r.stdout);
    assert!(r.stdout.len() < 4000, "{}", r.stdout);
    assert!(
        text.contains("[Termination \"rules infraction\"]"),
        "{text}"
    );
}

/// The pids of the processes whose parent is `pid`.
fn children_of(pid: u32) -> Vec<u32> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        // `pid (comm) state ppid pgrp ...`: the fields after the last `)`.
        let Some((head, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let ppid = rest.split_whitespace().nth(1).and_then(|p| p.parse().ok());
        if ppid == Some(pid)
            && let Some(me) = head.split_whitespace().next().and_then(|p| p.parse().ok())
        {
            found.push(me);
        }
    }
    found
}

/// The processes (with their state) in any of the process groups `groups`.
fn processes_in_groups(groups: &[u32]) -> Vec<String> {
    let mut found = Vec::new();
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(stat) = std::fs::read_to_string(e.path().join("stat")) else {
            continue;
        };
        let Some((_, rest)) = stat.rsplit_once(')') else {
            continue;
        };
        let mut fields = rest.split_whitespace();
        // A zombie (state Z) has ended: only its exit status waits for a parent (under an
        // init that reaps slowly, an orphan's can linger), so it is not left running.
        let zombie = fields.next() == Some("Z");
        let pgrp: Option<u32> = fields.nth(1).and_then(|p| p.parse().ok());
        if !zombie && pgrp.is_some_and(|g| groups.contains(&g)) {
            found.push(stat.trim().to_string());
        }
    }
    found
}

/// Ctrl-C (SIGINT) ends a match cleanly: the games that ended are in the PGN (and re-validate
/// with pyffish), the summary is printed, every engine's process group is gone, and the
/// status says the signal.
#[test]
fn sigint_ends_the_match_with_every_finished_game_and_no_engine_left() {
    let dir = common::TempDir::new("referee-sigint");
    let pgn = dir.join("sigint.pgn");
    let out = dir.join("sigint.out");
    let me = format!("{BIN} uci");
    let mut child = Command::new(BIN)
        .args([
            "match",
            "-v",
            "chess",
            "--engine",
            &me,
            "--engine",
            &me,
            "--games",
            "40",
            "--tc",
            "0.2+0.01",
            "--max-moves",
            "25",
            "--pgn",
            pgn.to_str().unwrap(),
        ])
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let pid = child.id();
    // Wait for the first finished game in the PGN.
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let text = std::fs::read_to_string(&pgn).unwrap_or_default();
        if text.contains("[Event ") {
            break;
        }
        assert!(child.try_wait().unwrap().is_none(), "the match ended early");
        assert!(Instant::now() < until, "no game finished within a minute");
        std::thread::sleep(Duration::from_millis(20));
    }
    // Each engine runs in a process group of its own whose id is its first process's pid.
    let groups = children_of(pid);
    assert_eq!(groups.len(), 2, "engines: {groups:?}");
    let sent = Command::new("kill")
        .args(["-INT", &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
    let status = common::wait_polling(
        &mut child,
        Duration::from_secs(15),
        Duration::from_millis(20),
        "the match after SIGINT",
        || {},
    );
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    let stdout = std::fs::read_to_string(&out).unwrap();
    assert_eq!(status.code(), Some(130), "{stdout}\n{err}");
    assert!(err.contains("interrupted by SIGINT"), "{err}");
    let left = processes_in_groups(&groups);
    assert!(left.is_empty(), "left behind: {left:?}");
    let finished = stdout.lines().filter(|l| l.starts_with("game ")).count();
    assert!((1..40).contains(&finished), "{stdout}");
    assert!(
        stdout.contains(&format!(
            "match interrupted: {finished} of 40 games finished"
        )),
        "{stdout}"
    );
    assert!(
        stdout.contains(&format!(": {finished} games, +")),
        "{stdout}"
    );
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(text.matches("[Event ").count(), finished, "{text}");
    assert_eq!(text.matches("[Result ").count(), finished, "{text}");
    assert!(text.ends_with("\n\n"), "{text}");
    if !need("python3 with pyffish (pip install pyffish)", pyffish_ok()) {
        return;
    }
    let v = Command::new("python3")
        .arg(engines_dir().join("validate_pgn.py"))
        .arg(&pgn)
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&v.stdout);
    assert!(v.status.success(), "{said}\n{text}");
    assert_eq!(said.matches("every move legal").count(), finished, "{said}");
}

/// A variant file whose id is a built-in game's goes to the engines by its path: here chess
/// with Knights that step like Wazirs. Engines given the built-in chess instead would leap
/// with their Knights, an illegal move in this file, and lose by it.
#[test]
fn a_variant_file_reaches_the_engines_by_its_path_even_when_a_built_in_game_has_its_name() {
    let dir = common::TempDir::new("referee-file");
    let chess = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "chess")
        .unwrap()
        .1;
    let text = chess.replacen("betza = \"N\"", "betza = \"W\"", 1);
    assert_ne!(text, chess);
    let file = dir.join("chess.toml");
    std::fs::write(&file, text).unwrap();
    std::fs::copy(
        engines_dir().join("../../variants/chess.eval.toml"),
        dir.join("chess.eval.toml"),
    )
    .unwrap();
    let pgn = dir.join("w.pgn");
    let me = format!("{BIN} uci");
    let r = run_match(&[
        "-v",
        file.to_str().unwrap(),
        "--engine",
        &me,
        "--engine",
        &me,
        "--games",
        "2",
        "--tc",
        "1+0.02",
        "--max-moves",
        "40",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert!(!games.to_lowercase().contains("illegal"), "{games}");
    assert_eq!(games.matches("[Result ").count(), 2, "{games}");
}

// `--limit`: each engine searches to its own node or depth limit instead of a clock, and is
// charged no time: on a clock of 30 ms neither loses on time, and each engine's input shows
// the limit it was given and no clock.
#[test]
fn per_engine_limits_replace_the_clock() {
    let dir = common::TempDir::new("referee-limits");
    let logs = [dir.join("one.log"), dir.join("two.log")];
    let engine = |log: &Path| format!("tee {} | {BIN} uci", log.display());
    let (one, two) = (engine(&logs[0]), engine(&logs[1]));
    let pgn = dir.join("limits.pgn");
    let r = run_match(&[
        "-v",
        "chess",
        "--engine",
        &one,
        "--engine",
        &two,
        "--limit",
        "1:nodes=2000",
        "--limit",
        "2:depth=3",
        "--games",
        "2",
        "--tc",
        "0.03+0",
        "--max-moves",
        "25",
        "--pgn",
        pgn.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}\n{}", r.stdout, r.stderr);
    let games = std::fs::read_to_string(&pgn).unwrap();
    assert_eq!(games.matches("[Event ").count(), 2, "{games}");
    assert!(!games.contains("time forfeit"), "{games}");
    let one = std::fs::read_to_string(&logs[0]).unwrap();
    let two = std::fs::read_to_string(&logs[1]).unwrap();
    assert!(
        one.contains("go nodes 2000\n") && !one.contains("wtime"),
        "{one}"
    );
    assert!(
        two.contains("go depth 3\n") && !two.contains("wtime"),
        "{two}"
    );
    // A limit that cannot be read, or a node limit for a CECP engine, is refused.
    let bad = run_match(&[
        "-v",
        "chess",
        "--engine",
        &one,
        "--engine",
        &two,
        "--limit",
        "2:depth=x",
    ]);
    assert_ne!(bad.code, 0);
    assert!(
        bad.stderr
            .contains("--limit `depth=x`: expected nodes=N or depth=D"),
        "{}",
        bad.stderr
    );
    let me = format!("{BIN} xboard");
    let cecp = run_match(&[
        "-v",
        "chess",
        "--engine",
        &me,
        "--engine",
        &me,
        "--protocol",
        "xboard",
        "--protocol",
        "xboard",
        "--limit",
        "nodes=100",
        "--games",
        "2",
    ]);
    assert!(
        cecp.stdout.contains("a node limit needs UCI")
            || cecp.stderr.contains("a node limit needs UCI"),
        "{}\n{}",
        cecp.stdout,
        cecp.stderr
    );
}
