//! Piece images for the page.
//!
//! The six FIDE pieces (by name) are drawn with the familiar chess glyphs. Every other piece
//! gets a generated image: one of [`SHAPES`] outlines, chosen from its name so that the same
//! piece looks the same in every variant, with its letter inside, so that no two pieces of a
//! variant look alike even when their shapes coincide. The page turns this description into
//! SVG.

use serde_json::{Value, json};

/// The outlines of generated glyphs (drawn by `web/app.js`).
pub const SHAPES: [&str; 8] = [
    "circle", "hexagon", "shield", "diamond", "octagon", "star", "drop", "square",
];

/// The familiar glyph (the filled form) of a FIDE piece, by its name.
pub fn fide_glyph(name: &str) -> Option<char> {
    Some(match name.to_ascii_lowercase().as_str() {
        "king" => '\u{265A}',
        "queen" => '\u{265B}',
        "rook" => '\u{265C}',
        "bishop" => '\u{265D}',
        "knight" => '\u{265E}',
        "pawn" => '\u{265F}',
        _ => return None,
    })
}

/// The shape of a generated glyph: a hash of the name picks it (FNV-1a).
pub fn shape_of(name: &str) -> &'static str {
    let mut h: u32 = 0x811C_9DC5;
    for b in name.to_ascii_lowercase().bytes() {
        h ^= u32::from(b);
        h = h.wrapping_mul(0x0100_0193);
    }
    SHAPES[(h % SHAPES.len() as u32) as usize]
}

/// How the page draws each piece of a variant (given as letter and name):
/// `{"kind": "fide", "char": "♚"}` or `{"kind": "shape", "shape": "hexagon", "label": "E"}`.
/// A generated piece takes the shape its name picks unless another piece of the variant has
/// it already; then the next free shape (shapes repeat only after all eight are in use).
pub fn glyphs(pieces: &[(char, &str)]) -> Vec<Value> {
    let mut used = [0usize; SHAPES.len()];
    pieces
        .iter()
        .map(|&(letter, name)| match fide_glyph(name) {
            Some(c) => json!({"kind": "fide", "char": c.to_string(), "label": letter.to_string()}),
            None => {
                let want = SHAPES
                    .iter()
                    .position(|&s| s == shape_of(name))
                    .unwrap_or(0);
                let least = *used.iter().min().unwrap_or(&0);
                let i = (0..SHAPES.len())
                    .map(|d| (want + d) % SHAPES.len())
                    .find(|&i| used[i] == least)
                    .unwrap_or(want);
                used[i] += 1;
                json!({"kind": "shape", "shape": SHAPES[i], "label": letter.to_string()})
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fide_pieces_get_their_glyphs_and_others_a_shape() {
        assert_eq!(fide_glyph("Knight"), Some('♞'));
        assert_eq!(fide_glyph("Eagle"), None);
        let gs = glyphs(&[
            ('K', "King"),
            ('E', "Eagle"),
            ('L', "Lion"),
            ('C', "Cannon"),
        ]);
        assert_eq!(gs[0]["kind"], "fide");
        assert_eq!(gs[1]["kind"], "shape");
        assert_eq!(gs[1]["label"], "E");
        // Three generated pieces, three different shapes.
        let shapes: std::collections::HashSet<&str> = gs[1..]
            .iter()
            .map(|g| g["shape"].as_str().unwrap())
            .collect();
        assert_eq!(shapes.len(), 3);
    }
}
