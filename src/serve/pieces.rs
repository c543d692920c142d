//! The drawn piece images of `web/pieces/`, embedded, by piece name.
//!
//! A piece's name is looked up case-insensitively, with spaces, hyphens and other
//! non-letters ignored, and with a few other spellings of the same piece ([`ALIASES`]:
//! Marshall for Marshal, Griffin for Gryphon, Horse for Knight, Met for Advisor, Gold General for Gold, Alfil for Elephant, Courier for Bishop, Hawk for Archbishop, General for King, Chariot for Rook, Drunk Elephant for Elephant, Free King for Queen, Crown Prince for Prince, Soaring Eagle for Eagle, and Chu Shogi's `Rook (promoted Gold)` and its like for the piece they move as): the same name shows the same drawing in every
//! game. A piece without a drawing (one a variant file invents) gets a generated image, the
//! letter-in-shape glyph of [`super::glyph`].
//!
//! Every image has `viewBox="0 0 100 100"`, a body in `currentColor` and its lines in
//! `var(--piece-line, #000)`: the page colours the two sides with CSS.

use super::glyph;

/// The drawings, by normalised name (see [`normalise`]), in alphabetical order.
pub const IMAGES: &[(&str, &str)] = &[
    ("admiral", include_str!("../../web/pieces/admiral.svg")),
    ("advisor", include_str!("../../web/pieces/advisor.svg")),
    ("amazon", include_str!("../../web/pieces/amazon.svg")),
    (
        "archbishop",
        include_str!("../../web/pieces/archbishop.svg"),
    ),
    ("bishop", include_str!("../../web/pieces/bishop.svg")),
    (
        "blindtiger",
        include_str!("../../web/pieces/blindtiger.svg"),
    ),
    ("buffalo", include_str!("../../web/pieces/buffalo.svg")),
    ("camel", include_str!("../../web/pieces/camel.svg")),
    ("cannon", include_str!("../../web/pieces/cannon.svg")),
    ("cardinal", include_str!("../../web/pieces/cardinal.svg")),
    ("centaur", include_str!("../../web/pieces/centaur.svg")),
    (
        "chancellor",
        include_str!("../../web/pieces/chancellor.svg"),
    ),
    ("copper", include_str!("../../web/pieces/copper.svg")),
    ("corporal", include_str!("../../web/pieces/corporal.svg")),
    ("crocodile", include_str!("../../web/pieces/crocodile.svg")),
    (
        "dragonhorse",
        include_str!("../../web/pieces/dragonhorse.svg"),
    ),
    (
        "dragonking",
        include_str!("../../web/pieces/dragonking.svg"),
    ),
    ("duchess", include_str!("../../web/pieces/duchess.svg")),
    ("eagle", include_str!("../../web/pieces/eagle.svg")),
    ("elephant", include_str!("../../web/pieces/elephant.svg")),
    (
        "ferociousleopard",
        include_str!("../../web/pieces/ferociousleopard.svg"),
    ),
    ("flyingox", include_str!("../../web/pieces/flyingox.svg")),
    (
        "flyingstag",
        include_str!("../../web/pieces/flyingstag.svg"),
    ),
    ("freeboar", include_str!("../../web/pieces/freeboar.svg")),
    ("gazelle", include_str!("../../web/pieces/gazelle.svg")),
    ("giraffe", include_str!("../../web/pieces/giraffe.svg")),
    ("gobetween", include_str!("../../web/pieces/gobetween.svg")),
    ("gold", include_str!("../../web/pieces/gold.svg")),
    ("gryphon", include_str!("../../web/pieces/gryphon.svg")),
    (
        "hornedfalcon",
        include_str!("../../web/pieces/hornedfalcon.svg"),
    ),
    ("khon", include_str!("../../web/pieces/khon.svg")),
    ("king", include_str!("../../web/pieces/king.svg")),
    ("kirin", include_str!("../../web/pieces/kirin.svg")),
    ("knight", include_str!("../../web/pieces/knight.svg")),
    ("lance", include_str!("../../web/pieces/lance.svg")),
    ("lion", include_str!("../../web/pieces/lion.svg")),
    ("machine", include_str!("../../web/pieces/machine.svg")),
    ("man", include_str!("../../web/pieces/man.svg")),
    ("marshal", include_str!("../../web/pieces/marshal.svg")),
    (
        "missionary",
        include_str!("../../web/pieces/missionary.svg"),
    ),
    ("pawn", include_str!("../../web/pieces/pawn.svg")),
    ("phoenix", include_str!("../../web/pieces/phoenix.svg")),
    ("prince", include_str!("../../web/pieces/prince.svg")),
    (
        "promotedknight",
        include_str!("../../web/pieces/promotedknight.svg"),
    ),
    (
        "promotedlance",
        include_str!("../../web/pieces/promotedlance.svg"),
    ),
    (
        "promotedsilver",
        include_str!("../../web/pieces/promotedsilver.svg"),
    ),
    ("queen", include_str!("../../web/pieces/queen.svg")),
    (
        "reversechariot",
        include_str!("../../web/pieces/reversechariot.svg"),
    ),
    (
        "rhinoceros",
        include_str!("../../web/pieces/rhinoceros.svg"),
    ),
    ("rook", include_str!("../../web/pieces/rook.svg")),
    ("schleich", include_str!("../../web/pieces/schleich.svg")),
    ("ship", include_str!("../../web/pieces/ship.svg")),
    ("sidemover", include_str!("../../web/pieces/sidemover.svg")),
    ("soldier", include_str!("../../web/pieces/soldier.svg")),
    ("sorceress", include_str!("../../web/pieces/sorceress.svg")),
    ("tokin", include_str!("../../web/pieces/tokin.svg")),
    ("troll", include_str!("../../web/pieces/troll.svg")),
    ("unicorn", include_str!("../../web/pieces/unicorn.svg")),
    (
        "verticalmover",
        include_str!("../../web/pieces/verticalmover.svg"),
    ),
    ("whale", include_str!("../../web/pieces/whale.svg")),
    (
        "whitehorse",
        include_str!("../../web/pieces/whitehorse.svg"),
    ),
    (
        "wildebeest",
        include_str!("../../web/pieces/wildebeest.svg"),
    ),
];

/// Other spellings of drawn pieces: (spelling, the name of its drawing), both normalised.
pub const ALIASES: &[(&str, &str)] = &[
    ("marshall", "marshal"),
    ("griffin", "gryphon"),
    ("griffon", "gryphon"),
    ("rhino", "rhinoceros"),
    ("gnu", "wildebeest"),
    ("horse", "knight"),
    // Seirawan's Bishop + Knight.
    ("hawk", "archbishop"),
    // Janggi's names of the King and the Rook.
    ("general", "king"),
    ("chariot", "rook"),
    // The King's counsellor of Xiangqi and Makruk, one diagonal step (the Ferz).
    ("met", "advisor"),
    ("ferz", "advisor"),
    ("mandarin", "advisor"),
    ("guard", "advisor"),
    ("silver", "khon"),
    ("silvergeneral", "khon"),
    // Shogi's Gold General.
    ("goldgeneral", "gold"),
    // Shatranj's and Courier chess's Elephant, a leap two squares diagonally (the Alfil).
    ("alfil", "elephant"),
    // Courier chess's Courier moves as the Bishop it became.
    ("courier", "bishop"),
    // Courier chess's Schleich (the Smith), one orthogonal step (the Wazir).
    ("wazir", "schleich"),
    ("smith", "schleich"),
    // Courier chess's Man, a King that is not royal (the Commoner).
    ("commoner", "man"),
    // Chu Shogi's Copper General, and its pieces that are drawn pieces by other names: the
    // Drunk Elephant, the Free King (the Queen's move), the Crown Prince (the Prince's), the
    // Soaring Eagle.
    ("coppergeneral", "copper"),
    ("drunkelephant", "elephant"),
    ("freeking", "queen"),
    ("crownprince", "prince"),
    ("soaringeagle", "eagle"),
    // Chu Shogi's promoted pieces that move as a piece of the game but are kinds of their own
    // (they promote no further): drawn as that piece.
    ("bishoppromotedleopard", "bishop"),
    ("sidemoverpromotedcopper", "sidemover"),
    ("verticalmoverpromotedsilver", "verticalmover"),
    ("rookpromotedgold", "rook"),
    ("dragonkingpromotedrook", "dragonking"),
    ("dragonhorsepromotedbishop", "dragonhorse"),
    ("lionpromotedkirin", "lion"),
    ("freekingpromotedphoenix", "queen"),
    ("drunkelephantpromotedgobetween", "elephant"),
];

/// A name as the tables hold it: lower case, letters and digits only (`"Marshal "` and
/// `"mar-shal"` are `"marshal"`).
pub fn normalise(name: &str) -> String {
    name.chars()
        .filter(char::is_ascii_alphanumeric)
        .map(|c| c.to_ascii_lowercase())
        .collect()
}

/// The drawing of the piece called `name`, if there is one.
pub fn drawn(name: &str) -> Option<&'static str> {
    let key = normalise(name);
    let key = ALIASES
        .iter()
        .find(|(alias, _)| *alias == key)
        .map_or(key.as_str(), |(_, to)| to);
    IMAGES
        .binary_search_by(|(n, _)| (*n).cmp(key))
        .ok()
        .map(|i| IMAGES[i].1)
}

/// The image of each piece of a variant (given as its name in texts, `E` or `+P`, and its
/// name in words), in order: its drawing, or a generated letter-in-shape image whose shape
/// [`glyph::glyphs`] picks (so that no two generated pieces of one variant look alike).
pub fn images(pieces: &[(&str, &str)]) -> Vec<String> {
    let glyphs = glyph::glyphs(pieces);
    pieces
        .iter()
        .zip(&glyphs)
        .map(|(&(letter, name), g)| match drawn(name) {
            Some(svg) => svg.to_owned(),
            None => {
                let shape = g["shape"].as_str().unwrap_or_else(|| glyph::shape_of(name));
                glyph::shape_svg(shape, &letter.to_ascii_uppercase())
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::{BUILTIN, Variant};
    use std::collections::HashMap;

    /// Whether `text` is well-formed XML as far as these images go: one root element, every
    /// tag closed in order, attribute values quoted, no stray `<` or `&`.
    fn well_formed(text: &str) -> Result<(), String> {
        let mut stack: Vec<String> = Vec::new();
        let mut rest = text.trim();
        let mut roots = 0;
        while !rest.is_empty() {
            let Some(open) = rest.find('<') else {
                return Err(format!("text after the root: {rest:.20}"));
            };
            let between = &rest[..open];
            if between.contains('&') || (stack.is_empty() && !between.trim().is_empty()) {
                return Err(format!("stray text `{between:.20}`"));
            }
            let close = rest[open..].find('>').ok_or("a tag is not closed")? + open;
            let tag = &rest[open + 1..close];
            if tag.contains('<') {
                return Err(format!("`<` inside the tag `{tag:.30}`"));
            }
            if !tag.matches('"').count().is_multiple_of(2) {
                return Err(format!("unbalanced quotes in `{tag:.30}`"));
            }
            if let Some(name) = tag.strip_prefix('/') {
                match stack.pop() {
                    Some(open) if open == name.trim() => {}
                    other => return Err(format!("`</{name}>` closes {other:?}")),
                }
            } else if !tag.ends_with('/') {
                let name: String = tag.chars().take_while(|c| !c.is_whitespace()).collect();
                if stack.is_empty() {
                    roots += 1;
                }
                stack.push(name);
            } else if stack.is_empty() {
                roots += 1;
            }
            rest = &rest[close + 1..];
        }
        match (stack.is_empty(), roots) {
            (true, 1) => Ok(()),
            (false, _) => Err(format!("unclosed: {stack:?}")),
            (_, n) => Err(format!("{n} root elements")),
        }
    }

    #[test]
    fn the_checker_sees_broken_markup() {
        assert!(well_formed("<svg><g></g></svg>").is_ok());
        assert!(well_formed("<svg><g></svg>").is_err());
        assert!(well_formed("<svg><path d=\"M0 0/></svg>").is_err());
        assert!(well_formed("<svg></svg><svg></svg>").is_err());
        assert!(well_formed("<svg>&</svg>").is_err());
    }

    #[test]
    fn every_drawing_is_a_small_well_formed_image() {
        assert!(IMAGES.len() >= 35);
        assert!(
            IMAGES.windows(2).all(|w| w[0].0 < w[1].0),
            "IMAGES must stay sorted"
        );
        for (name, svg) in IMAGES {
            assert_eq!(*name, normalise(name));
            well_formed(svg).unwrap_or_else(|e| panic!("{name}.svg: {e}"));
            assert!(
                svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""),
                "{name}"
            );
            assert!(svg.contains(r#"viewBox="0 0 100 100""#), "{name}");
            assert!(svg.contains(r#"fill="currentColor""#), "{name}");
            assert!(svg.contains("var(--piece-line, #000)"), "{name}");
            assert!(svg.len() < 6000, "{name}.svg is {} bytes", svg.len());
        }
        // No two drawings are the same.
        let mut seen: Vec<&str> = IMAGES.iter().map(|x| x.1).collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), IMAGES.len());
    }

    /// The contact sheet: every piece of every shipped game has a drawing, and a name shows
    /// the same one in every game.
    #[test]
    fn every_shipped_piece_is_drawn_the_same_in_every_game() {
        let mut by_name: HashMap<String, String> = HashMap::new();
        let mut pieces = 0;
        for (game, _) in BUILTIN {
            let v = Variant::load(game).unwrap();
            let named: Vec<(&str, &str)> = v
                .pieces
                .iter()
                .map(|p| (p.symbol.as_str(), p.name.as_str()))
                .collect();
            for ((_, name), image) in named.iter().zip(images(&named)) {
                let drawing = drawn(name).unwrap_or_else(|| panic!("{game}: no drawing of {name}"));
                assert_eq!(image, drawing, "{game} {name}");
                let key = normalise(name);
                let key = ALIASES
                    .iter()
                    .find(|a| a.0 == key)
                    .map_or(key.clone(), |a| a.1.to_owned());
                let first = by_name.entry(key).or_insert_with(|| image.clone());
                assert_eq!(*first, image, "{game}: {name} differs from another game's");
                pieces += 1;
            }
        }
        assert!(pieces > 150, "{pieces}");
        assert!(by_name.len() >= 35, "{}", by_name.len());
        // Every drawing is some shipped piece's.
        for (name, _) in IMAGES {
            assert!(
                by_name.contains_key(*name),
                "{name}.svg belongs to no shipped piece"
            );
        }
    }

    #[test]
    fn names_are_found_whatever_their_spelling() {
        assert_eq!(drawn("Marshall"), drawn("marshal"));
        assert!(drawn("Marshal").is_some());
        assert_eq!(drawn(" KING "), drawn("king"));
        assert_eq!(drawn("Rhino"), drawn("Rhinoceros"));
        assert_ne!(drawn("Chancellor"), drawn("Marshal"));
        assert_eq!(drawn("Frobnicator"), None);
        assert_eq!(drawn(""), None);
    }

    #[test]
    fn every_alias_leads_to_a_drawing() {
        for (alias, to) in ALIASES {
            assert_eq!(*alias, normalise(alias));
            assert!(IMAGES.iter().any(|(n, _)| n == to), "{alias} -> {to}.svg");
            assert!(
                IMAGES.iter().all(|(n, _)| n != alias),
                "{alias} is a drawing's own name"
            );
        }
        let mut spellings: Vec<&str> = ALIASES.iter().map(|a| a.0).collect();
        spellings.sort_unstable();
        spellings.dedup();
        assert_eq!(spellings.len(), ALIASES.len(), "an alias given twice");
    }

    /// Chu Shogi's pieces, by the names its variant file gives them, and the drawing each
    /// shows: its own, or that of the drawn piece it is (the Drunk Elephant is the Elephant,
    /// the Free King the Queen) or moves as and is named after (`Rook (promoted Gold)`).
    const CHU_SHOGI: &[(&str, &str)] = &[
        ("Lance", "lance"),
        ("Ferocious Leopard", "ferociousleopard"),
        ("Copper General", "copper"),
        ("Silver General", "khon"),
        ("Gold General", "gold"),
        ("King", "king"),
        ("Drunk Elephant", "elephant"),
        ("Reverse Chariot", "reversechariot"),
        ("Bishop", "bishop"),
        ("Blind Tiger", "blindtiger"),
        ("Kirin", "kirin"),
        ("Phoenix", "phoenix"),
        ("Side Mover", "sidemover"),
        ("Vertical Mover", "verticalmover"),
        ("Rook", "rook"),
        ("Dragon Horse", "dragonhorse"),
        ("Dragon King", "dragonking"),
        ("Free King", "queen"),
        ("Lion", "lion"),
        ("Pawn", "pawn"),
        ("Go-Between", "gobetween"),
        ("White Horse", "whitehorse"),
        ("Whale", "whale"),
        ("Flying Stag", "flyingstag"),
        ("Free Boar", "freeboar"),
        ("Flying Ox", "flyingox"),
        ("Horned Falcon", "hornedfalcon"),
        ("Soaring Eagle", "eagle"),
        ("Crown Prince", "prince"),
        ("Tokin", "tokin"),
        ("Bishop (promoted Leopard)", "bishop"),
        ("Side Mover (promoted Copper)", "sidemover"),
        ("Vertical Mover (promoted Silver)", "verticalmover"),
        ("Rook (promoted Gold)", "rook"),
        ("Dragon King (promoted Rook)", "dragonking"),
        ("Dragon Horse (promoted Bishop)", "dragonhorse"),
        ("Lion (promoted Kirin)", "lion"),
        ("Free King (promoted Phoenix)", "queen"),
        ("Drunk Elephant (promoted Go-Between)", "elephant"),
    ];

    #[test]
    fn every_chu_shogi_piece_shows_its_drawing() {
        assert_eq!(CHU_SHOGI.len(), 39);
        let symbols: Vec<String> = (0..CHU_SHOGI.len()).map(|i| format!("S{i}")).collect();
        let named: Vec<(&str, &str)> = symbols
            .iter()
            .zip(CHU_SHOGI)
            .map(|(l, c)| (l.as_str(), c.0))
            .collect();
        assert_eq!(named.len(), CHU_SHOGI.len());
        for (&(name, file), image) in CHU_SHOGI.iter().zip(images(&named)) {
            let drawing = IMAGES
                .iter()
                .find(|(n, _)| *n == file)
                .unwrap_or_else(|| panic!("no {file}.svg"))
                .1;
            assert_eq!(
                drawn(name),
                Some(drawing),
                "{name} is not drawn as {file}.svg"
            );
            assert_eq!(image, drawing, "{name}");
        }
        // Each drawing made for the game is one of its pieces'.
        for file in [
            "blindtiger",
            "copper",
            "ferociousleopard",
            "flyingox",
            "flyingstag",
            "freeboar",
            "gobetween",
            "hornedfalcon",
            "kirin",
            "phoenix",
            "reversechariot",
            "sidemover",
            "verticalmover",
            "whale",
            "whitehorse",
        ] {
            assert!(CHU_SHOGI.iter().any(|c| c.1 == file), "{file}.svg");
        }
        // The White Horse is not the Knight (Horse), the Copper General not the Gold General.
        assert_ne!(drawn("White Horse"), drawn("Horse"));
        assert_ne!(drawn("Copper General"), drawn("Gold General"));
    }

    #[test]
    fn an_invented_piece_gets_a_generated_image() {
        let got = images(&[
            ("K", "King"),
            ("F", "Frobnicator"),
            ("Z", "Zorg"),
            ("+F", "Great Frobnicator"),
        ]);
        assert_eq!(got[0], drawn("King").unwrap());
        for (svg, letter) in [(&got[1], "F"), (&got[2], "Z"), (&got[3], "+F")] {
            well_formed(svg).unwrap();
            assert!(svg.contains(&format!(">{letter}</text>")), "{svg}");
            assert!(svg.contains(r#"viewBox="0 0 100 100""#));
            assert!(IMAGES.iter().all(|(_, d)| d != svg));
        }
        // Two invented pieces of one game take different shapes.
        assert_ne!(got[1].replace(">F<", ""), got[2].replace(">Z<", ""));
    }
}
