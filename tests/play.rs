//! `polymachy play` and `polymachy analyse` driven through a pipe, and the game record
//! (results, moves as text, PGN) through the library.

mod common;

use common::rules;

use std::sync::Arc;

use polymachy::game::{Game, GameResult, Termination, parse_pgn};
use polymachy::position::Position;
use polymachy::position::Ruleset;
use polymachy::variant::Variant;

/// Runs the binary with `args`, feeding `input` on standard input; returns (status, stdout,
/// stderr).
fn run(args: &[&str], input: &str) -> (i32, String, String) {
    let r = common::run_binary(args, input);
    (r.code, r.stdout, r.stderr)
}

#[test]
fn fools_mate_between_two_humans_with_mistakes_and_a_save() {
    let dir = common::TempDir::new("play-fools");
    let pgn = dir.join("fools.pgn");
    let input = format!(
        "help\nf2f3\ne7e5\ne2e5\nNd2\nfrobnicate\nZe4\nmoves\ng2g4\nQh4\nQh5\nsave {}\nquit\n",
        pgn.display()
    );
    let (code, out, err) = run(
        &[
            "play",
            "--variant",
            "chess",
            "--white",
            "human",
            "--black",
            "human",
            "--ascii",
        ],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    // The prompt, and the moves as they are played.
    assert!(out.contains("White to move: f2f3"), "{out}");
    assert!(out.contains("White plays f3"));
    assert!(out.contains("Black plays e5"));
    // Help.
    assert!(out.contains("save FILE"));
    // An illegal move is explained and asked again.
    assert!(
        out.contains("e2e5: the Pawn on e2 cannot move to e5"),
        "{out}"
    );
    // A move no piece can make.
    assert!(
        out.contains("Nd2: no Knight of yours can move to d2"),
        "{out}"
    );
    // Unknown command and unknown piece letter.
    assert!(out.contains("Unknown command `frobnicate`"));
    assert!(out.contains("Ze4: no piece has the letter Z"));
    // The legal moves of White's second move (19 of them after 1. f3 e5).
    assert!(out.contains("19 legal moves:"), "{out}");
    // The mate ends the game with its reason; moves are then refused.
    assert!(out.contains("Black plays Qh4#"));
    assert!(out.contains("Checkmate: Black wins."));
    assert!(out.contains("The game is over"));
    assert!(out.contains(&format!("Saved to {}.", pgn.display())));
    // The marked last move on the ASCII board.
    assert!(out.contains("[q]"), "{out}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    for tag in [
        "[Event \"",
        "[Site \"",
        "[Date \"",
        "[Round \"",
        "[White \"Human\"]",
        "[Black \"Human\"]",
        "[Result \"0-1\"]",
        "[Variant \"chess\"]",
        "[VariantMen \"P:fmWfceFifmnD;N:N;B:B;R:R;Q:Q;K:K\"]",
    ] {
        assert!(text.contains(tag), "{tag} missing in\n{text}");
    }
    assert!(
        !text.contains("[FEN"),
        "the default start needs no FEN:\n{text}"
    );
    assert!(text.contains("1. f3 e5 2. g4 Qh4#"), "{text}");
    assert!(text.trim_end().ends_with("0-1"));
}

#[test]
fn ambiguity_promotion_and_end_of_input() {
    // White: Ke1, Knights b1 and f3 (both reach d2), pawn a7. Black: Kh8.
    let fen = "7k/P7/8/8/8/5N2/8/1N2K3 w - - 0 1";
    let input = "Nd2\nNbd2\nKg8\na8\na8=Q\n";
    let (code, out, err) = run(
        &[
            "play",
            "--variant",
            "chess",
            "--fen",
            fen,
            "--white",
            "human",
            "--black",
            "human",
            "--ascii",
        ],
        input,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("ambiguous: Nd2 could be b1d2 or f3d2"),
        "{out}"
    );
    assert!(out.contains("White plays Nbd2"), "{out}");
    // Black moves; then a bare a8 needs the promotion piece.
    assert!(out.contains("Black plays Kg8"), "{out}");
    assert!(out.contains("ambiguous: a8 could be"), "{out}");
    assert!(out.contains("a7a8q"));
    assert!(out.contains("White plays a8=Q+"), "{out}");
    // End of input quits cleanly.
    assert!(out.contains("End of input"), "{out}");
}

#[test]
fn undo_against_the_engine_takes_back_the_pair() {
    let input = "e2e4\nundo\nfen\nhint\nquit\n";
    let (code, out, err) = run(
        &["play", "--variant", "chess", "--depth", "2", "--ascii"],
        input,
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("White plays e4"));
    // The engine replies and says what it found.
    assert!(out.contains("Black plays "), "{out}");
    assert!(out.contains("depth 2, score "), "{out}");
    assert!(out.contains("Took back e2e4 "), "{out}");
    assert!(
        out.contains("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
        "{out}"
    );
    assert!(out.contains("Hint: "));
}

#[test]
fn metamachy_is_the_default_and_takes_san_like_moves() {
    // The Lion on f2 (KNAD) leaps over the pawn to f4; the Pawn on e3 steps to e4 (letterless).
    let input = "Lf4\ne3e4\nquit\n";
    let (code, out, err) = run(&["play", "--depth", "1", "--ascii"], input);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Metamachy"), "{out}");
    assert!(out.contains("White plays Lf4"), "{out}");
    assert!(out.contains("Black plays "), "{out}");
    // Coordinates with two-digit ranks are drawn.
    assert!(out.contains(" 12 "), "{out}");
}

#[test]
fn the_engine_mates_and_the_game_says_why() {
    // Metamachy: Cannon a1 to l1 is mate (see tests/lib/search.rs).
    let fen = "11k/10pp/9N2/12/12/12/5K6/12/12/12/12/C11 w - - 0 1";
    let (code, out, err) = run(
        &[
            "play", "--fen", fen, "--white", "engine", "--black", "engine", "--depth", "3",
            "--ascii",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("White plays Cl1# (a1l1)"), "{out}");
    assert!(out.contains("Checkmate: White wins."), "{out}");
}

#[test]
fn save_from_a_position_and_load_it_again() {
    let dir = common::TempDir::new("play-resume");
    let pgn = dir.join("resume.pgn");
    let fen = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let input = format!("e4\nKd7\nsave {}\n", pgn.display());
    let (code, _, err) = run(
        &[
            "play",
            "--variant",
            "chess",
            "--fen",
            fen,
            "--white",
            "human",
            "--black",
            "human",
            "--ascii",
        ],
        &input,
    );
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&pgn).unwrap();
    assert!(text.contains("[SetUp \"1\"]"), "{text}");
    assert!(text.contains(&format!("[FEN \"{fen}\"]")), "{text}");
    assert!(text.contains("[Result \"*\"]"));
    assert!(text.contains("1. e4 Kd7 *"), "{text}");
    // Resume: two moves replayed, White to move.
    let (code, out, err) = run(
        &[
            "play",
            "--load",
            pgn.to_str().unwrap(),
            "--white",
            "human",
            "--black",
            "human",
            "--ascii",
        ],
        "fen\n",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Loaded 2 moves"), "{out}");
    assert!(out.contains("8/3k4/8/8/4P3/8/8/4K3 w - - 1 2"), "{out}");
}

#[test]
fn a_bad_game_file_is_refused_with_its_line() {
    let dir = common::TempDir::new("play-bad");
    let pgn = dir.join("bad.pgn");
    std::fs::write(
        &pgn,
        "[Event \"x\"]\n[Variant \"chess\"]\n\n1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Ke9 *\n",
    )
    .unwrap();
    let (code, _, err) = run(&["play", "--load", pgn.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(err.contains("bad.pgn:6:"), "{err}");
    assert!(err.contains("Ke9"), "{err}");
    std::fs::write(&pgn, "[Event \"x\"]\n[Variant \"chess\"\n\n1. e4 *\n").unwrap();
    let (code, _, err) = run(&["play", "--load", pgn.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(err.contains("bad.pgn:2: malformed tag"), "{err}");
    let (code, _, err) = run(&["play", "--load", "/nonexistent/game.pgn"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn analyse_prints_iterations_and_the_best_move() {
    let (code, out, err) = run(
        &[
            "analyse",
            "--variant",
            "chess",
            "--fen",
            "6k1/5ppp/8/8/8/8/5PPP/R5K1 w - - 0 1",
            "--depth",
            "3",
        ],
        "",
    );
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 4, "{out}");
    for (i, l) in lines[..3].iter().enumerate() {
        assert!(l.starts_with(&format!("depth {} score ", i + 1)), "{l}");
        assert!(
            l.contains(" nodes ") && l.contains(" nps ") && l.contains(" pv "),
            "{l}"
        );
    }
    assert!(lines[2].contains("score mate 1"), "{out}");
    assert_eq!(lines[3], "bestmove a1a8");
    let (code, out, _) = run(
        &[
            "analyse",
            "--variant",
            "lions-and-unicorns",
            "--movetime",
            "200",
        ],
        "",
    );
    assert_eq!(code, 0);
    assert!(
        out.lines().last().unwrap().starts_with("bestmove "),
        "{out}"
    );
}

// ---------------------------------------------------------------- the game record

#[test]
fn results_checkmate_stalemate_repetition_move_limit() {
    let rs = rules("chess");
    let mut g = Game::new(&rs);
    for m in ["f3", "e5", "g4", "Qh4#"] {
        assert!(g.outcome().is_none());
        g.play_text(m).unwrap();
    }
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::BlackWins, Termination::Checkmate)
    );

    // Black: Ka8, to move. White: Kc7 (covering b7 and b8), pawn b6 (covering a7): no move,
    // no check.
    let p = Position::from_fen(&rs, "k7/2K5/1P6/8/8/8/8/8 b - - 0 1").unwrap();
    let o = Game::from_position(p).outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, Termination::Stalemate)
    );

    // Knights out and back twice: the start position occurs a third time.
    let mut g = Game::new(&rs);
    for m in ["Nf3", "Nf6", "Ng1", "Ng8", "Nf3", "Nf6", "Ng1"] {
        g.play_text(m).unwrap();
        assert!(g.outcome().is_none(), "{m}");
    }
    g.play_text("Ng8").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, Termination::Repetition)
    );
    assert_eq!(o.to_string(), "Draw by repetition.");

    // After a double step no pawn can take en passant, the position is the same as when the
    // knights come back (FIDE): the third occurrence is the third Nf3-g1.
    let mut g = Game::new(&rs);
    let knights = ["Nf6", "Nf3", "Ng8", "Ng1", "Nf6", "Nf3", "Ng8"];
    for m in std::iter::once("e4").chain(knights) {
        g.play_text(m).unwrap();
        assert!(g.outcome().is_none(), "{m}");
    }
    g.play_text("Ng1").unwrap();
    let o = g.outcome().map(|o| o.reason);
    assert_eq!(
        o,
        Some(Termination::Repetition),
        "after e4 and two knight tours"
    );
    assert!(
        !g.position().fen().contains(" e3 "),
        "no en-passant square where no pawn can take: {}",
        g.position().fen()
    );

    // Where a pawn could take en passant, the position after the double step is another one:
    // the same tours draw only one occurrence later.
    let p = Position::from_fen(
        &rs,
        "rnbqkbnr/ppp1pppp/8/8/3p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    )
    .unwrap();
    let mut g = Game::from_position(p);
    g.play_text("e4").unwrap();
    assert!(
        g.position().fen().contains(" e3 "),
        "{}",
        g.position().fen()
    );
    for m in knights.into_iter().chain(["Ng1"]) {
        g.play_text(m).unwrap();
        assert!(g.outcome().is_none(), "{m}");
    }

    // Fifty moves each without capture or pawn move.
    let p = Position::from_fen(&rs, "7k/8/8/8/8/8/1R6/K7 w - - 99 70").unwrap();
    let mut g = Game::from_position(p);
    assert!(g.outcome().is_none());
    g.play_text("Rb3").unwrap();
    let o = g.outcome().unwrap();
    assert_eq!(
        (o.result, o.reason),
        (GameResult::Draw, Termination::MoveLimit)
    );
}

#[test]
fn stalemate_can_win_or_lose_as_the_variant_says() {
    let text = polymachy::variant::BUILTIN
        .iter()
        .find(|(n, _)| *n == "chess")
        .unwrap()
        .1;
    for (rule, result) in [
        ("win", GameResult::BlackWins),
        ("loss", GameResult::WhiteWins),
    ] {
        let v = Variant::from_toml(
            &text.replace("stalemate = \"draw\"", &format!("stalemate = \"{rule}\"")),
            "x.toml",
        )
        .unwrap();
        let rs = Ruleset::new(&v, None).unwrap();
        let p = Position::from_fen(&rs, "k7/2K5/1P6/8/8/8/8/8 b - - 0 1").unwrap();
        let o = Game::from_position(p).outcome().unwrap();
        assert_eq!(
            (o.result, o.reason),
            (result, Termination::Stalemate),
            "{rule}"
        );
    }
}

#[test]
fn san_in_metamachy_and_the_pgn_round_trip() {
    let rs = rules("metamachy");
    let mut g = Game::new(&rs);
    // Pawn double steps, Lion leaps, a Knight in coordinate notation, the Prince's double step.
    for m in ["e5", "e8", "Lf4", "Lf9", "j2i4", "Ie9"] {
        g.play_text(m).unwrap_or_else(|e| panic!("{m}: {e}"));
    }
    let pgn = g.to_pgn();
    assert!(pgn.contains("[Variant \"metamachy\"]"));
    assert!(
        pgn.contains("[VariantMen \"P:fmWfceFfmnnD;I:KfmnnD;N:N;B:B;R:R;M:C;E:FA;C:mRcpR;L:KNAD;G:FyafsF;Q:Q;K:K\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("1. e5 e8 2. Lf4 Lf9 3. Ni4 Ie9 *"), "{pgn}");
    let rec = parse_pgn(&pgn).unwrap();
    let g2 = Game::from_record(&rs, &rec).unwrap();
    assert_eq!(g2.moves(), g.moves());
    assert_eq!(g2.position().fen(), g.position().fen());
}

#[test]
fn pgn_reader_skips_comments_variations_and_numbers() {
    let rs = rules("chess");
    let text = "[Event \"t\"]\n[Variant \"chess\"]\n\n1.e4 {a comment\nover two lines} e5 (1... c5 2. Nf3) 2. Nf3 $1 ; rest\n2... Nc6 3.Bb5 a6 1/2-1/2\n";
    let rec = parse_pgn(text).unwrap();
    assert_eq!(rec.result.as_deref(), Some("1/2-1/2"));
    let g = Game::from_record(&rs, &rec).unwrap();
    assert_eq!(g.moves().len(), 6);
    let err = parse_pgn("[Event \"t\"]\n\n1. e4 {never closed\n").unwrap_err();
    assert_eq!(err.line, 3);
    let rec = parse_pgn("[Event \"t\"]\n[VariantMen \"P:fmWfceFifmnD\"]\n\n1. e4 *\n").unwrap();
    let err = Game::from_record(&rs, &rec).unwrap_err();
    assert_eq!(err.line, 2);
    let rec = parse_pgn("\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7 *\n").unwrap();
    let err = Game::from_record(&rs, &rec).unwrap_err();
    assert_eq!(err.line, 3);
    assert!(err.message.contains("over"), "{err}");
}

#[test]
fn moves_that_leave_the_king_in_check_are_explained() {
    let rs = rules("chess");
    // White: Ke1, Be2 pinned against the king by the black rook on e8. Black: Kh8, Re8.
    let mut g =
        Game::from_position(Position::from_fen(&rs, "4r2k/8/8/8/8/8/4B3/4K3 w - - 0 1").unwrap());
    let e = g.play_text("Bd3").unwrap_err();
    assert!(e.0.contains("would leave your King in check"), "{e}");
    let e = g.play_text("e2e9").unwrap_err();
    assert!(e.0.contains("no square e9"), "{e}");
    let e = g.play_text("d4d5").unwrap_err();
    assert!(e.0.contains("there is no piece on d4"), "{e}");
    let e = g.play_text("h8h7").unwrap_err();
    assert!(e.0.contains("is black's"), "{e}");
}

mod never_panics {
    use super::*;
    use proptest::prelude::*;
    use std::sync::OnceLock;

    fn cached(name: &'static str) -> Arc<Ruleset> {
        static CACHE: OnceLock<[Arc<Ruleset>; 2]> = OnceLock::new();
        let c = CACHE.get_or_init(|| [rules("chess"), rules("metamachy")]);
        if name == "chess" {
            c[0].clone()
        } else {
            c[1].clone()
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]

        #[test]
        fn reading_any_move_text(text in "[a-lxO0=+#()QNKPLIxé1-9 -]{0,12}") {
            let rs = cached("metamachy");
            let mut g = Game::new(&rs);
            if let Ok(m) = g.parse(&text) {
                prop_assert!(g.legal_moves().contains(&m));
            }
        }

        #[test]
        fn reading_any_pgn_text(text in "(\\[[A-Za-z]{0,5} \"[a-z\"]{0,4}\"\\]?\n|[0-9.]{1,4} |[a-hNBRQKx1-8=]{1,5} |\\{|\\}|\\(|\\)|;|\n|\\$1 |1-0|\\*|é){0,20}") {
            if let Ok(rec) = parse_pgn(&text) {
                let _ = Game::from_record(&cached("chess"), &rec);
            }
        }
    }
}

#[test]
fn promotion_in_metamachy() {
    // White: Ka1, pawn e11. Black: Kl12. The pawn promotes on e12 to a Queen, Lion or Eagle.
    let rs = rules("metamachy");
    let fen = "11k/4P7/12/12/12/12/12/12/12/12/12/K11 w - - 0 1";
    let mut g = Game::from_position(Position::from_fen(&rs, fen).unwrap());
    let e = g.parse("e12").unwrap_err();
    assert!(
        e.0.starts_with("ambiguous: e12 could be e11e12q, e11e12l or e11e12g"),
        "{e}"
    );
    let m = g.parse("e11e12g").unwrap();
    assert_eq!(g.san(m), "e12=G");
    let m = g.parse("e12=Q").unwrap();
    // The Queen on e12 checks the king along the twelfth rank.
    assert_eq!(g.san(m), "e12=Q+");
    assert_eq!(polymachy::game::coord(&rs, m), "e11e12q");
    let e = g.parse("e12=N").unwrap_err();
    assert_eq!(
        e.0,
        "e12=N: cannot promote to a Knight here; the choices are Queen, Lion or Eagle"
    );
}

#[test]
fn every_legal_move_reads_back_from_its_san_and_its_coordinates() {
    use polymachy::selfplay::Rng;
    for name in [
        "chess",
        "lions-and-unicorns",
        "metamachy",
        "shako",
        "perfect12",
        "terachess2",
    ] {
        let rs = rules(name);
        let mut rng = Rng::new(11);
        for _game in 0..2 {
            let mut g = Game::new(&rs);
            for _ply in 0..40 {
                if g.outcome().is_some() {
                    break;
                }
                let legal = g.legal_moves();
                for &m in &legal {
                    let san = g.san(m);
                    let back = g
                        .parse(&san)
                        .unwrap_or_else(|e| panic!("{name}: {san}: {e}"));
                    assert_eq!(
                        (back.from, back.to, back.promo),
                        (m.from, m.to, m.promo),
                        "{name}: {san}"
                    );
                    let c = polymachy::game::coord(&rs, m);
                    let back = g.parse(&c).unwrap_or_else(|e| panic!("{name}: {c}: {e}"));
                    assert_eq!(
                        (back.from, back.to, back.promo),
                        (m.from, m.to, m.promo),
                        "{name}: {c}"
                    );
                }
                g.play(legal[rng.below(legal.len())]).unwrap();
            }
        }
    }
}
