//! The `[[test]]` tables of every variant file in `variants/`: each file is loaded from the
//! disk and its tests run (perft counts, legal moves and verdicts from other programs, each
//! with its source). Depths whose count is over [`BUDGET`] nodes run under `--ignored`
//! (`cargo test --release --test variant_files -- --ignored`). Also: every shipped game
//! carries tests or says in a comment why it cannot, and `polymachy check` runs them.

mod common;

use std::path::PathBuf;

use common::run_binary;
use polymachy::position::Ruleset;
use polymachy::variant::Variant;
use polymachy::variant_tests;

/// The most nodes a perft depth may count in the normal suite.
const BUDGET: u64 = 1_000_000;

/// The comment a shipped file without tests carries, followed by the reason.
const NO_ORACLE: &str = "# No [[test]]:";

/// The variant files of `variants/` (not the evaluation tables they include), sorted.
fn variant_files() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("variants");
    let mut out: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            let n = p.file_name().unwrap().to_string_lossy();
            n.ends_with(".toml") && !n.ends_with(".eval.toml")
        })
        .collect();
    out.sort();
    assert!(out.len() >= 20, "variants/ holds the shipped games");
    out
}

/// Runs every file's tests with `budget`; fails naming each file, test and depth that
/// disagrees. Returns how many comparisons ran.
fn run_every_file(budget: Option<u64>) -> usize {
    let mut failures = Vec::new();
    let mut compared = 0;
    for path in variant_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let v = Variant::load(&path.display().to_string())
            .unwrap_or_else(|e| panic!("{name} does not load:\n{e}"));
        let rules = Ruleset::new(&v, None).unwrap_or_else(|e| panic!("{name}: {e}"));
        failures.extend(variant_tests::fen_errors(&rules));
        for r in variant_tests::run_all(&rules, budget) {
            compared += r.comparisons.len();
            if r.passed() {
                continue;
            }
            let depths = r.failed_depths();
            let at = if depths.is_empty() {
                String::new()
            } else {
                let d: Vec<String> = depths.iter().map(|d| d.to_string()).collect();
                format!(" depth {}", d.join(","))
            };
            failures.push(format!(
                "variants/{name}: test \"{}\"{at}: {} (source: {})",
                r.name,
                r.line(),
                r.source
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} disagreement(s):\n{}",
        failures.len(),
        failures.join("\n")
    );
    compared
}

#[test]
fn every_variant_file_passes_its_tests() {
    let n = run_every_file(Some(BUDGET));
    assert!(n > 40, "only {n} comparisons ran");
}

#[test]
#[ignore = "every depth of every file's tests: run with --ignored (best in release)"]
fn every_variant_file_passes_its_tests_at_every_depth() {
    run_every_file(None);
}

/// Each shipped game has tests, each with a source, and a start-position test; or a comment
/// that says why no program can check it.
#[test]
fn every_shipped_game_carries_tests_or_says_why_not() {
    let mut wrong = Vec::new();
    for path in variant_files() {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let text = std::fs::read_to_string(&path).unwrap();
        let v = Variant::load(&path.display().to_string()).unwrap();
        if v.tests.is_empty() {
            if !text.contains(NO_ORACLE) {
                wrong.push(format!("{name}: no [[test]] and no `{NO_ORACLE}` comment"));
            }
            continue;
        }
        if text.contains(NO_ORACLE) {
            wrong.push(format!("{name}: has tests and says it has none"));
        }
        for t in &v.tests {
            if t.source.trim().len() < 10 {
                wrong.push(format!("{name}: test \"{}\" names no real source", t.name));
            }
            if t.perft.is_empty() && t.moves.is_none() && t.result.is_none() {
                wrong.push(format!("{name}: test \"{}\" checks no move", t.name));
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The built-in games are the files of `variants/`: the same tests load both ways.
#[test]
fn built_in_games_carry_the_files_tests() {
    for path in variant_files() {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        let file = Variant::load(&path.display().to_string()).unwrap();
        let Ok(builtin) = Variant::load(&stem) else {
            continue;
        };
        assert_eq!(file.tests, builtin.tests, "{stem}");
    }
}

/// A wrong number is caught, named by test and depth, and the other depths still run.
#[test]
fn a_wrong_count_fails_naming_the_test_and_the_depth() {
    let text = include_str!("../variants/chess.toml").to_string()
        + "\n[[test]]\nname = \"wrong\"\nsource = \"a deliberately wrong count\"\nperft = [20, 401, 8902]\n";
    let v = Variant::from_toml(&text, "chess-wrong.toml").unwrap();
    let rules = Ruleset::new(&v, None).unwrap();
    let reports = variant_tests::run_all(&rules, None);
    let r = reports.iter().find(|r| r.name == "wrong").unwrap();
    assert!(!r.passed());
    assert_eq!(r.failed_depths(), [2]);
    assert_eq!(
        r.line(),
        "FAIL  test \"wrong\": perft 1,3 20 8902; perft 2 expected 401, got 400"
    );
    // A budget skips what is over it and says so.
    let r = &variant_tests::run_all(&rules, Some(1000))[0];
    assert_eq!(r.skipped, [3, 4]);
    assert!(r.line().contains("perft 3,4 skipped"), "{}", r.line());
}

/// A test file for the CLI: a 4x4 board with a King and a Rook a side.
fn mini(tests: &str) -> (common::TempDir, String) {
    let dir = common::TempDir::new("vtest-mini");
    let path = dir.join("mini.toml");
    let text = format!(
        "name = \"Mini\"\nfiles = 4\nranks = 4\nstart = \"k3/4/4/1R1K\"\n\
         [[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n\
         [[piece]]\nname = \"Rook\"\nletter = \"R\"\nbetza = \"R\"\n{tests}"
    );
    std::fs::write(&path, text).unwrap();
    let p = path.display().to_string();
    (dir, p)
}

#[test]
fn check_runs_the_files_tests_first_and_fails_on_a_disagreement() {
    let (_dir, path) = mini(
        "[[test]]\nname = \"mate\"\nsource = \"counted by hand\"\nfen = \"k3/2K1/4/R3 b\"\n\
         moves = []\nending = \"checkmate\"\nresult = \"1-0\"\nperft = [0, 0]\n\
         [[test]]\nname = \"king\"\nsource = \"counted by hand\"\nfen = \"k3/4/4/R2K b\"\n\
         moves = [\"a4b4\", \"a4b3\", \"a4a3\"]\nresult = \"*\"\n",
    );
    let r = run_binary(&["check", "-v", &path, "--tests-only"], "");
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "Mini (mini): 2 tests from the file");
    assert_eq!(
        lines[1],
        "ok    test \"mate\": perft 1-2 0 0; moves 0; result 1-0; ending checkmate"
    );
    assert_eq!(
        lines[2],
        "FAIL  test \"king\": moves expected 3, got 2 (not legal here: a4a3); result *"
    );
    assert_eq!(lines[3], "      source: counted by hand");
    assert_eq!(*lines.last().unwrap(), "1 passed, 1 failed");
    // With the random games too: the tests come first and count in the last line.
    let r = run_binary(&["check", "-v", &path, "--cases", "2"], "");
    assert_eq!(r.code, 1);
    assert!(r.stdout.starts_with("Mini (mini): 2 tests"), "{}", r.stdout);
    assert!(r.stdout.ends_with("11 passed, 1 failed\n"), "{}", r.stdout);
    // Skipped: only the random games.
    let r = run_binary(&["check", "-v", &path, "--cases", "2", "--no-tests"], "");
    assert_eq!(r.code, 0, "{}", r.stdout);
    assert!(!r.stdout.contains("test"), "{}", r.stdout);
    assert!(r.stdout.ends_with("10 passed, 0 failed\n"), "{}", r.stdout);
}

#[test]
fn check_tests_only_passes_on_a_shipped_game() {
    let r = run_binary(&["check", "-v", "chess", "--tests-only"], "");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("ok    test \"start\": perft 1-"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.ends_with(" passed, 0 failed\n"), "{}", r.stdout);
}

/// `check` on a game with kinds written `N'` (`tests/data/primed-kinds.toml`): its own test
/// (a FEN with `N'` in hand, a promotion to it), the lints and the invariants pass.
#[test]
fn check_passes_on_a_game_with_primed_kinds() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/primed-kinds.toml");
    let r = run_binary(&["check", "-v", file, "--cases", "8", "--plies", "40"], "");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    for want in [
        "ok    test \"a promotion to a primed piece and a primed piece's drops\": perft 1 146",
        "ok    lints",
        "ok    fen-round-trip",
    ] {
        assert!(r.stdout.contains(want), "no `{want}` in {}", r.stdout);
    }
    assert!(r.stdout.ends_with(" passed, 0 failed\n"), "{}", r.stdout);
}

#[test]
fn test_tables_get_located_errors() {
    let (_dir, path) = mini(
        "[[test]]\nname = \"a\"\nsource = \"x by hand\"\nperft = [3, -1]\nfenn = \"k3/4/4/3K w\"\n\
         [[test]]\nname = \"b\"\nfen = \"k3/4/4/3X w\"\nending = \"checkmat\"\nresult = \"2-0\"\n",
    );
    let r = run_binary(&["check", "-v", &path, "--tests-only"], "");
    assert_eq!(r.code, 2, "{}", r.stderr);
    let e = &r.stderr;
    for want in [
        "mini.toml:17:13: `test[1].perft`: a node count must be a whole number from 0, found -1",
        "mini.toml:18:1: unknown key `fenn` in `test[1]`\n  hint: did you mean `fen`?",
        "mini.toml:19:1: test \"b\" has no `source`",
        "mini.toml:21:16: test \"b\": FEN: no piece has the letter 'X'",
        "mini.toml:22:10: test \"b\": `ending` is \"checkmat\", which is no ending\n  hint: did you mean \"checkmate\"?",
        "mini.toml:23:10: test \"b\": `result` is \"2-0\", which is no result",
    ] {
        assert!(e.contains(want), "missing `{want}` in:\n{e}");
    }
    assert!(!e.contains("compares nothing"), "{e}");
}

#[test]
fn an_illegal_test_position_is_refused_where_it_is_written() {
    let (_dir, path) = mini(
        "[[test]]\nname = \"in check\"\nsource = \"x by hand\"\nfen = \"k3/4/4/R2K w\"\nmoves = [\"a1a2\"]\n",
    );
    for args in [
        vec!["check", "-v", &path, "--tests-only"],
        vec!["perft", "-v", &path, "-d", "1"],
    ] {
        let r = run_binary(&args, "");
        assert_eq!(r.code, 2, "{}", r.stderr);
        assert!(
            r.stderr.starts_with(&format!(
                "error: {path}:17:7: test \"in check\": the FEN is not a position of this variant: the side not to move (black) is in check"
            )),
            "{}",
            r.stderr
        );
    }
}

/// A shipped file with one change planted in it, written to a folder of its own; its path.
fn planted(dir: &common::TempDir, file: &str, from: &str, to: &str) -> String {
    let shipped = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("variants")
        .join(file);
    let text = std::fs::read_to_string(&shipped).unwrap();
    assert!(text.contains(from), "`{from}` is not in {file}");
    let path = dir.join(file);
    std::fs::write(&path, text.replacen(from, to, 1)).unwrap();
    // The files it includes (its evaluation table) beside it.
    let eval = file.replace(".toml", ".eval.toml");
    let _ = std::fs::copy(shipped.with_file_name(&eval), dir.join(&eval));
    path.display().to_string()
}

/// `check` of a shipped `file` with `from` written as `to` ([`planted`]): its exit status must
/// be `code`; what it printed (standard error for a refused file, 2), for the caller to read.
fn check_planted(dir: &common::TempDir, file: &str, from: &str, to: &str, code: i32) -> String {
    let p = planted(dir, file, from, to);
    let r = run_binary(&["check", "-v", &p, "--cases", "2", "--plies", "8"], "");
    let out = if code == 2 { r.stderr } else { r.stdout };
    assert_eq!(r.code, code, "{out}");
    out
}

// A designer's likely mistakes, each planted in a shipped file that `check` passes: `check`
// reports every one, by a lint, by one of the file's own tests or (a royal piece that would
// promote) by refusing the file.
#[test]
fn check_reports_each_planted_mistake() {
    let dir = common::TempDir::new("planted");
    let check = |path: &str| run_binary(&["check", "-v", path, "--cases", "2", "--plies", "8"], "");
    // The shipped files pass.
    for name in ["courier", "minishogi", "chess"] {
        let r = check(name);
        assert_eq!(r.code, 0, "{name}: {}{}", r.stdout, r.stderr);
        assert!(r.stdout.contains("ok    lints"), "{}", r.stdout);
    }
    // Courier's Schleich written as a Ferz: the file's own perft counts (Fairy-Stockfish's).
    let out = check_planted(
        &dir,
        "courier.toml",
        "letter = \"W\"\nbetza = \"W\"",
        "letter = \"W\"\nbetza = \"F\"",
        1,
    );
    assert!(out.contains("FAIL  test \"start\": perft"), "{}", out);
    // Minishogi without compulsory promotion where a piece is stuck: its Pawn may stay on
    // the last rank.
    let out = check_planted(
        &dir,
        "minishogi.toml",
        "compulsory-where-stuck = true\n",
        "",
        1,
    );
    assert!(
        out.contains(
            "LINT  stuck-piece  White's Pawn can move to a5, b5, c5, d5, e5 and stay there, with no move from there"
        ),
        "{}",
        out
    );
    assert!(
        out.contains("hint: make it promote there (`compulsory-where-stuck`"),
        "{}",
        out
    );
    // Minishogi's Pawn drops allowed on the last rank.
    let out = check_planted(&dir, "minishogi.toml", "no-drop-ranks = { P = 5 }\n", "", 1);
    assert!(
        out.contains("LINT  stuck-piece  White's Pawn can be dropped on a5, b5,"),
        "{}",
        out
    );
    // Chess whose Pawns may promote to a second King.
    let out = check_planted(
        &dir,
        "chess.toml",
        "promotes-to = \"QRBN\"",
        "promotes-to = \"QRBNK\"",
        1,
    );
    assert!(
        out.contains("LINT  royal-by-promotion  Pawn promotes to King, a royal piece"),
        "{}",
        out
    );
    // A King that promotes: refused where it is written.
    let out = check_planted(
        &dir,
        "chess.toml",
        "royal = true\n",
        "royal = true\npromotes-to = \"Q\"\n",
        2,
    );
    assert!(
        out.contains("King is royal but promotes to Queen"),
        "{}",
        out
    );
}

// Janggi's likely mistakes, planted in its shipped file that `check` passes: a Guard let out
// of its palace and the Chariot's palace diagonals, each reported by one of the file's own
// tests.
#[test]
fn check_reports_the_janggi_mistakes() {
    let dir = common::TempDir::new("planted-janggi");
    let check = |path: &str| run_binary(&["check", "-v", path, "--cases", "2", "--plies", "8"], "");
    let r = check("janggi");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // Janggi's Guard let out of its palace: the start's perft (Fairy-Stockfish's) at depth 3.
    let out = check_planted(
        &dir,
        "janggi.toml",
        "confined = \"palace\"\nvalue = 300",
        "value = 300",
        1,
    );
    assert!(
        out.contains("FAIL  test \"start\": perft 1-2 32 1024; perft 3 expected 33000"),
        "{}",
        out
    );
    // Janggi's Chariot given the diagonals of the whole palace, not of its lines: the file's
    // bikjang test (pyffish's moves).
    let out = check_planted(
        &dir,
        "janggi.toml",
        "betza = \"R\"\nbetza-within = { palace-lines = \"B\" }",
        "betza = \"R\"\nbetza-within = { palace = \"B\" }",
        1,
    );
    assert!(
        out.contains("FAIL  test \"bikjang in check: the pass alone\""),
        "{}",
        out
    );
}

// `check --against fairy-stockfish:courier` finds the Schleich planted as a Ferz by comparing
// legal moves with Fairy-Stockfish's Courier chess, and passes the shipped file; the file's
// own export, loaded into that engine, plays the same moves.
#[test]
fn check_against_fairy_stockfish_finds_a_planted_mistake() {
    let found = common::find_program(&["fairy-stockfish"]);
    if !common::need("fairy-stockfish", found.is_some()) {
        return;
    }
    let fsf = found.unwrap().display().to_string();
    let dir = common::TempDir::new("against");
    let against = |path: &str, spec: &str| {
        run_binary(
            &[
                "check",
                "-v",
                path,
                "--cases",
                "4",
                "--plies",
                "30",
                "--no-tests",
                "--against",
                spec,
            ],
            "",
        )
    };
    let builtin = format!("{fsf}:courier");
    let r = against("courier", &builtin);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains(&format!(
            "ok    against {builtin}  the same legal moves in "
        )),
        "{}",
        r.stdout
    );
    let p = planted(
        &dir,
        "courier.toml",
        "letter = \"W\"\nbetza = \"W\"",
        "letter = \"W\"\nbetza = \"F\"",
    );
    let r = against(&p, &builtin);
    assert_eq!(r.code, 1, "{}", r.stdout);
    assert!(
        r.stdout.contains(&format!(
            "FAIL  against {builtin}  the legal moves differ in "
        )),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("only Polymachy's:") && r.stdout.contains("only the other engine's:"),
        "{}",
        r.stdout
    );
    // The file's own section: chess as this program writes it for that engine.
    let r = against("chess", &fsf);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // A variant the engine does not know is an error, not a pass.
    let r = against("chess", &format!("{fsf}:no-such-game"));
    assert_eq!(r.code, 2, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stderr
            .contains("does not play a variant named `no-such-game`"),
        "{}",
        r.stderr
    );
}

// A file may allow a lint it means to break (Sittuyin's Pawns stand on the last rank without
// a move, as Fairy-Stockfish plays it): `check` then does not count it, and says so; without
// the allowance the lint is a failure; an unknown lint's name is refused where it is written.
#[test]
fn a_file_may_allow_a_lint() {
    let dir = common::TempDir::new("allow-lints");
    let check = |path: &str| run_binary(&["check", "-v", path, "--cases", "2", "--plies", "8"], "");
    let r = check("sittuyin");
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout
            .contains("ok    lints  no likely mistake found (royal-by-promotion; allowed by the file: stuck-piece)"),
        "{}",
        r.stdout
    );
    let out = check_planted(
        &dir,
        "sittuyin.toml",
        "allow-lints = [\"stuck-piece\"]\n",
        "",
        1,
    );
    assert!(out.contains("LINT  stuck-piece  White's Pawn"), "{}", out);
    let out = check_planted(
        &dir,
        "sittuyin.toml",
        "allow-lints = [\"stuck-piece\"]\n",
        "allow-lints = [\"stuck-pieces\"]\n",
        2,
    );
    assert!(
        out.contains("`allow-lints`: no lint is named `stuck-pieces`")
            && out.contains("the lints: stuck-piece, royal-by-promotion"),
        "{}",
        out
    );
}
