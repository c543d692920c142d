//! Error messages about included evaluation tables and rule keys say where and what: the
//! included file by name, an included table that includes another, a built-in table named as
//! built-in (it is not on the disk), and what an empty `king-distance` list should be.

use polymachy::variant::Variant;

use crate::common;

fn chess_text() -> &'static str {
    // Without its [[test]] tables, whose positions the edits below would break.
    common::builtin_text("chess")
        .split("\n# Tests:")
        .next()
        .unwrap()
}

/// The error lines of loading `text` written as `file` in `dir` (beside `extra` files).
fn load_errors(dir: &common::TempDir, file: &str, text: &str, extra: &[(&str, &str)]) -> String {
    for (name, body) in extra {
        std::fs::write(dir.join(name), body).unwrap();
    }
    let p = dir.join(file);
    std::fs::write(&p, text).unwrap();
    match Variant::load(p.to_str().unwrap()) {
        Ok(_) => panic!("{file} loaded"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn an_unknown_key_in_an_included_table_names_that_file() {
    let dir = common::TempDir::new("messages-unknown");
    let text = chess_text().replace("chess.eval.toml", "mine.eval.toml");
    let e = load_errors(
        &dir,
        "mine.toml",
        &text,
        &[("mine.eval.toml", "colour = 1\n[eval]\nmobility = 2\n")],
    );
    let inc = dir.join("mine.eval.toml");
    assert!(
        e.starts_with(&format!(
            "{}:1:1: unknown key `colour` in `mine.eval.toml`",
            inc.display()
        )),
        "{e}"
    );
    assert!(!e.contains("in ``"), "{e}");
}

#[test]
fn an_include_in_an_included_table_is_an_error() {
    let dir = common::TempDir::new("messages-nested");
    let text = chess_text().replace("chess.eval.toml", "outer.eval.toml");
    let e = load_errors(
        &dir,
        "nested.toml",
        &text,
        &[
            ("outer.eval.toml", "[eval]\ninclude = \"inner.eval.toml\"\n"),
            ("inner.eval.toml", "[eval]\nmobility = 2\n"),
        ],
    );
    let outer = dir.join("outer.eval.toml");
    assert!(
        e.starts_with(&format!(
            "{}:2:11: an included evaluation table cannot include another (`inner.eval.toml`)",
            outer.display()
        )),
        "{e}"
    );
}

#[test]
fn an_error_in_a_built_in_table_names_it_as_built_in() {
    // A copy of chess whose Bishop is an X: the built-in chess table (no file of that name
    // beside the copy) gives a value to B, a letter no piece has now.
    let dir = common::TempDir::new("messages-builtin");
    let text = chess_text()
        .replace("letter = \"B\"", "letter = \"X\"")
        .replace("rnbqkbnr", "rnxqkxnr")
        .replace("RNBQKBNR", "RNXQKXNR")
        .replace("\"QRBN\"", "\"QRXN\"");
    let e = load_errors(&dir, "xchess.toml", &text, &[]);
    assert!(
        e.contains("built-in variants/chess.eval.toml:14:1: `B` is not a piece letter"),
        "{e}"
    );
    assert!(!e.contains(&dir.0.display().to_string()), "{e}");
    // A built-in variant's own places are named as built-in too.
    let chess = Variant::load("chess").unwrap();
    assert_eq!(chess.locations.origin, "built-in variants/chess.toml");
}

#[test]
fn an_empty_king_distance_list_says_what_is_expected() {
    let dir = common::TempDir::new("messages-castling");
    let text = chess_text().replacen("king-distance = 2", "king-distance = []", 1);
    let e = load_errors(&dir, "castle.toml", &text, &[]);
    assert!(
        e.contains(
            "`rules.castling.king-distance` is an empty list: it takes an integer from 1 to 14 or a non-empty list of them"
        ),
        "{e}"
    );
    assert!(!e.contains("found an array"), "{e}");
}
