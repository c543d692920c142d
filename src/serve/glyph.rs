//! Piece images for the page.
//!
//! The six FIDE pieces (by name) are drawn with the familiar chess glyphs. Every other piece
//! gets a generated image: one of [`SHAPES`] outlines, chosen from its name so that the same
//! piece looks the same in every variant, with its name inside (its letter, or for a piece
//! without one its name: `+P`, `N'`), so that no two pieces of a variant look alike even when
//! their shapes coincide. The page turns this description into
//! SVG; [`shape_svg`] writes the same figure as SVG markup, the image
//! [`super::pieces`] gives a piece that has no drawing.

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

/// The outline of a generated glyph as SVG (the same figures `web/app.js` draws), in a
/// 100 x 100 box.
fn outline(shape: &str) -> String {
    let poly = |n: usize, r: f64, rot: f64, inner: Option<f64>| -> String {
        let k = if inner.is_some() { 2 * n } else { n };
        let points: Vec<String> = (0..k)
            .map(|i| {
                let a = rot + (i as f64 * 2.0 * std::f64::consts::PI) / k as f64;
                let rr = match inner {
                    Some(inner) if i % 2 == 1 => inner,
                    _ => r,
                };
                format!("{:.1},{:.1}", 50.0 + rr * a.sin(), 52.0 - rr * a.cos())
            })
            .collect();
        format!(r#"<polygon points="{}"/>"#, points.join(" "))
    };
    match shape {
        "circle" => r#"<circle cx="50" cy="52" r="40"/>"#.to_owned(),
        "hexagon" => poly(6, 44.0, 0.0, None),
        "shield" => r#"<path d="M14 12 H86 V48 Q86 80 50 95 Q14 80 14 48 Z"/>"#.to_owned(),
        "diamond" => poly(4, 47.0, 0.0, None),
        "octagon" => poly(8, 44.0, std::f64::consts::PI / 8.0, None),
        "star" => poly(10, 47.0, 0.0, Some(36.0)),
        "drop" => r#"<path d="M50 5 C72 32 90 48 90 66 A40 30 0 0 1 10 66 C10 48 28 32 50 5 Z"/>"#
            .to_owned(),
        _ => r#"<rect x="10" y="12" width="80" height="80" rx="14"/>"#.to_owned(),
    }
}

/// A generated image as SVG markup: the outline `shape` (one of [`SHAPES`]) in the piece's
/// colour (`currentColor`) with `label` (a piece's name, `E` or `+P`) inside, drawn like the
/// drawn images in `web/pieces/` (outline and letter in `var(--piece-line, #000)`).
pub fn shape_svg(shape: &str, label: &str) -> String {
    // A prime (`N'`) is written as XML's entity; other markup characters never reach it.
    let label: String = label
        .chars()
        .map(|c| match c {
            '<' | '>' | '&' | '"' => "?".to_string(),
            '\'' => "&apos;".to_string(),
            c => c.to_string(),
        })
        .collect();
    format!(
        concat!(
            r#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">"#,
            r#"<g fill="currentColor" stroke="var(--piece-line, #000)" stroke-width="3" stroke-linejoin="round">{}</g>"#,
            r#"<text x="50" y="54" text-anchor="middle" dominant-baseline="central" font-family="sans-serif" font-weight="bold" font-size="44" fill="var(--piece-line, #000)">{}</text>"#,
            "</svg>\n"
        ),
        outline(shape),
        label
    )
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

/// How the page draws each piece of a variant (given as its name in texts, `E` or `+P`, and
/// its name in words):
/// `{"kind": "fide", "char": "♚"}` or `{"kind": "shape", "shape": "hexagon", "label": "E"}`.
/// A generated piece takes the shape its name picks unless another piece of the variant has
/// it already; then the next free shape (shapes repeat only after all eight are in use).
pub fn glyphs(pieces: &[(&str, &str)]) -> Vec<Value> {
    let mut used = [0usize; SHAPES.len()];
    pieces
        .iter()
        .map(|&(letter, name)| match fide_glyph(name) {
            Some(c) => json!({"kind": "fide", "char": c.to_string(), "label": letter}),
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
                json!({"kind": "shape", "shape": SHAPES[i], "label": letter})
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
            ("K", "King"),
            ("E", "Eagle"),
            ("L", "Lion"),
            ("C", "Cannon"),
            ("+C", "Great Cannon"),
        ]);
        assert_eq!(gs[0]["kind"], "fide");
        assert_eq!(gs[1]["kind"], "shape");
        assert_eq!(gs[1]["label"], "E");
        assert_eq!(gs[4]["label"], "+C");
        // Four generated pieces, four different shapes.
        let shapes: std::collections::HashSet<&str> = gs[1..]
            .iter()
            .map(|g| g["shape"].as_str().unwrap())
            .collect();
        assert_eq!(shapes.len(), 4);
    }

    #[test]
    fn a_generated_image_has_its_shape_and_letter() {
        let svg = shape_svg("hexagon", "X");
        assert!(svg.contains("<polygon points="), "{svg}");
        assert!(svg.contains(">X</text>"), "{svg}");
        assert!(svg.contains(r#"fill="currentColor""#));
        assert!(shape_svg("circle", "Y").contains("<circle"));
        // A piece without a letter of its own: its whole name.
        assert!(shape_svg("circle", "+P").contains(">+P</text>"));
        // Markup characters never reach the image; a prime is written as its entity.
        assert!(shape_svg("star", "<").contains(">?</text>"));
        assert!(shape_svg("star", "N'").contains(">N&apos;</text>"));
    }
}
