//! The UCI and CECP (XBoard) front ends, driven through pipes like a GUI would.

mod common;

fn session(args: &[&str], input: &str) -> (String, String, i32) {
    let r = common::run_binary(args, input);
    (r.stdout, r.stderr, r.code)
}

#[test]
fn uci_handshake_lists_every_variant() {
    let (out, _, code) = session(&["uci"], "uci\nisready\nquit\n");
    assert_eq!(code, 0);
    assert!(out.contains("id name Polymachy"));
    let combo = out
        .lines()
        .find(|l| l.starts_with("option name UCI_Variant"))
        .unwrap();
    // Every built-in variant is offered (the list itself is checked in tests/cli.rs).
    for (v, _) in polymachy::variant::BUILTIN {
        assert!(combo.contains(&format!("var {v}")), "{combo}");
    }
    assert!(out.contains("uciok") && out.contains("readyok"));
}

#[test]
fn uci_finds_scholars_mate_and_reports_iterations() {
    // 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6: Qxf7 is mate (f7 is covered only by the king, and the
    // bishop on c4 defends the queen there).
    let (out, _, _) = session(
        &["uci"],
        "setoption name UCI_Variant value chess\nposition startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6\ngo depth 3\n",
    );
    assert!(out.lines().any(|l| l.starts_with("info depth 1 ")), "{out}");
    assert_eq!(out.lines().last(), Some("bestmove h5f7"), "{out}");
}

#[test]
fn uci_plays_a_legal_metamachy_move_and_reports_errors_without_stopping() {
    let (out, _, code) = session(
        &["uci"],
        "position startpos moves e3e5 zz9\nsetoption name UCI_Variant value nosuchgame\nbogus\nposition startpos moves e3e5\ngo depth 2\n",
    );
    assert_eq!(code, 0);
    assert!(
        out.contains("info string error: illegal move `zz9`"),
        "{out}"
    );
    assert!(
        out.contains("info string error: unknown variant `nosuchgame`"),
        "{out}"
    );
    assert!(out.contains("info string unknown command: bogus"), "{out}");
    // Black's reply must be one of Black's legal moves: it starts on ranks 10-12.
    let best = out
        .lines()
        .last()
        .unwrap()
        .strip_prefix("bestmove ")
        .unwrap();
    let from_rank: u32 = best[1..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .unwrap();
    assert!((10..=12).contains(&from_rank), "{best}");
}

#[test]
fn uci_setup_option_changes_the_start_position() {
    let (out, _, _) = session(
        &["uci"],
        "setoption name Setup value KQLG\nposition startpos\nd\n",
    );
    assert!(out.contains("Fen: cm3kq3mc/ernbilgibnre/"), "{out}");
}

#[test]
fn xboard_describes_engine_defined_variants() {
    let (out, _, code) = session(&["xboard"], "xboard\nprotover 2\nvariant metamachy\nquit\n");
    assert_eq!(code, 0);
    let features = out
        .lines()
        .find(|l| l.starts_with("feature myname"))
        .unwrap();
    assert!(
        features.contains("variants=\"metamachy,normal,lions-and-unicorns,perfect12,shako\""),
        "{features}"
    );
    assert!(out.contains("feature done=1"));
    assert!(
        out.contains(
            "setup (PNBRQ.E.C.M..I.G..L..Kpnbrq.e.c.m..i.g..l..k) 12x12+0_fairy cm3qk3mc/"
        ),
        "{out}"
    );
    assert!(out.contains("piece G FyafsF"));
    assert!(
        out.contains("piece K KimAimDimN"),
        "the king leap is shown to the GUI"
    );
}

#[test]
fn xboard_answers_moves_pings_and_illegal_moves() {
    let (out, _, _) = session(
        &["xboard"],
        "xboard\nprotover 2\nnew\nvariant metamachy\nsd 2\nusermove zzz\nusermove e3e5\nping 3\n",
    );
    assert!(out.contains("Illegal move: zzz"), "{out}");
    assert!(out.contains("pong 3"), "{out}");
    let mv = out
        .lines()
        .find_map(|l| l.strip_prefix("move "))
        .expect("the engine answers with a move");
    let from_rank: u32 = mv[1..]
        .chars()
        .take_while(|c| c.is_ascii_digit())
        .collect::<String>()
        .parse()
        .unwrap();
    assert!((10..=12).contains(&from_rank), "{mv}");
}

#[test]
fn xboard_reports_checkmate() {
    // Fool's mate in chess: after 1. f3 e5 2. g4 the engine (Black) mates with Qh4.
    let (out, _, _) = session(
        &["xboard"],
        "xboard\nprotover 2\nnew\nvariant normal\nforce\nusermove f2f3\nusermove e7e5\nusermove g2g4\nsd 2\ngo\n",
    );
    assert!(out.contains("move d8h4"), "{out}");
    assert!(out.contains("0-1 {"), "{out}");
}

#[test]
fn bare_binary_detects_the_protocol() {
    let (out, _, code) = session(&[], "uci\nquit\n");
    assert_eq!(code, 0);
    assert!(out.contains("uciok"));
    let (out, _, _) = session(&[], "xboard\nprotover 2\nquit\n");
    assert!(out.contains("feature done=1"));
}

#[test]
fn xboard_new_is_the_standard_game() {
    // A Metamachy game, then `new` without `variant`: the board is FIDE chess again, so e2e4
    // is legal and the engine (Black) answers from rank 7 or 8.
    let (out, _, _) = session(
        &["xboard"],
        "xboard\nprotover 2\nvariant metamachy\nnew\nsd 1\nusermove e2e4\n",
    );
    assert!(!out.contains("Illegal move"), "{out}");
    let mv = out
        .lines()
        .find_map(|l| l.strip_prefix("move "))
        .expect("a reply");
    assert!(
        mv[1..2].parse::<u32>().is_ok_and(|r| r == 7 || r == 8),
        "{mv}"
    );
}
