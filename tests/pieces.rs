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
