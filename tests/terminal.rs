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
    let dir = std::env::temp_dir().join(format!("polymachy-terminal-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
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
    std::fs::remove_dir_all(&dir).unwrap();
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
