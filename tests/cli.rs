//! Command-line behaviour that scripts rely on, and the command line's side of the checks the
//! library makes: every user error an exit status 2 and one `error:` line, setups, warnings.

mod common;

use std::process::Command;

use common::{TempDir, mini_with, run_binary, sixteen};

fn run(args: &[&str]) -> (String, String, i32) {
    let r = common::run_binary(args, "");
    (r.stdout, r.stderr, r.code)
}

#[test]
fn variants_lists_every_built_in_game() {
    let (out, _, code) = run(&["variants"]);
    assert_eq!(code, 0);
    for v in [
        "metamachy",
        "chess",
        "lions-and-unicorns",
        "perfect12",
        "terachess2",
        "terachess1",
        "shako",
        "capablanca",
        "grand",
        "gigachess2",
        "zanzibar-xxl",
        "tamerlane2",
        "zanzibar-s",
        "wildebeest",
        "xiangqi",
        "makruk",
        "crazyhouse",
        "shogi",
        "shatranj",
        "courier",
        "minishogi",
        "kingofthehill",
        "seirawan",
        "asean",
        "janggi",
        "sittuyin",
        "chushogi",
    ] {
        assert!(
            out.lines().any(|l| l.starts_with(v)),
            "{v} missing from:\n{out}"
        );
    }
    assert!(out.contains("16x16"));
}

#[test]
fn variants_toml_is_machine_readable() {
    let (out, _, code) = run(&["variants", "--toml"]);
    assert_eq!(code, 0);
    let doc: toml::Table = out.parse().expect("valid TOML");
    let list = doc["variant"].as_array().unwrap();
    assert_eq!(list.len(), polymachy::variant::BUILTIN.len());
    assert_eq!(list.len(), 27);
    // Chu Shogi: 21 kinds with letters and 18 written `+X`.
    let chu = list
        .iter()
        .find(|v| v["id"].as_str() == Some("chushogi"))
        .unwrap();
    let pieces = chu["piece"].as_array().unwrap();
    assert_eq!(pieces.len(), 39);
    assert!(
        pieces.iter().any(|p| p["letter"].as_str() == Some("+O")
            && p["betza"].as_str() == Some("KNADcaKcabKmabK"))
    );
    let tera = list
        .iter()
        .find(|v| v["id"].as_str() == Some("terachess2"))
        .unwrap();
    assert_eq!(tera["piece"].as_array().unwrap().len(), 26);
    let unicorn = list
        .iter()
        .find(|v| v["id"].as_str() == Some("lions-and-unicorns"))
        .unwrap()["piece"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["letter"].as_str() == Some("U"))
        .unwrap()
        .clone();
    assert_eq!(unicorn["betza"].as_str(), Some("BNN"));
    assert_eq!(unicorn["canonical"].as_str(), Some("BN0"));
    // Every piece but a royal one without a value shows one, and says where it comes from:
    // the file's, or derived from its movement (Zanzibar-S gives one for its Pawn only).
    let pieces = |id: &str| {
        list.iter().find(|v| v["id"].as_str() == Some(id)).unwrap()["piece"]
            .as_array()
            .unwrap()
            .clone()
    };
    let zanzibar = pieces("zanzibar-s");
    assert!(
        zanzibar
            .iter()
            .any(|p| p["value-from"].as_str() == Some("movement")),
        "{zanzibar:?}"
    );
    for p in zanzibar {
        let royal = p["royal"].as_bool().unwrap();
        match p.get("value-from").and_then(|f| f.as_str()) {
            Some("movement") => assert!(!royal && p["value"].as_integer().unwrap() > 0, "{p}"),
            Some("file") => assert!(p["value"].as_integer().is_some(), "{p}"),
            None => assert!(royal && p.get("value").is_none(), "{p}"),
            other => panic!("{other:?}: {p}"),
        }
    }
    let pawn = pieces("chess")
        .into_iter()
        .find(|p| p["letter"].as_str() == Some("P"))
        .unwrap();
    assert_eq!(pawn["value"].as_integer(), Some(100));
    assert_eq!(pawn["value-from"].as_str(), Some("file"));
}

#[test]
fn perft_prints_its_contract_lines() {
    let (out, _, code) = run(&[
        "perft",
        "--variant",
        "metamachy",
        "--depth",
        "1",
        "--divide",
    ]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.last(), Some(&"Nodes searched: 61"));
    // 61 root moves, one line each, in coordinate notation with their count (1 at depth 1).
    assert_eq!(lines.len(), 62);
    assert!(
        lines.contains(&"g1e1 1"),
        "the king leap g1-e1 is a root move"
    );
    assert!(lines.iter().take(61).all(|l| l.ends_with(" 1")));
}

#[test]
fn no_command_on_a_pipe_without_protocol_is_an_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_polymachy"))
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("error: no command given"));
}

#[test]
fn show_places_a_setup_on_the_same_files() {
    // Default start: rank 1 "CM3QK3MC", rank 2 "ERNBILGIBNRE". Setup KQLG: K f1, Q g1, L f2,
    // G g2; Black mirrored across the middle on the same files. Setup number 1 is GLKQ.
    let cases = [
        (
            "KQLG",
            "cm3kq3mc/ernbilgibnre/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/ERNBILGIBNRE/CM3KQ3MC",
        ),
        (
            "GLKQ",
            "cm3gl3mc/ernbikqibnre/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/ERNBIKQIBNRE/CM3GL3MC",
        ),
        (
            "1",
            "cm3gl3mc/ernbikqibnre/pppppppppppp/12/12/12/12/12/12/PPPPPPPPPPPP/ERNBIKQIBNRE/CM3GL3MC",
        ),
    ];
    for (setup, want) in cases {
        let out = Command::new(env!("CARGO_BIN_EXE_polymachy"))
            .args(["show", "--variant", "metamachy", "--setup", setup])
            .output()
            .expect("run polymachy");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(out.status.success(), "show --setup {setup}: {out:?}");
        let last = stdout.lines().last().unwrap_or("");
        assert_eq!(
            last.split(' ').next(),
            Some(want),
            "show --setup {setup}:\n{stdout}"
        );
    }

    for bad in ["KQLL", "13", "XYZW"] {
        let out = Command::new(env!("CARGO_BIN_EXE_polymachy"))
            .args(["show", "--variant", "metamachy", "--setup", bad])
            .output()
            .expect("run polymachy");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "show --setup {bad}: {out:?}");
        assert!(stderr.starts_with("error: "), "{stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
}

/// Exit status 2, exactly one `error:` line on stderr containing every part, no panic.
fn user_error(args: &[&str], parts: &[&str]) -> String {
    let (_, stderr, code) = run(args);
    assert_eq!(code, 2, "{args:?}: {stderr}");
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    let error_lines: Vec<&str> = stderr.lines().filter(|l| l.starts_with("error:")).collect();
    assert_eq!(error_lines.len(), 1, "{args:?}: {stderr}");
    assert!(stderr.starts_with("error:"), "{args:?}: {stderr}");
    for part in parts {
        assert!(
            stderr.contains(part),
            "{args:?}: {stderr} should contain {part:?}"
        );
    }
    stderr
}

#[test]
fn cli_unknown_variant() {
    user_error(
        &["perft", "--variant", "nosuchgame", "--depth", "1"],
        &["unknown variant `nosuchgame`", "metamachy"],
    );
}

#[test]
fn cli_bad_fen() {
    user_error(
        &[
            "perft",
            "--variant",
            "chess",
            "--depth",
            "1",
            "--fen",
            "8/8/8 w - - 0 1",
        ],
        &["invalid FEN", "3 ranks given"],
    );
    user_error(
        &["show", "--variant", "metamachy", "--fen", "hello"],
        &["invalid FEN"],
    );
}

#[test]
fn cli_bad_depth() {
    user_error(
        &["perft", "--variant", "chess", "--depth", "deep"],
        &["deep"],
    );
    user_error(&["perft", "--variant", "chess", "--depth", "-1"], &["-1"]);
}

#[test]
fn cli_nonexistent_file() {
    let path = std::env::temp_dir()
        .join(format!("polymachy-missing-{}", std::process::id()))
        .join("nothing.toml");
    let p = path.to_string_lossy().into_owned();
    user_error(
        &["perft", "--variant", &p, "--depth", "1"],
        &[&p, "cannot read the file"],
    );
}

#[test]
fn cli_bad_variant_file() {
    let dir = TempDir::new("cli-bad-variant");
    let path = dir.join("bad.toml");
    std::fs::write(&path, mini_with("betza = \"fmWfcF\"", "betza = \"fmWx\"")).unwrap();
    let p = path.to_string_lossy().into_owned();
    user_error(
        &["show", "--variant", &p],
        &[&format!("{p}:20:13: bad notation for Pawn"), "'x'"],
    );
}

#[test]
fn cli_bad_setup() {
    for bad in ["KQLL", "13", "XYZW"] {
        user_error(
            &[
                "perft",
                "--variant",
                "metamachy",
                "--setup",
                bad,
                "--depth",
                "1",
            ],
            &[bad],
        );
    }
    user_error(
        &["show", "--variant", "chess", "--setup", "KQLG"],
        &["no setup choices"],
    );
}

#[test]
fn zanzibar_setup_with_the_king_off_the_f_and_g_files_is_refused() {
    // Letters stand on Black's e12 f12 g12 h12 e11 f11 g11 h11: the King on the e- and
    // h-files in turn.
    for (bad, file) in [
        ("KQUFOLGD", "e"),
        ("UQFKOLGD", "h"),
        ("UQOFKLGD", "e"),
        ("UQOFDLGK", "h"),
    ] {
        user_error(
            &["show", "--variant", "zanzibar-xxl", "--setup", bad],
            &[
                bad,
                &format!("puts the King on the {file} file"),
                "must stand on the f or g file",
            ],
        );
    }
    // The King on f2 is fine: the show command draws the position.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_polymachy"))
        .args(["show", "--variant", "zanzibar-xxl", "--setup", "UQOFDKGL"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn every_command_refuses_the_file_at_once() {
    let dir = TempDir::new("cli-limits");
    let path = dir.join("bomb.toml");
    std::fs::write(&path, sixteen("mamamaK", "")).unwrap();
    let p = path.to_str().unwrap();
    let r = common::run_binary(&["perft", "--variant", p, "--depth", "1"], "");
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(
        r.stderr
            .starts_with(&format!("error: {p}:9:9: piece King: too many paths")),
        "{}",
        r.stderr
    );
}

/// A piece where it must promote on arriving (a position no game reaches) draws a warning on
/// the command line and over UCI; the position is still used.
#[test]
fn a_piece_where_it_must_promote_draws_a_warning_from_perft_and_uci() {
    let fen = "P3k4/9/9/9/9/9/9/9/4K4[] b - - 0 1";
    let r = common::run_binary(&["perft", "-v", "shogi", "--fen", fen, "--depth", "1"], "");
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr
            .contains("warning: a White Pawn on a9: rule promotion"),
        "{}",
        r.stderr
    );
    let input = format!("setoption name UCI_Variant value shogi\nposition fen {fen}\nisready\n");
    let r = common::run_binary(&["uci"], &input);
    assert!(
        r.stdout
            .contains("info string warning: a White Pawn on a9: rule promotion"),
        "{}",
        r.stdout
    );
}

#[test]
fn setup_errors_name_what_the_variant_offers() {
    let error = |args: &[&str]| {
        let r = run_binary(args, "");
        assert_eq!(r.code, 2, "{args:?}: {}", r.stdout);
        r.stderr.trim().to_string()
    };
    // Zanzibar-XXL numbers no setups: the letters, where they stand, the King's files and an
    // example.
    assert_eq!(
        error(&["show", "--variant", "zanzibar-xxl", "--setup", "3"]),
        "error: setup number 3: Zanzibar-XXL has no numbered setups; choose a setup by its \
         letters, an arrangement of UQKFOLGD on e12 f12 g12 h12 e11 f11 g11 h11 (Black's \
         squares, White mirrors them), the King on the f or g file, e.g. `--setup QUKFOLGD`"
    );
    // Metamachy numbers twelve.
    for n in ["13", "0"] {
        assert_eq!(
            error(&["show", "--variant", "metamachy", "--setup", n]),
            format!(
                "error: setup number {n} does not exist: Metamachy numbers its setups 1 to 12; \
                 or choose a setup by its letters, an arrangement of QKLG on f1 g1 f2 g2 \
                 (White's squares, Black mirrors them), e.g. `--setup KQLG`"
            )
        );
    }
    assert!(
        error(&["show", "--variant", "metamachy", "--setup", "QKLL"]).starts_with(
            "error: setup `QKLL` is not an arrangement of QKLG (the pieces on the setup \
             squares, in order): choose a setup by its letters"
        )
    );
    // Each example is a setup the variant takes.
    for (variant, example) in [("zanzibar-xxl", "QUKFOLGD"), ("metamachy", "KQLG")] {
        let r = run_binary(&["show", "--variant", variant, "--setup", example], "");
        assert_eq!(r.code, 0, "{variant} {example}: {}", r.stderr);
    }
}
