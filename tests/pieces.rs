//! `GET /api/variant` carries each piece's drawn image and its movement in words, and each
//! rule explained; `variants --toml` carries the same words.

use serde_json::{Value, json};

mod common;

use common::{Server, http, serve_command, start_server};

fn start() -> Server {
    start_server(serve_command(&[]))
}

/// One request; the answer's status and JSON body.
fn call(s: &Server, method: &str, path: &str, body: &str) -> (u16, Value) {
    let (status, _, text) = http(&s.addr, method, path, body.as_bytes());
    let v = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}: {text}"));
    (status, v)
}

/// The variant of a new game of `game`, as `GET /api/variant` gives it.
fn variant(s: &Server, game: &str) -> Value {
    let (st, v) = call(
        s,
        "POST",
        "/api/new",
        &json!({"variant": game, "black": "human"}).to_string(),
    );
    assert_eq!(st, 200, "{v}");
    let sid = v["sid"].as_str().unwrap();
    let (st, v) = call(s, "GET", &format!("/api/variant?sid={sid}"), "");
    assert_eq!(st, 200, "{v}");
    v
}

#[test]
fn metamachy_pieces_carry_images_and_words_and_the_rules_explain_the_leap() {
    let s = start();
    let v = variant(&s, "metamachy");
    let pieces = v["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 12);
    for p in pieces {
        let name = p["name"].as_str().unwrap();
        let image = p["image"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: no image"));
        assert!(image.starts_with("<svg"), "{name}: {image:.40}");
        assert!(image.contains(r#"viewBox="0 0 100 100""#), "{name}");
        assert!(image.contains(r#"fill="currentColor""#), "{name}");
        assert!(
            image.contains(&format!("<title>{name}</title>")),
            "{name}: a generated image, not its drawing"
        );
        let words = p["words"]
            .as_str()
            .unwrap_or_else(|| panic!("{name}: no words"));
        assert!(words.len() > 20 && words.ends_with('.'), "{name}: {words}");
    }
    let piece = |letter: &str| pieces.iter().find(|p| p["letter"] == letter).unwrap();
    assert_eq!(
        piece("N")["words"],
        "Leaps like a Knight (two squares one way and one to the side), jumping over anything between."
    );
    assert!(
        piece("C")["words"]
            .as_str()
            .unwrap()
            .contains("captures by jumping over exactly one piece")
    );
    assert_ne!(piece("L")["image"], piece("G")["image"]);

    let rules = v["rules"].as_array().unwrap();
    let leap = rules
        .iter()
        .find(|r| r["name"] == "king-leap")
        .expect("a king-leap entry");
    let text = leap["text"].as_str().unwrap();
    for part in [
        "Once per game",
        "has not moved",
        "in check",
        "never captures",
        "from g1 it may leap to",
    ] {
        assert!(text.contains(part), "missing `{part}`: {text}");
    }
    for r in rules {
        assert!(r["text"].as_str().unwrap().len() > 40, "{r}");
    }
    let names: Vec<&str> = rules.iter().map(|r| r["name"].as_str().unwrap()).collect();
    for name in [
        "king-leap",
        "en-passant",
        "promotion",
        "setup-choice",
        "draw",
    ] {
        assert!(names.contains(&name), "{name} missing from {names:?}");
    }
}

#[test]
fn the_same_name_shows_the_same_image_in_two_games() {
    let s = start();
    let image = |v: &Value, name: &str| -> Value {
        v["pieces"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("no {name}"))["image"]
            .clone()
    };
    let grand = variant(&s, "grand");
    let giga = variant(&s, "gigachess2");
    let tera = variant(&s, "terachess1");
    // Marshal (Grand Chess) and Marshall (Gigachess II) are one piece.
    assert_eq!(image(&grand, "Marshal"), image(&giga, "Marshall"));
    assert_eq!(image(&grand, "Marshal"), image(&tera, "Marshal"));
    assert_eq!(image(&giga, "Lion"), image(&tera, "Lion"));
    assert_ne!(image(&giga, "Lion"), image(&giga, "Eagle"));
}

#[test]
fn variants_toml_carries_the_words_and_the_rules() {
    let out = common::run_binary(&["variants", "--toml", "--variant", "chess"], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc: toml::Table = out.stdout.parse().unwrap();
    let chess = &doc["variant"].as_array().unwrap()[0];
    let bishop = chess["piece"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["letter"].as_str() == Some("B"))
        .unwrap();
    assert_eq!(
        bishop["words"].as_str(),
        Some("Slides any number of squares diagonally (like a Bishop).")
    );
    let castling = chess["explained"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["name"].as_str() == Some("castling"))
        .unwrap();
    assert!(
        castling["text"]
            .as_str()
            .unwrap()
            .contains("e1 to g1 with the Rook from h1 to f1")
    );
}

/// The variant file `file` as `variants --toml` describes it.
fn described(file: &str) -> toml::Value {
    let out = common::run_binary(&["variants", "--toml", "--variant", file], "");
    assert_eq!(out.code, 0, "{}", out.stderr);
    let doc: toml::Table = out.stdout.parse().unwrap();
    doc["variant"].as_array().unwrap()[0].clone()
}

/// The piece called `name` among `pieces` (of [`described`]).
fn named<'a>(pieces: &'a [toml::Value], name: &str) -> &'a toml::Value {
    pieces
        .iter()
        .find(|p| p["name"].as_str() == Some(name))
        .unwrap_or_else(|| panic!("no piece {name}"))
}

/// A game with pieces written `+X` (`tests/data/many-kinds.toml`: 22 lettered pieces, 8
/// promoted forms without letters of their own): the page's state, legal moves, move list and
/// pieces name each by its name (`+R`, Black's `+r`), and `variants --toml` does too.
#[test]
fn pieces_without_letters_are_named_plus_on_the_page_and_in_variants_toml() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/many-kinds.toml");
    let game = described(file);
    let pieces = game["piece"].as_array().unwrap();
    assert_eq!(pieces.len(), 30);
    let by_name = |name: &str| named(pieces, name);
    assert_eq!(by_name("Dragon King")["letter"].as_str(), Some("+R"));
    assert_eq!(by_name("Tokin")["letter"].as_str(), Some("+P"));
    assert_eq!(by_name("Pawn")["promotes-to"].as_str(), Some("+P"));
    assert_eq!(by_name("Tortoise")["promotes-to"].as_str(), Some("G+B"));
    assert!(
        game["start"]
            .as_str()
            .unwrap()
            .starts_with("lanseokgsnal/rcdfhimoqtvb/z+rw9/")
    );

    let s = start_server(serve_command(&["--variant", file]));
    // A Dragon King on e4 by a Pawn on e5, a Pawn about to promote on d9.
    let fen = "6k5/12/12/3P8/12/12/12/4p7/4+R7/12/12/6K5[] w - - 0 1";
    let (st, v) = call(
        &s,
        "POST",
        "/api/new",
        &json!({"fen": fen, "white": "human", "black": "human"}).to_string(),
    );
    assert_eq!(st, 200, "{v}");
    let state = &v["state"];
    let sid = v["sid"].as_str().unwrap();
    // The board, a1 first: e4 is the 4th rank's 5th square.
    assert_eq!(state["board"][3 * 12 + 4], "+R");
    assert_eq!(state["board"][4 * 12 + 4], "p");
    let legal = state["legal"].as_array().unwrap();
    let promos: Vec<&str> = legal
        .iter()
        .filter(|m| m["from"] == "d9")
        .filter_map(|m| m["promo"].as_str())
        .collect();
    assert_eq!(promos, ["+P"]);
    let i = legal.iter().position(|m| m["uci"] == "e4e5").unwrap();
    let (st, after) = call(
        &s,
        "POST",
        "/api/move",
        &json!({"sid": sid, "move": "e4e5", "index": i}).to_string(),
    );
    assert_eq!(st, 200, "{after}");
    assert_eq!(after["moves"], json!(["+Rxe5"]));
    assert_eq!(after["board"][4 * 12 + 4], "+R");
    // The pieces: their names, images and glyphs, what they promote to.
    let (st, v) = call(&s, "GET", &format!("/api/variant?sid={sid}"), "");
    assert_eq!(st, 200, "{v}");
    let pieces = v["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 30);
    let piece = |letter: &str| pieces.iter().find(|p| p["letter"] == letter).unwrap();
    assert_eq!(piece("+R")["name"], "Dragon King");
    assert_eq!(piece("+R")["promoted"], true);
    assert_eq!(piece("T")["promotes_to"], json!(["G", "+B"]));
    // The Sliding Boar has no drawing: its generated image and glyph carry its name.
    let boar = piece("+W");
    assert_eq!(boar["name"], "Sliding Boar");
    assert_eq!(boar["glyph"]["label"], "+W");
    assert!(
        boar["image"].as_str().unwrap().contains(">+W</text>"),
        "{}",
        boar["image"]
    );
}

/// A game with pieces written with a letter and a prime (`tests/data/primed-kinds.toml`: 26
/// lettered pieces, 5 written `N'`, 3 promoted forms, `+N'` among them): the page's state,
/// legal moves, hands, move list and pieces name each by its name (`N'`, Black's `n'`), and
/// `variants --toml` does too.
#[test]
fn primed_pieces_are_named_so_on_the_page_and_in_variants_toml() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/primed-kinds.toml");
    let game = described(file);
    let pieces = game["piece"].as_array().unwrap();
    assert_eq!(pieces.len(), 34);
    let by_name = |name: &str| named(pieces, name);
    assert_eq!(by_name("Crowned Knight")["letter"].as_str(), Some("N'"));
    assert_eq!(by_name("Knight")["letter"].as_str(), Some("N"));
    assert_eq!(by_name("Knight General")["letter"].as_str(), Some("+N'"));
    assert_eq!(by_name("Pawn")["promotes-to"].as_str(), Some("QN'"));
    assert_eq!(
        by_name("Crowned Knight")["promotes-to"].as_str(),
        Some("+N'")
    );
    assert!(
        game["start"]
            .as_str()
            .unwrap()
            .contains("/JUXYZN'B'R'Q'L'2/"),
        "{}",
        game["start"]
    );

    let s = start_server(serve_command(&["--variant", file]));
    // A Crowned Knight on e4 by a Pawn on e5, a Pawn about to promote on d11, a Short Rook in
    // White's hand and a Crowned Knight in Black's.
    let fen = "6k5/3P8/12/12/12/12/12/4p7/4N'7/12/12/6K5[R'n'] w - - 0 1";
    let (st, v) = call(
        &s,
        "POST",
        "/api/new",
        &json!({"fen": fen, "white": "human", "black": "human"}).to_string(),
    );
    assert_eq!(st, 200, "{v}");
    let state = &v["state"];
    let sid = v["sid"].as_str().unwrap();
    // The board, a1 first: e4 is the 4th rank's 5th square.
    assert_eq!(state["board"][3 * 12 + 4], "N'");
    assert_eq!(state["board"][4 * 12 + 4], "p");
    assert_eq!(state["hands"]["white"], json!([["R'", 1]]), "{state}");
    assert_eq!(state["hands"]["black"], json!([["N'", 1]]), "{state}");
    let legal = state["legal"].as_array().unwrap();
    let promos: Vec<&str> = legal
        .iter()
        .filter(|m| m["from"] == "d11")
        .filter_map(|m| m["promo"].as_str())
        .collect();
    assert_eq!(promos, ["Q", "N'"]);
    assert!(
        legal
            .iter()
            .any(|m| m["from"] == "@R'" && m["uci"] == "R'@a5"),
        "{state}"
    );
    let i = legal.iter().position(|m| m["uci"] == "d11d12n'").unwrap();
    let (st, after) = call(
        &s,
        "POST",
        "/api/move",
        &json!({"sid": sid, "move": "d11d12n'", "index": i}).to_string(),
    );
    assert_eq!(st, 200, "{after}");
    assert_eq!(after["board"][11 * 12 + 3], "N'");
    let i = after["legal"]
        .as_array()
        .unwrap()
        .iter()
        .position(|m| m["uci"] == "N'@e6")
        .unwrap();
    let (st, after) = call(
        &s,
        "POST",
        "/api/move",
        &json!({"sid": sid, "move": "N'@e6", "index": i}).to_string(),
    );
    assert_eq!(st, 200, "{after}");
    assert_eq!(after["moves"], json!(["d12=N'", "N'@e6"]));
    assert_eq!(after["board"][5 * 12 + 4], "n'");
    // The pieces: their names, images and glyphs, what they promote to.
    let (st, v) = call(&s, "GET", &format!("/api/variant?sid={sid}"), "");
    assert_eq!(st, 200, "{v}");
    let pieces = v["pieces"].as_array().unwrap();
    assert_eq!(pieces.len(), 34);
    let piece = |letter: &str| pieces.iter().find(|p| p["letter"] == letter).unwrap();
    assert_eq!(piece("N'")["name"], "Crowned Knight");
    assert_eq!(piece("N'")["promoted"], false);
    assert_eq!(piece("+N'")["promoted"], true);
    assert_eq!(piece("P")["promotes_to"], json!(["Q", "N'"]));
    // The Short Bishop has no drawing: its generated image and glyph carry its name.
    let short = piece("B'");
    assert_eq!(short["name"], "Short Bishop");
    assert_eq!(short["glyph"]["label"], "B'");
    assert!(
        short["image"].as_str().unwrap().contains(">B&apos;</text>"),
        "{}",
        short["image"]
    );
}
