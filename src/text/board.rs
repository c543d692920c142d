//! Board drawings.

use crate::geometry::Color;
use crate::moves::{Move, color_of};
use crate::position::Position;

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
