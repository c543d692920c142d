//! The board drawn in a terminal: one text line per rank and one for the file letters, with
//! optional lines of text (a legend, say) to the right of the ranks.
//!
//! **Colours.** Every square sets both its background and its letter's colour, so the board
//! reads the same on dark and on light terminals: cream and tan squares, White's pieces in
//! bold dark blue (upper case), Black's in bold dark red (lower case), the last move's squares
//! in pale yellow. Each pair has a contrast ratio of at least 4.5:1 (the WCAG threshold for
//! text; checked by a test below). Without colour (`--ascii`, `NO_COLOR`, not a terminal)
//! pieces are plain letters, empty squares dots, and the last move's squares are bracketed.
//!
//! **Names wider than a letter.** A square shows its piece's name ([`PieceDef::symbol`]), a
//! letter. In a variant with pieces that have no letter of their own, written `+X` (the
//! promoted form of the piece `X`) or `N'` (a letter and a prime), every square is one
//! character wider for the `+` before a letter, one for the prime after it, or two for both,
//! and each name stands with its letter in the same column: ` +P `, `  P `, `  . `, `[+P]`;
//! `  N' `, `  N  `; ` +N' `, `  .  `; so that the files stay in columns and the letters of
//! `P`, `+P` and `N'` line up.
//!
//! [`PieceDef::symbol`]: crate::variant::PieceDef::symbol

use crate::geometry::{Color, Geometry};
use crate::moves::{EMPTY, Move, color_of};
use crate::position::Position;
use crate::position::Ruleset;

/// How to draw.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Plain ASCII, no escape sequences.
    pub ascii: bool,
    /// Turned round: Black's side at the bottom (the first rank at the top, the files from
    /// right to left), as the player of Black sees the board.
    pub flipped: bool,
}

/// 256-colour palette indices used by the board, with their sRGB values for the contrast test.
pub const LIGHT_SQUARE: (u8, [u8; 3]) = (230, [0xff, 0xff, 0xd7]);
/// Palette index and colour of the dark squares.
pub const DARK_SQUARE: (u8, [u8; 3]) = (180, [0xd7, 0xaf, 0x87]);
/// Of the squares of the last move.
pub const LAST_MOVE: (u8, [u8; 3]) = (186, [0xd7, 0xd7, 0x87]);
/// Of White's pieces.
pub const WHITE_PIECE: (u8, [u8; 3]) = (18, [0x00, 0x00, 0x87]);
/// Of Black's pieces.
pub const BLACK_PIECE: (u8, [u8; 3]) = (88, [0x87, 0x00, 0x00]);
/// The dot of an empty square.
pub const EMPTY_DOT: (u8, [u8; 3]) = (101, [0x87, 0x87, 0x5f]);

/// The WCAG contrast ratio of two sRGB colours (1 to 21).
pub fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    fn lum(c: [u8; 3]) -> f64 {
        let ch = |v: u8| {
            let s = v as f64 / 255.0;
            if s <= 0.03928 {
                s / 12.92
            } else {
                ((s + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * ch(c[0]) + 0.7152 * ch(c[1]) + 0.0722 * ch(c[2])
    }
    let (la, lb) = (lum(a), lum(b));
    (la.max(lb) + 0.05) / (la.min(lb) + 0.05)
}

/// The board of `pos`, `side` lines printed to the right of the ranks (top first), the last
/// move marked. Ends with a newline.
pub fn render(pos: &Position, last: Option<Move>, style: Style, side: &[String]) -> String {
    let rs = pos.rules();
    let g = rs.geometry;
    let nw = name_width(rs);
    let layout = Layout::of(rs);
    let mut out = String::new();
    let ranks: Vec<u8> = if style.flipped {
        (0..g.ranks).collect()
    } else {
        (0..g.ranks).rev().collect()
    };
    let files: Vec<u8> = if style.flipped {
        (0..g.files).rev().collect()
    } else {
        (0..g.files).collect()
    };
    for (row, &r) in ranks.iter().enumerate() {
        out.push_str(&format!("{:>3} ", r + 1));
        for &f in &files {
            let sq = g.square(f, r);
            if g.is_hole(sq) {
                // A square that does not exist: left blank, without a square's colour.
                out.push_str(&" ".repeat(nw + 2));
                continue;
            }
            let c = pos.piece_at(sq);
            let marked = last.is_some_and(|m| m.from == sq || m.to == sq);
            let name = if c == EMPTY {
                ".".to_string()
            } else {
                rs.symbol(c)
            };
            if style.ascii {
                out.push(if marked { '[' } else { ' ' });
                out.push_str(&layout.pad(&name));
                out.push(if marked { ']' } else { ' ' });
            } else {
                let bg = if marked {
                    LAST_MOVE.0
                } else if (f + r) % 2 == 0 {
                    DARK_SQUARE.0
                } else {
                    LIGHT_SQUARE.0
                };
                let fg = if c == EMPTY {
                    EMPTY_DOT.0
                } else if color_of(c) == Color::White {
                    WHITE_PIECE.0
                } else {
                    BLACK_PIECE.0
                };
                let shown = layout.pad(if c == EMPTY { " " } else { name.as_str() });
                out.push_str(&format!("\x1b[48;5;{bg};38;5;{fg};1m {shown} \x1b[0m"));
            }
        }
        if let Some(s) = side.get(row) {
            out.push_str("  ");
            out.push_str(s);
        }
        out.push('\n');
    }
    out.push_str("    ");
    for &f in &files {
        out.push_str(&format!(
            " {} ",
            layout.pad(&Geometry::file_char(f).to_string())
        ));
    }
    if let Some(s) = side.get(g.ranks as usize) {
        out.push_str("  ");
        out.push_str(s);
    }
    out.push('\n');
    if rs.has_hands() {
        // Pieces in hand, under the board: `in hand: White QP, Black -`.
        let hand = |color: Color| -> String {
            let letters: String = (0..rs.variant.pieces.len())
                .rev()
                .map(|k| {
                    let n = pos.hand(color, k) as usize;
                    rs.symbol(crate::moves::code(k, color)).repeat(n)
                })
                .collect();
            if letters.is_empty() {
                "-".into()
            } else {
                letters
            }
        };
        out.push_str(&format!(
            "    in hand: White {}, Black {}\n",
            hand(Color::White),
            hand(Color::Black)
        ));
    }
    out
}

/// How many characters a square gives its piece's name: 1; 2 in a variant with pieces
/// written `+X` or `N'`; 3 in one with both, or with a piece written `+N'`.
pub fn name_width(rs: &Ruleset) -> usize {
    let l = Layout::of(rs);
    l.lead + 1 + l.tail
}

/// Where a square's name stands: room for a `+` before the letter (`lead`) and for a prime
/// after it (`tail`), each 0 or 1, as the variant's names need.
#[derive(Clone, Copy, Debug)]
struct Layout {
    lead: usize,
    tail: usize,
}

impl Layout {
    fn of(rs: &Ruleset) -> Layout {
        let names = || rs.variant.pieces.iter().map(|p| p.symbol.as_str());
        Layout {
            lead: usize::from(names().any(|n| n.starts_with('+'))),
            tail: usize::from(names().any(|n| n.ends_with('\''))),
        }
    }

    /// `name` (a piece's, `.`, a file letter) padded to [`name_width`], its letter in the
    /// letters' column.
    fn pad(self, name: &str) -> String {
        let before = self.lead.saturating_sub(usize::from(name.starts_with('+')));
        let after = self.tail.saturating_sub(usize::from(name.ends_with('\'')));
        format!("{}{name}{}", " ".repeat(before), " ".repeat(after))
    }
}

/// The width in columns of a rendered rank (without side text).
pub fn width(rs: &Ruleset) -> usize {
    4 + (name_width(rs) + 2) * rs.geometry.files as usize
}

/// A legend of the pieces' letters and names in columns, at most `lines` lines and `cols`
/// columns wide; `None` when it does not fit.
pub fn legend(rs: &Ruleset, lines: usize, cols: usize) -> Option<Vec<String>> {
    let items = rs.variant.piece_names();
    let w = items.iter().map(|s| s.chars().count()).max().unwrap_or(0) + 1;
    if lines == 0 {
        return None;
    }
    let ncols = items.len().div_ceil(lines);
    if ncols * w > cols {
        return None;
    }
    let nlines = items.len().div_ceil(ncols.max(1));
    let mut out = vec![String::new(); nlines];
    for (i, it) in items.iter().enumerate() {
        let line = &mut out[i % nlines];
        line.push_str(&format!("{it:w$}"));
    }
    Some(out.into_iter().map(|l| l.trim_end().to_string()).collect())
}

/// `text` broken into lines of at most `width` characters (a longer word stands alone), each
/// starting with `indent`.
pub fn wrap(text: &str, indent: &str, width: usize) -> String {
    let mut out = String::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && indent.len() + line.len() + 1 + word.len() > width {
            out.push_str(&format!("{indent}{line}\n"));
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        out.push_str(&format!("{indent}{line}\n"));
    }
    out
}

/// Per piece: a line with its name as written (`P`, `+P`), its name, movement in XBetza and
/// what it promotes to, then its movement in words, indented.
pub fn pieces_text(rs: &Ruleset) -> String {
    let mut out = String::new();
    let nw = name_width(rs);
    for (kind, p) in rs.variant.pieces.iter().enumerate() {
        out.push_str(&format!(
            "  {:<nw$}  {:<12} {}",
            p.symbol, p.name, p.betza_text
        ));
        if p.royal {
            out.push_str("  (royal)");
        }
        if !p.promotes_to.is_empty() {
            let to: String = p
                .promotes_to
                .iter()
                .map(|&k| rs.variant.pieces[k].symbol.as_str())
                .collect();
            out.push_str(&format!("  promotes to {to}"));
        }
        out.push('\n');
        out.push_str(&wrap(&rs.variant.piece_words(kind), "       ", 80));
    }
    out
}

/// Per rule of the game: its name, then its explanation ([`crate::position::hooks::Rule::explain`]),
/// indented.
pub fn rules_text(rs: &Ruleset) -> String {
    let mut out = String::new();
    for h in rs.compiled_rules() {
        out.push_str(&format!("  {}\n", h.name()));
        out.push_str(&wrap(&h.explain(rs), "       ", 80));
    }
    if out.is_empty() {
        out.push_str("  No special rules: the pieces move as listed by `pieces`.\n");
    }
    out
}

/// The board alone, with nothing beside it: [`render`] without side lines.
pub fn draw(pos: &Position, last: Option<Move>, ascii: bool) -> String {
    render(
        pos,
        last,
        Style {
            ascii,
            flipped: false,
        },
        &[],
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_colour_pair_reads_at_wcag_contrast() {
        for bg in [LIGHT_SQUARE, DARK_SQUARE, LAST_MOVE] {
            for fg in [WHITE_PIECE, BLACK_PIECE] {
                let c = contrast(fg.1, bg.1);
                assert!(c >= 4.5, "{} on {}: {c:.2}", fg.0, bg.0);
            }
        }
        // The formula: black on white is 21:1.
        assert!((contrast([0, 0, 0], [255, 255, 255]) - 21.0).abs() < 1e-9);
    }

    #[test]
    fn the_two_colours_of_pieces_differ_in_hue() {
        assert!(WHITE_PIECE.1[2] > WHITE_PIECE.1[0]);
        assert!(BLACK_PIECE.1[0] > BLACK_PIECE.1[2]);
    }
}
