//! The terminal game (`polymachy play`) as a player sees it: one board per turn that fits a
//! 24-line terminal in compact mode, labelled scores, the legend, the clock, `show` and `save`.

mod common;

use common::run_binary;

/// The output split into turns: each chunk starts at a prompt for White's move.
fn turns(out: &str) -> Vec<Vec<&str>> {
    let mut chunks: Vec<Vec<&str>> = vec![Vec::new()];
    for line in out.lines() {
        if line.starts_with("White to move:") {
            chunks.push(Vec::new());
        }
        chunks.last_mut().unwrap().push(line);
    }
    chunks
}

#[test]
fn a_compact_metamachy_turn_fits_24_lines_with_one_board() {
    let r = run_binary(
        &["play", "--depth", "1", "--compact"],
        "f3f5\ng1e1\na3a4\nquit\n",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains('\x1b'), "NO_COLOR: no escape sequences");
    let t = turns(&r.stdout);
    // The start, three full turns (White's move, Black's reply, the board), and the quit.
    assert_eq!(t.len(), 5, "{}", r.stdout);
    for turn in &t[1..4] {
        assert!(
            turn.len() <= 24,
            "{} lines:\n{}",
            turn.len(),
            turn.join("\n")
        );
        let boards = turn.iter().filter(|l| l.starts_with(" 12 ")).count();
        assert_eq!(boards, 1, "one board per turn:\n{}", turn.join("\n"));
        // The engine's score is labelled with the side it is seen from: the player's.
        assert!(
            turn.iter()
                .any(|l| l.starts_with("Black plays") && l.contains("score for White")),
            "{}",
            turn.join("\n")
        );
        assert!(turn.iter().any(|l| l.starts_with("Moves: 1. f5 ")));
    }
    // The King's leap was played, and the legend stands beside the board.
    assert!(r.stdout.contains("Moves: 1. f5 ") && r.stdout.contains(" 2. Ke1 "));
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with(" 12 ") && l.ends_with("P Pawn"))
    );
    assert!(r.stdout.contains("G Eagle"));
}

#[test]
fn show_pieces_history_hint_and_save() {
    let dir = common::TempDir::new("terminal-save");
    let file = dir.join("game.pgn");
    let input = format!(
        "f3f5\nshow\npieces\nrules\nhistory\nhint\nsave {}\nquit\n",
        file.display()
    );
    let r = run_binary(&["play", "--depth", "1", "--black", "human"], &input);
    assert_eq!(r.code, 0, "{}", r.stderr);
    // `show` names the side to move.
    assert!(r.stdout.contains("\nBlack to move.\n"), "{}", r.stdout);
    // `pieces`: letter, name and XBetza.
    assert!(
        r.stdout
            .lines()
            .any(|l| l.contains("G  Eagle") && l.contains("FyafsF"))
    );
    // ... and the movement in words.
    assert!(
        r.stdout
            .contains("Leaps like a Knight (two squares one way and one to the side)"),
        "{}",
        r.stdout
    );
    // `rules`: each rule by name, explained.
    assert!(
        r.stdout.lines().any(|l| l.trim() == "king-leap"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("Once per game, a King that has not moved yet may leap")
    );
    assert!(r.stdout.lines().any(|l| l.trim() == "1. f5"));
    // The hint's score is labelled from the side to move.
    assert!(
        r.stdout
            .lines()
            .any(|l| l.contains("Hint:") && l.contains("score for Black")),
        "{}",
        r.stdout
    );
    // `save` prints the full path it wrote.
    let full = std::fs::canonicalize(&file).unwrap();
    assert!(
        r.stdout.contains(&format!("Saved to {}.", full.display())),
        "{}",
        r.stdout
    );
    let pgn = std::fs::read_to_string(&file).unwrap();
    assert!(pgn.contains("1. f5"));
}

#[test]
fn the_show_command_names_the_side_to_move() {
    let r = run_binary(
        &[
            "show",
            "--variant",
            "chess",
            "--fen",
            "4k3/8/8/8/8/8/8/4K2R b K - 0 1",
        ],
        "",
    );
    assert_eq!(r.code, 0);
    assert!(r.stdout.contains("Black to move."), "{}", r.stdout);
}

#[test]
fn a_game_clock() {
    let r = run_binary(
        &[
            "play",
            "--variant",
            "chess",
            "--clock",
            "5+3",
            "--depth",
            "1",
        ],
        "e2e4\nquit\n",
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("Clock: 5:00 each, 3 s added per move."));
    // After White's move (a moment) and the increment White has more than five minutes.
    let line = r
        .stdout
        .lines()
        .rfind(|l| l.starts_with("Clock: White"))
        .unwrap();
    assert!(line.starts_with("Clock: White 5:0"), "{line}");
    assert!(!line.starts_with("Clock: White 5:00"), "{line}");
    let bad = run_binary(&["play", "--clock", "five"], "");
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--clock `five`"), "{}", bad.stderr);
}

/// The first board drawn in `out`: its rank labels top to bottom and its file letters.
fn first_board(out: &str) -> (Vec<String>, String) {
    let lines: Vec<&str> = out.lines().collect();
    let top = lines
        .iter()
        .position(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .expect("a board");
    let mut ranks = Vec::new();
    let mut i = top;
    while let Some(n) = lines[i]
        .split_whitespace()
        .next()
        .filter(|w| w.parse::<u32>().is_ok())
    {
        ranks.push(n.to_string());
        i += 1;
    }
    let files: String = lines[i].split_whitespace().take(8).collect();
    (ranks, files)
}

#[test]
fn the_board_turns_round_when_the_human_plays_black() {
    let args = |white: &'static str, black: &'static str| {
        [
            "play",
            "--variant",
            "chess",
            "--ascii",
            "--depth",
            "1",
            "--white",
            white,
            "--black",
            black,
        ]
    };
    let black = run_binary(&args("engine", "human"), "quit\n");
    assert_eq!(black.code, 0, "{}", black.stderr);
    let (ranks, files) = first_board(&black.stdout);
    assert_eq!(
        ranks,
        ["1", "2", "3", "4", "5", "6", "7", "8"],
        "{}",
        black.stdout
    );
    assert_eq!(files, "hgfedcba");
    // Black's pieces at the bottom, seen from Black's side: the king on the e-file stands
    // fourth from the right.
    let bottom = black
        .stdout
        .lines()
        .find(|l| l.trim_start().starts_with("8 "))
        .unwrap();
    assert!(bottom.contains("r  n  b  k  q  b  n  r"), "{bottom}");
    let white = run_binary(&args("human", "engine"), "quit\n");
    let (ranks, files) = first_board(&white.stdout);
    assert_eq!(ranks, ["8", "7", "6", "5", "4", "3", "2", "1"]);
    assert_eq!(files, "abcdefgh");
    let both = run_binary(&args("human", "human"), "quit\n");
    assert_eq!(
        first_board(&both.stdout).0[0],
        "8",
        "two humans: White at the bottom"
    );
}

#[test]
fn help_and_engine_lines_wrap_at_words_within_80_columns() {
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_polymachy"));
    cmd.args([
        "play",
        "--variant",
        "metamachy",
        "--ascii",
        "--depth",
        "5",
        "--white",
        "human",
        "--black",
        "engine",
    ])
    .env("NO_COLOR", "1")
    .env("COLUMNS", "80")
    .env("LINES", "60");
    let r = common::run_command(cmd, "help\nPe5\nhint\nquit\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let long: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.chars().count() > 80)
        .collect();
    assert!(
        long.is_empty(),
        "lines over 80 columns:\n{}",
        long.join("\n")
    );
    // The help keeps every word whole: its longest entry wraps onto an indented line.
    assert!(
        r.stdout.contains(
            "\n  undo        take back the last move (your move and the engine's reply against\n              the engine)\n"
        ),
        "{}",
        r.stdout
    );
    // The engine's report: each word whole, and the line it wraps onto indented.
    let report = r
        .stdout
        .lines()
        .position(|l| l.starts_with("  depth "))
        .expect("the engine's report");
    let lines: Vec<&str> = r.stdout.lines().collect();
    let mut text = lines[report].trim().to_string();
    for l in &lines[report + 1..] {
        if !l.starts_with("    ") {
            break;
        }
        text.push(' ');
        text.push_str(l.trim());
    }
    assert!(text.contains(", pv "), "{text}");
    assert!(lines[report + 1].starts_with("    "), "{text}: not wrapped");
}
