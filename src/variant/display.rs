//! How the browser page draws a variant's board: the `[display]` table. Nothing in it changes
//! the rules.
//!
//! ```toml
//! [display]
//! points = true            # pieces stand on the points where lines cross, not in squares
//! diagonals = ["palace"]   # zones whose copies get both diagonals drawn across them
//! river = 5                # a river between ranks 5 and 6 (counted from White's side)
//! side-names = ["Red", "Black"]  # the side that moves first (upper case), then the other
//! board = "plain"          # "checkered" (the default) or "plain": every square one colour
//! pieces = "xiangqi"       # the page's piece set: "western" (the default), "xiangqi", "shogi"
//! notation = "wxf"         # how the move list writes moves: "san" (the default), "wxf", "shogi"
//! zones = { palace = "its palace" }  # a zone's name in the pieces' rule texts
//! ```
//! `diagonals` names zones of `[zones]`; each side's copy of such a zone must be a rectangle of
//! squares, and the page joins its opposite corners (on a board of points, the corner points;
//! on a board of squares, the corners of the corner squares). `river` is a rank from 1 to one
//! less than the board's ranks: on a board of points the lines that cross the board's inside
//! files stop at the river's banks; on a board of squares a band marks it.

use super::Variant;
use super::params::{Diag, Entries, Params, Span};

/// The piece sets and notations a `[display]` table may name.
const PIECE_SETS: [&str; 3] = ["western", "xiangqi", "shogi"];
/// The notations of the move list (`san`, `wxf`, `shogi`).
const NOTATIONS: [&str; 3] = ["san", "wxf", "shogi"];

/// What the page draws besides the squares and pieces, and the game's own words for it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Display {
    /// Pieces stand on the points where lines cross (Xiangqi), not in checkered squares.
    pub points: bool,
    /// Rectangles that get both diagonals: (first file, first rank, last file, last rank),
    /// from 0, the last inclusive; one for each side's copy of each zone named.
    pub diagonals: Vec<[u8; 4]>,
    /// A river between this rank (from 1) and the next.
    pub river: Option<u8>,
    /// The sides' names, the side that moves first (upper case) first; none: White and Black.
    pub side_names: Option<[String; 2]>,
    /// Every square one colour (Shogi's board), not checkered.
    pub plain: bool,
    /// The page's piece set (`western`, `xiangqi` or `shogi`); none: Western.
    pub pieces: Option<String>,
    /// How the move list writes moves (`san`, `wxf` or `shogi`); none: SAN.
    pub notation: Option<String>,
    /// Zone names in words, for the pieces' rule texts: (zone, words).
    pub zone_words: Vec<(String, String)>,
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
    if let Some(names) = p.strings("side-names") {
        match <[(String, Span); 2]>::try_from(names) {
            Ok([(a, _), (b, _)]) if !a.is_empty() && !b.is_empty() => d.side_names = Some([a, b]),
            _ => {
                let span = p.span.clone();
                p.error(span, "`display.side-names` takes two names", None)
            }
        }
    }
    if let Some((board, span)) = p.string("board") {
        match board.as_str() {
            "checkered" => {}
            "plain" => d.plain = true,
            _ => p.error(span, "`display.board` is \"checkered\" or \"plain\"", None),
        }
    }
    for (key, known, out) in [
        ("pieces", &PIECE_SETS, &mut d.pieces),
        ("notation", &NOTATIONS, &mut d.notation),
    ] {
        if let Some((name, span)) = p.string(key) {
            if known.contains(&name.as_str()) {
                *out = Some(name);
            } else {
                p.error(
                    span,
                    format!("`display.{key}`: no such choice `{name}`"),
                    Some(format!("one of {}", known.join(", "))),
                );
            }
        }
    }
    if let Some((t, _)) = p.table("zones") {
        for (name, span, v) in t {
            match &v.val {
                super::params::Val::Str(w) if variant.zones.iter().any(|z| &z.name == name) => {
                    d.zone_words.push((name.clone(), w.clone()))
                }
                super::params::Val::Str(_) => p.error(
                    span.clone(),
                    format!("`display.zones`: no zone is named `{name}`"),
                    None,
                ),
                _ => p.error(
                    v.span.clone(),
                    format!("`display.zones.{name}` must be a string"),
                    None,
                ),
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
