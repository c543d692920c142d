//! How the browser page draws a variant's board: the `[display]` table. Nothing in it changes
//! the rules.
//!
//! ```toml
//! [display]
//! points = true            # pieces stand on the points where lines cross, not in squares
//! diagonals = ["palace"]   # zones whose copies get both diagonals drawn across them
//! river = 5                # a river between ranks 5 and 6 (counted from White's side)
//! ```
//! `diagonals` names zones of `[zones]`; each side's copy of such a zone must be a rectangle of
//! squares, and the page joins its opposite corners (on a board of points, the corner points;
//! on a board of squares, the corners of the corner squares). `river` is a rank from 1 to one
//! less than the board's ranks: on a board of points the lines that cross the board's inside
//! files stop at the river's banks; on a board of squares a band marks it.

use super::Variant;
use super::params::{Diag, Entries, Params, Span};

/// What the page draws besides the squares and pieces.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Display {
    /// Pieces stand on the points where lines cross (Xiangqi), not in checkered squares.
    pub points: bool,
    /// Rectangles that get both diagonals: (first file, first rank, last file, last rank),
    /// from 0, the last inclusive; one for each side's copy of each zone named.
    pub diagonals: Vec<[u8; 4]>,
    /// A river between this rank (from 1) and the next.
    pub river: Option<u8>,
}

/// Reads the `[display]` table of `variant` (whose zones are read).
pub(super) fn read(t: &Entries, span: Span, variant: &Variant, diags: &mut Vec<Diag>) -> Display {
    let mut p = Params::new("display", span, t, diags);
    let mut d = Display {
        points: p.boolean("points").unwrap_or(false),
        ..Display::default()
    };
    let ranks = variant.ranks;
    if let Some(r) = p.get("river") {
        let span = r.span.clone();
        match p.int("river", 1, i64::from(ranks) - 1) {
            Some(n) => d.river = Some(n as u8),
            None if ranks < 2 => p.error(span, "a board of one rank has no river", None),
            None => {}
        }
    }
    for (name, span) in p.strings("diagonals").into_iter().flatten() {
        let Some(zone) = variant.zones.iter().find(|z| z.name == name) else {
            let known: Vec<&str> = variant.zones.iter().map(|z| z.name.as_str()).collect();
            p.error(
                span,
                format!("`display.diagonals`: no zone is named `{name}`"),
                Some(if known.is_empty() {
                    "declare it in `[zones]`".into()
                } else {
                    format!("the zones: {}", known.join(", "))
                }),
            );
            continue;
        };
        for set in &zone.squares {
            match rectangle(variant, set.iter().collect()) {
                Some(r) if !d.diagonals.contains(&r) => d.diagonals.push(r),
                Some(_) => {}
                None => {
                    p.error(
                        span.clone(),
                        format!("`display.diagonals`: zone `{name}` is not a rectangle of squares"),
                        Some("diagonals join the corners of a rectangle such as d1-f3".into()),
                    );
                    break;
                }
            }
        }
    }
    p.finish();
    d
}

/// The corners of `squares` when they fill a rectangle.
fn rectangle(v: &Variant, squares: Vec<crate::geometry::Square>) -> Option<[u8; 4]> {
    let files = usize::from(v.files.max(1));
    let coords: Vec<(u8, u8)> = squares
        .iter()
        .map(|&s| ((s.index() % files) as u8, (s.index() / files) as u8))
        .collect();
    let f0 = coords.iter().map(|c| c.0).min()?;
    let f1 = coords.iter().map(|c| c.0).max()?;
    let r0 = coords.iter().map(|c| c.1).min()?;
    let r1 = coords.iter().map(|c| c.1).max()?;
    let area = usize::from(f1 - f0 + 1) * usize::from(r1 - r0 + 1);
    (area == coords.len()).then_some([f0, r0, f1, r1])
}
