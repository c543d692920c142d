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

// MultiPV 3: every iteration reports three lines, numbered 1 to 3, with three different first
// moves; the best move is line 1's. Out of range, the option is refused and stays as it was.
#[test]
fn uci_multipv_reports_numbered_lines() {
    let (out, _, _) = session(
        &["uci"],
        "uci\nsetoption name MultiPV value 0\nsetoption name UCI_Variant value chess\nsetoption name MultiPV value 3\nposition startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6\ngo depth 3\n",
    );
    assert!(
        out.contains("option name MultiPV type spin default 1 min 1 max 64"),
        "{out}"
    );
    assert!(
        out.contains("MultiPV must be a number from 1 to 64"),
        "{out}"
    );
    let depth3: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("info depth 3 "))
        .collect();
    assert_eq!(depth3.len(), 3, "{out}");
    let mut firsts = Vec::new();
    for (i, l) in depth3.iter().enumerate() {
        assert!(l.contains(&format!(" multipv {} ", i + 1)), "{l}");
        firsts.push(l.split(" pv ").nth(1).unwrap().split(' ').next().unwrap());
    }
    firsts.dedup();
    assert_eq!(firsts.len(), 3, "{out}");
    assert_eq!(firsts[0], "h5f7", "{out}");
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
        features.contains(
            "variants=\"metamachy,normal,lions-and-unicorns,perfect12,shako,capablanca,grand,zanzibar-xxl,tamerlane2,zanzibar-s,wildebeest,xiangqi,makruk,crazyhouse,shogi,shatranj,courier,minishogi,kingofthehill,seirawan,asean,janggi,sittuyin\""
        ),
        "{features}"
    );
    assert!(out.contains("feature done=1"));
    assert!(
        out.contains(
            // The Lion leaves XBoard's Lance slot (18), where XBoard would promote it, for the
            // first free slot that XBoard does not alter (the Ferz's, 5).
            "setup (PNBRQLE.C.M..I.G.....Kpnbrqle.c.m..i.g.....k) 12x12+0_fairy cm3qk3mc/"
        ),
        "{out}"
    );
    assert!(out.contains("piece G& FyafsF"));
    assert!(
        out.contains("piece K& KimAimDimN"),
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

/// Runs the binary with raw bytes on standard input.
fn session_bytes(args: &[&str], input: &[u8]) -> (String, String, Option<i32>) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_polymachy"))
        .args(args)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code(),
    )
}

#[test]
fn a_line_that_is_not_utf8_is_reported_and_the_session_goes_on() {
    let (out, _, code) = session_bytes(&["uci"], b"uci\n\xff\nisready\n");
    assert_eq!(code, Some(0));
    assert!(out.contains("uciok"), "{out}");
    assert!(
        out.contains("info string error: the line `?` is not valid UTF-8 (ignored)"),
        "{out}"
    );
    assert!(out.trim_end().ends_with("readyok"), "{out}");

    let (out, _, code) = session_bytes(&["xboard"], b"xboard\nprotover 2\nping 1\xfe\nping 7\n");
    assert_eq!(code, Some(0));
    assert!(out.contains("Error (not valid UTF-8): ping 1?"), "{out}");
    assert!(out.trim_end().ends_with("pong 7"), "{out}");

    // The terminal game: the bad line is reported, the next command still runs.
    let (out, _, code) = session_bytes(
        &["play", "-v", "chess", "--black", "human", "--ascii"],
        b"\xc3\x28\nfen\nquit\n",
    );
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("is not valid UTF-8 (ignored)"), "{out}");
    assert!(
        out.contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "{out}"
    );
}

#[cfg(unix)]
#[test]
fn writing_to_a_closed_pipe_ends_quietly() {
    use std::os::unix::process::ExitStatusExt;
    use std::process::{Command, Stdio};
    for args in [
        &["variants", "--toml"][..],
        &["perft", "-v", "chess", "-d", "2", "--divide"],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_polymachy"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Close the reading end before the program writes.
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        // Ended by SIGPIPE (13), as `head` expects of Unix tools. A child process that
        // another test forks at the same moment can hold a copy of the pipe's reading end until
        // it execs, and a short output then fits in the pipe: a clean exit with no error (perft
        // still prints its timing line on stderr) is the only other outcome allowed (before
        // the fix, `println!` panicked with status 101).
        assert!(
            out.status.signal() == Some(13)
                || (out.status.success() && !err.to_lowercase().contains("error")),
            "{args:?}: {:?} {err}",
            out.status
        );
    }
}

#[test]
fn malformed_uci_commands_are_reported_and_ignored() {
    let (out, _, code) = session(
        &["uci"],
        "setoption name UCI_Variant value chess\n\
         go depth x\ngo wtime\ngo sideways 3\n\
         setoption Hash 3\nsetoption name Hash value lots\n\
         position fen not/a/fen w - - 0 1\nposition\n\
         position startpos moves e2e4 e7e5 e1e8\n\
         isready\ngo depth 1\n",
    );
    assert_eq!(code, 0);
    for want in [
        "info string error: `go depth` needs a number, found `x` (go ignored)",
        "info string error: `go wtime` needs a number (go ignored)",
        "info string error: unknown `go` parameter `sideways` (go ignored)",
        "info string error: expected `setoption name NAME [value VALUE]`",
        "info string error: Hash must be a number from 1 to 4096 (megabytes), got `lots`",
        "info string error: illegal move `e1e8`",
        "readyok",
    ] {
        assert!(out.contains(want), "missing `{want}` in\n{out}");
    }
    assert_eq!(
        out.lines()
            .filter(|l| l.starts_with("info string error"))
            .count(),
        8,
        "{out}"
    );
    // None of the bad `go` lines started a search: one `bestmove`, after `readyok`, and the
    // refused `position` left the start position (White moves from rank 1 or 2).
    let bests: Vec<&str> = out.lines().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bests.len(), 1, "{out}");
    let from_rank = bests[0].as_bytes()[10];
    assert!(from_rank == b'1' || from_rank == b'2', "{}", bests[0]);
}

#[test]
fn malformed_xboard_commands_are_reported_and_ignored() {
    let (out, _, code) = session(
        &["xboard"],
        "xboard\nprotover 2\nnew\nforce\nsetboard garbage\nusermove zz9\nusermove e2e5\n\
         level 40 x 0\ntime soon\nst -1\nsd zero\nusermove e2e4\nping 9\n",
    );
    assert_eq!(code, 0);
    for want in [
        "tellusererror Illegal position",
        "Illegal move: zz9",
        "Illegal move: e2e5",
        "Error (bad argument): level 40 x 0",
        "Error (bad argument): time soon",
        "Error (bad argument): st -1",
        "Error (bad argument): sd zero",
        "pong 9",
    ] {
        assert!(out.contains(want), "missing `{want}` in\n{out}");
    }
    assert!(!out.contains("Illegal move: e2e4"), "{out}");
}

#[test]
fn end_of_input_during_a_search_ends_cleanly() {
    // UCI: an infinite search is stopped and its move reported.
    let (out, _, code) = session(
        &["uci"],
        "setoption name UCI_Variant value chess\ngo infinite\n",
    );
    assert_eq!(code, 0);
    assert!(
        out.trim_end()
            .lines()
            .last()
            .unwrap_or("")
            .starts_with("bestmove "),
        "{out}"
    );
    // CECP: a bounded search finishes and plays its move.
    let (out, _, code) = session(&["xboard"], "xboard\nprotover 2\nnew\nsd 2\ngo\n");
    assert_eq!(code, 0);
    assert!(
        out.trim_end()
            .lines()
            .last()
            .unwrap_or("")
            .starts_with("move "),
        "{out}"
    );
}

#[test]
fn xboard_features_start_with_done_0_and_end_with_done_1() {
    let (out, _, _) = session(&["xboard"], "xboard\nprotover 2\nquit\n");
    let features: Vec<&str> = out.lines().filter(|l| l.starts_with("feature")).collect();
    assert_eq!(features.first(), Some(&"feature done=0"), "{out}");
    assert_eq!(features.last(), Some(&"feature done=1"), "{out}");
}

#[test]
fn xboard_piece_lines_hold_for_both_colours_and_use_unaltered_slots() {
    let (out, _, _) = session(
        &["xboard"],
        "xboard\nprotover 2\nvariant lions-and-unicorns\nquit\n",
    );
    let pieces: Vec<&str> = out.lines().filter(|l| l.starts_with("piece ")).collect();
    assert_eq!(pieces.len(), 9, "{out}");
    for p in &pieces {
        assert_eq!(p.as_bytes()[7], b'&', "{p}");
    }
    let setup = out.lines().find(|l| l.starts_with("setup (")).unwrap();
    let table = &setup["setup (".len()..setup.find(')').unwrap()];
    // XBoard's slots: P N B R Q F E A C W M O H I J G D V L S U K. The Pawn slot holds the
    // pawn, the Lance slot (which XBoard promotes on the last rank) stays empty.
    assert_eq!(&table[..1], "P", "{table}");
    assert_eq!(&table[18..19], ".", "{table}");
    assert_eq!(&table[21..22], "K", "{table}");
    assert!(table[..22].contains('L'), "{table}");
}

#[test]
fn xboard_king_leap_right_in_xboard_form() {
    let start =
        "cm3qk3mc/ernbilgibnre/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/ERNBILGIBNRE/CM3QK3MC";
    let (out, _, _) = session(
        &["xboard"],
        &format!(
            "xboard\nprotover 2\nvariant metamachy\nsetboard {start} w Gg g: 0 1\nsetboard {start} w G - 0 1\nsetboard {start} w Kx - 0 1\nping 2\n"
        ),
    );
    // The setup line writes the right as XBoard keeps it.
    assert!(out.contains(&format!("{start} w Gg - 0 1")), "{out}");
    // XBoard's spurious en-passant field is noted and dropped; `G` alone is accepted; `x` is
    // refused with its reason.
    assert!(
        out.contains("# en-passant field `g:` names no square a pawn passed"),
        "{out}"
    );
    assert_eq!(out.matches("tellusererror").count(), 1, "{out}");
    assert!(
        out.contains("rights: `x` means nothing in this variant"),
        "{out}"
    );
    assert!(out.contains("pong 2"), "{out}");
}

#[test]
fn xboard_numbers_the_ranks_of_a_ten_rank_board_from_0() {
    // Shako's pawns stand on rank 3 (rank 2 for XBoard); its king on f2 (f1 for XBoard).
    let (out, _, _) = session(
        &["xboard"],
        "xboard\nprotover 2\nvariant shako\nforce\nusermove f3f4\nusermove f2f3\nusermove f7f6\nsd 1\ngo\n",
    );
    assert!(out.contains("Illegal move: f3f4"), "{out}");
    assert!(!out.contains("Illegal move: f2f3"), "{out}");
    assert!(!out.contains("Illegal move: f7f6"), "{out}");
    let mv = out.lines().rev().find(|l| l.starts_with("move ")).unwrap();
    // White's reply in XBoard's numbering: no rank 10, every rank from 0 to 9.
    assert!(!mv.contains("10"), "{mv}");
}

#[test]
fn threads_in_uci_and_cores_in_cecp() {
    // Two threads find the same mate; a bad value is reported and the session goes on.
    let (out, _, _) = session(
        &["uci"],
        "uci\nsetoption name Threads value 2\nsetoption name Threads value 0\n\
         setoption name UCI_Variant value chess\n\
         position startpos moves e2e4 e7e5 f1c4 b8c6 d1h5 g8f6\ngo depth 4\n",
    );
    assert!(
        out.contains("option name Threads type spin default 1 min 1 max 256"),
        "{out}"
    );
    assert!(
        out.contains("info string error: Threads must be a number from 1 to 256, got `0`"),
        "{out}"
    );
    assert_eq!(out.lines().last(), Some("bestmove h5f7"), "{out}");
    let (out, _, _) = session(
        &["xboard"],
        "xboard\nprotover 2\nnew\ncores 2\ncores many\nmemory 8\nsd 3\nusermove e2e4\nping 1\n",
    );
    assert!(out.contains("smp=1") && out.contains("memory=1"), "{out}");
    assert!(
        out.contains("Error (cores must be 1 to 256): many"),
        "{out}"
    );
    assert!(out.lines().any(|l| l.starts_with("move ")), "{out}");
}

#[test]
fn uci_cont_history_option_changes_the_search_and_rejects_bad_values() {
    let nodes = |flag: &str, moves: &str| {
        let (out, _, code) = session(
            &["uci"],
            &format!(
                "setoption name UCI_Variant value chess\nsetoption name ContHistory value {flag}\n\
                 position startpos moves {moves}\ngo depth 7\n"
            ),
        );
        assert_eq!(code, 0);
        assert!(!out.contains("info string error"), "{out}");
        assert!(
            out.lines().last().unwrap().starts_with("bestmove "),
            "{out}"
        );
        out.lines()
            .rfind(|l| l.starts_with("info depth 7 "))
            .and_then(|l| {
                let w: Vec<&str> = l.split_whitespace().collect();
                let i = w.iter().position(|&x| x == "nodes")?;
                w.get(i + 1)?.parse::<u64>().ok()
            })
            .expect("a depth-7 info line with a node count")
    };
    // The same fixed-depth searches visit different trees once continuation histories
    // order the quiet moves and steer the reductions (in one of two openings at least: a
    // small tree may come out the same by chance).
    let openings = ["e2e4 e7e5 g1f3 b8c6", "d2d4 d7d5 c2c4 e7e6"];
    let counts = |flag: &str| openings.map(|m| nodes(flag, m));
    assert_ne!(counts("true"), counts("false"));
    let (out, _, _) = session(&["uci"], "uci\nsetoption name ContHistory value maybe\n");
    assert!(
        out.contains("option name ContHistory type check default false"),
        "{out}"
    );
    assert!(
        out.contains("info string error: ContHistory must be true or false, got `maybe`"),
        "{out}"
    );
}

/// The royal swap over both protocols (Tamerlane II with the swap, a file variant): the King
/// a1, checked with the b-file covered, escapes only by changing places with its Rook on k1,
/// written `a1k1`; a GUI's `a1k1` is read back as that swap.
#[test]
fn the_royal_swap_travels_as_coordinates() {
    let file = "tests/data/tamerlane2-swap.toml";
    let fen = "rr3k5/11/11/11/11/11/11/11/11/11/K9R w Ss - 0 1";
    let (out, _, _) = session(
        &["uci", "-v", file],
        &format!("uci\nposition fen {fen}\ngo depth 2\n"),
    );
    assert_eq!(out.lines().last(), Some("bestmove a1k1"), "{out}");
    // After the swap the Rook stands on a1 and may be taken there.
    let (out, _, _) = session(
        &["uci", "-v", file],
        &format!("uci\nposition fen {fen} moves a1k1\ngo depth 2\n"),
    );
    assert_eq!(out.lines().last(), Some("bestmove a11a1"), "{out}");
    let (out, _, _) = session(
        &["xboard", "-v", file],
        &format!("xboard\nprotover 2\nforce\nsetboard {fen}\nsd 2\ngo\n"),
    );
    assert!(out.lines().any(|l| l == "move a1k1"), "{out}");
    let (out, _, _) = session(
        &["xboard", "-v", file],
        &format!("xboard\nprotover 2\nforce\nsetboard {fen}\nusermove a1k1\nsd 2\ngo\n"),
    );
    assert!(!out.contains("Illegal move"), "{out}");
    assert!(out.lines().any(|l| l == "move a11a1"), "{out}");
}

/// A game the engine plays against itself at a few hundred nodes a move: real moves (king
/// leaps, promotions, captures) rather than random ones.
fn self_played(variant: &str, plies: usize) -> polymachy::session::Session {
    use polymachy::position::Ruleset;
    use polymachy::search::{Limits, Searcher};
    let v = polymachy::variant::Variant::load(variant).unwrap();
    let rules = Ruleset::new(&v, None).unwrap();
    let mut game = polymachy::session::Session::new(&rules);
    let mut s = Searcher::new(&rules, 4);
    while game.moves().len() < plies && !game.is_over() {
        let mut pos = game.position().clone();
        let r = s.search(&mut pos, &Limits::nodes(400), |_| {});
        game.play(r.best.unwrap()).unwrap();
    }
    game
}

// The engine's board after `position startpos moves ...` is the referee's at every ply of a
// real game (the position a GUI means is the one the engine searches), and `eval` gives the
// static evaluation of that board from White's side.
#[test]
fn uci_position_with_moves_is_the_referees_board_at_every_ply() {
    for variant in ["metamachy", "shako"] {
        let game = self_played(variant, 120);
        let coords: Vec<String> = game.moves().iter().map(|&m| game.coord(m)).collect();
        let mut input = format!("setoption name UCI_Variant value {variant}\n");
        for k in 0..=coords.len() {
            input.push_str(&format!(
                "position startpos moves {}\nd\n",
                coords[..k].join(" ")
            ));
        }
        let (out, _, code) = session(&["uci"], &input);
        assert_eq!(code, 0);
        let fens: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("Fen: "))
            .collect();
        assert_eq!(fens.len(), coords.len() + 1, "{variant}: {out}");
        for (k, fen) in fens.iter().enumerate() {
            assert_eq!(
                *fen,
                game.fen_at(k).unwrap(),
                "{variant}, ply {k} after {}",
                coords[..k].join(" ")
            );
        }
    }
}

#[test]
fn uci_eval_is_the_static_evaluation_from_whites_side() {
    let game = self_played("shako", 7);
    let s = polymachy::search::Searcher::new(game.rules(), 1);
    // Seven plies: Black is to move, and White's view is the negation of Black's.
    let black_to_move = game.position();
    let want = -s.evaluate(black_to_move);
    let coords: Vec<String> = game.moves().iter().map(|&m| game.coord(m)).collect();
    let (out, _, _) = session(
        &["uci"],
        &format!(
            "setoption name UCI_Variant value shako\nposition startpos moves {}\neval\n",
            coords.join(" ")
        ),
    );
    let line = out
        .lines()
        .find(|l| l.starts_with("Total evaluation: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        line.ends_with(&format!("(white side) [{want} cp]")),
        "{line}"
    );
    assert_ne!(want, 0, "a position with a real evaluation");
}

/// The binary started with `args`, its standard input and output piped (its errors dropped).
fn piped(args: &[&str]) -> std::process::Child {
    use std::process::{Command, Stdio};
    Command::new(env!("CARGO_BIN_EXE_polymachy"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// Runs the binary with `args`, writing `before`, then a line of `long` bytes (`x`, written
/// in pieces, never held whole), then `after` on its standard input; reads its output up to
/// the line `until`, notes the process's peak resident memory (KiB, `VmHWM`), then sends
/// `quit`. Gives back the output and the peak.
fn with_a_long_line(
    args: &[&str],
    before: &str,
    long: usize,
    after: &str,
    until: &str,
) -> (String, usize) {
    use std::io::{BufRead, Write};
    let mut child = piped(args);
    let mut stdin = child.stdin.take().unwrap();
    let (before, after) = (before.to_string(), after.to_string());
    let writer = std::thread::spawn(move || {
        stdin.write_all(before.as_bytes()).unwrap();
        let piece = vec![b'x'; 1 << 16];
        let mut left = long;
        while left > 0 {
            let n = left.min(piece.len());
            stdin.write_all(&piece[..n]).unwrap();
            left -= n;
        }
        stdin.write_all(after.as_bytes()).unwrap();
        stdin
    });
    let mut out = String::new();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    for line in lines.by_ref() {
        let line = line.unwrap();
        out.push_str(&line);
        out.push('\n');
        if line == until {
            break;
        }
    }
    let status =
        std::fs::read_to_string(format!("/proc/{}/status", child.id())).unwrap_or_default();
    let peak = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.split_whitespace().next())
        .and_then(|v| v.parse().ok())
        .unwrap_or(0);
    let mut stdin = writer.join().unwrap();
    stdin.write_all(b"quit\n").unwrap();
    drop(stdin);
    for line in lines {
        out.push_str(&line.unwrap());
        out.push('\n');
    }
    child.wait().unwrap();
    (out, peak)
}

#[test]
fn uci_drops_a_line_of_a_hundred_megabytes_and_goes_on() {
    let bound = polymachy::protocol::lineio::MAX_LINE_BYTES;
    let (out, peak) = with_a_long_line(&["uci"], "uci\n", 100 << 20, "\nisready\n", "readyok");
    let error = format!(
        "info string error: the line `{}...` is longer than {bound} bytes (ignored)",
        "x".repeat(40)
    );
    let lines: Vec<&str> = out.lines().collect();
    let at = lines.iter().position(|l| *l == error);
    assert!(at.is_some(), "{out}");
    assert_eq!(lines.last(), Some(&"readyok"), "{out}");
    assert!(lines.iter().position(|l| *l == "uciok") < at, "{out}");
    // The line is never held whole: the process's peak memory stays far below its size.
    println!("uci read a 100 MiB line with a peak resident memory of {peak} KiB");
    if cfg!(target_os = "linux") {
        assert!(peak > 0, "no VmHWM read");
        assert!(peak < 64 * 1024, "peak resident memory {peak} KiB");
    }
}

/// Runs `polymachy xboard`, writes `input` and nothing more until the engine's `move` line and
/// the line after it (within 5 s) have come; then quits. Gives back that line and the output.
fn line_after_the_move(input: &str) -> (Option<String>, String) {
    use std::io::{BufRead, Write};
    use std::sync::mpsc;
    use std::time::Duration;
    let mut child = piped(&["xboard"]);
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut out = String::new();
    let mut after = None;
    let mut moved = false;
    while let Ok(line) = rx.recv_timeout(Duration::from_secs(5)) {
        out.push_str(&line);
        out.push('\n');
        if moved {
            after = Some(line);
            break;
        }
        moved = line.starts_with("move ");
    }
    let _ = stdin.write_all(b"quit\n");
    drop(stdin);
    let _ = child.wait();
    drop(rx);
    let _ = reader.join();
    (after, out)
}

/// A draw by Makruk's counting rules, which XBoard does not judge (with its legality test on
/// it takes such a claim for a false one and forfeits the claimer): offered, never claimed,
/// and the opponent's offer accepted once the count has run out (two engines offering a draw
/// agree it), but not before.
#[test]
fn xboard_offers_a_draw_by_the_counting_rules_instead_of_claiming_it() {
    let (out, _, code) = session(
        &["xboard"],
        "xboard\nprotover 2\nvariant makruk\nforce\nsetboard 8/8/8/4k3/8/8/3R4/4K3 b - 32 31 1\ndraw\nping 1\nusermove e5e4\nusermove d2d3\ndraw\nping 2\nquit\n",
    );
    assert_eq!(code, 0, "{out}");
    let after = |tag: &str| out.split_once(tag).map(|(_, rest)| rest.to_string());
    let before_count = out.split_once("pong 1").unwrap().0;
    assert!(!before_count.contains("offer draw"), "{out}");
    let ended = after("pong 1").unwrap();
    assert!(!ended.contains("1/2-1/2"), "{out}");
    assert_eq!(
        ended.lines().filter(|l| *l == "offer draw").count(),
        2,
        "the count's end, then the answer to the opponent's offer: {out}"
    );
    // The engine's own move that runs the count out carries the offer at once (XBoard
    // relays the opponent's offer only after the offerer's next move, which never comes).
    // Nothing more is sent after `go` until the move and the line after it have come.
    let (after_move, out) = line_after_the_move(
        "xboard\nprotover 2\nvariant makruk\nforce\nsetboard 8/8/8/8/4k3/8/3R4/4K3 w - 32 32 2\nsd 1\ngo\n",
    );
    assert_eq!(after_move.as_deref(), Some("offer draw"), "{out}");
    assert!(!out.contains("1/2-1/2"), "{out}");
    // Checkmate and the draws XBoard judges itself are still claimed.
    let (out, _, _) = session(
        &["xboard"],
        "xboard\nprotover 2\nvariant normal\nforce\nsetboard 7k/5Q2/6K1/8/8/8/8/8 w - - 0 1\nusermove f7g7\nping 1\nquit\n",
    );
    assert!(out.contains("1-0 {Checkmate: White wins.}"), "{out}");
    let (out, _, _) = session(
        &["xboard"],
        "xboard\nprotover 2\nvariant normal\nforce\nsetboard 7k/4Q3/6K1/8/8/8/8/8 w - - 0 1\nusermove e7f7\nping 1\nquit\n",
    );
    assert!(out.contains("1/2-1/2 {Stalemate: draw.}"), "{out}");
}

#[test]
fn xboard_drops_a_line_over_the_bound_and_goes_on() {
    let out = with_a_long_line(
        &["xboard"],
        "xboard\nprotover 2\n",
        2 << 20,
        "\nping 7\n",
        "pong 7",
    )
    .0;
    let error = format!("Error (line too long): {}...", "x".repeat(40));
    assert!(out.lines().any(|l| l == error), "{out}");
    assert!(out.lines().any(|l| l == "pong 7"), "{out}");
}

#[test]
fn uci_go_takes_a_node_count_up_to_the_largest_64_bit_number() {
    let (out, _, code) = session(
        &["uci"],
        "setoption name UCI_Variant value chess\nposition startpos\ngo nodes 18446744073709551615 depth 1\nisready\n",
    );
    assert_eq!(code, 0);
    assert!(!out.contains("info string error"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("bestmove ")), "{out}");
    // One past it is no number of nodes.
    let (out, _, _) = session(&["uci"], "go nodes 18446744073709551616\n");
    assert!(
        out.contains("info string error: `go nodes` needs a number, found `18446744073709551616`"),
        "{out}"
    );
}

/// The `piece` lines of the engine-defined games that XBoard judges with its legality test
/// on, pinned as XBoard 4.9 reads them: its `O<n>` castles with the first piece toward the
/// edge, which must stand as many squares from the corner as the `O` has `j` prefixes (the
/// Rooks stand next to the corner piece in these three games).
#[test]
fn xboard_piece_lines_of_the_games_xboard_judges() {
    for (variant, want) in [
        (
            "perfect12",
            "P& fmWfceFfmnnD|I& K|N& N|B& B|R& R|M& C|E& FA|C& mRcpR|L& KNAD|G& FyafsF|Q& Q|K& KjO3",
        ),
        (
            "lions-and-unicorns",
            "P& fmWfceFifmnD|N& N|L& FDH|B& B|R& R|C& RN|U& BN0|Q& Q|K& KjO2",
        ),
        (
            "shako",
            "P& fmWfceFifmnD|N& N|E& FA|B& B|C& mRcpR|R& R|Q& Q|K& KjO2",
        ),
    ] {
        let (out, _, _) = session(
            &["xboard"],
            &format!("xboard\nprotover 2\nvariant {variant}\nquit\n"),
        );
        let pieces: Vec<&str> = out
            .lines()
            .filter_map(|l| l.strip_prefix("piece "))
            .collect();
        assert_eq!(pieces.join("|"), want, "{variant}");
    }
}

/// XBoard removes an en-passant victim itself only when the capturing Pawn stands in the half
/// of the board nearer the opponent; from its own half (Perfect 12's Pawns double-step from
/// any rank) the capture goes out in two legs, the first onto the victim (`d6e6,e6e7`), and is
/// read back in that form. In each position the capture is White's only legal move.
#[test]
fn xboard_en_passant_in_a_pawns_own_half_travels_in_two_legs() {
    let own_half = "1r9k/12/12/12/12/3b8/3Pp7/12/12/12/11r/K11 w - e7 0 1";
    let far_half = "1r9k/12/12/12/3b8/3Pp7/12/12/12/12/11r/K11 w - e8 0 1";
    let play = |fen: &str| {
        let (out, _, _) = session(
            &["xboard"],
            &format!("xboard\nprotover 2\nvariant perfect12\nsetboard {fen}\nsd 2\ngo\n"),
        );
        out.lines()
            .find_map(|l| l.strip_prefix("move "))
            .map(str::to_string)
    };
    assert_eq!(play(own_half).as_deref(), Some("d6e6,e6e7"));
    assert_eq!(play(far_half).as_deref(), Some("d7e8"));
    let (out, _, _) = session(
        &["xboard"],
        &format!(
            "xboard\nprotover 2\nvariant perfect12\nsetboard {own_half}\nforce\nusermove d6e6,e6e7\nping 1\n"
        ),
    );
    assert!(!out.contains("Illegal move"), "{out}");
    assert!(out.contains("pong 1"), "{out}");
}

#[test]
fn guis_send_a_fen_from_another_arrangement_without_setup() {
    let fen = "6k5/12/12/12/12/12/12/12/12/12/6K5/12 w K - 0 1";
    // UCI: `position fen`, then the leap from g2.
    let r = common::run_binary(
        &["uci"],
        &format!(
            "setoption name UCI_Variant value zanzibar-xxl\nposition fen {fen} moves g2g4\nd\n"
        ),
    );
    assert!(!r.stdout.contains("error"), "{}", r.stdout);
    assert!(
        r.stdout
            .contains("Fen: 6k5/12/12/12/12/12/12/12/6K5/12/12/12 b - - 1 1"),
        "{}",
        r.stdout
    );
    // CECP: `setboard`, then the leap as the user's move.
    let r = common::run_binary(
        &["xboard"],
        &format!(
            "xboard\nprotover 2\nvariant zanzibar-xxl\nforce\nsetboard {fen}\nusermove g2g4\nping 3\n"
        ),
    );
    assert!(r.stdout.contains("pong 3"), "{}", r.stdout);
    for bad in ["tellusererror", "Illegal move", "Error"] {
        assert!(!r.stdout.contains(bad), "{bad}: {}", r.stdout);
    }
}

/// Minishogi's promoted pieces have no letters of their own (`+P`, `+S`, `+B`, `+R`): XBoard's
/// piece table gives each one a letter no other piece has, and a FEN, a move and a promotion
/// are written `+X` and `+` as before.
#[test]
fn xboard_gives_pieces_written_plus_letters_of_their_own() {
    let (out, _, _) = session(
        &["xboard"],
        "xboard\nprotover 2\nvariant minishogi\nsetboard k4/4P/5/5/K4[] w - - 0 1\nforce\n\
         usermove e4e5+\nsetboard k3+P/5/5/5/K4[] b - - 0 1\nping 1\n",
    );
    let setup = out.lines().find(|l| l.starts_with("setup (")).unwrap();
    let table = &setup["setup (".len()..setup.find(')').unwrap()];
    // Ten pieces, each with a letter of the table, none twice, and the same letters in the
    // `piece` lines.
    let pieces: Vec<char> = table[..22].chars().filter(|&c| c != '.').collect();
    assert_eq!(pieces.len(), 10, "{table}");
    let mut unique = pieces.clone();
    unique.sort_unstable();
    unique.dedup();
    assert_eq!(unique.len(), 10, "{table}");
    let lines: Vec<&str> = out.lines().filter(|l| l.starts_with("piece ")).collect();
    assert_eq!(lines.len(), 10, "{out}");
    for l in &lines {
        let letter = l.chars().nth(6).unwrap();
        assert!(pieces.contains(&letter), "{l} not in {table}");
    }
    assert!(!out.contains('?'), "{out}");
    assert!(
        !out.contains("Illegal move") && !out.contains("Error"),
        "{out}"
    );
    assert!(out.contains("pong 1"), "{out}");
}

/// A small game with drops and two pieces written with a letter and a prime: the Crowned
/// Knight (`N'`) and the Short Bishop (`B'`), the only pieces the Pawn promotes to.
const PRIMED_DROPS: &str = r#"name = "Primed House"
id = "primed-house"
files = 8
ranks = 8
start = "rnb'n'kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB'N'KBNR"

[[piece]]
name = "King"
letter = "K"
betza = "K"
royal = true

[[piece]]
name = "Rook"
letter = "R"
betza = "R"

[[piece]]
name = "Bishop"
letter = "B"
betza = "B"

[[piece]]
name = "Knight"
letter = "N"
betza = "N"

[[piece]]
name = "Crowned Knight"
letter = "N'"
betza = "KN"

[[piece]]
name = "Short Bishop"
letter = "B'"
betza = "B2"

[[piece]]
name = "Pawn"
letter = "P"
betza = "fmWfcF"
promotes-to = "N'B'"

[rules.promotion]
zone = 1

[rules.drops]
kinds = "RBNN'B'P"
captures = true
"#;

/// XBoard names each kind by one letter: a piece written `N'` takes one that no piece of the
/// game has, in the piece table, the `piece` lines, the start FEN, the engine's moves (a
/// promotion's suffix) and the GUI's (drops and promotions) and `setboard` FENs, read back as
/// that piece. No text to XBoard holds a prime.
#[test]
fn xboard_names_primed_pieces_by_stand_in_letters() {
    let dir = common::TempDir::new("xboard-primed");
    let path = dir.join("primed-house.toml");
    std::fs::write(&path, PRIMED_DROPS).unwrap();
    let file = path.display().to_string();
    // The Crowned Knight takes C, the Short Bishop S (their own letters N and B are the
    // Knight's and the Bishop's).
    let (out, _, _) = session(
        &["xboard"],
        &format!(
            "xboard\nprotover 2\nvariant {file}\nforce\n\
             setboard 7k/1P6/8/8/8/1r6/7r/K7[CS] w - - 0 1\nusermove b7b8c\n\
             setboard 7k/1P6/8/8/8/1r6/7r/K7[CS] w - - 0 1\nusermove C@e4\n\
             setboard 7k/1P6/8/8/8/1r6/7r/K7[] w - - 0 1\nsd 2\ngo\nping 1\n"
        ),
    );
    let setup = out.lines().find(|l| l.starts_with("setup (")).unwrap();
    assert!(
        setup.ends_with(" rnsckbnr/pppppppp/8/8/8/8/PPPPPPPP/RNSCKBNR[] w - - 0 1"),
        "{setup}"
    );
    let table = &setup["setup (".len()..setup.find(')').unwrap()];
    assert!(table.contains('C') && table.contains('S'), "{table}");
    let pieces: Vec<&str> = out.lines().filter(|l| l.starts_with("piece ")).collect();
    assert!(pieces.contains(&"piece C& KN"), "{pieces:?}");
    assert!(pieces.contains(&"piece S& B2"), "{pieces:?}");
    // The King cannot move: the engine's only moves are the promotions, to C or S.
    let mv = out.lines().find(|l| l.starts_with("move ")).unwrap();
    assert!(mv == "move b7b8c" || mv == "move b7b8s", "{out}");
    assert!(!out.contains('\''), "{out}");
    for bad in ["Illegal move", "Error", "?"] {
        assert!(!out.contains(bad), "{bad}: {out}");
    }
    assert!(out.contains("pong 1"), "{out}");
}

/// UCI has no piece table: its moves name a piece written `N'` so (`b7b8n'`, `N'@e4`), in
/// the engine's moves and in the GUI's, and its FENs too.
#[test]
fn uci_names_primed_pieces_by_their_names() {
    let dir = common::TempDir::new("uci-primed");
    let path = dir.join("primed-house.toml");
    std::fs::write(&path, PRIMED_DROPS).unwrap();
    let file = path.display().to_string();
    let (out, _, _) = session(
        &["uci", "-v", &file],
        "uci\nposition fen 7k/1P6/8/8/8/1r6/7r/K7[N'] w - - 0 1 moves b7b8n' h8h7 N'@e4\nd\n\
         position fen 7k/1P6/8/8/8/1r6/7r/K7[] w - - 0 1\ngo depth 2\n",
    );
    assert!(
        out.contains("\nFen: 1N'~6/7k/8/8/4N'3/1r6/7r/K7[] b - - 0 2\n"),
        "{out}"
    );
    // The King cannot move: the engine's only moves are the promotions.
    let best = out.lines().last().unwrap();
    assert!(
        best == "bestmove b7b8n'" || best == "bestmove b7b8b'",
        "{out}"
    );
    assert!(!out.contains("error"), "{out}");
}
