//! Moves and boards as text: coordinate notation and board drawings.

use crate::geometry::Color;
use crate::moves::{Move, color_of};
use crate::position::Position;
use crate::ruleset::Ruleset;

/// `e2e4`, `a10a12`, promotions `e7e8q` (the promoted piece's letter in lower case).
pub fn coord(rules: &Ruleset, mv: Move) -> String {
    let g = rules.geometry;
    let mut s = format!("{}{}", g.name(mv.from), g.name(mv.to));
    if let Some(k) = mv.promotion() {
        s.push(rules.variant.pieces[k].letter.to_ascii_lowercase());
    }
    s
}

/// Draws the board with coordinates, White at the bottom. `last` marks a move's squares.
pub fn draw(pos: &Position, last: Option<Move>, ascii: bool) -> String {
    let rs = pos.rules();
    let g = rs.geometry;
    let mut out = String::new();
    for r in (0..g.ranks).rev() {
        out.push_str(&format!("{:>3} ", r + 1));
        for f in 0..g.files {
            let sq = g.square(f, r);
            let c = pos.piece_at(sq);
            let marked = last.is_some_and(|m| m.from == sq || m.to == sq);
            let ch = if c == 0 { '.' } else { rs.letter(c) };
            if ascii {
                out.push(if marked { '[' } else { ' ' });
                out.push(ch);
                out.push(if marked { ']' } else { ' ' });
            } else {
                let dark = (f + r) % 2 == 0;
                let bg = if marked {
                    "43"
                } else if dark {
                    "100"
                } else {
                    "47"
                };
                let fg = if c == 0 {
                    "90"
                } else if color_of(c) == Color::White {
                    "97;1"
                } else {
                    "30;1"
                };
                // Black keeps lower case, so the board reads without colour too.
                out.push_str(&format!("\x1b[{bg};{fg}m {ch} \x1b[0m"));
            }
        }
        out.push('\n');
    }
    out.push_str("    ");
    for f in 0..g.files {
        out.push_str(&format!(" {} ", crate::geometry::Geometry::file_char(f)));
    }
    out.push('\n');
    out
}
