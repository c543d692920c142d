//! Command-line behaviour that scripts rely on.

mod common;

use std::process::Command;

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
    assert_eq!(list.len(), 21);
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
