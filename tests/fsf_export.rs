//! `polymachy export --fsf`: the section written for Fairy-Stockfish, loaded into the real
//! program (`fairy-stockfish` with the UCI option `VariantPath`), gives the same perft counts
//! as Polymachy, for games whose every rule the section expresses with Fairy-Stockfish
//! 11.1's keys; sections with custom pieces (which 11.1 does not read) are loaded into
//! pyffish, Fairy-Stockfish's Python module, and counted by `tests/engines/fsf_perft.py`.
//! Without those programs these tests say so and skip, except under `CI`, where they fail.

mod common;

use std::process::Command;

use common::{TempDir, find_program, missing, run_binary, run_command};
use polymachy::perft::Perft;
use polymachy::position::{Position, Ruleset};
use polymachy::variant::Variant;

/// The exit status of a partial section.
const PARTIAL: i32 = 3;

/// The section for `variant`, named `name`: (exit status, section, standard error).
fn export(variant: &str, name: &str) -> (i32, String, String) {
    let r = run_binary(&["export", "--fsf", "-v", variant, "--name", name], "");
    (r.code, r.stdout, r.stderr)
}

/// Fairy-Stockfish's perft of `fen` (None: the start) at `depth` in the variant `name` of
/// the file `ini`.
fn fsf_perft(
    fsf: &std::path::Path,
    ini: &std::path::Path,
    name: &str,
    fen: Option<&str>,
    depth: u32,
) -> u64 {
    let position = match fen {
        Some(f) => format!("position fen {f}"),
        None => "position startpos".into(),
    };
    let input = format!(
        "uci\nsetoption name VariantPath value {}\nsetoption name UCI_Variant value {name}\nisready\n{position}\ngo perft {depth}\nquit\n",
        ini.display()
    );
    let r = run_command(Command::new(fsf), &input);
    let line = r
        .stdout
        .lines()
        .find(|l| l.starts_with("Nodes searched"))
        .unwrap_or_else(|| {
            panic!(
                "no perft from Fairy-Stockfish for {name}:\n{}\n{}",
                r.stdout, r.stderr
            )
        });
    line.rsplit(' ').next().unwrap().trim().parse().unwrap()
}

fn polymachy_perft(variant: &str, fen: Option<&str>, depth: u32) -> u64 {
    let v = Variant::load(variant).unwrap();
    let rules = Ruleset::new(&v, None).unwrap();
    let mut pos = match fen {
        Some(f) => Position::from_fen(&rules, f).unwrap(),
        None => Position::start(&rules),
    };
    Perft::new().count(&mut pos, depth)
}

/// The games whose sections are complete for Fairy-Stockfish 11.1, with a position besides
/// the start and the depth compared.
const COMPARED: &[(&str, Option<&str>, u32)] = &[
    ("chess", None, 3),
    (
        "chess",
        Some("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"),
        3,
    ),
    ("capablanca", None, 3),
    (
        "capablanca",
        Some("4k5/1P8/10/3pP5/10/10/2p7/R4K3R w KQ d6 0 1"),
        3,
    ),
    ("shatranj", None, 3),
    ("shatranj", Some("8/8/8/8/3k4/2q5/2R5/3K4 w - - 0 1"), 4),
    ("makruk", None, 3),
    ("courier", None, 3),
    ("grand", None, 2),
    ("shako", None, 3),
    ("crazyhouse", None, 3),
    (
        "crazyhouse",
        Some("rn1qk2r/pp2p1bp/5pBp/4p3/8/1PP5/PP2KP1P/RN3BNR[NPqbpp] b kq - 0 14"),
        2,
    ),
    ("shogi", None, 2),
    ("minishogi", None, 3),
    ("asean", None, 3),
    ("asean", Some("8/8/8/4k3/8/8/R2b4/4K3 w - - 0 1"), 4),
    ("seirawan", None, 3),
    (
        "seirawan",
        Some("r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R[HEhe] w KQkq - 0 1"),
        3,
    ),
];

/// Games whose sections are complete with custom pieces: compared through pyffish (its
/// legal moves counted recursively, so shallow).
const COMPARED_CUSTOM: &[(&str, u32)] = &[("xiangqi", 2), ("lions-and-unicorns", 2)];

#[test]
fn sections_that_fairy_stockfish_can_express_are_complete() {
    let mut games: Vec<&str> = COMPARED.iter().map(|c| c.0).collect();
    games.dedup();
    games.extend(COMPARED_CUSTOM.iter().map(|c| c.0));
    for g in games {
        let (code, text, err) = export(g, &format!("pm-{g}"));
        assert_eq!(code, 0, "{g}: {err}\n{text}");
        assert!(err.is_empty(), "{g}: {err}");
        assert!(text.starts_with(&format!("[pm-{g}]\n")), "{text}");
        assert!(!text.contains("cannot express"), "{text}");
        let custom = COMPARED_CUSTOM.iter().any(|c| c.0 == g);
        assert_eq!(
            text.contains("# custom pieces: needs Fairy-Stockfish 12"),
            custom,
            "{text}"
        );
    }
}

#[test]
fn chess_section() {
    let (code, text, _) = export("chess", "pm-chess");
    assert_eq!(code, 0);
    for line in [
        "maxRank = 8",
        "maxFile = 8",
        "pawn = p",
        "knight = n",
        "bishop = b",
        "rook = r",
        "queen = q",
        "king = k",
        "startFen = rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "promotionRank = 8",
        "promotionPieceTypes = qrbn",
        "doubleStepRank = 2",
        "castlingKingsideFile = g",
        "castlingQueensideFile = c",
        "castlingRank = 1",
        "stalemateValue = draw",
        "nFoldRule = 3",
        "nMoveRule = 50",
    ] {
        assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
    }
}

/// A piece written `+X` has no letter of its own, and Fairy-Stockfish's piece types each need
/// one: the section gives it one that no piece of the game has (its FENs write the piece
/// `+X` all the same), or, where it moves as another piece of the game, that piece's type;
/// with every letter taken, it is a gap.
#[test]
fn a_piece_without_a_letter_takes_a_free_one_in_the_section() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/many-kinds.toml");
    let (code, text, err) = export(file, "pm-many");
    assert_eq!(code, PARTIAL, "{err}");
    // The Dragon Horse, the Dragon King and the Sliding Boar take the free letters J, U and X;
    // the Tokin and its kind move as the Gold, the Prince as the Man.
    for line in [
        "dragonHorse = j",
        "bers = u",
        "customPiece10 = x:BsR",
        "promotedPieceType = p:g l:g n:g s:g b:j r:u e:m w:x",
        "startFen = lanseokgsnal/rcdfhimoqtvb/z+rw9/",
    ] {
        assert!(text.contains(line), "no `{line}` in\n{text}");
    }
    assert!(!text.contains("no letter"), "{text}");
    // 26 pieces with letters, and a Queen's promoted form that moves as none of them.
    let mut toml = String::from("name = \"Full\"\nfiles = 5\nranks = 5\nstart = \"k4/5/5/5/4K\"\n");
    for c in 'A'..='Z' {
        let (betza, royal) = if c == 'K' {
            ("K", "royal = true\n")
        } else {
            ("W", "")
        };
        toml.push_str(&format!(
            "[[piece]]\nname = \"Piece {c}\"\nletter = \"{c}\"\nbetza = \"{betza}\"\n{royal}"
        ));
    }
    toml.push_str("[[piece]]\nname = \"Great Q\"\nletter = \"+Q\"\nbetza = \"Q\"\n");
    let dir = common::TempDir::new("export-full");
    let path = dir.join("full.toml");
    std::fs::write(&path, toml).unwrap();
    let (code, text, err) = export(&path.display().to_string(), "pm-full");
    assert_eq!(code, PARTIAL, "{err}");
    let gap = "cannot express: Great Q: it has no letter of its own (+Q), and every letter is \
               taken for a Fairy-Stockfish piece type";
    assert!(err.contains(gap), "{err}");
    assert!(text.contains(&format!("# {gap}")), "{text}");
    assert!(!text.contains('?'), "{text}");
}

/// A small chess game with two pieces written with a letter and a prime: the Crowned
/// Knight (`N'`, a Centaur) and the Short Bishop (`B'`), to which the Pawn may promote too.
const PRIMED_CHESS: &str = r#"name = "Primed Chess"
files = 8
ranks = 8
start = "rnb'n'kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB'N'KBNR"

[[piece]]
name = "King"
letter = "K"
betza = "K"
royal = true

[[piece]]
name = "Queen"
letter = "Q"
betza = "Q"

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
promotes-to = "QN'B'"

[rules.promotion]
zone = 1
"#;

/// A piece written `N'` is a piece type of its own: the section gives it a letter that no
/// piece of the game has, and its `startFen` writes the piece by that letter; loaded into
/// pyffish, the section counts what Polymachy counts. With every letter taken, it is a gap.
#[test]
fn a_primed_piece_takes_a_free_letter_in_the_section() {
    let dir = common::TempDir::new("export-primed");
    let path = dir.join("primed-chess.toml");
    std::fs::write(&path, PRIMED_CHESS).unwrap();
    let file = path.display().to_string();
    let (code, text, err) = export(&file, "pm-primed");
    assert_eq!(code, 0, "{err}");
    // The Crowned Knight takes C (the initial of a word of its name, its own N being the
    // Knight's), the Short Bishop S.
    for line in [
        "centaur = c",
        "customPiece1 = s:B2",
        "startFen = rnsckbnr/pppppppp/8/8/8/8/PPPPPPPP/RNSCKBNR w - - 0 1",
        "promotionPieceTypes = qcs",
    ] {
        assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
    }
    assert!(!text.contains('\'') && !text.contains('?'), "{text}");
    // The same counts from the start and from a position with promotions, the Polymachy FEN
    // naming the pieces `N'` and `B'`, the section's `C` and `S`.
    let python = find_program(&["python3"]);
    let has_pyffish = python.as_ref().is_some_and(|p| {
        Command::new(p)
            .args(["-c", "import pyffish"])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if let (Some(python), true) = (python, has_pyffish) {
        let ini = dir.join("primed.ini");
        std::fs::write(&ini, &text).unwrap();
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fsf_perft.py");
        for (ours, theirs, depth) in [
            (
                "rnb'n'kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB'N'KBNR w - - 0 1",
                "rnsckbnr/pppppppp/8/8/8/8/PPPPPPPP/RNSCKBNR w - - 0 1",
                3,
            ),
            (
                "4k3/1P6/8/8/3n'4/8/5B'p1/4K3 w - - 0 1",
                "4k3/1P6/8/8/3c4/8/5Sp1/4K3 w - - 0 1",
                3,
            ),
        ] {
            let mut cmd = Command::new(&python);
            cmd.arg(script)
                .arg(&ini)
                .arg("pm-primed")
                .arg(depth.to_string())
                .arg(theirs);
            let r = run_command(cmd, "");
            let n: u64 = r
                .stdout
                .lines()
                .find_map(|l| l.strip_prefix(&format!("perft {depth} ")))
                .unwrap_or_else(|| panic!("no perft from pyffish:\n{}{}", r.stdout, r.stderr))
                .trim()
                .parse()
                .unwrap();
            assert_eq!(polymachy_perft(&file, Some(ours), depth), n, "{ours}");
        }
    } else {
        missing("pyffish (Python)");
    }
    // primed-kinds.toml: its 26 letters are the lettered pieces' own; each primed piece is
    // a gap.
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/primed-kinds.toml");
    let (code, text, err) = export(file, "pm-primed-kinds");
    assert_eq!(code, PARTIAL, "{err}");
    for (name, symbol) in [
        ("Crowned Knight", "N'"),
        ("Short Bishop", "B'"),
        ("Short Rook", "R'"),
        ("Kirin", "Q'"),
        ("Phoenix", "L'"),
    ] {
        let gap = format!(
            "cannot express: {name}: it has no letter of its own ({symbol}), and every letter \
             is taken for a Fairy-Stockfish piece type"
        );
        assert!(err.contains(&gap), "{err}");
        assert!(text.contains(&format!("# {gap}")), "{text}");
    }
}

#[test]
fn a_partial_section_names_what_it_leaves_out() {
    let (code, text, err) = export("metamachy", "pm-metamachy");
    assert_eq!(code, PARTIAL, "{err}");
    for want in [
        "cannot express: the board is 12x12",
        "cannot express: no Fairy-Stockfish key: the royal piece's leap to distance two (king-leap)",
        "cannot express: Eagle: its movement `FyafsF`",
        "cannot express: no Fairy-Stockfish key: the setup choice",
    ] {
        assert!(err.contains(want), "no `{want}` in\n{err}");
        assert!(
            text.contains(&format!("# {want}")),
            "no `# {want}` in\n{text}"
        );
    }
    assert!(
        err.contains("the section for Metamachy is partial"),
        "{err}"
    );
    // Xiangqi's confined pieces and Soldier are written with their Fairy-Stockfish keys.
    let (code, text, err) = export("xiangqi", "pm-xiangqi");
    assert_eq!(code, 0, "{err}");
    for line in [
        "soldier = p",
        "soldierPromotionRank = 6",
        "horse = n",
        "elephant = b",
        "flyingGeneral = true",
        "king = k:W",
        "mobilityRegionWhiteKing = d1 e1 f1 d2 e2 f2 d3 e3 f3",
        "stalemateValue = loss",
    ] {
        assert!(text.lines().any(|l| l == line), "no `{line}` in\n{text}");
    }
}

#[test]
fn a_bad_section_name_is_refused() {
    let r = run_binary(&["export", "--fsf", "-v", "chess", "--name", "a b"], "");
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--name `a b`"), "{}", r.stderr);
}

/// The sections loaded into Fairy-Stockfish count what Polymachy counts.
#[test]
fn fairy_stockfish_plays_the_exported_sections_as_polymachy_does() {
    let Some(fsf) = find_program(&["fairy-stockfish"]) else {
        missing("fairy-stockfish");
        return;
    };
    let dir = TempDir::new("fsf-export");
    let mut failures = Vec::new();
    for &(game, fen, depth) in COMPARED {
        let name = format!("pm-{game}");
        let ini = dir.join(format!("{game}.ini"));
        let (code, text, err) = export(game, &name);
        assert_eq!(code, 0, "{game}: {err}");
        std::fs::write(&ini, text).unwrap();
        let theirs = fsf_perft(&fsf, &ini, &name, fen, depth);
        let ours = polymachy_perft(game, fen, depth);
        if theirs != ours {
            failures.push(format!(
                "{game} {} depth {depth}: Fairy-Stockfish {theirs}, Polymachy {ours}",
                fen.unwrap_or("start")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The sections with custom pieces, loaded into pyffish, count what Polymachy counts.
#[test]
fn pyffish_plays_the_custom_piece_sections_as_polymachy_does() {
    let python = find_program(&["python3"]);
    let has_pyffish = python.as_ref().is_some_and(|p| {
        Command::new(p)
            .args(["-c", "import pyffish"])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    let (Some(python), true) = (python, has_pyffish) else {
        missing("pyffish (Python)");
        return;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/engines/fsf_perft.py");
    let dir = TempDir::new("fsf-export-custom");
    let mut failures = Vec::new();
    for &(game, depth) in COMPARED_CUSTOM {
        let name = format!("pm-{game}");
        let ini = dir.join(format!("{game}.ini"));
        let (code, text, err) = export(game, &name);
        assert_eq!(code, 0, "{game}: {err}");
        std::fs::write(&ini, text).unwrap();
        let v = Variant::load(game).unwrap();
        let rules = Ruleset::new(&v, None).unwrap();
        let fen = Position::start(&rules).fen();
        let mut cmd = Command::new(&python);
        cmd.arg(script)
            .arg(&ini)
            .arg(&name)
            .arg(depth.to_string())
            .arg(&fen);
        let r = run_command(cmd, "");
        let theirs: u64 = r
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix(&format!("perft {depth} ")))
            .unwrap_or_else(|| panic!("{game}: no perft from pyffish:\n{}{}", r.stdout, r.stderr))
            .trim()
            .parse()
            .unwrap();
        let ours = polymachy_perft(game, None, depth);
        if theirs != ours {
            failures.push(format!(
                "{game} start depth {depth}: pyffish {theirs}, Polymachy {ours}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
