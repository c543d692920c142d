//! A game in its own culture, as the variant's `[display]` table asks: the traditional piece
//! sets' characters, the move list's notation (WXF for Xiangqi, `+` promotions and `*` drops
//! for Shogi) and the zones' names in words in the pieces' rule texts.

use crate::geometry::Color;
use crate::moves::{EMPTY, Move, color_of, kind_of};
use crate::position::{Position, Ruleset};
use crate::session::Played;
use crate::variant::Variant;

/// Xiangqi's characters by normalised piece name: (names, Red's, Black's).
const XIANGQI: &[(&[&str], &str, &str)] = &[
    (&["king", "general"], "帥", "將"),
    (&["advisor", "guard", "mandarin"], "仕", "士"),
    (&["elephant", "minister"], "相", "象"),
    (&["horse", "knight"], "傌", "馬"),
    (&["rook", "chariot"], "俥", "車"),
    (&["cannon", "catapult"], "炮", "砲"),
    (&["soldier", "pawn"], "兵", "卒"),
];

/// Shogi's characters by normalised piece name: (names, Sente's, Gote's).
const SHOGI: &[(&[&str], &str, &str)] = &[
    (&["king"], "玉", "王"),
    (&["rook"], "飛", "飛"),
    (&["dragonking", "dragon"], "龍", "龍"),
    (&["bishop"], "角", "角"),
    (&["dragonhorse"], "馬", "馬"),
    (&["goldgeneral", "gold"], "金", "金"),
    (&["silvergeneral", "silver"], "銀", "銀"),
    (&["promotedsilver"], "全", "全"),
    (&["knight"], "桂", "桂"),
    (&["promotedknight"], "圭", "圭"),
    (&["lance"], "香", "香"),
    (&["promotedlance"], "杏", "杏"),
    (&["pawn"], "歩", "歩"),
    (&["tokin"], "と", "と"),
];

/// A piece's name without case, spaces or hyphens (`Gold General` → `goldgeneral`).
fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The characters of piece `name` in the traditional set `set` (`xiangqi` or `shogi`), for
/// the side that moves first and the other; none for a piece the set does not know.
pub fn characters(set: &str, name: &str) -> Option<[&'static str; 2]> {
    let table = match set {
        "xiangqi" => XIANGQI,
        "shogi" => SHOGI,
        _ => return None,
    };
    let n = normalise(name);
    table
        .iter()
        .find(|(names, _, _)| names.contains(&n.as_str()))
        .map(|&(_, a, b)| [a, b])
}

/// A rule text with the zones' names (written `` `palace` ``) in the words of the variant's
/// `[display]` table (`its palace`), or else in plain words (`the palace zone`); the note
/// "(its own side's copy)" goes with a zone named in words. White and Black are called by
/// the sides' names of the `[display]` table, where it has them.
pub fn zone_words(v: &Variant, text: &str) -> String {
    let mut out = text.to_string();
    if let Some([first, second]) = &v.display.side_names {
        out = out
            .replace("White", "\u{1}")
            .replace("Black", second)
            .replace('\u{1}', first);
    }
    for z in &v.zones {
        let quoted = format!("`{}`", z.name);
        if !out.contains(&quoted) {
            continue;
        }
        match v.display.zone_words.iter().find(|(n, _)| *n == z.name) {
            Some((_, words)) => {
                out = out
                    .replace(&format!("{quoted} (its own side's copy)"), words)
                    .replace(&quoted, words);
            }
            None => out = out.replace(&quoted, &format!("the {} zone", z.name.replace('-', " "))),
        }
    }
    out
}

/// One move, played from `pos`, in the variant's notation (its `[display]` table's
/// `notation`): SAN as played, WXF, or Shogi's.
pub fn notate_move(rules: &Ruleset, pos: &Position, p: &Played) -> String {
    let text = match rules.variant.display.notation.as_deref().unwrap_or("san") {
        "wxf" => wxf(rules, pos, p.mv),
        "shogi" => shogi(rules, pos, p),
        _ => None,
    };
    text.unwrap_or_else(|| p.san.clone())
}

/// A move in WXF notation: the piece's letter, its file counted from the mover's right (or
/// `+`/`-` for the front or rear of two alike on one file), `+` forward, `-` back or `.`
/// across, and the file reached or, along a file, the points moved.
fn wxf(rules: &Ruleset, pos: &Position, m: Move) -> Option<String> {
    if m.dropped().is_some() {
        return None;
    }
    let g = rules.geometry;
    let code = pos.piece_at(m.from);
    if code == EMPTY {
        return None;
    }
    let (kind, side) = (kind_of(code), color_of(code));
    let name = normalise(&rules.variant.pieces[kind].name);
    let letter = match name.as_str() {
        "king" | "general" => "K",
        "advisor" | "guard" | "mandarin" => "A",
        "elephant" | "minister" => "E",
        "horse" | "knight" => "H",
        "rook" | "chariot" => "R",
        "cannon" | "catapult" => "C",
        "soldier" | "pawn" => "P",
        _ => rules.variant.pieces[kind].symbol.as_str(),
    };
    let files = i32::from(g.files);
    let file_no = |f: u8| -> i32 {
        match side {
            Color::White => files - i32::from(f),
            Color::Black => i32::from(f) + 1,
        }
    };
    let (ff, fr) = (g.file(m.from), i32::from(g.rank(m.from)));
    let (tf, tr) = (g.file(m.to), i32::from(g.rank(m.to)));
    let forward = if side == Color::White { 1 } else { -1 };
    let dr = (tr - fr) * forward;
    // The others alike on the file, ahead of the piece (from its side) and behind it.
    let (mut ahead, mut behind) = (0, 0);
    for r in 0..g.ranks {
        let sq = g.square(ff, r);
        if sq == m.from || g.is_hole(sq) || pos.piece_at(sq) != code {
            continue;
        }
        if (i32::from(r) - fr) * forward > 0 {
            ahead += 1;
        } else {
            behind += 1;
        }
    }
    let from = match (ahead, behind) {
        (0, 0) => file_no(ff).to_string(),
        (0, _) => "+".into(),
        (_, 0) => "-".into(),
        _ => file_no(ff).to_string(),
    };
    let (dir, to) = match dr.signum() {
        0 => ('.', file_no(tf)),
        s => (
            if s > 0 { '+' } else { '-' },
            if ff == tf { dr.abs() } else { file_no(tf) },
        ),
    };
    Some(format!("{letter}{from}{dir}{to}"))
}

/// A move as Shogi players write it in Western letters: the piece's letter (a promoted
/// piece's as `+` and the letter of the piece it was), the square it came from where two
/// alike could go there, `x` for a capture (`-` otherwise), the square reached, and `+` for
/// a promotion; a drop is `P*e5`. No check marks.
fn shogi(rules: &Ruleset, pos: &Position, p: &Played) -> Option<String> {
    let v = &rules.variant;
    let g = rules.geometry;
    let to = g.name(p.mv.to).to_string();
    if let Some(k) = p.mv.dropped() {
        return Some(format!("{}*{to}", v.pieces[k].symbol));
    }
    let code = pos.piece_at(p.mv.from);
    if code == EMPTY {
        return None;
    }
    let kind = kind_of(code);
    let letter = v.fen_symbol(kind, Color::White);
    // The SAN names the square or file it came from where it must: so do we, by the square.
    let body = p.san.trim_end_matches(['+', '#']);
    let body = body.split('=').next().unwrap_or(body);
    let plain = body.trim_start_matches(|c: char| c.is_ascii_uppercase() || c == '+' || c == '\'');
    let ambiguous = plain.len() > to.len() + usize::from(p.capture)
        && !v.pieces[kind].name.eq_ignore_ascii_case("pawn");
    let from = if ambiguous {
        g.name(p.mv.from).to_string()
    } else {
        String::new()
    };
    let sep = if p.capture { 'x' } else { '-' };
    let promo = if p.mv.promotion().is_some() { "+" } else { "" };
    Some(format!("{letter}{from}{sep}{to}{promo}"))
}
