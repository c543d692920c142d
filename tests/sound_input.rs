//! Input that used to be accepted and then broke something: every case gives its exact message
//! or behaviour. Rights, start positions, en-passant victims, move names, `--hash`, FEN clocks,
//! unreadable variant files and variant-file mistakes reported once, cause first.

mod common;

use std::sync::Arc;

use common::{builtin_text, compile, fen_error, play, rules, run_binary};
use polymachy::game::{parse_move, san};
use polymachy::moves::{EMPTY, MoveKind, MoveList};
use polymachy::position::Position;
use polymachy::position::Ruleset;
use polymachy::text::coord;
use polymachy::variant::{BUILTIN, Variant};

/// The error lines of a variant text (each line's first line, without its hint).
fn variant_errors(text: &str) -> Vec<String> {
    let e = Variant::from_toml(text, "t.toml").unwrap_err();
    e.lines
        .iter()
        .map(|l| l.lines().next().unwrap().to_string())
        .collect()
}

#[test]
fn a_castling_right_needs_its_king_and_rook() {
    let rs = rules("chess");
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1";
    assert_eq!(
        fen_error(&rs, fen),
        "invalid FEN: rights: `K` needs white's King on e1 and its Rook on h1"
    );
    let r = run_binary(
        &["perft", "--variant", "chess", "--depth", "1", "--fen", fen],
        "",
    );
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert_eq!(
        r.stderr.trim(),
        "error: invalid FEN: rights: `K` needs white's King on e1 and its Rook on h1"
    );
    // A king off its square loses both of its side's rights.
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQ1KNR w KQkq - 0 1";
    assert_eq!(
        fen_error(&rs, fen),
        "invalid FEN: rights: `K` needs white's King on e1 and its Rook on h1; \
         rights: `Q` needs white's King on e1 and its Rook on a1"
    );
}

/// `setboard`, `position fen` and a PGN's `[FEN]` go through the same checks as `--fen`.
#[test]
fn every_way_in_checks_the_rights() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN1 w KQkq - 0 1";
    let why = "invalid FEN: rights: `K` needs white's King on e1 and its Rook on h1";
    let r = run_binary(
        &["xboard"],
        &format!("xboard\nprotover 2\nvariant chess\nsetboard {fen}\nquit\n"),
    );
    assert!(
        r.stdout
            .lines()
            .any(|l| l == format!("tellusererror Illegal position: {why}")),
        "{}",
        r.stdout
    );
    let r = run_binary(
        &["uci"],
        &format!("uci\nsetoption name UCI_Variant value chess\nposition fen {fen}\nquit\n"),
    );
    assert!(
        r.stdout
            .lines()
            .any(|l| l == format!("info string error: {why}")),
        "{}",
        r.stdout
    );
    let dir = common::TempDir::new("sound-pgn");
    let pgn = dir.join("g.pgn");
    std::fs::write(
        &pgn,
        format!("[Event \"x\"]\n[Variant \"chess\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n*\n"),
    )
    .unwrap();
    let p = pgn.to_str().unwrap();
    let r = run_binary(&["play", "--variant", "chess", "--load", p], "quit\n");
    assert_eq!(r.code, 2);
    assert_eq!(r.stderr.trim(), format!("error: {p}:4: {why}"));
}

#[test]
fn a_king_leap_right_needs_the_king_on_its_square() {
    // Metamachy's King starts on f1, g1, f2 or g2 depending on the setup choice (any of the
    // 24 arrangements of QKLG on f1 g1 f2 g2).
    let rs = rules("metamachy");
    let fen = "cm3qk3mc/ernbilgibnre/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/\
               ERNBILGIBNRE/CM3Q1K2MC w Kk - 0 1";
    assert_eq!(
        fen_error(&rs, fen),
        "invalid FEN: rights: `K` needs white's royal piece on a square it starts the game on in some setup (f1 g1 f2 g2)"
    );
    // Without the right, the same position is fine.
    Position::from_fen(&rs, &fen.replace(" Kk ", " k ")).unwrap();
}

const KINGS: &str = "[[piece]]\nname = \"King\"\nletter = \"K\"\nbetza = \"K\"\nroyal = true\n";

/// The one-line error of compiling a variant text that reads without error.
fn compile_error(text: &str) -> Vec<String> {
    let v = Variant::from_toml(text, "t.toml").unwrap_or_else(|e| panic!("{e}"));
    vec![Ruleset::new(&v, None).unwrap_err().to_string()]
}

#[test]
fn the_start_position_of_a_variant_is_checked_like_a_fen() {
    let two = format!("name = \"T\"\nfiles = 2\nranks = 1\nstart = \"Kk\"\n{KINGS}");
    assert_eq!(
        compile_error(&two),
        ["t.toml:4:9: start position: the side not to move (black) is in check"]
    );
    let one = format!("name = \"T\"\nfiles = 3\nranks = 3\nstart = \"K2/3/3\"\n{KINGS}");
    assert_eq!(
        compile_error(&one),
        ["t.toml:4:9: start position: black has no royal piece"]
    );
    let none = format!("name = \"T\"\nfiles = 3\nranks = 3\nstart = \"3/3/3\"\n{KINGS}");
    assert_eq!(
        compile_error(&none),
        ["t.toml:4:9: start position: white has no royal piece; black has no royal piece"]
    );
    // The command line shows it the same way, once.
    let dir = common::TempDir::new("sound-start");
    let f = dir.join("kk.toml");
    std::fs::write(&f, &two).unwrap();
    let f = f.to_str().unwrap();
    let r = run_binary(&["show", "--variant", f], "");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr.trim(),
        format!("error: {f}:4:9: start position: the side not to move (black) is in check")
    );
    // Over UCI, the engine answers with the error instead of playing king takes king.
    let r = run_binary(
        &["uci"],
        &format!("uci\nsetoption name VariantPath value {f}\nisready\nquit\n"),
    );
    assert!(
        r.stdout
            .contains("start position: the side not to move (black) is in check"),
        "{}",
        r.stdout
    );
}

/// A 4×6 board whose pawn steps three squares at once (`ifmnH`) and a 4×4 one whose double
/// step ends on the last rank.
fn steps(ranks: u8, start: &str, pawn: &str) -> Arc<Ruleset> {
    let text = format!(
        "name = \"Steps\"\nfiles = 4\nranks = {ranks}\nstart = \"{start}\"\n{KINGS}\
         [[piece]]\nname = \"Rook\"\nletter = \"R\"\nbetza = \"R\"\n\
         [[piece]]\nname = \"Pawn\"\nletter = \"P\"\nbetza = \"{pawn}\"\npromotes-to = \"R\"\n\
         [rules.promotion]\nzone = 1\n"
    );
    compile(&text, "steps.toml")
}

#[test]
fn the_en_passant_victim_comes_from_the_move_not_from_geometry() {
    // The Black Pawn on b5 can take en passant on a4.
    let rs = steps(6, "3k/1p2/4/4/P2p/3K", "fmWfcFfceFifmnH");
    let mut pos = Position::start(&rs);
    play(&mut pos, "a2a5");
    let fen = pos.fen();
    // Both squares passed carry en-passant rights.
    assert_eq!(fen, "3k/Pp2/4/4/3p/3K b - a3a4 0 1");
    // The FEN reads back to the same position, the victim three ranks from the start.
    let back = Position::from_fen(&rs, &fen).unwrap();
    assert_eq!(back, pos);
    // One of the two squares alone (Fairy-Stockfish's form: only where a capture can land)
    // is read as the step that passed it, to the same position.
    for part in ["a3", "a4"] {
        let fen = format!("3k/Pp2/4/4/3p/3K b - {part} 0 1");
        assert_eq!(Position::from_fen(&rs, &fen).unwrap(), pos, "{fen}");
    }
    // No piece of the side that moved can have passed over b3.
    assert_eq!(
        fen_error(&rs, "3k/P3/4/4/3p/3K b - b3 0 1"),
        "invalid FEN: en-passant square b3: no piece of the side that just moved can have passed \
         over it (the field lists every square one step passed, or some of them)"
    );
    // a3 with a square the step did not pass: no step passed both.
    assert_eq!(
        fen_error(&rs, "3k/P3/4/4/3p/3K b - a3b3 0 1"),
        "invalid FEN: en-passant square a3b3: no piece of the side that just moved can have \
         passed over it (the field lists every square one step passed, or some of them)"
    );
    assert_eq!(
        fen_error(&rs, "3k/P3/4/4/P2p/3K b - a2 0 1"),
        "invalid FEN: en-passant square a2 is occupied"
    );
}

#[test]
fn en_passant_squares_that_two_steps_passed_are_refused_as_ambiguous() {
    // A forward and a sideways triple step: the Pawn on b5 from b2 passed b3 b4, the Pawn on
    // d3 from a3 passed b3 c3. `b3` alone may be either; each full list names one step, and
    // the Black Pawn on a4 taking on b3 removes that step's Pawn.
    let rs = steps(6, "3k/4/4/4/4/3K", "fmWfceFfmnnHsmnnH");
    let board = "3k/1P2/p3/3P/4/3K b -";
    assert_eq!(
        fen_error(&rs, &format!("{board} b3 0 1")),
        "invalid FEN: en-passant square b3: two different steps of the side that just moved \
         passed it and more; list every square the step passed"
    );
    for (field, rest, after) in [
        ("b3b4", "b4", "3k/4/4/1p1P/4/3K w - - 0 2"),
        ("b3c3", "c3", "3k/1P2/4/1p2/4/3K w - - 0 2"),
    ] {
        let fen = format!("{board} {field} 0 1");
        let mut pos = Position::from_fen(&rs, &fen).unwrap();
        assert_eq!(pos.fen(), fen);
        // The square only that step passed names it too.
        let part = Position::from_fen(&rs, &format!("{board} {rest} 0 1")).unwrap();
        assert_eq!(part, pos, "{rest}");
        play(&mut pos, "a4b3");
        assert_eq!(pos.fen(), after, "{field}");
    }
}

#[test]
fn a_double_step_that_promotes_leaves_no_en_passant_square() {
    let rs = steps(4, "3k/4/P3/3K", "fmWfcFifmnD");
    let mut pos = Position::start(&rs);
    play(&mut pos, "a2a4r");
    assert_eq!(pos.fen(), "R2k/4/4/3K b - - 0 1");
    assert_eq!(pos.ep_square(), None);
    assert_eq!(pos.hash(), pos.hash_from_scratch());
}

/// Terachess I: a Corporal on d9 may step to e10 or take e9 en passant by moving to e10.
const CORPORAL: &str = "k15/16/16/16/16/16/16/3Oo11/16/16/16/16/16/16/16/K15 w - e10 0 1";

#[test]
fn the_corporal_step_and_en_passant_capture_have_different_names() {
    let rs = rules("terachess1");
    let mut pos = Position::from_fen(&rs, CORPORAL).unwrap();
    let mut list = MoveList::new();
    pos.legal_moves(&mut list);
    let twins: Vec<_> = list
        .iter()
        .filter(|m| coord(&rs, **m).starts_with("d9e10"))
        .copied()
        .collect();
    let mut names: Vec<String> = twins.iter().map(|&m| coord(&rs, m)).collect();
    names.sort();
    assert_eq!(names, ["d9e10", "d9e10ep"]);
    let step = parse_move(&mut pos, "d9e10").unwrap();
    assert_eq!(step.kind, MoveKind::Normal);
    let capture = parse_move(&mut pos, "d9e10ep").unwrap();
    assert_eq!(capture.kind, MoveKind::EnPassant);
    assert_eq!(san(&mut pos, step), "Oe10");
    assert_eq!(san(&mut pos, capture), "Oxe10ep");
    assert_eq!(parse_move(&mut pos, "Oxe10ep").unwrap(), capture);
    assert_eq!(parse_move(&mut pos, "Oxe10").unwrap(), capture);
    assert_eq!(parse_move(&mut pos, "Oe10").unwrap(), step);
    pos.make(capture);
    assert_eq!(pos.piece_at(rs.geometry.parse_square("e9").unwrap()), EMPTY);
    // `perft --divide` lists both.
    let r = run_binary(
        &[
            "perft",
            "--variant",
            "terachess1",
            "--depth",
            "1",
            "--divide",
            "--fen",
            CORPORAL,
        ],
        "",
    );
    assert!(r.stdout.lines().any(|l| l == "d9e10 1"), "{}", r.stdout);
    assert!(r.stdout.lines().any(|l| l == "d9e10ep 1"), "{}", r.stdout);
    // Over UCI the capture is reachable.
    let r = run_binary(
        &["uci"],
        &format!(
            "uci\nsetoption name UCI_Variant value terachess1\nposition fen {CORPORAL} moves d9e10ep\nisready\nquit\n"
        ),
    );
    assert!(!r.stdout.contains("error"), "{}", r.stdout);
}

/// A small deterministic generator (xorshift).
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// In every shipped game, along random games: every legal move has its own coordinate and
/// SAN name, and each name reads back to its move.
#[test]
fn every_legal_move_has_its_own_name_in_every_shipped_game() {
    let mut extra = vec![("terachess1", Some(CORPORAL))];
    extra.extend(BUILTIN.iter().map(|(n, _)| (*n, None)));
    for (name, fen) in extra {
        let rs = rules(name);
        let mut rng = Rng(0x9E37_79B9 ^ name.len() as u64);
        for game in 0..3 {
            let mut pos = match fen {
                Some(f) => Position::from_fen(&rs, f).unwrap(),
                None => Position::start(&rs),
            };
            let mut list = MoveList::new();
            for _ply in 0..if game == 0 { 12 } else { 40 } {
                pos.legal_moves(&mut list);
                if list.is_empty() {
                    break;
                }
                let moves: Vec<_> = list.iter().copied().collect();
                let mut seen = std::collections::HashSet::new();
                for &m in &moves {
                    let c = coord(&rs, m);
                    let s = san(&mut pos, m);
                    assert!(
                        seen.insert(c.clone()),
                        "{name}: two moves named {c} in {}",
                        pos.fen()
                    );
                    assert!(
                        seen.insert(format!("san {s}")),
                        "{name}: two moves named {s}"
                    );
                    assert_eq!(
                        parse_move(&mut pos, &c),
                        Ok(m),
                        "{name}: {c} in {}",
                        pos.fen()
                    );
                    assert_eq!(
                        parse_move(&mut pos, &s),
                        Ok(m),
                        "{name}: {s} in {}",
                        pos.fen()
                    );
                }
                pos.make(moves[rng.below(moves.len())]);
            }
        }
    }
}

#[test]
fn hash_is_bounded_on_the_command_line_like_uci() {
    for big in ["999999999", "17592186044415", "18446744073709551617", "0"] {
        let r = run_binary(
            &[
                "analyse",
                "--variant",
                "chess",
                "--depth",
                "1",
                "--hash",
                big,
            ],
            "",
        );
        assert_eq!(r.code, 2, "{big}: {}", r.stderr);
        assert!(
            r.stderr.starts_with(&format!(
                "error: invalid value '{big}' for '--hash <MB>': must be a number from 1 to 4096 (megabytes), got `{big}`"
            )),
            "{big}: {}",
            r.stderr
        );
    }
    let r = run_binary(&["uci"], "uci\nsetoption name Hash value 999999999\nquit\n");
    assert!(
        r.stdout.contains(
            "info string error: Hash must be a number from 1 to 4096 (megabytes), got `999999999`"
        ),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("option name Hash type spin default 64 min 1 max 4096")
    );
}

#[test]
fn fen_clock_overflow_and_a_leading_dash() {
    let rs = rules("chess");
    assert_eq!(
        fen_error(&rs, "4k3/8/8/8/8/8/8/4K3 w - - 99999999999 1"),
        "invalid FEN: halfmove clock `99999999999` is too large (at most 4294967295)"
    );
    assert_eq!(
        fen_error(&rs, "4k3/8/8/8/8/8/8/4K3 w - - 0 4294967296"),
        "invalid FEN: fullmove number `4294967296` is too large (at most 4294967295)"
    );
    assert_eq!(
        fen_error(&rs, "4k3/8/8/8/8/8/8/4K3 w - - x1 0"),
        "invalid FEN: halfmove clock `x1` is not a number; fullmove number `0` must be a number from 1"
    );
    // A FEN that starts with `-` is the flag's value, not another flag.
    let r = run_binary(&["show", "--variant", "chess", "--fen", "-8/8 w"], "");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr.trim(),
        "error: invalid FEN: placement column 1: 2 ranks given, the board has 8 (ranks are separated by '/', the top rank first)"
    );
}

#[test]
fn variant_files_must_be_regular_and_small() {
    if std::path::Path::new("/dev/urandom").exists() {
        let r = run_binary(&["show", "--variant", "/dev/urandom"], "");
        assert_eq!(r.code, 2);
        assert_eq!(
            r.stderr.trim(),
            "error: /dev/urandom: cannot read the file: not a regular file (expected a variant file)"
        );
    }
    let dir = common::TempDir::new("sound-files");
    let big = dir.join("big.toml");
    std::fs::write(&big, vec![b'#'; 2 << 20]).unwrap();
    let big_s = big.to_str().unwrap();
    let r = run_binary(&["show", "--variant", big_s], "");
    assert_eq!(r.code, 2);
    assert_eq!(
        r.stderr.trim(),
        format!(
            "error: {big_s}: cannot read the file: 2097152 bytes, more than the 1048576 a variant file may have"
        )
    );
    let fifo = dir.join("fifo.toml");
    let made = std::process::Command::new("mkfifo").arg(&fifo).status();
    if made.is_ok_and(|s| s.success()) {
        let f = fifo.to_str().unwrap();
        let r = run_binary(&["show", "--variant", f], "");
        assert_eq!(r.code, 2);
        assert!(r.stderr.contains("not a regular file"), "{}", r.stderr);
    } else {
        common::missing("mkfifo (the FIFO case is not checked)");
    }
}

#[test]
fn a_misspelled_piece_table_is_one_line() {
    let text = builtin_text("chess").replace("[[piece]]", "[[pieces]]");
    let errs = variant_errors(&text);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].ends_with("unknown key `pieces` in `variant`"),
        "{errs:?}"
    );
}

#[test]
fn a_bad_or_duplicate_letter_is_one_line() {
    let bad = builtin_text("chess").replacen("letter = \"P\"", "letter = \"PP\"", 1);
    let errs = variant_errors(&bad);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].ends_with("letter of Pawn must be one upper-case letter A-Z, found \"PP\""));
    let twice = builtin_text("chess").replacen("letter = \"N\"", "letter = \"B\"", 1);
    let errs = variant_errors(&twice);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].ends_with("letter 'B' is used twice: by Knight and by Bishop"),
        "{errs:?}"
    );
}

#[test]
fn an_unknown_start_letter_is_one_line_per_letter() {
    let text = BUILTIN.iter().find(|(n, _)| *n == "shako").unwrap().1;
    let text = text.replacen(
        "start = \"c8c/ernbqkbnre/pppppppppp",
        "start = \"c8c/ernbqkbnre/pppppppppy",
        1,
    );
    let text = text.replacen("PPPPPPPPPP/ERNBQKBNRE", "PPPPPPPPPP/ERYBQKBYRE", 1);
    let errs = variant_errors(&text);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].ends_with("start position: no piece has the letter 'y' (on 3 squares)"),
        "{errs:?}"
    );
}

#[test]
fn a_changed_piece_letter_in_terachess1_is_one_line() {
    // The Corporal's letter changed from O to Y: the start position uses `o`/`O` on 28
    // squares, and the en-passant rule names O twice. One mistake, one line.
    let text = BUILTIN.iter().find(|(n, _)| *n == "terachess1").unwrap().1;
    let text = text.replacen("letter = \"O\"", "letter = \"Y\"", 1);
    let errs = variant_errors(&text);
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].ends_with("start position: no piece has the letter 'o' (on 28 squares)"),
        "{errs:?}"
    );
}

#[test]
fn rule_letters_are_checked_once_and_precisely() {
    let shako = BUILTIN.iter().find(|(n, _)| *n == "shako").unwrap().1;
    let errs = variant_errors(&shako.replace("partner = \"R\"", "partner = \"T\""));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].ends_with("`rules.castling.partner`: no piece has the letter 'T'"),
        "{errs:?}"
    );
    let errs = variant_errors(&shako.replace("partner = \"R\"", "partner = \"RE\""));
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].ends_with("`rules.castling.partner` must be one letter"),
        "{errs:?}"
    );
    let errs = variant_errors(
        &builtin_text("chess").replace("\ncapturers = \"P\"", "\ncapturers = \"N\""),
    );
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(
        errs[0].ends_with(
            "`rules.en-passant.capturers` names Knight (N), whose movement `N` lacks an en-passant capture (`e`)"
        ),
        "{errs:?}"
    );
}
