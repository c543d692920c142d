//! The variants and their pieces for the page: setups, rules, movement diagrams.

use std::collections::HashMap;

use serde_json::{Value, json};

use crate::geometry::{Color, Square};
use crate::position::Ruleset;
use crate::tables::Shape;
use crate::variant::Variant;

use super::*;

/// Where a piece of `kind` may go from the square nearest the centre of an empty board: `m`
/// it moves there (without capturing), `c` it captures there, `h` it gets there by hopping over
/// another piece (a screen, absent from the empty board, so drawn as a possibility); the
/// letters combine (`mc`: moves or captures, `mh`: moves there, or hops there to capture). Computed from the
/// compiled move tables, so it shows exactly what the generator does. Moves added by rule
/// hooks (castling, the king's leap) are not part of the piece's own movement.
pub fn diagram(rules: &Ruleset, kind: usize) -> (Square, Vec<(Square, &'static str)>) {
    let g = rules.geometry;
    let from = g.square((g.files - 1) / 2, (g.ranks - 1) / 2);
    let mut marks: HashMap<Square, u8> = HashMap::new();
    const M: u8 = 1;
    const C: u8 = 2;
    const H: u8 = 4;
    for e in rules.tables.entries_at(kind, Color::White, from) {
        let squares = rules.tables.squares_of(e);
        let needs_screen = rules.tables.conds_of(e).iter().any(|c| c.occupied);
        let mut bits = 0;
        let modes = e.modes();
        if modes.quiet {
            bits |= M;
        }
        if modes.capture {
            bits |= C;
        }
        if bits == 0 {
            continue;
        }
        let shape = e.shape();
        if shape == Shape::Leap {
            if let Some(&sq) = squares.first() {
                let b = if needs_screen { H } else { bits };
                *marks.entry(sq).or_default() |= b;
            }
        } else if matches!(shape, Shape::Hop | Shape::Grass) {
            // Destinations beyond a screen: every square but the first could be one.
            let reach = if shape == Shape::Grass {
                2
            } else {
                squares.len()
            };
            for &sq in squares.iter().take(reach).skip(1) {
                *marks.entry(sq).or_default() |= H;
            }
        } else {
            for &sq in squares {
                let b = if needs_screen { H } else { bits };
                *marks.entry(sq).or_default() |= b;
            }
        }
    }
    let mut out: Vec<(Square, &'static str)> = marks
        .into_iter()
        .map(|(sq, b)| {
            let label = match (b & M != 0, b & C != 0, b & H != 0) {
                (true, true, false) => "mc",
                (true, true, true) => "mch",
                (true, false, false) => "m",
                (true, false, true) => "mh",
                (false, true, false) => "c",
                (false, true, true) => "ch",
                _ => "h",
            };
            (sq, label)
        })
        .collect();
    out.sort();
    (from, out)
}

/// The variant's pieces for the page.
pub(super) fn variant_json(rules: &Ruleset) -> Value {
    let g = rules.geometry;
    let named: Vec<(&str, &str)> = rules
        .variant
        .pieces
        .iter()
        .map(|p| (p.symbol.as_str(), p.name.as_str()))
        .collect();
    let glyphs = glyph::glyphs(&named);
    let images = pieces::images(&named);
    let set = rules.variant.display.pieces.as_deref().unwrap_or("western");
    let pieces: Vec<Value> = rules
        .variant
        .pieces
        .iter()
        .enumerate()
        .map(|(k, p)| {
            let (from, marks) = diagram(rules, k);
            json!({
                "name": p.name,
                // Its name in every text (`P`, `+P`, `N'`): the board's, the hands' and the moves'.
                "letter": p.symbol,
                "betza": p.betza_text,
                "canonical": p.betza.to_string(),
                "royal": p.royal,
                "glyph": glyphs[k],
                "image": images[k],
                "words": culture::zone_words(&rules.variant, &rules.variant.piece_words(k)),
                "traditional": culture::characters(set, &p.name),
                "promoted": p.demotes_to.is_some(),
                "promotes_to": p.promotes_to.iter().map(|&q| rules.variant.pieces[q].symbol.clone()).collect::<Vec<_>>(),
                "diagram": {
                    "from": sq_name(g, from),
                    "squares": marks.iter().map(|(sq, l)| json!([sq_name(g, *sq), l])).collect::<Vec<_>>(),
                },
            })
        })
        .collect();
    let setups = setups_json(&rules.variant);
    json!({
        "id": rules.variant.id,
        "name": rules.variant.title,
        "description": rules.variant.description,
        "files": g.files,
        "ranks": g.ranks,
        "setup": rules.setup,
        "setups": setups,
        // The piece set the game shows as its own (the same as the state's `display.pieces`).
        "set": set,
        "rules": rules.compiled_rules().iter().map(|h| json!({"name": h.name(), "text": culture::zone_words(&rules.variant, &h.explain(rules))})).collect::<Vec<_>>(),
        "pieces": pieces,
    })
}

/// The setup choices of a variant: every arrangement of the default's pieces on the setup
/// squares (24 in Metamachy), each named by its letters and, where the variant file numbers
/// it, by its number too. Over six squares only the variant's own list is given.
pub(super) fn setups_json(v: &Variant) -> Vec<Value> {
    let named: Vec<(String, String)> = v.rules.iter().flat_map(|r| r.setups()).collect();
    let Some((_, default)) = named.iter().find(|(n, _)| n == "default") else {
        return Vec::new();
    };
    let number_of = |letters: &str| {
        named
            .iter()
            .find(|(n, t)| n != "default" && t == letters)
            .map(|(n, _)| n.clone())
    };
    let mut all: Vec<String> = Vec::new();
    if default.chars().count() <= 6 {
        fn permute(rest: &mut Vec<char>, cur: &mut String, out: &mut Vec<String>) {
            if rest.is_empty() {
                if !out.contains(cur) {
                    out.push(cur.clone());
                }
                return;
            }
            for i in 0..rest.len() {
                let c = rest.remove(i);
                cur.push(c);
                permute(rest, cur, out);
                cur.pop();
                rest.insert(i, c);
            }
        }
        permute(&mut default.chars().collect(), &mut String::new(), &mut all);
    } else {
        all = named.iter().map(|(_, t)| t.clone()).collect();
        all.dedup();
    }
    all.iter()
        .map(|t| json!({"letters": t, "number": number_of(t), "default": t == default}))
        .collect()
}

/// The built-in variants, and the one `serve` was started with (`default`; `builtin` false
/// when it is a file of the operator's, which a page starts by sending no variant name).
pub(super) fn variants_json(default: &str) -> Value {
    let entry = |v: &Variant| {
        json!({"id": v.id, "name": v.title, "files": v.files, "ranks": v.ranks,
               "description": v.description, "setups": setups_json(v)})
    };
    let list: Vec<Value> = crate::variant::BUILTIN
        .iter()
        .filter_map(|(n, _)| Variant::load(n).ok())
        .map(|v| entry(&v))
        .collect();
    let builtin = crate::variant::BUILTIN.iter().any(|(b, _)| *b == default);
    let mut d = Variant::load(default).map_or(Value::Null, |v| entry(&v));
    if let Some(o) = d.as_object_mut() {
        o.insert("builtin".into(), json!(builtin));
    }
    json!({ "variants": list, "default": d })
}
