//! Named zones of squares, declared once in a variant file and used by its pieces.
//!
//! ```toml
//! [zones]
//! palace = { files = ["d", "e", "f"], ranks = [1, 2, 3] }
//! own-half = { ranks = [1, 2, 3, 4, 5] }
//! corners = { squares = ["a1", "k1"] }
//! ```
//! A zone is written from White's side: `ranks` count from White's first rank. Black's copy is
//! its mirror image across the horizontal midline (the same files, ranks counted from Black's
//! side), so one declaration serves both sides. A zone is the squares that meet every key
//! given: `squares` (a list of square names), `files` (file letters) and `ranks` (numbers from
//! 1); at least one key is needed, and holes are never in a zone.
//!
//! Pieces use zones by name: `confined = "palace"` keeps a piece inside its side's copy (a
//! move out of it is never generated, and a ray stops at its edge), and
//! `betza-in = { far-half = "fsW" }` gives the piece another movement while it stands in a
//! zone (the first zone listed that holds it wins; elsewhere its `betza` applies).

use super::params::{Diag, Entries, Params, Val};
use crate::geometry::{Color, Geometry, Square};
use crate::moves::SquareSet;

/// A named set of squares for each side: White's as declared, Black's its mirror image.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Zone {
    /// Its name in the file.
    pub name: String,
    /// The squares, by side ([`Color::index`]).
    pub squares: [SquareSet; 2],
}

impl Zone {
    /// Whether `sq` is in `color`'s copy of the zone.
    #[inline]
    pub fn contains(&self, color: Color, sq: Square) -> bool {
        self.squares[color.index()].contains(sq)
    }
}

/// Reads the `[zones]` table of a board of `files` × `ranks` with `holes`.
pub(super) fn read(t: &Entries, g: &Geometry, diags: &mut Vec<Diag>) -> Vec<Zone> {
    let mut zones = Vec::new();
    for (name, key_span, v) in t {
        let Val::Table(entries) = &v.val else {
            diags.push(Diag {
                span: v.span.clone(),
                message: format!("zone `{name}` must be a table"),
                hint: Some(format!(
                    "e.g. `{name} = {{ files = [\"d\", \"e\", \"f\"], ranks = [1, 2, 3] }}`"
                )),
            });
            continue;
        };
        let mut p = Params::new(&format!("zones.{name}"), key_span.clone(), entries, diags);
        let squares = p.strings("squares");
        let files = p.strings("files");
        let ranks = p.get("ranks");
        let mut white = SquareSet::default();
        let mut sq_list = Vec::new();
        for (s, span) in squares.iter().flatten() {
            match g.parse_square(s) {
                Some(sq) if !g.is_hole(sq) => sq_list.push(sq),
                Some(_) => p.error(
                    span.clone(),
                    format!("`{s}` is a hole: no zone holds it"),
                    None,
                ),
                None => p.error(
                    span.clone(),
                    format!("`{s}` is not a square of this board"),
                    None,
                ),
            }
        }
        let mut file_list = Vec::new();
        for (f, span) in files.iter().flatten() {
            let mut cs = f.chars();
            match (cs.next(), cs.next()) {
                (Some(c @ 'a'..='p'), None) if ((c as u8) - b'a') < g.files => {
                    file_list.push(c as u8 - b'a')
                }
                _ => p.error(
                    span.clone(),
                    format!("`{f}` is not a file of this board"),
                    None,
                ),
            }
        }
        let rank_list = ranks
            .and_then(|r| {
                p.ranks(
                    &format!("zones.{name}.ranks"),
                    r,
                    g.ranks,
                    true,
                    "counted from White's side",
                    "ranks = [1, 2, 3]",
                )
            })
            .unwrap_or_default();
        if squares.is_none() && files.is_none() && ranks.is_none() {
            let span = p.span.clone();
            p.error(
                span,
                format!("zone `{name}` names no squares"),
                Some(
                    "give `squares`, `files` or `ranks` (a zone is the squares meeting all)".into(),
                ),
            );
        }
        p.finish();
        for sq in g.squares() {
            let ok = (squares.is_none() || sq_list.contains(&sq))
                && (files.is_none() || file_list.contains(&g.file(sq)))
                && (ranks.is_none() || rank_list.contains(&g.rank(sq)));
            if ok && !g.is_hole(sq) {
                white.insert(sq);
            }
        }
        let mut black = SquareSet::default();
        for sq in white.iter() {
            let m = g.square(g.file(sq), g.ranks - 1 - g.rank(sq));
            if !g.is_hole(m) {
                black.insert(m);
            }
        }
        zones.push(Zone {
            name: name.clone(),
            squares: [white, black],
        });
    }
    zones
}
